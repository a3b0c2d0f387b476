// A full archive disk answers 507, stores nothing, leaves no temp files and keeps serving.
// (A small bundle is verified in memory, so only its compressed bytes need room.)
// Needs a tiny tmpfs, which only root can mount (CI runs as root). Embedded only: it fills the one
// disk that holds the SQLite file and the blobs; a replica's disk holds neither.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/api/server.js';
import { makeBundle, tempDir } from '../helpers/bundles.js';
import { smallTmpfs } from '../helpers/tmpfs.js';

const { path: mountPoint, mounted } = smallTmpfs('1m');

describe('archive disk full', () => {
  // Reason for skipIf: mounting a size-limited tmpfs needs root; without it the condition cannot be made.
  it.skipIf(!mounted)('answers 507 disk_full, stores nothing and keeps serving', async () => {
    const dbDir = tempDir('fdiag-full-db-');
    const srv = await startServer({ dbFile: join(dbDir, 'fdiag.db'), dataDir: mountPoint, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: 'full-disk-token-0:admin' } });
    const h = { authorization: 'Bearer full-disk-token-0' };
    try {
      const rand = (n: number) => Array.from({ length: n }, () => Math.random().toString(36)).join('\n');
      const big = await makeBundle({ runId: 'big', log: rand(300_000) }); // > 1 MiB even gzipped
      expect(big.bytes).toBeGreaterThan(1024 ** 2);
      const r = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: h, body: new Uint8Array(readFileSync(big.path)) });
      expect(r.status).toBe(507);
      expect((await r.json()).error.code).toBe('disk_full');
      expect(readdirSync(join(mountPoint, 'tmp'))).toEqual([]);
      // fits compressed but not unpacked: a small bundle is verified in memory, never unpacked to disk
      const unpacksBig = await makeBundle({ runId: 'unpacks-big', log: 'step=1 loss=0.5 all good\n'.repeat(150_000) });
      expect(unpacksBig.bytes).toBeLessThan(200_000);
      const r2 = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: h, body: new Uint8Array(readFileSync(unpacksBig.path)) });
      expect(r2.status).toBe(201);
      expect(readdirSync(join(mountPoint, 'tmp'))).toEqual([]);
      const small = await makeBundle({ runId: 'small' });
      const ok = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: h, body: new Uint8Array(readFileSync(small.path)) });
      expect(ok.status).toBe(201);
      const list = await (await fetch(`${srv.url}/v1/failures`, { headers: h })).json();
      expect(list.items.map((i: { runId: string }) => i.runId).sort()).toEqual(['small', 'unpacks-big']);
    } finally {
      await srv.close();
    }
  });
});
