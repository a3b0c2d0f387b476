import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailureDetail, FailurePage } from '../../src/api/schemas.js';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { manifestFor, writeGzipBomb, writeTgz } from '../helpers/hostile.js';
import { blobKeysOf, countRows, ON_POSTGRES, storageFor } from '../helpers/backends.js';

const TOKENS = { ingest: 'ingest-token-123', read: 'read-token-123-0', admin: 'admin-token-123-', both: 'both-token-123-0' };
let srv: RunningServer;
let dataDir: string;

const auth = (t: string) => ({ authorization: `Bearer ${t}` });
const post = (body: Buffer, token = TOKENS.ingest) => fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { ...auth(token), 'content-type': 'application/gzip' }, body: new Uint8Array(body) });
const get = (path: string, token = TOKENS.read) => fetch(`${srv.url}${path}`, { headers: auth(token) });

const storedBlobs = async () => (await blobKeysOf(dataDir)).length;
const rowCount = () => countRows(srv.archive, 'SELECT count(*) AS n FROM failures');

beforeAll(async () => {
  dataDir = tempDir('fdiag-api-');
  srv = await startServer({
    ...storageFor(dataDir),
    dataDir,
    port: 0,
    host: '127.0.0.1',
    maxBundleBytes: 8 * 1024 ** 2,
    env: { FDIAG_TOKENS: `${TOKENS.ingest}:ingest,${TOKENS.read}:read,${TOKENS.admin}:admin,${TOKENS.both}:ingest+read` },
  });
});
afterAll(async () => {
  await srv.close();
});

describe('POST /v1/bundles', () => {
  it('stores a bundle, and the same bytes again give the same id as a duplicate', async () => {
    const b = await makeBundle({ runId: 'grpo-7', log: corpusLog('cl-010.log'), labels: { team: 'rl' } });
    const bytes = readFileSync(b.path);
    const r1 = await post(bytes);
    expect(r1.status).toBe(201);
    const j1 = await r1.json();
    expect(j1).toMatchObject({ duplicate: false });
    expect(j1.id).toMatch(/^[0-9a-f]{64}$/);
    const before = await rowCount();
    const r2 = await post(bytes);
    expect(r2.status).toBe(201);
    expect(await r2.json()).toEqual({ ...j1, duplicate: true });
    expect(await rowCount()).toBe(before);
  });

  it('answers 413 for a body over the size limit, storing nothing', async () => {
    const rows = await rowCount();
    const r = await post(Buffer.alloc(9 * 1024 ** 2, 1));
    expect(r.status).toBe(413);
    expect((await r.json()).error.code).toBe('too_large');
    expect(await rowCount()).toBe(rows);
  });

  it('answers 400 for an empty body', async () => {
    const r = await post(Buffer.alloc(0));
    expect(r.status).toBe(400);
  });
});

describe('hostile bundles: 4xx, nothing stored, server alive', () => {
  const cases: [string, () => Buffer, number][] = [];
  const dir = tempDir('fdiag-hostile-');
  const m = manifestFor([]);
  cases.push(['path traversal', () => readFileSync(writeTgz(dir, 'a.tgz', [{ path: 'manifest.json', data: m }, { path: '../../etc/cron.d/x', data: 'x' }])), 400]);
  cases.push(['absolute path', () => readFileSync(writeTgz(dir, 'b.tgz', [{ path: 'manifest.json', data: m }, { path: '/etc/x', data: 'x' }])), 400]);
  cases.push(['symlink', () => readFileSync(writeTgz(dir, 'c.tgz', [{ path: 'manifest.json', data: m }, { path: 'logs/l', type: 'SymbolicLink', linkpath: '/etc/shadow' }])), 400]);
  cases.push(['hardlink', () => readFileSync(writeTgz(dir, 'd.tgz', [{ path: 'manifest.json', data: m }, { path: 'logs/h', type: 'Link', linkpath: '/etc/shadow' }])), 400]);
  cases.push(['device', () => readFileSync(writeTgz(dir, 'e.tgz', [{ path: 'manifest.json', data: m }, { path: 'logs/d', type: 'BlockDevice' }])), 400]);
  cases.push(['gzip bomb (several GiB unpacked)', () => readFileSync(writeGzipBomb(dir, 'f.tgz', 4 * 1024 ** 3)), 413]);
  cases.push(['truncated gzip', () => {
    const full = readFileSync(writeTgz(dir, 'g.tgz', [{ path: 'manifest.json', data: m }, { path: 'logs/x.log', data: corpusLog('cl-010.log') }]));
    return full.subarray(0, full.length - 40);
  }, 400]);
  cases.push(['garbage', () => Buffer.from('GET / HTTP/1.1\r\n'.repeat(100)), 400]);
  cases.push(['missing manifest', () => readFileSync(writeTgz(dir, 'h.tgz', [{ path: 'logs/x.log', data: 'x' }])), 400]);
  cases.push(['invalid manifest', () => readFileSync(writeTgz(dir, 'i.tgz', [{ path: 'manifest.json', data: '{"schema":"fdiag.bundle/v1","runId":5}' }])), 400]);

  it.each(cases)('%s', async (_name, make, status) => {
    const rows = await rowCount();
    const blobs = await storedBlobs();
    const r = await post(make());
    expect(r.status).toBe(status);
    const body = await r.json();
    expect(body.error.code).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
    expect(await rowCount()).toBe(rows);
    expect(await storedBlobs()).toBe(blobs);
    expect(readdirSync(join(dataDir, 'tmp'))).toEqual([]);
    expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
  });
});

