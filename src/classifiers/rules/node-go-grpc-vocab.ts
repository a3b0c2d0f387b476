// The error vocabularies of Node.js's HTTP stack (undici and its fetch, Node's own net/http/dns/tls errors,
// node-fetch, the Stainless-generated TypeScript SDKs of OpenAI and Anthropic and the agent CLIs built on
// them), of Go's net/http, x/net/http2 and net packages (the clients of Kubernetes, Docker, containerd and
// Go CLIs), and of gRPC (status codes by name and number, grpc-go's and grpc-js's transport texts,
// google-api-core's exception classes), as data. rules/node-go-grpc.ts (`netlib.*`) reads a line through
// this table by the producers' print templates; the narrower rules written before it (network.connection,
// network.dns, network.tls, api.request_timeout, gateway.*, errno.network, the k8s and build rules) keep
// the wordings they had and stay first where both match (they are stronger). Errno texts (ECONNRESET,
// "connection refused", …) are errno-vocab.ts's and are not repeated here.
//
// Sources read (each producer's own repository):
// - nodejs/undici 7eb7c8e (2026-08-21): lib/core/errors.js, lib/web/fetch/index.js; its classes and codes
//   are client-vocab.ts's (UNDICI_ERRORS). Here only ResponseStatusCodeError ("Response status code N:
//   reason", undici 5–6; removed in 0166829e) from lib/api/util.js at 3ac8c72f. How Node prints errors:
//   util.inspect ("TypeError: fetch failed", then "  [cause]: …" and "code: '…'"), checked with Node 20.
// - Node's own errors (lib/internal/errors.js codes, lib/_http_client.js "socket hang up", the stream
//   "Premature close", DOMException AbortError / TimeoutError, the OpenSSL verify texts Node passes through,
//   c-ares DNS codes "queryA ETIMEOUT host"): names and texts as Node 20 prints them.
// - node-fetch/node-fetch 8b3320d (v3) and v2.7.0: src/index.js, src/body.js (FetchError texts), AbortError.
// - openai/openai-node 7b7d6ca (2026-08-21): src/core/error.ts (APIError.makeMessage "N body" / "N status
//   code (no body)", every class, generate()'s status mapping), src/client.ts (APIConnectionTimeoutError,
//   APIUserAbortError); anthropics/anthropic-sdk-typescript bfa9197: src/core/error.ts (the same template).
// - Agent CLIs: openai/codex codex-rs/core/src/error.rs (001cb8e: CodexErr "stream disconnected before
//   completion: …", UnexpectedResponseError "unexpected status N …: body", RetryLimitReachedError
//   "exceeded retry limit, last status: …", ConnectionFailedError "Connection failed: …",
//   ResponseStreamFailed, QuotaExceeded, UsageLimitReached, InternalServerError, ContextWindowExceeded);
//   google-gemini/gemini-cli 5411f11 packages/core/src/utils/errorParsing.ts ("[API Error: …]") with
//   @google/genai's "got status: STATUS." and "exception TypeError: fetch failed sending request"; Claude
//   Code's "API Error: <SDK message>" (the SDK texts above; its status forms are gateway.anthropic_error's).
// - Go: golang/go src/net/http/transport.go (errTimeout "net/http: timeout awaiting response headers",
//   errRequestCanceled, errRequestCanceledConn, errServerClosedIdle, errReadLoopExiting, the TLS handshake
//   timeout, transportReadFromServerError, nothingWrittenError), client.go (url.Error `Get "url": …`,
//   "(Client.Timeout exceeded while awaiting headers)", "(Client.Timeout or context cancellation while
//   reading body)", "stopped after 10 redirects", "unsupported protocol scheme"); golang/net 0ca694d
//   http2/transport.go, transport_common.go, errors.go, http2.go (GoAwayError, StreamError, errTimeout,
//   errClientConn*); net (OpError "dial tcp a: …", DNSError "lookup h on s: no such host / server
//   misbehaving / i/o timeout", AddrError "missing port in address", "use of closed network connection").
// - grpc/grpc-go 4793ad0 (2026-08-21): codes/code_string.go (String and canonical names), internal/status
//   ("rpc error: code = %s desc = %s"), internal/transport ("connection error: desc = …", "transport is
//   closing", "error reading from server", "keepalive ping failed to receive ACK within timeout", "the
//   connection is draining"), internal/transport/http2_client.go ("transport: authentication handshake
//   failed", "error reading server preface", "unexpected HTTP status code received from server: N (…)"),
//   rpc_util.go ("grpc: received message larger than max"), clientconn.go ("grpc: the client connection is
//   closing"), balancer/* ("produced zero addresses", "all SubConns are in TransientFailure", "last
//   connection error"); grpc/grpc-node 2670b37 packages/grpc-js/src/call.ts ("N NAME: details"),
//   subchannel-call.ts ("Received HTTP status code N", "Received RST_STREAM with code N", "Connection
//   dropped"), load-balancer-pick-first.ts ("No connection established"); grpcio's StatusCode names and _InactiveRpcError repr
//   ("status = StatusCode.X", "details = …"); grpc-java's StatusRuntimeException ("NAME: details").
// - googleapis/python-api-core (exceptions.py at daf3040^: every class with its HTTP code and grpc status,
//   GoogleAPICallError.__str__ "{code} {message}", RetryError "…, last exception: …"; retry_base.py
//   "Timeout of Ns exceeded").

