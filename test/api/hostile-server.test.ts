// Hostile-input suite, server side (issue 10), against a real `fdiag serve` child process so its
// memory can be read from /proc: each attack gets its clear 4xx, nothing is stored, and the
// server's peak RSS grows by what it keeps, not by what was sent.
import { request } from 'node:http';
import { connect } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKeysOf, ON_POSTGRES } from '../helpers/backends.js';
import { boundedTimes, CLOCK_SKEW_MS, MAX_RUN_MS } from '../../src/archive/index.js';
import { makeBundle, tempDir } from '../helpers/bundles.js';
import { manifestFor, tarBlocks } from '../helpers/hostile.js';
import { hostileBundles } from '../helpers/hostile-bundles.js';
import { spawnServer } from '../helpers/server.js';
import type { ChildProcess } from 'node:child_process';

const TOKEN = 'hostile-suite-admin-token-1';
const auth = { authorization: `Bearer ${TOKEN}` };
const MiB = 1024 * 1024;

/** Peak resident memory of a process so far (VmHWM), bytes. */
function peakRss(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

/** POST `total` bytes as a chunked body (no content-length), as fast as the server takes them. */
function chunkedPost(url: string, path: string, total: number, headers: Record<string, string> = {}): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    let sent = 0;
    let answered: { status: number; body: string } | null = null;
    const req = request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'transfer-encoding': 'chunked', ...headers } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        answered = { status: res.statusCode!, body };
        resolve({ ...answered, sent });
      });
    });
    const chunk = Buffer.alloc(MiB, 0x61);
    const pump = () => {
      while (sent < total && !answered && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && !req.destroyed) req.end();
    };
    req.on('error', (err) => (answered ? resolve({ ...answered, sent }) : reject(err)));
    pump();
  });
}

async function rawExchange(url: string, bytes: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect(Number(u.port), u.hostname, () => s.write(bytes));
    let out = '';
    s.on('data', (d) => (out += d));
    s.on('end', () => resolve(out));
    s.on('close', () => resolve(out));
    s.on('error', reject);
  });
}

let srv: { url: string; proc: ChildProcess };
let dataDir: string;
const stored = () => blobKeysOf(dataDir);
const failures = async () => ((await (await fetch(`${srv.url}/v1/failures`, { headers: auth })).json()) as { items: { id: string; failedAt: string }[] }).items;

beforeAll(async () => {
  dataDir = tempDir();
  srv = await spawnServer(dataDir, { FDIAG_TOKENS: `${TOKEN}:admin`, FDIAG_INGEST_WORKERS: '1' });
});
afterAll(() => {
  srv?.proc.kill();
});

describe('bounded memory per request (peak RSS of the server process)', () => {
  it('a 128 MiB chunked POST /ui/login: 413, no token needed to be refused, RSS bounded', async () => {
    const before = peakRss(srv.proc.pid!);
    const r = await chunkedPost(srv.url, '/ui/login', 128 * MiB, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error.code).toBe('too_large');
    expect(peakRss(srv.proc.pid!) - before).toBeLessThan(48 * MiB);
  });

  it('a bundle followed by a 64 MiB tar trailer: 400 trailing_data, nothing stored, RSS bounded', async () => {
    const log = { path: 'logs/stdout.log', data: 'RuntimeError: boom\n' };
    const good = tarBlocks([{ path: 'manifest.json', data: manifestFor([log]) }, log]);
    const body = Buffer.concat([gzipSync(good), gzipSync(Buffer.alloc(64 * MiB), { level: 9 })]);
    const before = peakRss(srv.proc.pid!);
    const res = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', body, headers: auth });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('trailing_data');
    expect(peakRss(srv.proc.pid!) - before).toBeLessThan(48 * MiB);
    expect(await stored()).toEqual([]);
    expect(await failures()).toEqual([]);
  });

  it('a small upload of a 256 MiB log (over the in-memory budget): stored and classified, RSS well below the log size', async () => {
    const line = 'step 1000 | loss 0.4213 | lr 1.0e-04 | tokens/s 51234 | grad_norm 0.88\n';
    const big = Buffer.from(line.repeat(Math.ceil((256 * MiB) / line.length)));
    const b = await makeBundle({ files: [{ path: 'logs/stdout.log', data: Buffer.concat([big, Buffer.from('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n')]) }] });
    const body = readFileSync(b.path);
    expect(body.length).toBeLessThan(4 * MiB);
    const before = peakRss(srv.proc.pid!);
    const res = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', body, headers: auth });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { class: string }).class).toBe('cuda.oom');
    // before: the whole log was read (and decoded) at once, several times its size
    const grew = peakRss(srv.proc.pid!) - before;
    expect(grew).toBeLessThan(224 * MiB); // a clean-clone CI run measured 199 MiB; the log alone is 256 MiB
  });
});

describe('hostile bundles over HTTP: 400, nothing stored, no orphan blob', () => {
  it('every hostile bundle of the reader suite', async () => {
    const blobsBefore = await stored();
    const rowsBefore = (await failures()).length;
    for (const h of hostileBundles()) {
      const res = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', body: new Uint8Array(h.bytes), headers: auth });
      expect(res.status, h.name).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code, h.name).toBe(h.code);
    }
    expect(await stored()).toEqual(blobsBefore);
    expect((await failures()).length).toBe(rowsBefore);
    expect(readdirSync(join(dataDir, 'tmp')).filter((n) => !n.startsWith('.'))).toEqual([]);
  });
});

