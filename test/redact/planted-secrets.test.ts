// The planted-secret matrix (issue 10): every shape in test/helpers/secrets.ts through each door
// text enters the archive by (capture, ingest over HTTP, harbor import); then every stored byte
// (bundle entries and names, blobs, the SQLite file and its WAL, API answers) is searched for every
// secret. 0 leaked, and the evidence around the secrets is still there.
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { openArchive } from '../../src/archive/index.js';
import { importJob } from '../../src/harbor/import.js';
import { scanJob } from '../../src/harbor/job.js';
import { AGENT, baseEnv, bundlesIn, rawBundleText, run, tempDirs } from '../capture/helpers.js';
import { manifestFor, tarBlocks, type RawEntry } from '../helpers/hostile.js';
import { sharedStoreText, storageFor } from '../helpers/backends.js';
import { folderText, leaksIn, PLANTED, type PlantedSecret } from '../helpers/secrets.js';
import { gzipSync } from 'node:zlib';

const newDir = tempDirs();
const logText = PLANTED.filter((s) => s.log).map((s) => s.log).join('\n') + '\nRuntimeError: CUDA error: an illegal memory access was encountered\n';
const env = Object.assign({}, ...PLANTED.map((s) => s.env ?? {})) as Record<string, string>;
const argvSecrets = PLANTED.filter((s) => s.argv).flatMap((s) => s.argv!.slice(2));
const fileShapes = PLANTED.filter((s) => s.file);
const logNameShape = PLANTED.find((s) => s.logName)!;

function expectNoLeak(where: string, text: string, shapes: readonly PlantedSecret[] = PLANTED) {
  expect(leaksIn(text, shapes), where).toEqual([]);
}

describe('planted secrets: capture', () => {
  it('a failed run with every shape in its argv, env, logs, W&B folder, configs and log names stores none of them', async () => {
    const d = newDir();
    for (const s of fileShapes) {
      mkdirSync(dirname(join(d, s.file!.path)), { recursive: true });
      writeFileSync(join(d, s.file!.path), s.file!.content);
    }
    writeFileSync(join(d, 'train.log'), logText);
    writeFileSync(join(d, logNameShape.logName!), 'step 1 loss 0.5\n');
    writeFileSync(join(d, 'fail.js'), `process.stdout.write(${JSON.stringify(logText)}); process.stderr.write('key ' + process.env.WANDB_APIKEY + '\\n'); process.exit(3);`);
    const configs = fileShapes.filter((s) => !s.file!.path.startsWith('wandb/')).flatMap((s) => ['--config', s.file!.path]);
    const r = await run(AGENT, ['capture', '--out', 'out', '--log', 'train.log', '--log', logNameShape.logName!, ...configs, '--', process.execPath, 'fail.js', ...argvSecrets], {
      cwd: d,
      env: baseEnv(d, env),
    });
    expect(r.code).toBe(3);
    const [bundle] = bundlesIn(join(d, 'out'));
    expect(bundle, r.stderr).toBeTruthy();
    const raw = rawBundleText(bundle);
    expectNoLeak('bundle', raw);
    // what the red team saw leak is now captured, redacted, not dropped
    expect(raw).toContain('config/wandb/config.yaml');
    expect(raw).toContain('config/wandb/wandb-metadata.json');
    expect(raw).toContain('illegal memory access');
    expect(raw).toMatch(/logs\/run-\[REDACTED\]\.log/);
    expect(raw).toContain('--password');
  });
});

/** A hand-made bundle holding every shape, as an old or foreign agent might send it. */
function plantedBundle(): Buffer {
  const files: { path: string; data: string }[] = [
    { path: 'logs/stdout.log', data: logText },
    { path: `logs/${logNameShape.logName}`, data: 'step 1\n' },
    { path: 'config/env.json', data: JSON.stringify(env, null, 2) },
    ...fileShapes.map((s) => ({ path: s.file!.path.startsWith('wandb/') ? `config/wandb/${basename(s.file!.path)}` : `config/files/${basename(s.file!.path)}`, data: s.file!.content })),
  ];
  const manifest = manifestFor(files, { command: [process.execPath, 'train.py', ...argvSecrets], labels: { team: 'rl', note: `token=${PLANTED[0].secret}` } });
  const entries: RawEntry[] = [{ path: 'manifest.json', data: manifest }, ...files];
  return gzipSync(tarBlocks(entries));
}