import { AGENT_CLI_ERRORS } from './agent-cli-vocab.js';
import { type StainlessKind, stainlessClassesOf } from './stainless-vocab.js';

/**
 * What an error says about the run:
 * - status: the server answered an error status (HTTP, or a gRPC code, read as the HTTP status gRPC's own
 *   mapping gives it: grpc-gateway / google-api-core); the status decides (< 500 gateway.4xx, ≥ 500
 *   gateway.5xx);
 * - connect: no connection to the server could be made (DNS, TLS, a proxy, a connect timeout, no address):
 *   network.error;
 * - dropped: an open connection broke mid-request (the other side closed, a GOAWAY, a body cut short, a
 *   bare EOF): network.error, a peer-gone symptom (relations.ts) where the server's own failure shows;
 * - timeout: the server did not answer in time (headers or body timeout, a deadline, a read timeout):
 *   api.timeout;
 * - unavailable: gRPC UNAVAILABLE: its description decides (a connection that could not be made or was
 *   lost: network.error; otherwise the server's 503);
 * - wrapper: a wrapper whose cause, printed beside it or on a later line, decides (undici's "fetch
 *   failed", node-fetch's "request to … failed, reason: …", reqwest's "error sending request"): on its
 *   own a network error, weakly, so that the cause's line wins;
 * - config: the URL, scheme, port or a size limit the run was configured with cannot work (config.error);
 * - echo: a consequence or a note, no failure of its own: a cancel or abort by the caller, a client
 *   destroyed at shutdown, a redirect limit, a connection the caller closed;
 * - usage: the run's own code misused the client (an invalid argument, a body length it declared wrongly);
 * - skip: a base class or a code whose message decides (UndiciError, OpenAIError, gRPC OK / UNKNOWN), or
 *   an answer that does not say whose fault it is (an HTTP parser error, headers too large).
 */
export type NetGroup = 'status' | 'connect' | 'dropped' | 'timeout' | 'unavailable' | 'wrapper' | 'config' | 'echo' | 'usage' | 'skip';

export type NetProducer = 'undici' | 'node' | 'node-fetch' | 'stainless-ts' | 'claude-code' | 'codex' | 'gemini-cli' | 'reqwest' | 'go' | 'grpc' | 'google-api-core';

/** One error: its producer, its name (class, constant or code), the text it prints, its group, and the HTTP status it stands for. */
export interface NetError {
  producer: NetProducer;
  name: string;
  /** The producer's fixed text (or the start of its template), as printed. */
  message: string;
  group: NetGroup;
  /** undici's UND_ERR_* code, Node's ERR_* code, the errno-like code Node attaches. */
  code?: string;
  /** The status the error stands for whatever the message says (RateLimitError 429, gRPC NOT_FOUND 404). */
  status?: number;
  /** The name alone is no evidence (AbortError, SocketError, ResponseError are names other libraries use too): the text must be the producer's. */
  generic?: boolean;
  /** Go: the text is read only after a url.Error / net.OpError / DNSError prefix (`Post "…": EOF`), being too common alone; gRPC: only after a code or as grpcio's details. */
  contextual?: boolean;
}

