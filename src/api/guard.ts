// What a hostile client may cost the server, bounded in one place (issue 10):
// - every request body has a limit, checked while it streams in (a chunked POST /ui/login of
//   384 MiB drove RSS to 2 GB): bundles have theirs in the archive, forms and JSON 64 KiB;
// - an early answer (401, 413) to a request whose body was not read closes the connection, so
//   the rest of a 1 GiB body is never read; the close lingers (reads and drops what the client
//   still sends, for a bounded time and byte count) so the answer is not lost to a TCP reset;
// - unknown bearer tokens from one address are counted: past a few a minute the address gets
//   429 (8,499 guesses/s before);
// - Node's own protocol errors (400, 408, 431) get a JSON body, and slow or idle uploads are cut.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { apiError } from './errors.js';
import type { AppEnv } from './types.js';

/** Forms (login, triage buttons) and JSON bodies (PATCH): far above any real one. */
export const MAX_FORM_BYTES = 64 * 1024;

/** Every route but POST /v1/bundles (which streams to a temp file under its own limit). */
export function formBodyLimit(): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => apiError(c, 'too_large', `request body over ${MAX_FORM_BYTES} bytes`) });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || new URL(c.req.url).pathname === '/v1/bundles') return next();
    return limit(c, next);
  };
}

/** An error answer sent before the body was read closes the connection instead of draining it. */
export function closeUnreadBodies(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.res.status < 400) return;
    if (c.req.raw.body && !c.req.raw.bodyUsed) c.res.headers.set('connection', 'close');
  };
}

/**
 * Unknown-token attempts per client address (the TCP peer), in a sliding one-minute window. A blocked
 * address is refused before its token is checked, valid or not: checking it would answer each guess.
 * Clients behind one NAT or address-dropping proxy share a count (docs/scale-out.md says why and what to do).
 */
export class GuessThrottle {
  private readonly hits = new Map<string, number[]>();
  constructor(readonly perMinute: number) {}

  private recent(addr: string, now: number): number[] {
    const list = (this.hits.get(addr) ?? []).filter((t) => now - t < 60_000);
    if (list.length) this.hits.set(addr, list);
    else this.hits.delete(addr);
    return list;
  }

  /** Seconds to wait before this address may present a token again; 0 when it may now. */
  blockedFor(addr: string, now = Date.now()): number {
    const list = this.recent(addr, now);
    if (list.length < this.perMinute) return 0;
    return Math.max(1, Math.ceil((list[0] + 60_000 - now) / 1000));
  }

  failed(addr: string, now = Date.now()): void {
    const list = this.recent(addr, now);
    list.push(now);
    this.hits.set(addr, list);
    // A flood of addresses must not grow the map without bound.
    if (this.hits.size > 100_000) this.hits.delete(this.hits.keys().next().value!);
  }
}

export function clientAddress(c: { env?: unknown }): string {
  const incoming = (c.env as { incoming?: { socket?: Socket } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}

export interface ServerLimits {
  /** Whole request (headers and body) must arrive within this, ms. */
  requestTimeoutMs: number;
  /** A connection with no bytes moving for this long is closed, ms. */
  idleTimeoutMs: number;
  headersTimeoutMs: number;
  /** After an early answer, what the client still sends is read and dropped for at most this long, ms. */
  lingerMs: number;
  /** ... and past about this many bytes of it (checked every 5 ms; the time is the hard bound). */
  lingerBytes: number;
}

export function serverLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const n = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : d);
  return {
    requestTimeoutMs: n(env.FDIAG_REQUEST_TIMEOUT_MS, 300_000),
    idleTimeoutMs: n(env.FDIAG_IDLE_TIMEOUT_MS, 30_000),
    headersTimeoutMs: n(env.FDIAG_HEADERS_TIMEOUT_MS, 20_000),
    lingerMs: n(env.FDIAG_LINGER_MS, 2_000),
    lingerBytes: n(env.FDIAG_LINGER_BYTES, 16 * 1024 * 1024),
  };
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

const kRequest = Symbol('fdiag.lastRequest');
const kLingering = Symbol('fdiag.lingering');
type TrackedSocket = Socket & { [kRequest]?: IncomingMessage; [kLingering]?: boolean };

/**
 * A lingering close. Closing a socket whose receive buffer still holds bytes (the unread rest of
 * a body the server refused early) makes the kernel send a reset, and a reset that reaches the
 * client before it has read the answer destroys the answer: the client sees ECONNRESET, not the
 * 401 or 413. So after an early answer the server half-closes (FIN after the answer), then reads
 * and drops what the client still sends until the client closes its side, the request's body
 * ends, or `lingerMs` / `lingerBytes` run out; only then is the socket destroyed. What it costs
 * is bounded by those two numbers, not by the announced body (never drained to its end).
 */
function lingeringClose(socket: TrackedSocket, limits: ServerLimits): void {
  if (socket[kLingering] || socket.destroyed) return;
  socket[kLingering] = true;
  const req = socket[kRequest];
  socket.end();
  if (!req || req.complete || req.destroyed) {
    // Nothing of the request is left unread: Node's own destroySoon (destroy once the FIN is out).
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
    return;
  }
  // Node drops the body of a request whose answer is out without a 'data' event (the parser
  // discards it), so what was dropped is read off the socket's byte count, every few ms.
  const readAtStart = socket.bytesRead;
  const done = () => {
    clearTimeout(timer);
    clearInterval(meter);
    // The answer must be out before the socket goes (destroy drops unwritten bytes); a client
    // that does not read it is cut by the idle timeout.
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  };
  const meter = setInterval(() => {
    if (socket.bytesRead - readAtStart > limits.lingerBytes) done();
  }, 5);
  meter.unref();
  const timer = setTimeout(done, limits.lingerMs);
  timer.unref();
  req.once('end', done);
  socket.once('end', done);
  socket.once('close', () => {
    clearTimeout(timer);
    clearInterval(meter);
  });
  req.resume();
}

/**
 * Timeouts on the Node server, a lingering close after early answers, and a JSON body for the
 * errors Node answers itself (a malformed request line, headers over the limit, a request that
 * took too long) instead of an empty one.
 */
export function hardenServer(server: Server, limits: ServerLimits): void {
  // Node closes a connection: close answer with socket.destroySoon(); every connection's is the
  // lingering one. The request listeners learn each socket's request (what lingering drops), and
  // a request pipelined behind an answer that closes the connection is never handled: the
  // connection is cut instead (its answer could not be sent, and handling it could change state).
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as TrackedSocket;
    if (socket[kLingering]) {
      socket.destroy();
      return;
    }
    socket[kRequest] = req;
    for (const h of handlers) h.call(server, req, res);
  });
  server.on('connection', (socket: TrackedSocket) => {
    socket.destroySoon = () => lingeringClose(socket, limits);
  });
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  server.setTimeout(limits.idleTimeoutMs); // idle socket: destroyed (no 'timeout' listener)
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const code = status === 431 ? 'headers_too_large' : status === 408 ? 'timeout' : 'bad_request';
    const body = JSON.stringify({ error: { code, message: status === 431 ? 'request headers too large' : status === 408 ? 'the request did not arrive in time' : 'malformed HTTP request' } });
    socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
}
