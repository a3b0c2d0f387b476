// Hostile-input suite, server side (issue 10): the archive's files are owner-only, the admin
// token file is made 0600 even when it exists wider, and short tokens are refused. Embedded only:
// the modes checked are those of the SQLite file and the blob folder.
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTokenStore, parseTokens } from '../../src/api/auth.js';
import { startServer } from '../../src/api/server.js';
import { makeBundle, tempDir } from '../helpers/bundles.js';
import { readFileSync } from 'node:fs';

const mode = (p: string) => statSync(p).mode & 0o777;

describe('owner-only archive files', () => {
  it('the data folder, its blobs and the DB are 0700/0600, also when the folder existed 0755', async () => {
    const d = tempDir();
    const data = join(d, 'data');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    const token = 'owner-only-admin-token-1';
    const srv = await startServer({ dbFile: join(data, 'fdiag.db'), dataDir: data, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${token}:admin` } });
    try {
      const b = await makeBundle({});
      const res = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', body: readFileSync(b.path), headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(201);
      expect(mode(data)).toBe(0o700);
      expect(mode(join(data, 'fdiag.db'))).toBe(0o600);
      for (const side of ['fdiag.db-wal', 'fdiag.db-shm']) if (readdirSync(data).includes(side)) expect(mode(join(data, side)), side).toBe(0o600);
      const shard = readdirSync(join(data, 'blobs'))[0];
      expect(mode(join(data, 'blobs'))).toBe(0o700);
      const blob = join(data, 'blobs', shard, readdirSync(join(data, 'blobs', shard))[0]);
      expect(mode(blob)).toBe(0o600);
    } finally {
      await srv.close();
    }
  });

  it('an admin-token file that exists with 0644 is made 0600 before it is used', () => {
    const d = tempDir();
    writeFileSync(join(d, 'admin-token'), 'a-long-enough-admin-token-value\n', { mode: 0o644 });
    chmodSync(join(d, 'admin-token'), 0o644);
    const { store, generatedTokenFile } = loadTokenStore({}, d);
    expect(generatedTokenFile).toBe(join(d, 'admin-token'));
    expect(mode(join(d, 'admin-token'))).toBe(0o600);
    expect(store.scopesOf('a-long-enough-admin-token-value')?.has('admin')).toBe(true);
    // a generated one is 0600 from the start, in a 0700 folder
    const fresh = join(tempDir(), 'new');
    loadTokenStore({}, fresh);
    expect(mode(join(fresh, 'admin-token'))).toBe(0o600);
    expect(mode(fresh)).toBe(0o700);
  });

  it('FDIAG_TOKENS refuses tokens shorter than 16 characters', () => {
    expect(() => parseTokens('short-token-8:read')).toThrow(/at least 16/);
    expect(() => parseTokens('abcdefgh:admin')).toThrow(/at least 16/);
    expect(parseTokens('sixteen-chars-ok:read')).toHaveLength(1);
  });
});