describe('the connection and the protocol', () => {
  // Once, on the embedded default (no backend is involved). This raced the reset that closing with
  // unread bytes sends, and was retried; the server now lingers on close (src/api/guard.ts: reads
  // and drops the rest for a bounded time), so the reset never comes (test/api/guard-security.test.ts).
  it.skipIf(ON_POSTGRES)('a 401 is answered before the body is read, and the rest of a large body is not drained', async () => {
    const u = new URL(srv.url);
    // 4 MiB of an announced 1 GiB body, then we wait: the answer must come without the rest,
    // and the server must close the connection instead of reading on.
    const r = await new Promise<{ status: number; body: string; closedByServer: boolean }>((resolve, reject) => {
      const noAnswer = setTimeout(() => reject(new Error('no answer within 20 s')), 20_000);
      const req = request({ host: u.hostname, port: u.port, path: '/v1/bundles', method: 'POST', headers: { 'content-type': 'application/gzip', 'content-length': String(1024 * MiB) } }, (res) => {
        clearTimeout(noAnswer);
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          const t = setTimeout(() => resolve({ status: res.statusCode!, body, closedByServer: false }), 10_000);
          req.socket?.once('close', () => {
            clearTimeout(t);
            resolve({ status: res.statusCode!, body, closedByServer: true });
          });
          if (req.socket?.destroyed) {
            clearTimeout(t);
            resolve({ status: res.statusCode!, body, closedByServer: true });
          }
        });
      });
      req.on('error', () => {});
      req.write(Buffer.alloc(4 * MiB));
    });
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).error.code).toBe('unauthorized');
    expect(r.closedByServer).toBe(true);
  });

  it("Node's own 400 and 431 answers carry a JSON body", async () => {
    const bad = await rawExchange(srv.url, 'THIS IS NOT HTTP\r\n\r\n');
    expect(bad).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(bad.slice(bad.indexOf('\r\n\r\n') + 4)).error.code).toBe('bad_request');
    const huge = await rawExchange(srv.url, `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4)).error.code).toBe('headers_too_large');
  });

  it('label.__proto__ is a filter like any other', async () => {
    expect((await failures()).length).toBeGreaterThan(0);
    const r = await fetch(`${srv.url}/v1/failures?label.__proto__=x`, { headers: auth });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { items: unknown[] }).items).toEqual([]);
    const c = await fetch(`${srv.url}/v1/failures?label.constructor=x`, { headers: auth });
    expect(((await c.json()) as { items: unknown[] }).items).toEqual([]);
  });

  it('uploader-chosen times cannot move a failure into the future or stretch a run over decades', async () => {
    const b = await makeBundle({ runId: 'time-travel', endedAt: new Date('2099-01-01T00:00:00Z') });
    const sent = Date.now();
    const res = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', body: readFileSync(b.path), headers: auth });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const f = (await failures()).find((x) => x.id === id)!;
    expect(Date.parse(f.failedAt)).toBeLessThanOrEqual(Date.now() + CLOCK_SKEW_MS);
    expect(Date.parse(f.failedAt)).toBeGreaterThanOrEqual(sent - 1000);
    const t = boundedTimes({ createdAt: '2026-12-01T00:00:00Z', endedAt: '2026-12-01T00:00:00Z', startedAt: '1970-01-01T00:00:00Z' }, Date.parse('2026-12-01T00:01:00Z'));
    expect(t.failedAt - t.startedAt!).toBe(MAX_RUN_MS);
  });

  it('unknown tokens from one address are throttled (429 with Retry-After), the right one included', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 14; i++) codes.push((await fetch(`${srv.url}/v1/failures`, { headers: { authorization: `Bearer guess-${i}-aaaaaaaaaaaaaaaa` } })).status);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes.slice(10).every((c) => c === 429)).toBe(true);
    const right = await fetch(`${srv.url}/v1/failures`, { headers: auth });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('slow uploads', () => {
  it('an announced 100 MB body that stalls is cut at the idle timeout; its temp file is removed', async () => {
    const d = tempDir();
    const s = await spawnServer(d, { FDIAG_TOKENS: `${TOKEN}:admin`, FDIAG_IDLE_TIMEOUT_MS: '800', FDIAG_REQUEST_TIMEOUT_MS: '3000' });
    try {
      const u = new URL(s.url);
      const t0 = Date.now();
      const closed = await new Promise<number>((resolve) => {
        const sock = connect(Number(u.port), u.hostname, () => {
          sock.write(`POST /v1/bundles HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/gzip\r\nContent-Length: 100000000\r\n\r\n`);
          sock.write(Buffer.alloc(1024));
        });
        sock.on('data', () => {});
        sock.on('close', () => resolve(Date.now() - t0));
        sock.on('error', () => {});
      });
      expect(closed).toBeLessThan(10_000);
      // the partial upload's spool file goes with the connection
      const deadline = Date.now() + 5000;
      while (readdirSync(join(d, 'tmp')).filter((n) => !n.startsWith('.')).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(join(d, 'tmp')).filter((n) => !n.startsWith('.'))).toEqual([]);
    } finally {
      s.proc.kill();
    }
  });
});
