// The CLI as a user meets it (the built dist/cli.js in a child process): usage errors are one line
// and exit 2, help has examples and exit codes, `show`/`pull` read a real H200 failure from the
// local archive and from a server, uploads end with the failure's page URL even when piped, and
// the README's install and trap examples work as written.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/commands/index.js';
import { ON_POSTGRES, storageEnvOfArgs } from '../helpers/backends.js';
import { tempDir } from '../helpers/bundles.js';
import { CLI, ROOT, spawnServer, waitExit } from '../helpers/server.js';

const H200 = join(ROOT, 'fixtures', 'h200', 'bundles');
const OOM_BUNDLE = join(H200, 'fdiag-h200-oom-20261130T045844Z.tar.gz');
const OOM_ID = createHash('sha256').update(readFileSync(OOM_BUNDLE)).digest('hex');

function fdiag(args: string[], cwd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, FDIAG_DATA: '', FDIAG_DB: '', FDIAG_SERVER: '', FDIAG_TOKEN: '', ...storageEnvOfArgs(args, cwd), ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** One line on stderr, nothing on stdout, exit 2: what every usage error looks like. */
function expectUsageError(r: ReturnType<typeof fdiag>, pattern: RegExp) {
  expect(r.code, r.err).toBe(2);
  expect(r.out).toBe('');
  const lines = r.err.split('\n').filter(Boolean);
  expect(lines, r.err).toHaveLength(1);
  expect(lines[0]).toMatch(/^fdiag: /);
  expect(lines[0]).toMatch(pattern);
  expect(r.err).not.toMatch(/\n\s+at /); // no stack
}

let archiveDir: string; // a local archive holding the six H200 bundles

/** Tests that open no archive run once, in the default project (vitest.config.ts runs this file on both backends). */
const withoutArchive = describe.skipIf(ON_POSTGRES);

beforeAll(() => {
  archiveDir = tempDir('fdiag-cli-archive-');
  const r = fdiag(['ingest', H200, '--data', join(archiveDir, '.fdiag')], archiveDir);
  expect(r.code, r.err).toBe(0);
});

withoutArchive('usage errors: exit 2, one line, printed once', () => {
  it('`fdiag` alone prints the usage and exits 2', () => {
    const r = fdiag([], tempDir());
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^Usage: fdiag /);
    expect(r.err).toContain('Examples:');
  });

  it('query refuses a bad --limit, --category or --format as the API does', () => {
    const cwd = tempDir();
    for (const bad of ['abc', '0', '-5', '9999', '2.5', '0x10']) expectUsageError(fdiag(['query', '--limit', bad], cwd), /--limit/);
    expectUsageError(fdiag(['query', '--category', 'bogus'], cwd), /--category.*bogus.*infra, user, outcome, unknown/);
    expectUsageError(fdiag(['query', '--format', 'yaml'], cwd), /--format.*yaml/);
    expectUsageError(fdiag(['query', '--since', 'last tuesday'], cwd), /not a time/);
    expect(existsSync(join(cwd, '.fdiag')), 'a refused query creates nothing').toBe(false);
  });

  it('a usage error found by capture is printed once', () => {
    expectUsageError(fdiag(['capture', '--label', 'novalue', '--exit-code', '1'], tempDir()), /--label wants k=v/);
    expectUsageError(fdiag(['capture'], tempDir()), /nothing to run/);
    expectUsageError(fdiag(['upload', 'x.tar.gz'], tempDir()), /no server/);
  });

  it('serve: --port abc and a busy port are one line each, and nothing is created first', async () => {
    const cwd = tempDir();
    expectUsageError(fdiag(['serve', '--port', 'abc'], cwd), /--port wants a port number/);
    expectUsageError(fdiag(['serve', '--port', '70000'], cwd), /--port/);
    expectUsageError(fdiag(['serve', '--retention', 'forever'], cwd), /retention period/);
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const p = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], { cwd, env: { ...process.env, FDIAG_DATA: '', FDIAG_DB: '' } });
        let out = '';
        let err = '';
        p.stdout.on('data', (d) => (out += d));
        p.stderr.on('data', (d) => (err += d));
        p.on('exit', (code) => resolve({ code, out, err }));
      });
      expectUsageError(r, new RegExp(`127\\.0\\.0\\.1:${port} is already in use`));
    } finally {
      busy.close();
    }
    expect(readdirSync(cwd)).toEqual([]);
  });
});

