// Malformed requests across the API and the web page's forms: every one gets a 4xx in the one
// error shape, never a 500 (a 500 says "our fault", logs a stack trace for each request an
// attacker sends, and hides what the client should fix).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { storageFor } from '../helpers/backends.js';
import { makeBundle, tempDir } from '../helpers/bundles.js';

const ADMIN = 'api-security-admin-token-01';
let srv: RunningServer;
let id: string;
let gid: string;
const auth = { authorization: `Bearer ${ADMIN}` };

beforeAll(async () => {
  const d = tempDir('fdiag-api-sec-');
  srv = await startServer({ ...storageFor(d, join(d, 'db')), dataDir: d, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${ADMIN}:admin` } });
  const b = await makeBundle({ runId: 'sec-1' });
  const r = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: auth, body: readFileSync(b.path) });
  expect(r.status).toBe(201);
  id = ((await r.json()) as { id: string }).id;
  gid = ((await (await fetch(`${srv.url}/v1/groups`, { headers: auth })).json()) as { items: { id: string }[] }).items[0]!.id;
});
afterAll(async () => {
  await srv?.close();
});

async function send(method: string, path: string, body: string | undefined, headers: Record<string, string>) {
  const r = await fetch(`${srv.url}${path}`, { method, headers: { ...auth, ...headers }, body, redirect: 'manual' });
  return { status: r.status, text: await r.text(), type: r.headers.get('content-type') ?? '' };
}

describe('PATCH /v1/groups/{id} with a body that is not JSON', () => {
  it('415 unsupported_media_type for text/plain, form and no content type (was 500 internal)', async () => {
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {} as Record<string, string>]) {
      const r = await send('PATCH', `/v1/groups/${gid}`, '{"status":"resolved"}', headers);
      expect(r.status, JSON.stringify(headers)).toBe(415);
      expect(JSON.parse(r.text).error.code).toBe('unsupported_media_type');
    }
    // nothing changed
    const g = (await (await fetch(`${srv.url}/v1/groups/${gid}`, { headers: auth })).json()) as { status: string };
    expect(g.status).toBe('new');
  });
});

// Before the body test below: its POST /ui/login guesses put 127.0.0.1 over the unknown-token throttle.
describe('numeric query parameters', () => {
  it('limit takes only a whole number in decimal digits within 1..500, on every route that pages', async () => {
    // before: z.coerce.number() read 0x10 as 16, 1e2 as 100, 16.0 and +5 and ' 5' as numbers
    const refused = ['0x10', '0X1F', '0b11', '0o7', '1e2', '16.0', '+5', '-1', '007', '%205', '5%20', '', '0', '501', '9'.repeat(20), 'Infinity'];
    for (const p of ['/v1/failures', '/v1/groups']) {
      for (const v of refused) {
        const r = await send('GET', `${p}?limit=${v}`, undefined, {});
        expect(r.status, `${p}?limit=${v}`).toBe(400);
        expect(JSON.parse(r.text).error.code).toBe('invalid_query');
      }
      for (const v of ['1', '500', '10']) expect((await send('GET', `${p}?limit=${v}`, undefined, {})).status, `${p}?limit=${v}`).toBe(200);
    }
    const doc = JSON.parse((await send('GET', '/openapi.json', undefined, {})).text);
    for (const p of ['/v1/failures', '/v1/groups']) {
      const limit = doc.paths[p].get.parameters.find((x: { name: string }) => x.name === 'limit');
      expect(limit.schema, p).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    }
  });
});

describe('no request shape makes the server answer 5xx', () => {
  it('bodies of every content type on every route that takes one', async () => {
    const types = ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'multipart/form-data', 'application/gzip', 'application/json; charset=utf-16'];
    const bodies = ['', '{', '{"status":"resolved"}', 'status=resolved&token=x', '--x\r\nContent-Disposition: form-data; name="status"\r\n\r\nresolved\r\n--x--\r\n', '\u0000\u00ff'];
    const targets: [string, string][] = [
      ['PATCH', `/v1/groups/${gid}`],
      ['POST', '/v1/bundles'],
      ['POST', '/ui/login'],
      ['POST', '/ui/logout'],
      ['POST', `/ui/groups/${gid}/status`],
      ['PUT', `/v1/groups/${gid}`],
      ['DELETE', `/v1/failures/${id}`],
    ];
    const bad: string[] = [];
    for (const [method, path] of targets)
      for (const type of types)
        for (const body of bodies) {
          const r = await send(method, path, body, { 'content-type': type });
          if (r.status >= 500) bad.push(`${method} ${path} [${type}] ${JSON.stringify(body.slice(0, 20))}: ${r.status} ${r.text.slice(0, 80)}`);
        }
    expect(bad).toEqual([]);
  });

  it('odd query values and paths on every GET route', async () => {
    const values = ['', '-1', 'NaN', '1e309', '0x10', '%00', '%ff', '..%2F..', 'a'.repeat(5000), '[]', '{}', '__proto__'];
    const keys = ['limit', 'cursor', 'since', 'until', 'class', 'category', 'status', 'week', 'format', 'runId', 'label.x', 'label.', 'error', 'q'];
    const paths = ['/v1/failures', '/v1/groups', '/v1/classes', '/v1/export/weekly', '/ui', '/ui/groups', '/ui/report', '/ui/report/export', '/ui/login', `/v1/failures/${id}`, `/v1/groups/${gid}`];
    const bad: string[] = [];
    for (const p of paths)
      for (const k of keys)
        for (const v of values) {
          const r = await send('GET', `${p}?${k}=${v}`, undefined, {});
          if (r.status >= 500) bad.push(`${p}?${k}=${v.slice(0, 20)}: ${r.status} ${r.text.slice(0, 80)}`);
        }
    for (const p of [`/v1/failures/${id}/files/%ff`, `/v1/failures/${id}/files/`, `/v1/failures/${id}/files/${'a/'.repeat(2000)}x`, `/ui/failures/${id}/files/%2e%2e%2f%2e%2e%2fetc%2fpasswd`, `/ui/failures/${'f'.repeat(64)}`, `/v1/failures/${id}/bundle?x=1`, '/ui/groups/%ff', `/ui/failures/${id}/files/%ff`]) {
      const r = await send('GET', p, undefined, {});
      if (r.status >= 500) bad.push(`${p.slice(0, 80)}: ${r.status} ${r.text.slice(0, 80)}`);
    }
    expect(bad).toEqual([]);
  });
});
