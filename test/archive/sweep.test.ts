// Other processes on the data folder of a running `fdiag serve` (a CLI command, a second server
// whose start-up sweep runs) must not touch the server's upload in flight, nor a blob renamed in
// but not yet committed; a real orphan left by a crash long ago still goes. On PostgreSQL + S3 the
// data folder is only scratch space (blobs are in the bucket), which is what the first test checks there.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blobKey } from '../../src/archive/blob-store.js';
import { openArchive, SWEEP_GRACE_MS } from '../../src/archive/index.js';
import { S3BlobStore } from '../../src/archive/s3-store.js';
import { blobKeysOf, ON_POSTGRES, storageEnv, storageFor } from '../helpers/backends.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { CLI, spawnServer, waitExit } from '../helpers/server.js';

const TOKEN = 'sweep-admin-token-1';
const auth = { authorization: `Bearer ${TOKEN}` };

/** Starts a POST whose body is sent in two halves; returns a function that sends the rest. */
function startUpload(url: string, body: Buffer) {
  const u = new URL(`${url}/v1/bundles`);
  const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { ...auth, 'content-type': 'application/gzip', 'transfer-encoding': 'chunked' } });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
  });
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return () => {
    req.end(body.subarray(half));
    return answer;
  };
}

/** A blob as an ingest leaves it before its row commits, with no row pointing at it; its key. */
async function plantOrphan(dataDir: string, bytes: Buffer): Promise<string> {
  const key = blobKey(createHash('sha256').update(bytes).digest('hex'));
  const { blobs } = storageFor(dataDir);
  if (!blobs) plantBlob(dataDir, bytes, 0);
  else {
    const local = join(tempDir(), 'blob.tar.gz');
    writeFileSync(local, bytes);
    const store = new S3BlobStore(blobs);
    await store.putFile(key, local);
    store.close();
  }
  return key;
}

/** A blob file as an ingest's rename leaves it, `ageMs` old, with no row pointing at it. */
function plantBlob(dataDir: string, bytes: Buffer, ageMs: number): string {
  const abs = join(dataDir, blobKey(createHash('sha256').update(bytes).digest('hex')));
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, bytes);
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(abs, t, t);
  return abs;
}

describe('sweep beside a running server', () => {
  it('fdiag query, prune and a second server leave an upload in flight and an uncommitted blob alone', async () => {
    const dir = tempDir('fdiag-sweep-');
    const srv = await spawnServer(dir, { FDIAG_TOKENS: `${TOKEN}:admin` });
    try {
      // The server has ingested before, so it is a live writer of this folder.
      const first = readFileSync((await makeBundle({ runId: 'first', log: corpusLog('cl-010.log') })).path);
      expect((await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: auth, body: new Uint8Array(first) })).status).toBe(201);

      const bundle = readFileSync((await makeBundle({ runId: 'in-flight', log: corpusLog('cl-010.log') + '\nmore\n' })).path);
      const finish = startUpload(srv.url, bundle);
      await expect.poll(() => readdirSync(join(dir, 'tmp')).length).toBeGreaterThan(0);
      const spooling = readdirSync(join(dir, 'tmp'));

      // A blob renamed in a moment ago whose row is not committed yet, and a crash's orphan from hours
      // ago (a folder store's file times can be set; a bucket's cannot: there the lock test covers it).
      const fresh = ON_POSTGRES ? null : plantBlob(dir, readFileSync((await makeBundle({ runId: 'renamed-not-committed' })).path), 0);
      const old = ON_POSTGRES ? null : plantBlob(dir, readFileSync((await makeBundle({ runId: 'crashed-long-ago' })).path), 2 * 3600e3);

      const env = { ...process.env, ...storageEnv(dir) };
      const q = spawnSync(process.execPath, [CLI, 'query', '--data', dir], { encoding: 'utf8', timeout: 30_000, env });
      expect(q.status, q.stderr).toBe(0);
      const p = spawnSync(process.execPath, [CLI, 'prune', '--data', dir, '--older-than', '3650d'], { encoding: 'utf8', timeout: 30_000, env });
      expect(p.status, p.stderr).toBe(0);
      const second = await spawnServer(dir, { FDIAG_TOKENS: `${TOKEN}:admin` });
      second.proc.kill('SIGTERM');
      await waitExit(second.proc);

      for (const name of spooling) expect(existsSync(join(dir, 'tmp', name)), name).toBe(true);
      if (fresh) expect(existsSync(fresh)).toBe(true);
      if (old) expect(existsSync(old)).toBe(false);

      const r = await finish();
      expect(r.status, r.body).toBe(201);
      const id = JSON.parse(r.body).id as string;
      const file = await fetch(`${srv.url}/v1/failures/${id}/files/logs/stdout.log`, { headers: auth });
      expect(file.status).toBe(200);
      expect(await file.text()).toMatch(/more\n$/);
    } finally {
      srv.proc.kill('SIGTERM');
      await waitExit(srv.proc);
    }
  });

  it('one sweeper at a time: a held lock makes a second sweep a no-op', async () => {
    const dir = tempDir('fdiag-sweep-');
    const a = await openArchive({ ...storageFor(dir), dataDir: dir });
    const b = await openArchive({ ...storageFor(dir), dataDir: dir });
    try {
      const orphan = await plantOrphan(dir, readFileSync((await makeBundle({ runId: 'orphan' })).path));
      // Sweeps as if two grace periods later: the orphan is old enough to go, if the lock allows.
      const later = Date.now() + 2 * SWEEP_GRACE_MS;
      const inner = await a.index.tryWithLock('sweep', () => b.sweep(SWEEP_GRACE_MS, later));
      expect(inner).toEqual({ removedBlobs: 0, removedTmp: 0, swept: false });
      expect(await blobKeysOf(dir)).toEqual([orphan]);
      expect(await b.sweep(SWEEP_GRACE_MS, later)).toMatchObject({ removedBlobs: 1, swept: true });
      expect(await blobKeysOf(dir)).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