withoutArchive('help', () => {
  /** What `fdiag CMD --help` prints, read from the same program in-process (a process each is slow). */
  function helpOf(path: string[]): string {
    let cmd: Command = buildProgram();
    for (const name of path) cmd = cmd.commands.find((c) => c.name() === name)!;
    let out = '';
    cmd.configureOutput({ writeOut: (s) => (out += s) });
    cmd.outputHelp();
    return out;
  }

  it('every command has examples, exit codes and defaults, and no `(default: [])` noise', () => {
    const program = buildProgram();
    const paths = program.commands.flatMap((c) => (c.commands.length ? [[c.name()], ...c.commands.map((s) => [c.name(), s.name()])] : [[c.name()]]));
    expect(paths.map((p) => p.join(' '))).toEqual(expect.arrayContaining(['capture', 'upload', 'classify', 'serve', 'ingest', 'query', 'show', 'pull', 'reclassify', 'export', 'prune', 'harbor audit', 'harbor canary', 'harbor import']));
    for (const p of [[], ...paths]) {
      const help = helpOf(p);
      expect(help, p.join(' ')).toMatch(/\nExamples:\n {2}\$ fdiag /);
      expect(help, p.join(' ')).toMatch(/\nExit codes: /);
      expect(help, p.join(' ')).not.toContain('default: [])');
    }
    expect(helpOf(['query'])).toMatch(/--limit <n> +page size, 1-500 \(default 50\)/);
    expect(helpOf(['serve'])).toMatch(/default 8787/);
    // --help through the real process: the same text on stdout, exit 0.
    const r = fdiag(['query', '--help'], tempDir());
    expect(r.code).toBe(0);
    expect(r.out).toBe(helpOf(['query']));
  });
});

describe('show and pull', () => {
  it('show ID prints the diagnosis, the root exception before its wrapper, and the per-rank OOM figures', () => {
    const r = fdiag(['show', OOM_ID.slice(0, 12), '--data', '.fdiag'], archiveDir);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^cuda\.oom \(infra\)/);
    const ex = r.out.slice(r.out.indexOf('Exception'));
    expect(ex.indexOf('torch.OutOfMemoryError')).toBeGreaterThan(0);
    expect(ex.indexOf('torch.OutOfMemoryError')).toBeLessThan(ex.indexOf('ChildFailedError'));
    expect(r.out).toContain('rank 1 failed first');
    // Rank 1 on GPU 1: tried 20 GiB, 18.37 GiB free, 120 GiB allocated by PyTorch (its own message).
    expect(r.out).toMatch(/\n {2}1\* +1 .*20\.0 GiB +18\.4 GiB +120\.0 GiB +139\.8 GiB/);
    expect(r.out).toContain('the failing workers had exited by capture time');
    const json = JSON.parse(fdiag(['show', OOM_ID, '--data', '.fdiag', '--format', 'json'], archiveDir).out);
    expect(json.detail.ranks[0]).toMatchObject({ rank: 1, gpuIndex: 1, failedFirst: true, oom: { triedMiB: 20480, allocatedByPyTorchMiB: 122880 } });
  });

  it('show: an unknown id exits 1, a non-id exits 2, an ambiguous prefix asks for more', () => {
    expect(fdiag(['show', 'abcdef012345', '--data', '.fdiag'], archiveDir).code).toBe(1);
    expectUsageError(fdiag(['show', 'not-an-id', '--data', '.fdiag'], archiveDir), /hex digits/);
    expect(fdiag(['show', OOM_ID.slice(0, 12)], tempDir()).code).toBe(1); // no archive there
  });

  it('pull ID writes the bundle byte for byte and never overwrites', () => {
    const out = tempDir('fdiag-pull-');
    const r = fdiag(['pull', OOM_ID.slice(0, 8), '--data', join(archiveDir, '.fdiag'), '-o', out], out);
    expect(r.code, r.err).toBe(0);
    const file = join(out, `fdiag-h200-oom-${OOM_ID.slice(0, 12)}.tar.gz`);
    expect(readFileSync(file).equals(readFileSync(OOM_BUNDLE))).toBe(true);
    expect(readdirSync(out)).toEqual([`fdiag-h200-oom-${OOM_ID.slice(0, 12)}.tar.gz`]); // no temp file left
    expectUsageError(fdiag(['pull', OOM_ID, '--data', join(archiveDir, '.fdiag'), '-o', out], out), /exists/);
  });
});