describe('auth', () => {
  it('refuses requests without a token, with an unknown token, or without the scope', async () => {
    const b = readFileSync((await makeBundle({ runId: 'auth' })).path);
    expect((await fetch(`${srv.url}/v1/failures`)).status).toBe(401);
    expect((await get('/v1/failures', 'not-a-real-token')).status).toBe(401);
    expect((await fetch(`${srv.url}/v1/bundles`, { method: 'POST', body: b })).status).toBe(401);
    expect((await post(b, TOKENS.read)).status).toBe(403);
    expect((await get('/v1/failures', TOKENS.ingest)).status).toBe(403);
    expect((await get('/v1/failures', TOKENS.admin)).status).toBe(200);
    expect((await get('/v1/failures', TOKENS.both)).status).toBe(200);
    const bad = await get('/v1/failures', TOKENS.ingest);
    expect(await bad.json()).toEqual({ error: { code: 'forbidden', message: expect.stringContaining('read') } });
  });

  // The embedded default only: off it FDIAG_TOKENS is required (test/api/replicas.test.ts checks the refusal).
  it.skipIf(ON_POSTGRES)('generates one admin token, mode 0600, when FDIAG_TOKENS is unset', async () => {
    const d = tempDir('fdiag-tok-');
    const s = await startServer({ dbFile: join(d, 'db.sqlite'), dataDir: d, port: 0, host: '127.0.0.1', env: {} });
    try {
      expect(s.generatedTokenFile).toBe(join(d, 'admin-token'));
      expect(statSync(s.generatedTokenFile!).mode & 0o777).toBe(0o600);
      const token = readFileSync(s.generatedTokenFile!, 'utf8').trim();
      expect((await fetch(`${s.url}/v1/failures`)).status).toBe(401);
      expect((await fetch(`${s.url}/v1/failures`, { headers: auth(token) })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('GET /v1/failures', () => {
  it('filters by run, label and time, newest first, with cursor pagination', async () => {
    const base = Date.parse('2026-11-10T12:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const b = await makeBundle({ runId: 'page-run', endedAt: new Date(base + i * 60_000), labels: { exp: i % 2 ? 'odd' : 'even' }, log: `step ${i}\nRuntimeError: boom ${i}\n` });
      const r = await post(readFileSync(b.path));
      ids.push((await r.json()).id);
    }
    const all = await (await get('/v1/failures?runId=page-run&limit=2')).json();
    expect(all.items.map((x: { id: string }) => x.id)).toEqual([ids[4], ids[3]]);
    const page2 = await (await get(`/v1/failures?runId=page-run&limit=2&cursor=${all.nextCursor}`)).json();
    expect(page2.items.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    const page3 = await (await get(`/v1/failures?runId=page-run&limit=2&cursor=${page2.nextCursor}`)).json();
    expect(page3.items.map((x: { id: string }) => x.id)).toEqual([ids[0]]);
    expect(page3.nextCursor).toBeNull();

    const odd = await (await get('/v1/failures?runId=page-run&label.exp=odd')).json();
    expect(odd.items.map((x: { id: string }) => x.id)).toEqual([ids[3], ids[1]]);
    const windowed = await (await get('/v1/failures?runId=page-run&since=2026-11-10T12:01:00Z&until=2026-11-10T12:03:00Z')).json();
    expect(windowed.items.map((x: { id: string }) => x.id)).toEqual([ids[3], ids[2], ids[1]]);
    const cls = all.items[0].class;
    const byClass = await (await get(`/v1/failures?runId=page-run&class=${cls}`)).json();
    expect(byClass.items.every((x: { class: string }) => x.class === cls)).toBe(true);
    const recent = await (await get('/v1/failures?runId=page-run&since=7d')).json();
    expect(recent.items).toEqual([]); // those failures are from 2026-11-10, older than 7 days
  });

  it('answers 400 with a JSON error for a bad query', async () => {
    for (const q of ['category=bogus', 'limit=0', 'limit=abc', 'since=yesterday-ish', 'cursor=zzzz', 'unknownparam=1']) {
      const r = await get(`/v1/failures?${q}`);
      expect(r.status, q).toBe(400);
      expect((await r.json()).error.code).toBe('invalid_query');
    }
  });
});

describe('GET /v1/failures/{id} and files', () => {
  it('returns the diagnosis, manifest and file list, and serves a file as inert text', async () => {
    const log = corpusLog('cl-010.log') + '\n<script>alert(1)</script>\n';
    const b = await makeBundle({ runId: 'detail', log });
    const { id } = await (await post(readFileSync(b.path))).json();
    const f = await (await get(`/v1/failures/${id}`)).json();
    expect(f.runId).toBe('detail');
    expect(f.manifest.schema).toBe('fdiag.bundle/v1');
    expect(f.files.map((x: { path: string }) => x.path)).toEqual(['logs/stdout.log', 'manifest.json']);
    expect(f.diagnosis).toMatchObject({ class: expect.any(String), rulesetVersion: expect.any(String) });
    const r = await get(`/v1/failures/${id}/files/logs/stdout.log`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await r.text()).toBe(log);
  });

  it('404s unknown ids and files, and never serves a path outside the bundle', async () => {
    const b = await makeBundle({ runId: 'detail2' });
    const { id } = await (await post(readFileSync(b.path))).json();
    expect((await get(`/v1/failures/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await get('/v1/failures/not-an-id')).status).toBe(404);
    expect((await get(`/v1/failures/${id}/files/logs/missing.log`)).status).toBe(404);
    for (const p of ['..%2F..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'logs/..%2F..%2Ffdiag.db', '../../fdiag.db']) {
      const r = await get(`/v1/failures/${id}/files/${p}`);
      expect([400, 404]).toContain(r.status);
      expect(await r.text()).not.toMatch(/root:|SQLite format/);
    }
    expect((await get(`/v1/failures/${id}/files/logs/stdout.log`, TOKENS.ingest)).status).toBe(403);
  });
});

describe('GET /v1/classes, /healthz, /openapi.json', () => {
  it('counts per class and category', async () => {
    const r = await (await get('/v1/classes')).json();
    const total = r.classes.reduce((n: number, c: { count: number }) => n + c.count, 0);
    expect(total).toBe(await rowCount());
    expect(Object.values(r.categories).reduce((a: number, b) => a + (b as number), 0)).toBe(total);
  });

  it('category `unknown` means the same in the filter as in /v1/classes', async () => {
    // A bundle the rules cannot place: its diagnosis has no category.
    const b = await makeBundle({ runId: 'no-category', log: 'training finished a step\nbye\n' });
    const { category } = await (await post(readFileSync(b.path))).json();
    expect(category).toBeNull();
    const classes = await (await get('/v1/classes')).json();
    const unknown = await (await get('/v1/failures?category=unknown&limit=500')).json();
    expect(unknown.items.length).toBe(classes.categories.unknown);
    expect(unknown.items.length).toBeGreaterThan(0);
    expect(unknown.items.every((x: { category: string | null }) => x.category === null)).toBe(true);
  });

  it('GET /v1/failures/{id}/bundle answers the stored bundle byte for byte', async () => {
    const b = await makeBundle({ runId: 'dl/run 1', log: corpusLog('cl-010.log') });
    const bytes = readFileSync(b.path);
    const { id } = await (await post(bytes)).json();
    const r = await get(`/v1/failures/${id}/bundle`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/gzip');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="fdiag-dl_run_1-${id.slice(0, 12)}.tar.gz"`);
    expect(Buffer.from(await r.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await get(`/v1/failures/${'0'.repeat(64)}/bundle`)).status).toBe(404);
    expect((await get(`/v1/failures/${id}/bundle`, TOKENS.ingest)).status).toBe(403);
  });

  it('describes every route in OpenAPI, with the scope each needs', async () => {
    const doc = await (await fetch(`${srv.url}/openapi.json`)).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/bundles', '/v1/failures', '/v1/failures/{id}', '/v1/failures/{id}/files/{path}', '/v1/classes', '/healthz']));
    expect(doc.paths['/v1/bundles'].post.security).toEqual([{ bearer: ['ingest'] }]);
    expect(doc.paths['/v1/failures'].get.parameters.map((p: { name: string }) => p.name)).toContain('category');
    // Responses are described by their schemas, errors by the one error body.
    expect(doc.paths['/v1/failures/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/FailureDetail' });
    expect(Object.keys(doc.components.schemas.FailureSummary.properties)).toEqual(expect.arrayContaining(['id', 'class', 'category', 'reward', 'labels']));
    expect(doc.paths['/v1/groups/{id}'].patch.requestBody.content['application/json'].schema.properties.status.enum).toEqual(['resolved', 'ignored', 'ongoing']);
    expect(doc.paths['/v1/failures'].get.responses['400'].content['application/json'].schema.properties.error.properties.code.enum).toContain('invalid_query');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // What the routes answer is what the document says.
    const list = await (await get('/v1/failures?limit=5')).json();
    expect(FailurePage.safeParse(list).success).toBe(true);
    expect(FailureDetail.safeParse(await (await get(`/v1/failures/${list.items[0].id}`)).json()).success).toBe(true);
  });

  it('answers unknown routes with the JSON error shape', async () => {
    const r = await fetch(`${srv.url}/v2/nothing`);
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });
});
