// Two stateless `fdiag serve` replicas on one PostgreSQL database and one S3 bucket (a real
// PostgreSQL cluster and s3rver, started for the run by global-setup.ts): what either accepts, both
// serve; the same bundle sent to both at once is one failure; a replica killed -9 in the middle of a
// burst loses nothing it confirmed; no blob ever lands on a replica's own disk; a web login on one
// is a session on every other, and a logout on one ends it on all.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBackend, type Backend } from '../helpers/backends.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { CLI, spawnServer, waitExit } from '../helpers/server.js';

const TOKEN = `replica-admin-${randomBytes(8).toString('hex')}`;
const READ_TOKEN = `replica-read-${randomBytes(8).toString('hex')}`;
const auth = { authorization: `Bearer ${TOKEN}` };

type Replica = Awaited<ReturnType<typeof spawnServer>> & { dataDir: string };

let backend: Backend;
const running: Replica[] = [];

async function replica(dataDir = tempDir('fdiag-replica-'), tokens = `${TOKEN}:admin,${READ_TOKEN}:read`): Promise<Replica> {
  const r = await spawnServer(dataDir, { ...backend.env, FDIAG_DB: backend.db, FDIAG_BLOBS: backend.blobs!, FDIAG_TOKENS: tokens, FDIAG_INGEST_WORKERS: '1' });
  const rep = { ...r, dataDir };
  running.push(rep);
  return rep;
}

async function post(url: string, bytes: Buffer): Promise<{ status: number; body: { id?: string; duplicate?: boolean } }> {
  const r = await fetch(`${url}/v1/bundles`, { method: 'POST', headers: { ...auth, 'content-type': 'application/gzip' }, body: new Uint8Array(bytes) });
  return { status: r.status, body: await r.json() };
}

/** Every regular file under dir, relative. */
function filesUnder(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel)).flatMap((n) => {
    const p = join(rel, n);
    return statSync(join(dir, p)).isDirectory() ? filesUnder(dir, p) : [p];
  });
}

beforeAll(async () => {
  backend = await makeBackend('postgres');
});
afterAll(async () => {
  for (const r of running) {
    r.proc.kill('SIGTERM');
    await waitExit(r.proc);
  }
});

