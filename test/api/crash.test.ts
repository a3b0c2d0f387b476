// A kill -9 in the middle of an ingest leaves no half-indexed bundle and no blob that the index
// points to; the next start sweeps the orphan and the same bundle ingests cleanly. Embedded only
// (it reads the SQLite file after the kill): on PostgreSQL the same crash is checked by
// test/archive/groups.test.ts (in-transaction, both backends) and test/api/replicas.test.ts (kill -9 mid-burst).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { spawnServer, waitExit } from '../helpers/server.js';

const TOKEN = 'crash-test-token';
const env = { FDIAG_TOKENS: `${TOKEN}:admin` };

function blobFiles(dataDir: string): string[] {
  const root = join(dataDir, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root).flatMap((s) => readdirSync(join(root, s)).map((f) => join(s, f)));
}

describe.each(['after-blob', 'in-transaction'])('server killed -9 at %s', (point) => {
  it('keeps the index and blob folder consistent', async () => {
    const dataDir = tempDir('fdiag-crash-');
    const bundle = readFileSync((await makeBundle({ runId: 'crash', log: corpusLog('cl-010.log') })).path);

    // one good bundle first, so the crash happens in a live archive
    const first = await spawnServer(dataDir, env);
    const okBundle = readFileSync((await makeBundle({ runId: 'before-crash' })).path);
    expect((await fetch(`${first.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: new Uint8Array(okBundle) })).status).toBe(201);
    first.proc.kill('SIGTERM');
    await waitExit(first.proc);

    const crashing = await spawnServer(dataDir, { ...env, FDIAG_TEST_CRASH_AT: point });
    const res = await fetch(`${crashing.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: new Uint8Array(bundle) }).then(
      (r) => r.status,
      () => 'connection lost',
    );
    expect(res).toBe('connection lost');
    await waitExit(crashing.proc);
    expect(crashing.proc.signalCode).toBe('SIGKILL');

    const db = new Database(join(dataDir, 'fdiag.db'));
    const rows = db.prepare('SELECT run_id, blob_path FROM failures').all() as { run_id: string; blob_path: string }[];
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(rows.map((r) => r.run_id)).toEqual(['before-crash']);
    for (const r of rows) expect(existsSync(join(dataDir, r.blob_path))).toBe(true);

    const restarted = await spawnServer(dataDir, env);
    try {
      // the orphan blob of the crashed ingest is gone, the indexed one stays
      expect(blobFiles(dataDir)).toEqual([rows[0].blob_path.replace(/^blobs\//, '')]);
      expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
      const again = await fetch(`${restarted.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: new Uint8Array(bundle) });
      expect(again.status).toBe(201);
      const list = await (await fetch(`${restarted.url}/v1/failures`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
      expect(list.items.map((i: { runId: string }) => i.runId).sort()).toEqual(['before-crash', 'crash']);
    } finally {
      restarted.proc.kill('SIGTERM');
      await waitExit(restarted.proc);
    }
  });
});