const e = (producer: NetProducer, name: string, message: string, group: NetGroup, more: Omit<NetError, 'producer' | 'name' | 'message' | 'group'> = {}): NetError => ({ producer, name, message, group, ...more });

/**
 * undici: every class of lib/core/errors.js, its UND_ERR_* code and default message, and fetch's TypeError
 * "terminated" are client-vocab.ts's (UNDICI_ERRORS, read by the client.* rules); "fetch failed" alone says
 * only that its [cause] failed, and that line decides. Added here: the class undici 5–6 threw for an error
 * status (throwOnError; removed in 0166829e), which names the status in its message.
 */
const UNDICI: NetError[] = [
  e('undici', 'ResponseStatusCodeError', 'Response status code N: Service Unavailable', 'status', { code: 'UND_ERR_RESPONSE_STATUS_CODE' }),
];

/** Node's own errors (code, text as Node prints it). */
const NODE: NetError[] = [
  e('node', 'Error', 'socket hang up', 'dropped', { code: 'ECONNRESET', generic: true }),
  e('node', 'Error', 'Premature close', 'dropped', { code: 'ERR_STREAM_PREMATURE_CLOSE', generic: true }),
  e('node', 'AbortError', 'This operation was aborted', 'echo', { code: 'ABORT_ERR', generic: true }),
  e('node', 'TimeoutError', 'The operation was aborted due to timeout', 'timeout', { code: 'ABORT_ERR', generic: true }),
  e('node', 'Error', 'Client network socket disconnected before secure TLS connection was established', 'connect', { code: 'ECONNRESET', generic: true }),
  e('node', 'Error', "Hostname/IP does not match certificate's altnames", 'connect', { code: 'ERR_TLS_CERT_ALTNAME_INVALID', generic: true }),
  e('node', 'Error', 'unable to verify the first certificate', 'connect', { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', generic: true }),
  e('node', 'Error', 'self-signed certificate in certificate chain', 'connect', { code: 'SELF_SIGNED_CERT_IN_CHAIN', generic: true }),
  e('node', 'Error', 'self signed certificate in certificate chain', 'connect', { code: 'SELF_SIGNED_CERT_IN_CHAIN', generic: true }),
  e('node', 'Error', 'self-signed certificate', 'connect', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', generic: true }),
  e('node', 'Error', 'certificate has expired', 'connect', { code: 'CERT_HAS_EXPIRED', generic: true }),
  e('node', 'Error', 'unable to get local issuer certificate', 'connect', { code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', generic: true }),
  e('node', 'Error', 'Socket connection timeout', 'connect', { code: 'ERR_SOCKET_CONNECTION_TIMEOUT', generic: true }),
  e('node', 'Error', 'Stream closed with error code NGHTTP2_INTERNAL_ERROR', 'dropped', { code: 'ERR_HTTP2_STREAM_ERROR', generic: true }),
  e('node', 'Error', 'Session closed with error code 2', 'dropped', { code: 'ERR_HTTP2_SESSION_ERROR', generic: true }),
  e('node', 'Error', 'New streams cannot be created after receiving a GOAWAY', 'dropped', { code: 'ERR_HTTP2_GOAWAY_SESSION', generic: true }),
  e('node', 'TypeError', 'Invalid URL', 'config', { code: 'ERR_INVALID_URL', generic: true }),
  e('node', 'TypeError', 'Protocol "http:" not supported. Expected "https:"', 'config', { code: 'ERR_INVALID_PROTOCOL', generic: true }),
  // c-ares answers through dns.promises / dns.resolve* ("queryA ETIMEOUT api.example.com"); getaddrinfo's
  // ENOTFOUND / EAI_AGAIN are network.dns's.
  e('node', 'Error', 'queryA ETIMEOUT', 'connect', { code: 'ETIMEOUT', generic: true }),
  e('node', 'Error', 'querySrv ESERVFAIL', 'connect', { code: 'ESERVFAIL', generic: true }),
  e('node', 'Error', 'queryA EREFUSED', 'connect', { code: 'EREFUSED', generic: true }),
  e('node', 'Error', 'getaddrinfo ENODATA', 'connect', { code: 'ENODATA', generic: true }),
  e('node', 'Error', 'getaddrinfo EAI_FAIL', 'connect', { code: 'EAI_FAIL', generic: true }),
];

/** node-fetch v2 / v3 (FetchError texts; the URL follows each). */
const NODE_FETCH: NetError[] = [
  e('node-fetch', 'FetchError', 'request to https://api.example.com/v1/chat/completions failed, reason: ', 'wrapper'),
  e('node-fetch', 'FetchError', 'network timeout at: ', 'timeout'),
  e('node-fetch', 'FetchError', 'Response timeout while trying to fetch ', 'timeout'),
  e('node-fetch', 'FetchError', 'Invalid response body while trying to fetch ', 'dropped'),
  e('node-fetch', 'FetchError', 'Premature close of server response while trying to fetch ', 'dropped'),
  e('node-fetch', 'FetchError', 'invalid json response body at ', 'skip'),
  e('node-fetch', 'FetchError', 'maximum redirect reached at: ', 'echo'),
  e('node-fetch', 'FetchError', 'uri requested responds with an invalid redirect URL: ', 'echo'),
  e('node-fetch', 'FetchError', 'content size at ', 'usage'),
  e('node-fetch', 'AbortError', 'The user aborted a request.', 'echo', { generic: true }),
];

/** How netlib.* reads a Stainless class (stainless-vocab.ts): an abort by the caller and a parse that met max_tokens are notes, a base class its message's. */
const STAINLESS_GROUP: Record<StainlessKind, NetGroup> = { connect: 'connect', timeout: 'timeout', abort: 'echo', status: 'status', body: 'skip', length: 'echo', base: 'skip' };

/** openai-node and anthropic-sdk-typescript (stainless-vocab.ts, producer ts): bare class names, message "N body". */
const STAINLESS_TS: NetError[] = stainlessClassesOf('ts').map((c) => e('stainless-ts', c.name, c.message, STAINLESS_GROUP[c.kind], c.status !== undefined ? { status: c.status } : {}));

/**
 * How netlib reads each of Codex's model-API errors. Their texts are in agent-cli-vocab.ts, the table of
 * Codex's whole vocabulary, marked `readBy: 'netlib'` (no agent.vocab_* rule reads them); this names only
 * the reading in this table's groups. The status errors that fix no status carry it in the text
 * ("unexpected status 503 Service Unavailable: …", "last status: 429 …"); a stream disconnect says after
 * its colon whether it timed out or carried a status (node-go-grpc.ts codexStream).
 */
const CODEX_READING: Readonly<Record<string, { group: NetGroup; status?: number }>> = {
  Stream: { group: 'dropped' },
  ResponseStreamFailed: { group: 'dropped' },
  // "Connection failed: {reqwest error}": the reqwest text behind it decides.
  ConnectionFailed: { group: 'wrapper' },
  UnexpectedStatus: { group: 'status' },
  RetryLimit: { group: 'status' },
  QuotaExceeded: { group: 'status', status: 429 },
  UsageLimitReached: { group: 'status', status: 429 },
  InternalServerError: { group: 'status', status: 500 },
  // The context window is the request's own size, a 400 (TAXONOMY: context length exceeded is gateway.4xx).
  ContextWindowExceeded: { group: 'status', status: 400 },
};

/** Codex's model-API errors: the text up to its first value (`{…}`), read in CODEX_READING's group; a text without a reading, or a reading without a text, refuses to load. */
function codexApiErrors(): NetError[] {
  const texts = AGENT_CLI_ERRORS.filter((x) => x.producer === 'codex' && x.readBy === 'netlib');
  const missing = [...texts.map((x) => x.name).filter((n) => !CODEX_READING[n]), ...Object.keys(CODEX_READING).filter((n) => !texts.some((x) => x.name === n))];
  if (missing.length) throw new Error(`node-go-grpc-vocab: Codex errors without both a text (agent-cli-vocab.ts, readBy netlib) and a reading (CODEX_READING): ${missing.join(', ')}`);
  return texts.map((x) => {
    const r = CODEX_READING[x.name]!;
    return e('codex', x.name, x.message.replace(/\{[^}]*\}.*$/, ''), r.group, r.status !== undefined ? { status: r.status } : {});
  });
}

/** How agent CLIs print a model API failure. */
const AGENT_CLIS: NetError[] = [
  // Claude Code: "API Error: <the SDK's message>" (and "API Error (<message>) · Retrying in N seconds…"):
  // the TypeScript SDK's fixed texts, no connection, its timeout, an abort (its status forms are
  // gateway.anthropic_error's).
  ...STAINLESS_TS.filter((x) => ['APIConnectionError', 'APIConnectionTimeoutError', 'APIUserAbortError'].includes(x.name)).map((x) => e('claude-code', 'API Error', x.message, x.group)),
  // Codex: its model-API errors (codex-rs/core/src/error.rs CodexErr), taken from agent-cli-vocab.ts.
  ...codexApiErrors(),
  // Gemini CLI: "[API Error: <@google/genai's message>]".
  e('gemini-cli', 'ApiError', 'got status: STATUS. ', 'status'),
  e('gemini-cli', 'ApiError', 'exception TypeError: fetch failed sending request', 'wrapper'),
  // reqwest (the Rust client of Codex and other CLIs): Display of its error kinds.
  e('reqwest', 'Request', 'error sending request for url (', 'wrapper'),
  e('reqwest', 'Connect', 'error trying to connect: ', 'connect'),
  e('reqwest', 'IncompleteMessage', 'connection closed before message completed', 'dropped'),
  e('reqwest', 'Decode', 'error decoding response body', 'dropped'),
];

/** Go net/http, x/net/http2 and net: the texts their errors print. */
const GO: NetError[] = [
  e('go', 'errRequestCanceledConn', 'net/http: request canceled while waiting for connection', 'connect'),
  // Cancelled by the caller; with the client's timeout suffix it is the timeout (read with TIMEOUT_SUFFIX).
  e('go', 'errRequestCanceled', 'net/http: request canceled', 'echo'),
  e('go', 'Client.Timeout', '(Client.Timeout exceeded while awaiting headers)', 'timeout'),
  e('go', 'Client.Timeout body', '(Client.Timeout or context cancellation while reading body)', 'timeout'),
  e('go', 'errTimeout', 'net/http: timeout awaiting response headers', 'timeout'),
  e('go', 'tlsHandshakeTimeoutError', 'net/http: TLS handshake timeout', 'connect'),
  e('go', 'errServerClosedIdle', 'http: server closed idle connection', 'dropped'),
  e('go', 'errReadLoopExiting', 'net/http: transport closed before response was received', 'dropped'),
  e('go', 'transportReadFromServerError', 'net/http: Transport failed to read from server', 'dropped'),
  e('go', 'nothingWrittenError', 'net/http: HTTP/1.x transport connection broken', 'dropped'),
  e('go', 'errCloseIdleConns', 'http: CloseIdleConnections called', 'echo'),
  e('go', 'errCallerOwnsConn', 'read on closed response body', 'usage'),
  e('go', 'redirect limit', 'stopped after 10 redirects', 'echo'),
  e('go', 'badStringError', 'unsupported protocol scheme', 'config'),
  e('go', 'http2 on http', 'http: server gave HTTP response to HTTPS client', 'config'),
  e('go', 'RecordHeaderError', 'first record does not look like a TLS handshake', 'config'),
  e('go', 'errNoHost', 'http: no Host in request URL', 'config'),
  e('go', 'proxyconnect', 'proxyconnect tcp: ', 'connect'),
  e('go', 'malformed response', 'malformed HTTP response', 'skip'),
  // x/net/http2 (bundled into net/http as h2_bundle.go).
  e('go', 'GoAwayError', 'http2: server sent GOAWAY and closed the connection', 'dropped'),
  e('go', 'errClientConnGotGoAway', "http2: Transport received Server's graceful shutdown GOAWAY", 'dropped'),
  e('go', 'errClientConnLost', 'http2: client connection lost', 'dropped'),
  e('go', 'http2 errTimeout', 'http2: timeout awaiting response headers', 'timeout'),
  e('go', 'errClientConnForceClosed', 'http2: client connection force closed via ClientConn.Close', 'echo'),
  e('go', 'errClientConnClosed', 'http2: client conn is closed', 'echo'),
  e('go', 'errClientConnNotEstablished', 'http2: client conn could not be established', 'connect'),
  e('go', 'errClosedResponseBody', 'http2: response body closed', 'echo'),
  e('go', 'StreamError', 'stream error: stream ID 3; INTERNAL_ERROR', 'dropped'),
  // context and io, as the url.Error / OpError tail.
  e('go', 'context.DeadlineExceeded', 'context deadline exceeded', 'timeout'),
  e('go', 'context.Canceled', 'context canceled', 'echo', { contextual: true }),
  e('go', 'io.EOF', 'EOF', 'dropped', { contextual: true }),
  e('go', 'io.ErrUnexpectedEOF', 'unexpected EOF', 'dropped', { contextual: true }),
  // net: poll.DeadlineExceededError inside an OpError (dial → connect, read/write → timeout) or a DNSError.
  e('go', 'os.ErrDeadlineExceeded', 'i/o timeout', 'timeout', { contextual: true }),
  e('go', 'errNoSuchHost', 'no such host', 'connect', { contextual: true }),
  e('go', 'errServerMisbehaving', 'server misbehaving', 'connect', { contextual: true }),
  e('go', 'errLameReferral', 'lame referral', 'connect', { contextual: true }),
  e('go', 'errCannotUnmarshalDNSMessage', 'cannot unmarshal DNS message', 'connect', { contextual: true }),
  e('go', 'errNoSuitableAddress', 'no suitable address found', 'connect'),
  e('go', 'ErrClosed', 'use of closed network connection', 'echo'),
  e('go', 'AddrError missing port', 'missing port in address', 'config'),
  e('go', 'AddrError colons', 'too many colons in address', 'config'),
];

/**
 * gRPC status codes (codes/codes.go): [number, Go String(), canonical name, group, HTTP status as
 * grpc-gateway's HTTPStatusFromCode and google-api-core map it].
 */
export const GRPC_CODES: readonly (readonly [number, string, string, NetGroup, number])[] = [
  [0, 'OK', 'OK', 'skip', 200],
  // The caller cancelled (its own context, a shutdown): whatever made it cancel is the cause.
  [1, 'Canceled', 'CANCELLED', 'echo', 499],
  // Whatever the server's handler returned without a code (buildkit, containerd): the description decides.
  [2, 'Unknown', 'UNKNOWN', 'skip', 500],
  [3, 'InvalidArgument', 'INVALID_ARGUMENT', 'status', 400],
  [4, 'DeadlineExceeded', 'DEADLINE_EXCEEDED', 'timeout', 504],
  [5, 'NotFound', 'NOT_FOUND', 'status', 404],
  [6, 'AlreadyExists', 'ALREADY_EXISTS', 'status', 409],
  [7, 'PermissionDenied', 'PERMISSION_DENIED', 'status', 403],
  [8, 'ResourceExhausted', 'RESOURCE_EXHAUSTED', 'status', 429],
  [9, 'FailedPrecondition', 'FAILED_PRECONDITION', 'status', 400],
  [10, 'Aborted', 'ABORTED', 'status', 409],
  [11, 'OutOfRange', 'OUT_OF_RANGE', 'status', 400],
  [12, 'Unimplemented', 'UNIMPLEMENTED', 'status', 501],
  [13, 'Internal', 'INTERNAL', 'status', 500],
  [14, 'Unavailable', 'UNAVAILABLE', 'unavailable', 503],
  [15, 'DataLoss', 'DATA_LOSS', 'status', 500],
  [16, 'Unauthenticated', 'UNAUTHENTICATED', 'status', 401],
];

/**
 * Transport descriptions gRPC clients give a failed call, which say more than its code. The contextual
 * ones are common words elsewhere: read only after a gRPC code, or as grpcio's `details = "…"` / grpc
 * core's `grpc_message:"…"`.
 */
const GRPC_DESCS: NetError[] = [
  e('grpc', 'connectionErrorf dial', 'transport: Error while dialing', 'connect'),
  e('grpc', 'pick_first', 'failed to connect to all addresses', 'connect'),
  e('grpc', 'grpc-js pick-first', 'No connection established', 'connect', { contextual: true }),
  e('grpc', 'resolver', 'produced zero addresses', 'connect', { contextual: true }),
  e('grpc', 'c-ares resolver', 'DNS resolution failed', 'connect', { contextual: true }),
  e('grpc', 'ErrTransientFailure', 'all SubConns are in TransientFailure', 'connect'),
  e('grpc', 'handshake', 'transport: authentication handshake failed', 'connect'),
  e('grpc', 'ErrConnClosing', 'transport is closing', 'dropped', { contextual: true }),
  e('grpc', 'server preface', 'error reading server preface', 'dropped'),
  e('grpc', 'grpc-js dropped', 'Connection dropped', 'dropped', { contextual: true }),
  e('grpc', 'core RST_STREAM', 'Received RST_STREAM with error code', 'dropped'),
  e('grpc', 'reader', 'error reading from server', 'dropped', { contextual: true }),
  e('grpc', 'keepalive', 'keepalive ping failed to receive ACK within timeout', 'dropped'),
  e('grpc', 'errStreamDrain', 'the connection is draining', 'dropped', { contextual: true }),
  e('grpc', 'core socket', 'Socket closed', 'dropped', { contextual: true }),
  e('grpc', 'core stream', 'Stream removed', 'dropped', { contextual: true }),
  e('grpc', 'grpc-js RST_STREAM', 'Received RST_STREAM with code', 'dropped'),
  e('grpc', 'core deadline', 'Deadline Exceeded', 'timeout', { contextual: true }),
  // A proxy or load balancer in front answered plain HTTP instead of gRPC: its status decides.
  e('grpc', 'grpc-go http status', 'unexpected HTTP status code received from server: N (Service Unavailable)', 'status'),
  e('grpc', 'grpc-js http status', 'Received HTTP status code N', 'status'),
  e('grpc', 'core http status', 'Received http2 header with status: N', 'status'),
  e('grpc', 'core deadline (client)', 'Deadline expired before operation could complete', 'timeout'),
  // rpc_util.go: a message over the receiver's max size (default 4 MiB): the size option the run set.
  e('grpc', 'recvMsg', 'grpc: received message larger than max', 'config'),
  e('grpc', 'sendMsg', 'grpc: trying to send message larger than max', 'config'),
  e('grpc', 'ErrClientConnClosing', 'grpc: the client connection is closing', 'echo'),
];

/** google-api-core exceptions.py: class → the HTTP status its message starts with (the gRPC code it maps is GRPC_CODES'). */
export const API_CORE_CLASSES: readonly (readonly [string, number, NetGroup])[] = [
  ['MovedPermanently', 301, 'echo'], ['NotModified', 304, 'echo'], ['TemporaryRedirect', 307, 'echo'], ['ResumeIncomplete', 308, 'echo'],
  ['BadRequest', 400, 'status'], ['InvalidArgument', 400, 'status'], ['FailedPrecondition', 400, 'status'], ['OutOfRange', 400, 'status'],
  ['Unauthorized', 401, 'status'], ['Unauthenticated', 401, 'status'], ['Forbidden', 403, 'status'], ['PermissionDenied', 403, 'status'],
  ['NotFound', 404, 'status'], ['MethodNotAllowed', 405, 'status'], ['Conflict', 409, 'status'], ['AlreadyExists', 409, 'status'],
  ['Aborted', 409, 'status'], ['LengthRequired', 411, 'status'], ['PreconditionFailed', 412, 'status'], ['RequestRangeNotSatisfiable', 416, 'status'],
  ['TooManyRequests', 429, 'status'], ['ResourceExhausted', 429, 'status'], ['Cancelled', 499, 'echo'],
  ['InternalServerError', 500, 'status'], ['Unknown', 500, 'status'], ['DataLoss', 500, 'status'], ['MethodNotImplemented', 501, 'status'],
  // GatewayTimeout is an HTTP gateway's own 504 (gateway.5xx); its gRPC subclass DeadlineExceeded is the call's deadline (api.timeout).
  ['BadGateway', 502, 'status'], ['ServiceUnavailable', 503, 'unavailable'], ['GatewayTimeout', 504, 'status'], ['DeadlineExceeded', 504, 'timeout'],
  // Base classes and the retry wrapper (its "last exception" decides).
  ['GoogleAPIError', 0, 'skip'], ['GoogleAPICallError', 0, 'skip'], ['ClientError', 0, 'skip'], ['ServerError', 0, 'skip'], ['Redirection', 0, 'skip'],
  ['RetryError', 0, 'wrapper'], ['DuplicateCredentialArgs', 0, 'config'],
];

export const NET_ERRORS: readonly NetError[] = [...UNDICI, ...NODE, ...NODE_FETCH, ...STAINLESS_TS, ...AGENT_CLIS, ...GO, ...GRPC_DESCS];

const lower = (s: string) => s.toLowerCase();
/** Fixed texts of a producer, longest first (a line is read by the longest text it holds). */
export function textsOf(producers: readonly NetProducer[], pick: (x: NetError) => boolean = () => true): NetError[] {
  return NET_ERRORS.filter((x) => producers.includes(x.producer) && x.message && pick(x)).sort((a, b) => b.message.length - a.message.length);
}

/** The entry whose text a message starts with (longest first), among a producer's entries. */
export function byMessage(producers: readonly NetProducer[], message: string, name?: string): NetError | undefined {
  const m = lower(message.trimStart());
  return textsOf(producers).find((x) => (name === undefined || x.name === name) && m.startsWith(lower(templateHead(x.message))));
}

/** The fixed part of a template: up to its first placeholder ("N", "STATUS", a URL). */
export function templateHead(message: string): string {
  const cut = message.search(/\bN\b|\bSTATUS\b|https?:\/\/|\bstream ID \d/);
  return (cut > 0 ? message.slice(0, cut) : message).trimEnd() || message;
}

const GRPC_BY_NAME = new Map<string, (typeof GRPC_CODES)[number]>([...GRPC_CODES.map((c) => [c[1], c] as const), ...GRPC_CODES.map((c) => [c[2], c] as const)]);
/** A gRPC code by its Go name (Unavailable), canonical name (UNAVAILABLE) or number. */
export function grpcCode(v: string | number): (typeof GRPC_CODES)[number] | undefined {
  if (typeof v === 'number' || /^\d+$/.test(v)) return GRPC_CODES.find((c) => c[0] === Number(v));
  return GRPC_BY_NAME.get(v) ?? GRPC_BY_NAME.get(v.toUpperCase());
}

/** The transport description a gRPC message holds, if any (read anywhere in it). */
export function grpcDesc(text: string): NetError | undefined {
  const t = lower(text);
  return textsOf(['grpc']).find((x) => t.includes(lower(templateHead(x.message))));
}

const API_CORE = new Map(API_CORE_CLASSES.map((c) => [c[0], c]));
export const apiCoreClass = (name: string): (typeof API_CORE_CLASSES)[number] | undefined => API_CORE.get(name);

/** The names a producer's entries print, for a pattern (only the ones `pick` keeps), longest first. */
export function namesOf(producer: NetProducer, pick: (x: NetError) => boolean): string[] {
  return [...new Set(NET_ERRORS.filter((x) => x.producer === producer && !x.generic && pick(x)).map((x) => x.name))].sort((a, b) => b.length - a.length);
}