describe('two replicas on one PostgreSQL and one bucket', () => {
  it('serve each other\'s bundles and files, and count a bundle sent to both at once once', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const log = corpusLog('cl-010.log');
    const bundle = readFileSync((await makeBundle({ runId: 'via-a', log })).path);
    const r = await post(a.url, bundle);
    expect(r.status).toBe(201);
    const id = r.body.id!;
    const list = await (await fetch(`${b.url}/v1/failures?runId=via-a`, { headers: auth })).json();
    expect(list.items.map((f: { id: string }) => f.id)).toEqual([id]);
    const file = await fetch(`${b.url}/v1/failures/${id}/files/logs/stdout.log`, { headers: auth });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(log);
    const dl = Buffer.from(await (await fetch(`${b.url}/v1/failures/${id}/bundle`, { headers: auth })).arrayBuffer());
    expect(createHash('sha256').update(dl).digest('hex')).toBe(id);

    const both = readFileSync((await makeBundle({ runId: 'to-both', log: corpusLog('gpu-005.log') })).path);
    const answers = await Promise.all([post(a.url, both), post(b.url, both), post(a.url, both), post(b.url, both)]);
    expect(answers.map((x) => x.status)).toEqual([201, 201, 201, 201]);
    expect(answers.filter((x) => x.body.duplicate === false)).toHaveLength(1);
    const runs = await (await fetch(`${a.url}/v1/failures?runId=to-both`, { headers: auth })).json();
    expect(runs.items).toHaveLength(1);
    const group = await (await fetch(`${b.url}/v1/groups/${runs.items[0].groupId}`, { headers: auth })).json();
    expect(group.count).toBe(1);

    // Blobs live in the bucket only: a replica's folder holds scratch space and nothing of a bundle.
    for (const rep of [a, b]) expect(filesUnder(rep.dataDir).filter((f) => f.endsWith('.tar.gz'))).toEqual([]);
  });

  it('a replica killed -9 mid-burst loses nothing it confirmed', async () => {
    const a = await replica();
    const b = running[1] ?? (await replica());
    const bundles = await Promise.all(Array.from({ length: 24 }, async (_, i) => readFileSync((await makeBundle({ runId: `burst-${i}`, log: `${corpusLog('cl-010.log')}\nburst ${i}\n` })).path)));
    const confirmed: string[] = [];
    let sent = 0;
    const senders = Array.from({ length: 4 }, async () => {
      while (sent < bundles.length) {
        const b = bundles[sent++]!;
        const r = await post(a.url, b).catch(() => null);
        if (r?.status === 201) confirmed.push(r.body.id!);
        if (confirmed.length === 6) a.proc.kill('SIGKILL');
      }
    });
    await Promise.all(senders);
    await waitExit(a.proc);
    expect(a.proc.signalCode).toBe('SIGKILL');
    expect(confirmed.length).toBeGreaterThanOrEqual(6);
    expect(confirmed.length).toBeLessThan(bundles.length);

    const again = await replica(a.dataDir);
    for (const id of confirmed) {
      for (const rep of [again, b]) {
        const f = await fetch(`${rep.url}/v1/failures/${id}`, { headers: auth });
        expect(f.status, id).toBe(200);
        const dl = Buffer.from(await (await fetch(`${rep.url}/v1/failures/${id}/bundle`, { headers: auth })).arrayBuffer());
        expect(createHash('sha256').update(dl).digest('hex')).toBe(id);
      }
    }
    expect(filesUnder(again.dataDir).filter((f) => f.endsWith('.tar.gz'))).toEqual([]);
  });

  it('a web login on one replica is a session on the other; a logout on either ends it on both', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const login = await fetch(`${a.url}/ui/login`, { method: 'POST', body: new URLSearchParams({ token: READ_TOKEN }), headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const sessionId = cookie.slice(cookie.indexOf('=') + 1);
    const home = (url: string, c = cookie) => fetch(`${url}/ui`, { headers: { cookie: c }, redirect: 'manual' });
    expect((await home(a.url)).status).toBe(200);
    expect((await home(b.url)).status).toBe(200);
    expect((await home(b.url, 'fdiag_ui=' + randomBytes(32).toString('base64url'))).status).toBe(302);

    // The database keeps digests: neither the cookie's session id nor the token is in it.
    const db = new pg.Client({ connectionString: backend.db });
    await db.connect();
    try {
      const rows = JSON.stringify((await db.query('SELECT * FROM ui_sessions')).rows);
      expect(rows).toMatch(/[0-9a-f]{64}/);
      expect(rows).not.toContain(sessionId);
      expect(rows).not.toContain(READ_TOKEN);
    } finally {
      await db.end();
    }

    // A replica that no longer accepts the token (taken out of FDIAG_TOKENS) does not honour its session.
    const rotated = await replica(undefined, `${TOKEN}:admin`);
    expect((await home(rotated.url)).status).toBe(302);

    const out = await fetch(`${b.url}/ui/logout`, { method: 'POST', headers: { cookie }, redirect: 'manual' });
    expect(out.status).toBe(303);
    expect((await home(a.url)).status).toBe(302);
    expect((await home(b.url)).status).toBe(302);
  });

  it('refuses to start on PostgreSQL without FDIAG_TOKENS', () => {
    const r = spawnSync(process.execPath, [CLI, 'serve', '--data', tempDir('fdiag-replica-'), '--port', '0'], {
      env: { ...process.env, ...backend.env, FDIAG_DB: backend.db, FDIAG_BLOBS: backend.blobs!, FDIAG_TOKENS: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/FDIAG_TOKENS is required/);
    expect(r.stdout).not.toMatch(/listening/);
  });
});
