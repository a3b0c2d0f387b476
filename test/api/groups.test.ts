import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { storageFor } from '../helpers/backends.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';

const T = { ingest: 'ingest-token-g1-', read: 'read-token-g1-01', admin: 'admin-token-g1-0' };
let srv: RunningServer;
const auth = (t: string) => ({ authorization: `Bearer ${t}` });
const get = (p: string, t = T.read) => fetch(`${srv.url}${p}`, { headers: auth(t) });
const patch = (p: string, body: string, t = T.admin, headers: Record<string, string> = {}) => fetch(`${srv.url}${p}`, { method: 'PATCH', headers: { ...auth(t), 'content-type': 'application/json', ...headers }, body });
let gid: string;

beforeAll(async () => {
  const d = tempDir('fdiag-api-groups-');
  srv = await startServer({ ...storageFor(d, join(d, 'db')), dataDir: d, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${T.ingest}:ingest,${T.read}:read,${T.admin}:admin` } });
  const nccl = corpusLog('gpu-005.log');
  for (const [i, log] of [nccl, nccl.replace(/\[Rank (\d+)\]/g, '[Rank 1$1]'), corpusLog('cl-010.log')].entries()) {
    const b = await makeBundle({ runId: `r${i}`, log, endedAt: new Date(Date.UTC(2026, 10, 10 + i)) });
    const r = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: auth(T.ingest), body: readFileSync(b.path) });
    expect(r.status).toBe(201);
  }
  gid = (await (await get('/v1/groups?class=nccl.timeout')).json()).items[0].id;
});
afterAll(async () => {
  await srv.close();
});

describe('GET /v1/groups', () => {
  it('lists groups with counts, filters and validation', async () => {
    const all = await (await get('/v1/groups')).json();
    expect(all.items.map((g: { class: string; count: number }) => [g.class, g.count])).toEqual([
      ['disk.full', 1],
      ['nccl.timeout', 2],
    ]);
    expect(all.nextCursor).toBeNull();
    const page = await (await get('/v1/groups?limit=1')).json();
    expect(page.items).toHaveLength(1);
    const next = await (await get(`/v1/groups?limit=1&cursor=${page.nextCursor}`)).json();
    expect(next.items[0].class).toBe('nccl.timeout');
    expect((await (await get('/v1/groups?status=new&category=infra')).json()).items).toHaveLength(2);
    for (const q of ['status=open', 'category=x', 'limit=0', 'since=soon', 'cursor=zz', 'bogus=1']) {
      const r = await get(`/v1/groups?${q}`);
      expect(r.status, q).toBe(400);
      expect((await r.json()).error.code).toBe('invalid_query');
    }
    expect((await fetch(`${srv.url}/v1/groups`)).status).toBe(401);
    expect((await get('/v1/groups', T.ingest)).status).toBe(403);
  });

  it('GET /v1/groups/{id} gives the group with failures, weeks and evidence; 404 otherwise', async () => {
    const g = await (await get(`/v1/groups/${gid}`)).json();
    expect(g).toMatchObject({ id: gid, class: 'nccl.timeout', count: 2, runsAffected: 2, status: 'new' });
    expect(g.failures).toHaveLength(2);
    expect(g.weeks).toEqual([{ week: '2026-W46', count: 2 }]);
    expect(g.evidence[0].text).toContain('Watchdog caught collective operation timeout');
    expect((await get('/v1/groups/0000000000000000')).status).toBe(404);
    expect((await get('/v1/groups/..%2F..')).status).toBe(404);
  });
});

describe('PATCH /v1/groups/{id}', () => {
  it('needs the admin scope: read gets 403, none 401', async () => {
    expect((await patch(`/v1/groups/${gid}`, '{"status":"resolved"}', T.read)).status).toBe(403);
    expect((await patch(`/v1/groups/${gid}`, '{"status":"resolved"}', T.ingest)).status).toBe(403);
    expect((await fetch(`${srv.url}/v1/groups/${gid}`, { method: 'PATCH', body: '{"status":"resolved"}' })).status).toBe(401);
    expect((await (await get(`/v1/groups/${gid}`)).json()).status).toBe('new');
  });

  it('resolves, ignores and reopens; refuses statuses only the archive sets and bad bodies', async () => {
    const r = await patch(`/v1/groups/${gid}`, '{"status":"resolved"}');
    expect(r.status).toBe(200);
    const j = await r.json();
    expect(j).toMatchObject({ id: gid, status: 'resolved' });
    expect(Date.parse(j.resolvedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await (await patch(`/v1/groups/${gid}`, '{"status":"ignored"}')).json())).toMatchObject({ status: 'ignored', resolvedAt: null });
    expect((await (await patch(`/v1/groups/${gid}`, '{"status":"ongoing"}')).json()).status).toBe('ongoing');
    for (const body of ['{"status":"regressed"}', '{"status":"new"}', '{"status":"resolved","count":0}', 'not json', '{}']) {
      const b = await patch(`/v1/groups/${gid}`, body);
      expect(b.status, body).toBe(400);
      expect((await b.json()).error.code).toBe('invalid_body');
    }
    expect((await patch('/v1/groups/0000000000000000', '{"status":"resolved"}')).status).toBe(404);
    expect((await patch(`/v1/groups/${gid}`, JSON.stringify({ status: 'resolved', pad: 'x'.repeat(5000) }))).status).toBe(413);
  });

  it('the routes are in /openapi.json', async () => {
    const doc = await (await fetch(`${srv.url}/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/groups', '/v1/groups/{id}', '/v1/export/weekly', '/metrics']));
    expect(doc.paths['/v1/groups/{id}'].patch.security).toEqual([{ bearer: ['admin'] }]);
    expect(doc.paths['/v1/groups'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['status', 'class', 'category', 'since', 'limit', 'cursor']));
  });
});
