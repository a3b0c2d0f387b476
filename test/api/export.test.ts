import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { storageFor } from '../helpers/backends.js';
import { tempDir } from '../helpers/bundles.js';
import { ROOT } from '../helpers/server.js';
import { normalizeIds, seedTwoWeeks, WEEK2 } from '../archive/seed.js';

const T = { read: 'read-token-e1-01', ingest: 'ingest-token-e1-' };
let srv: RunningServer;
let ids: Map<string, string>;
const get = (p: string, t = T.read) => fetch(`${srv.url}${p}`, { headers: { authorization: `Bearer ${t}` } });

beforeAll(async () => {
  const d = tempDir('fdiag-api-export-');
  srv = await startServer({ ...storageFor(d, join(d, 'db')), dataDir: d, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${T.read}:read,${T.ingest}:ingest` } });
  ids = await seedTwoWeeks(srv.archive);
});
afterAll(async () => {
  await srv.close();
});

describe('GET /v1/export/weekly', () => {
  it('serves the same bytes as the golden files in each format with its content type', async () => {
    for (const [format, type] of [['md', 'text/markdown'], ['csv', 'text/csv'], ['json', 'application/json']]) {
      const r = await get(`/v1/export/weekly?week=${WEEK2}&format=${format}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain(type);
      expect(normalizeIds(await r.text(), ids)).toBe(readFileSync(join(ROOT, 'fixtures', 'export', `weekly-${WEEK2}.${format}`), 'utf8'));
    }
  });

  it('defaults to json, needs read, validates week and format', async () => {
    const r = await get(`/v1/export/weekly?week=${WEEK2}`);
    expect((await r.json()).schema).toBe('fdiag.export.weekly/v1');
    expect((await get(`/v1/export/weekly?week=${WEEK2}`, T.ingest)).status).toBe(403);
    expect((await fetch(`${srv.url}/v1/export/weekly`)).status).toBe(401);
    for (const q of ['week=2026-47', 'week=2025-W53', 'format=pdf', 'week=2026-W47&x=1']) {
      const b = await get(`/v1/export/weekly?${q}`);
      expect(b.status, q).toBe(400);
      expect((await b.json()).error.code).toBe('invalid_query');
    }
  });
});