describe('query', () => {
  it('says so on an empty archive, and creates none', () => {
    const cwd = tempDir();
    const r = fdiag(['query'], cwd);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/no archive at .*fdiag\.db/);
    expect(readdirSync(cwd)).toEqual([]);
    fdiag(['prune', '--older-than', '1d'], cwd); // creates an empty archive
    expect(fdiag(['query'], cwd).err).toMatch(/is empty/);
  });

  it('--category unknown lists the failures without a category, as /v1/classes counts them', () => {
    const r = fdiag(['query', '--category', 'unknown', '--data', '.fdiag', '--format', 'json'], archiveDir);
    expect(r.code, r.err).toBe(0);
    const items = JSON.parse(r.out).items as { runId: string; category: string | null }[];
    expect(items.map((i) => i.runId)).toEqual(['h200-oom-live']);
    expect(fdiag(['query', '--category', 'user', '--data', '.fdiag'], archiveDir).err).toMatch(/no failures match/);
  });
});

describe('with a server', () => {
  let server: Awaited<ReturnType<typeof spawnServer>>;
  const TOKEN = 'cli-test-admin-token';
  beforeAll(async () => {
    server = await spawnServer(tempDir('fdiag-cli-srv-'), { FDIAG_TOKENS: `${TOKEN}:admin` });
  });
  afterAll(async () => {
    server?.proc.kill('SIGTERM');
    if (server) await waitExit(server.proc);
  });

  it('upload, piped, ends with one summary line naming the page; show and pull --server read it back', () => {
    const cwd = tempDir();
    const up = fdiag(['upload', OOM_BUNDLE, '--server', server.url, '--token', TOKEN], cwd);
    expect(up.code, up.err).toBe(0);
    expect(up.err).toBe(`fdiag: 1 of 1 uploaded: ${server.url}/ui/failures/${OOM_ID}\n`);

    const show = fdiag(['show', OOM_ID], cwd, { FDIAG_SERVER: server.url, FDIAG_TOKEN: TOKEN });
    expect(show.code, show.err).toBe(0);
    expect(show.out).toContain(`page    ${server.url}/ui/failures/${OOM_ID}`);
    expect(show.out).toContain('rank 1 failed first');
    expectUsageError(fdiag(['show', OOM_ID.slice(0, 12), '--server', server.url, '--token', TOKEN], cwd), /full 64-digit id/);
    expect(fdiag(['show', OOM_ID, '--server', server.url, '--token', 'wrong-token-123'], cwd).code).toBe(2);

    const pull = fdiag(['pull', OOM_ID, '--server', server.url, '--token', TOKEN], cwd);
    expect(pull.code, pull.err).toBe(0);
    expect(readFileSync(join(cwd, `fdiag-h200-oom-${OOM_ID.slice(0, 12)}.tar.gz`)).equals(readFileSync(OOM_BUNDLE))).toBe(true);
  });

  it('capture --server, piped, says where the failure page is', () => {
    const cwd = tempDir();
    const r = fdiag(['capture', '--run-id', 'cli-url', '--server', server.url, '--token', TOKEN, '--spool', join(cwd, 'spool'), '--', 'sh', '-c', 'echo "RuntimeError: CUDA error: an illegal memory access was encountered" >&2; exit 3'], cwd);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(new RegExp(`fdiag: run cli-url failed \\(exit 3\\); bundle uploaded \\([a-z_.]+\\): ${server.url.replace(/\./g, '\\.')}/ui/failures/[0-9a-f]{64}\\n`));
  });
});

withoutArchive('the README, as written', () => {
  it('fdiag on PATH (what npm link / npx fdiag install) runs the trap example', () => {
    const cwd = tempDir();
    const bin = join(cwd, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'fdiag'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(join(bin, 'fdiag'), 0o755);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const trap = /^trap '.*fdiag capture --exit-code \$\? .*' EXIT$/m.exec(readme)?.[0];
    expect(trap, 'README has the trap example').toBeDefined();
    const script = `${trap}\necho "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB" > train.log\nexit 7\n`;
    const r = spawnSync('bash', ['-c', script], { cwd, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, FDIAG_SERVER: '', FDIAG_RUN_ID: 'trap-run' } });
    expect(r.status, r.stderr).toBe(7);
    expect(r.stderr).toMatch(/fdiag: run trap-run failed \(exit 7\); bundle: .*fdiag-bundles\/fdiag-trap-run-.*\.tar\.gz/);
    expect(readdirSync(join(cwd, 'fdiag-bundles')).filter((f) => f.endsWith('.tar.gz'))).toHaveLength(1);
  });
});