describe('planted secrets: ingest over HTTP', () => {
  let srv: RunningServer;
  let dir: string;
  const TOKEN = 'planted-admin-token-0123456789';
  beforeAll(async () => {
    dir = newDir();
    srv = await startServer({ ...storageFor(join(dir, 'data'), join(dir, 'db.sqlite')), dataDir: join(dir, 'data'), port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${TOKEN}:admin` } });
  });
  afterAll(() => srv?.close());

  it('a hand-made bundle with every shape is stored and served redacted', async () => {
    const res = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', body: new Uint8Array(plantedBundle()), headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/gzip' } });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const h = { authorization: `Bearer ${TOKEN}` };
    const detail = await (await fetch(`${srv.url}/v1/failures/${id}`, { headers: h })).text();
    expectNoLeak('GET /v1/failures/:id', detail);
    const d = JSON.parse(detail) as { files: { path: string }[]; manifest: { redactions: number } };
    expect(d.manifest.redactions).toBeGreaterThan(PLANTED.length / 2);
    let served = '';
    for (const f of d.files) served += await (await fetch(`${srv.url}/v1/failures/${id}/files/${f.path.split('/').map(encodeURIComponent).join('/')}`, { headers: h })).text();
    expectNoLeak('served files', served);
    expect(served).toContain('illegal memory access');
    const list = await (await fetch(`${srv.url}/v1/failures?label.team=rl`, { headers: h })).text();
    expectNoLeak('GET /v1/failures', list);
    expectNoLeak('data folder and DB', folderText(dir) + (await sharedStoreText(join(dir, 'data'))));
  });
});

describe('planted secrets: harbor import', () => {
  it('a trial whose config.json env, logs and agent files hold every shape is stored redacted', async () => {
    const d = newDir();
    const job = join(d, 'job');
    cpSync(join(import.meta.dirname, '..', '..', 'fixtures', 'harbor', 'h03-job'), job, { recursive: true });
    const trial = join(job, 'csv-to-parquet__Lq8vN4d');
    const cfg = JSON.parse(readFileSync(join(trial, 'config.json'), 'utf8'));
    cfg.agent.env = { ...env, OPENAI_API_KEY: PLANTED.find((s) => s.id === 'openai-key')!.secret };
    cfg.agent.kwargs = { extra_args: argvSecrets };
    writeFileSync(join(trial, 'config.json'), JSON.stringify(cfg, null, 4));
    writeFileSync(join(trial, 'trial.log'), readFileSync(join(trial, 'trial.log'), 'utf8') + logText);
    for (const s of fileShapes) writeFileSync(join(trial, 'agent', basename(s.file!.path)), s.file!.content);
    writeFileSync(join(trial, 'agent', logNameShape.logName!), 'agent output\n');
    const archive = await openArchive({ ...storageFor(join(d, 'data'), join(d, 'db.sqlite')), dataDir: join(d, 'data') });
    try {
      const rows = await importJob(await scanJob(job), archive, newDir(), {});
      expect(rows.every((r) => r.error === null), JSON.stringify(rows)).toBe(true);
      const id = rows.find((r) => r.trial === 'csv-to-parquet__Lq8vN4d')!.id!;
      const got = (await archive.get(id))!;
      expectNoLeak('archive.get', JSON.stringify(got));
      expect(got.files.some((f) => f.path === 'harbor/config.json')).toBe(true);
    } finally {
      await archive.close();
    }
    // the SQLite file and its WAL (whichever holds the rows now)
    const db = ['db.sqlite', 'db.sqlite-wal'].filter((f) => existsSync(join(d, f))).map((f) => readFileSync(join(d, f), 'latin1'));
    db.push(await sharedStoreText(join(d, 'data'))); // PostgreSQL's rows and the bucket's blobs, on that backend
    expect(db.join('').length).toBeGreaterThan(0);
    expectNoLeak('data folder and DB', folderText(join(d, 'data')) + db.join(''));
  });
});
