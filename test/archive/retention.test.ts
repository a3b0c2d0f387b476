// `fdiag serve` with a retention setting prunes at start (and hourly): rows and blobs together.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/index.js';
import { startRetention } from '../../src/archive/prune.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { CLI, spawnServer, waitExit } from '../helpers/server.js';
import { blobKeysOf, countRows, storageFor } from '../helpers/backends.js';

const blobs = async (dir: string) => (await blobKeysOf(dir)).length;

describe('server retention', () => {
  it('FDIAG_RETENTION prunes old failures with their blobs when the server starts', async () => {
    const dir = tempDir('fdiag-retention-');
    const a = await openArchive({ ...storageFor(dir), dataDir: dir });
    const old = await a.ingestBundleFile((await makeBundle({ runId: 'old', log: corpusLog('cl-010.log'), endedAt: new Date(Date.now() - 100 * 86400e3) })).path);
    const fresh = await a.ingestBundleFile((await makeBundle({ runId: 'fresh', log: corpusLog('cl-010.log') + '\n', endedAt: new Date(Date.now() - 86400e3) })).path);
    await a.close();
    expect(await blobs(dir)).toBe(2);
    const s = await spawnServer(dir, { FDIAG_TOKENS: 'retention-read-token-1:read', FDIAG_RETENTION: '90d' });
    try {
      const auth = { authorization: 'Bearer retention-read-token-1' };
      await expect.poll(async () => (await (await fetch(`${s.url}/v1/failures`, { headers: auth })).json()).items.map((f: { id: string }) => f.id)).toEqual([fresh.id]);
      expect((await fetch(`${s.url}/v1/failures/${old.id}`, { headers: auth })).status).toBe(404);
      await expect.poll(() => blobs(dir)).toBe(1);
      expect(s.output()).toMatch(/retention: failures older than 90d are pruned hourly/);
      // the server logs the line after the rows and blobs are gone: poll for it too
      await expect.poll(() => s.output()).toMatch(/pruned 1 failures, 1 blobs/);
      const groups = (await (await fetch(`${s.url}/v1/groups`, { headers: auth })).json()).items;
      expect(groups.map((g: { count: number }) => g.count)).toEqual([1]);
    } finally {
      s.proc.kill('SIGTERM');
      await waitExit(s.proc);
    }
  });

  it('refuses a bad retention period before listening', async () => {
    const r = spawnSync(process.execPath, [CLI, 'serve', '--data', tempDir('fdiag-retention-'), '--port', '0', '--retention', 'soon'], { encoding: 'utf8', timeout: 15_000 });
    expect(r.status).toBe(2);
    expect(r.stdout).not.toMatch(/listening/);
    expect(r.stderr).toMatch(/retention period/);
  });

  it('keeps pruning on its interval and stops when asked', async () => {
    const dir = tempDir('fdiag-retention-');
    const a = await openArchive({ ...storageFor(dir), dataDir: dir });
    const logs: string[] = [];
    const stop = startRetention(a, '1h', { everyMs: 50, log: (m) => logs.push(m) });
    try {
      // A failure that is already older than the period when it arrives goes at the next tick.
      await a.ingestBundleFile((await makeBundle({ runId: 'late', log: corpusLog('cl-010.log'), endedAt: new Date(Date.now() - 2 * 3600e3) })).path);
      await expect.poll(() => countRows(a, 'SELECT count(*) AS n FROM failures')).toBe(0);
      // the line is logged after the rows and blobs are gone: poll for it too
      await expect.poll(() => logs.join('')).toMatch(/pruned 1 failures/);
    } finally {
      stop();
      await a.close();
    }
  });
});
