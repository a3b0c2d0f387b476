// Node.js's HTTP stack, Go net/http + net and gRPC: every entry of the table in node-go-grpc-vocab.ts
// (sources there), read through the templates each producer prints it with (undici's own classes and
// UND_ERR_* codes are client.*'s, rules/client-vocab.ts): Node's "Error [CODE]: text" / "DOMException
// [Name]: text" and util.inspect's "code: 'ERR_…'", node-fetch's FetchError, the TypeScript SDKs' bare class names, the
// agent CLIs' "API Error: …" / "stream disconnected before completion: …" / "[API Error: got status: …]",
// Go's url.Error (`Post "url": EOF`), net.OpError ("read tcp a->b: i/o timeout") and DNSError ("lookup h
// on s: server misbehaving"), grpc-go's "rpc error: code = X desc = …", grpc-js's "14 UNAVAILABLE: …",
// grpc-java's StatusRuntimeException, grpcio's "StatusCode.X", google-api-core's exception classes. The
// narrower rules (network.*, api.request_timeout, gateway.*, errno.*, the k8s/build/client rules) match
// many of the same lines by their own wordings and are stronger, so they keep first place; these decide
// what no narrower rule names. Wrappers whose cause decides (node-fetch's "request to … failed, reason:",
// reqwest's "error sending request") are weak, so the cause's own line (an errno) wins wherever it is printed.
import { defineRules, type Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import { answeredClass } from './answerer.js';
import { TRACKER_NOISE } from './network.js';
import {
  API_CORE_CLASSES,
  apiCoreClass,
  byMessage,
  GRPC_CODES,
  grpcCode,
  grpcDesc,
  type NetError,
  type NetGroup,
  NET_ERRORS,
  namesOf,
  templateHead,
  textsOf,
} from './node-go-grpc-vocab.js';
import { RUN_LOG_ONLY } from './sections.js';
import { INFO_LEVELS } from './severity.js';
import { escapeRegExp } from './regex-text.js';

const alt = (xs: readonly string[]): string => xs.map(escapeRegExp).join('|');

/** What a line says, read through the table. */
interface Reading {
  group: NetGroup;
  /** The producer's name for it (class, code, constant), for the signal. */
  name: string;
  status?: number;
  /** Weaker than the group's usual strength: a reading that a line beside it may say more about. */
  weak?: boolean;
}

// --- templates -------------------------------------------------------------------------------------------

// grpc-go internal/status: "rpc error: code = Unavailable desc = …".
const GRPC_GO = /\brpc error: code = (\w{2,20}) desc = ?(.{0,400})/;
// grpc-js call.ts: "14 UNAVAILABLE: No connection established"; grpc-java: "io.grpc.StatusRuntimeException: UNAVAILABLE: io exception".
const CANON = GRPC_CODES.filter((c) => c[2].length >= 4).map((c) => c[2]);
const GRPC_JS = new RegExp(String.raw`\b(\d{1,2}) (${CANON.join('|')}): (.{0,400})`);
const GRPC_JAVA = new RegExp(String.raw`\bio\.grpc\.Status(?:Runtime)?Exception: (${CANON.join('|')})\b:? ?(.{0,400})`);
// grpcio: "status = StatusCode.UNAVAILABLE" (the _InactiveRpcError / AioRpcError repr), "<StatusCode.UNAVAILABLE: (14, 'unavailable')>".
const GRPC_PY = new RegExp(String.raw`\bStatusCode\.(${CANON.join('|')})\b(.{0,400})`);
// grpcio's repr line `details = "…"` and grpc core's debug_error_string `grpc_message:"…"`.
const GRPC_DETAILS = /\bdetails = "|\bgrpc_message:"/;
// grpc core's debug_error_string: "{grpc_message:"…", grpc_status:14, …}".
const GRPC_CORE = /\bgrpc_status:(\d{1,2})\b/;
// @google/genai's ApiError as Gemini CLI prints it: "[API Error: got status: UNAVAILABLE. {…}]" (or a number).
const GENAI_STATUS = new RegExp(String.raw`\bgot status: (${CANON.join('|')}|[1-5]\d\d)\b[. ]?(.{0,400})`);
// google-api-core: "google.api_core.exceptions.DeadlineExceeded: 504 Deadline Exceeded".
const API_CORE = new RegExp(String.raw`\bgoogle\.api_core\.exceptions\.(${API_CORE_CLASSES.map((c) => c[0]).join('|')})\b:? ?(.{0,400})`);
// api_core retry: "Timeout of 600.0s exceeded, last exception: 503 …" (older "Deadline of 600.0s exceeded while calling target function, last exception: …").
const API_CORE_RETRY = /\b(?:Timeout|Deadline) of [\d.]{1,10}s exceeded(?: while calling target function)?, last exception: ?(.{0,400})/;

// A class of node-fetch, the TypeScript SDKs or undici 5–6 whose name alone is theirs, then its message.
const NAMED = (names: readonly string[]) => new RegExp(String.raw`(?:^|[\s\[(:'"])(${names.join('|')})(?: \[\w{2,40}\])?: ?(.{0,400})`);
// A generic Error name (Node core, node-fetch's AbortError, DOMException) with its message: the text must be the producer's.
const GENERIC_NAMES = ['Error', 'TypeError', 'AbortError', 'TimeoutError', 'FetchError', 'DOMException'];
const GENERIC = new RegExp(String.raw`(?:^|[\s\[(:'"])(${GENERIC_NAMES.join('|')})(?: \[(\w{2,40})\])?: (.{2,400})`);
// Node's code property, as util.inspect prints it ("code: 'ERR_STREAM_PREMATURE_CLOSE'").
const NODE_CODE_NAMES = [...new Set(NET_ERRORS.filter((x) => x.producer === 'node' && x.code?.startsWith('ERR_')).map((x) => x.code!))];
const NODE_CODE = new RegExp(String.raw`\bcode: '(${NODE_CODE_NAMES.join('|')})'`);
// c-ares answers ("queryAaaa ETIMEOUT api.example.com"), getaddrinfo's rarer codes.
const NODE_DNS = /\b(?:query[A-Z][a-z]{0,5}|getaddrinfo|getHostByAddr) (ETIMEOUT|ESERVFAIL|EREFUSED|ENODATA|EAI_FAIL|EBADRESP)\b/;
// Claude Code: "API Error: Connection error." / "API Error (Request timed out.) · Retrying in 2 seconds…".
const CLAUDE_CODE = new RegExp(String.raw`\bAPI Error:? \(?(${alt(textsOf(['claude-code']).map((x) => x.message))})`);
// Go's url.Error: `Post "https://host/path": <err>` (Go ≥ 1.14 quotes the URL), also inside a logrus/slog
// quoted field (`error="Post \"http://host/path\": EOF"`).
const GO_URL_ERROR = /\b(?:Get|Post|Put|Patch|Delete|Head|Options) \\?"?[a-z][\w+.-]{1,20}:\/\/[^\s"\\]{1,300}\\?"?: (.{1,400})$/;
// net.OpError: "dial tcp 10.0.0.5:443: …", "read tcp 10.0.0.2:5->10.0.0.5:443: …"; DNSError: "lookup h[ on s]: …".
const GO_OP_ERROR = /\b(dial|read|write) (?:tcp|udp|unix)[46]?(?: [^\s:]{1,80}(?::\d{1,5})?(?:->[^\s:]{1,80}(?::\d{1,5})?)?)?: (.{1,400})/;
const GO_DNS_ERROR = /\blookup [^\s:]{1,253}(?: on [^\s]{1,80})?: (.{1,400})/;

/** Go's texts that are theirs alone, found anywhere on the line. The ones that mean nothing alone need a url.Error / OpError / DNSError before them. */
const GO_FIXED = textsOf(['go'], (x) => !x.contextual);
const GO_CONTEXTUAL = textsOf(['go'], (x) => !!x.contextual);

// --- reading ---------------------------------------------------------------------------------------------

/** The plain HTTP status a gRPC client got instead of a gRPC answer (a proxy or load balancer in front). */
const GRPC_HTTP_STATUS = /(?:received from server: |Received HTTP status code |header with status: )([1-5]\d\d)\b/;

/** A gRPC code and its description: the description says more where it names a transport failure, a size limit or a proxy's HTTP status. */
function grpcReading(code: (typeof GRPC_CODES)[number], desc: string, via: string): Reading | undefined {
  const [, goName, canonical, group, http] = code;
  const d = grpcDesc(desc);
  const name = `${via} ${canonical}`;
  const proxied = GRPC_HTTP_STATUS.exec(desc)?.[1];
  if (d?.group === 'status' && proxied) return { group: 'status', name: `${name} (${d.name})`, status: Number(proxied) };
  if (group === 'skip') {
    // UNKNOWN carries a server's own error: a transport text in it still decides (rare), nothing else.
    return d && d.group !== 'config' && d.group !== 'echo' ? { group: d.group, name: `${name} (${d.name})` } : undefined;
  }
  if (group === 'unavailable') {
    if (d && (d.group === 'connect' || d.group === 'dropped')) return { group: d.group, name: `${name} (${d.name})` };
    // Nothing more said on the line (grpcio prints its details on the next one): the server's 503, weakly,
    // so that a transport text printed beside it ("details = \"failed to connect to all addresses\"") decides.
    if (!desc.trim() || /^["']?$/.test(desc.trim())) return { group: 'status', name, status: http, weak: true };
    return { group: 'status', name, status: http };
  }
  if (d?.group === 'config' && goName === 'ResourceExhausted') return { group: 'config', name: `${name} (${d.name})` };
  return { group, name, status: http };
}

/** The line's gRPC status, by the first client template that prints one. */
function readGrpc(line: string): Reading | undefined {
  let m: RegExpExecArray | null;
  if ((m = GRPC_GO.exec(line))) {
    const c = grpcCode(m[1]!);
    if (c) return grpcReading(c, m[2] ?? '', 'grpc-go');
  }
  if ((m = GRPC_JAVA.exec(line))) return grpcReading(grpcCode(m[1]!)!, m[2] ?? '', 'grpc-java');
  if ((m = GRPC_JS.exec(line))) {
    const c = grpcCode(m[2]!);
    if (c && c[0] === Number(m[1])) return grpcReading(c, m[3] ?? '', 'grpc-js');
  }
  if ((m = GRPC_PY.exec(line))) return grpcReading(grpcCode(m[1]!)!, /details = "([^"]{0,300})/.exec(m[2] ?? '')?.[1] ?? '', 'grpcio');
  if ((m = GRPC_CORE.exec(line))) {
    const c = grpcCode(Number(m[1]));
    if (c) return grpcReading(c, /grpc_message:"([^"]{0,300})/.exec(line)?.[1] ?? '', 'grpc-core');
  }
  if ((m = GENAI_STATUS.exec(line))) {
    if (/^\d+$/.test(m[1]!)) return { group: 'status', name: 'genai ApiError', status: Number(m[1]) };
    return grpcReading(grpcCode(m[1]!)!, m[2] ?? '', 'genai');
  }
  return undefined;
}

/** google-api-core's class (its HTTP status, or the gRPC description after it); RetryError's last exception. */
function readApiCore(line: string): Reading | undefined {
  let m: RegExpExecArray | null;
  if ((m = API_CORE_RETRY.exec(line))) {
    const inner = readApiCoreMessage(m[1]!, 'RetryError');
    return inner ?? { group: 'timeout', name: 'google.api_core RetryError' };
  }
  if ((m = API_CORE.exec(line))) {
    const c = apiCoreClass(m[1]!)!;
    if (c[2] === 'wrapper') return undefined;
    const said = /^([1-5]\d\d)\b/.exec(m[2] ?? '')?.[1];
    const name = `google.api_core.${c[0]}`;
    if (c[2] === 'unavailable') {
      const d = grpcDesc(m[2] ?? '');
      if (d && (d.group === 'connect' || d.group === 'dropped')) return { group: d.group, name: `${name} (${d.name})` };
      return { group: 'status', name, status: said ? Number(said) : c[1] };
    }
    if (c[2] === 'status') return { group: 'status', name, status: said ? Number(said) : c[1] };
    return { group: c[2], name };
  }
  return undefined;
}

/** An api_core message ("503 failed to connect to all addresses"): its status and gRPC description. */
function readApiCoreMessage(msg: string, via: string): Reading | undefined {
  const status = /^\s*([1-5]\d\d)\b/.exec(msg)?.[1];
  const d = grpcDesc(msg);
  if (d && d.group !== 'config' && d.group !== 'echo') return { group: d.group, name: `${via} (${d.name})` };
  if (!status) return undefined;
  const s = Number(status);
  if (s === 504) return { group: 'timeout', name: via };
  return { group: 'status', name: via, status: s };
}

/** The status an SDK or CLI message carries. */
const LEADING_STATUS = /^\s*([1-5]\d\d)\b/;
const STATUS_WORDS = /\b(?:unexpected status|last status:|Response status code) ([1-5]\d\d)\b|\bstatusCode: ([1-5]\d\d)\b|^([1-5]\d\d) status code \(no body\)/;

function withStatus(x: NetError, rest: string, line: string): Reading {
  if (x.group !== 'status') return { group: x.group, name: `${x.producer} ${x.name}` };
  const m = STATUS_WORDS.exec(rest) ?? STATUS_WORDS.exec(line);
  const said = m?.[1] ?? m?.[2] ?? m?.[3] ?? LEADING_STATUS.exec(rest)?.[1];
  return { group: 'status', name: `${x.producer} ${x.name}`, status: x.status ?? (said ? Number(said) : undefined) };
}

/** A message that is the producer's text exactly (a generic name's message): "terminated" is not "terminated by signal 9". */
function exactText(producers: Parameters<typeof byMessage>[0], message: string): NetError | undefined {
  const m = message.trimStart();
  return textsOf(producers).find((x) => {
    const head = templateHead(x.message);
    if (!m.toLowerCase().startsWith(head.toLowerCase())) return false;
    // A template's head (a FetchError text up to its URL) may run on; a fixed text must end where the message does.
    if (head !== x.message || /[\s:]$/.test(x.message)) return true;
    return /^(?:$|[\s{,.;:)\]'"])/.test(m.slice(head.length));
  });
}

/** Codex's stream disconnects say why after the colon: an idle timeout is the server not answering in time. */
function codexStream(rest: string): NetGroup {
  return /\bidle timeout|timed out|\btimeout\b/i.test(rest) ? 'timeout' : 'dropped';
}

/** Go: the text a url.Error / OpError / DNSError ends in, read by what the operation was. */
function readGo(line: string): Reading | undefined {
  // Priority: no connection at all; the client's own timeout suffix; then the longest fixed text.
  const l = line.toLowerCase();
  const fixed = GO_FIXED.filter((x) => l.includes(x.message.toLowerCase()));
  const pick = (name: string) => fixed.find((x) => x.name === name);
  const first = pick('errRequestCanceledConn') ?? pick('Client.Timeout') ?? pick('Client.Timeout body') ?? fixed.find((x) => x.name !== 'context.DeadlineExceeded') ?? fixed[0];
  if (first && first.name !== 'context.DeadlineExceeded') return { group: first.group, name: `go ${first.name}` };
  // The tail of a url.Error / OpError / DNSError.
  const dns = GO_DNS_ERROR.exec(line);
  if (dns) {
    const t = GO_CONTEXTUAL.find((x) => dns[1]!.toLowerCase().includes(x.message.toLowerCase()));
    // A DNS lookup that timed out or failed is no connection, whatever its tail.
    if (t && t.group !== 'echo' && t.group !== 'dropped') return { group: 'connect', name: `go DNSError (${t.message})` };
  }
  const op = GO_OP_ERROR.exec(line);
  if (op) {
    const rest = op[2]!;
    const t = GO_CONTEXTUAL.find((x) => rest.toLowerCase().startsWith(x.message.toLowerCase()) || rest.toLowerCase().endsWith(`: ${x.message.toLowerCase()}`));
    if (t?.name === 'os.ErrDeadlineExceeded') return { group: op[1] === 'dial' ? 'connect' : 'timeout', name: `go OpError ${op[1]} (i/o timeout)` };
    if (t && t.group !== 'echo') return { group: t.group, name: `go OpError ${op[1]} (${t.message})` };
  }
  const url = GO_URL_ERROR.exec(line);
  if (url) {
    // The end of a quoted log field is no part of the error.
    const tail = url[1]!.trim().replace(/\\?["']\s*$/, '');
    const t = GO_CONTEXTUAL.find((x) => tail === x.message || tail.startsWith(`${x.message} `));
    if (t) return { group: t.group, name: `go url.Error (${t.message})` };
  }
  return first ? { group: first.group, name: `go ${first.name}` } : undefined;
}

/** Everything the table knows of a line, by the first producer template that reads it. */
export function readNetLine(line: string): Reading | undefined {
  let m: RegExpExecArray | null;
  const grpc = readGrpc(line);
  if (grpc) return grpc;
  const core = readApiCore(line);
  if (core) return core;
  if ((m = CLAUDE_CODE.exec(line))) {
    const x = textsOf(['claude-code']).find((y) => y.message === m![1])!;
    return { group: x.group, name: 'claude-code API Error' };
  }
  const codex = textsOf(['codex']).find((x) => line.includes(templateHead(x.message)));
  if (codex) {
    const rest = line.slice(line.indexOf(templateHead(codex.message)) + templateHead(codex.message).length);
    if (codex.name === 'Stream') {
      const inner = STATUS_WORDS.exec(rest);
      if (inner) return { group: 'status', name: 'codex Stream', status: Number(inner[1] ?? inner[2]) };
      return { group: codexStream(rest), name: 'codex Stream' };
    }
    return withStatus(codex, rest, line);
  }
  const cli = textsOf(['gemini-cli', 'reqwest']).find((x) => x.group !== 'status' && line.includes(templateHead(x.message)));
  if (cli) return { group: cli.group, name: `${cli.producer} ${cli.name}` };
  // Named classes of undici, node-fetch and the TypeScript SDKs.
  if ((m = NAMED_ALL.exec(line))) {
    const name = m[1]!;
    const rest = m[2] ?? '';
    const producers = NAMED_PRODUCERS.get(name)!;
    const x = byMessage(producers, rest, name) ?? NET_ERRORS.find((y) => producers.includes(y.producer) && y.name === name);
    if (x) return withStatus(x, rest, line);
  }
  if ((m = NODE_CODE.exec(line))) {
    const x = NET_ERRORS.find((y) => y.producer === 'node' && y.code === m![1]);
    if (x) return { group: x.group, name: `node ${x.code}` };
  }
  if ((m = NODE_DNS.exec(line))) return { group: 'connect', name: `node dns ${m[1]}` };
  // A gRPC transport description on a line of its own (grpcio's details, grpc core's message, a log quoting it).
  const desc = grpcDesc(line);
  if (desc && (!desc.contextual || GRPC_DETAILS.test(line))) {
    const proxied = GRPC_HTTP_STATUS.exec(line)?.[1];
    if (desc.group !== 'status') return { group: desc.group, name: `grpc ${desc.name}` };
    if (proxied) return { group: 'status', name: `grpc ${desc.name}`, status: Number(proxied) };
  }
  if ((m = GENERIC.exec(line))) {
    const x = exactText(['node', 'node-fetch'], m[3]!);
    if (x) return withStatus(x, m[3]!, line);
  }
  return readGo(line);
}

const NAMED_PRODUCERS = new Map<string, NetError['producer'][]>();
for (const p of ['undici', 'node-fetch', 'stainless-ts'] as const) for (const n of namesOf(p, () => true)) NAMED_PRODUCERS.set(n, [...(NAMED_PRODUCERS.get(n) ?? []), p]);
const NAMED_ALL = NAMED([...NAMED_PRODUCERS.keys()].sort((a, b) => b.length - a.length));

// --- verdicts --------------------------------------------------------------------------------------------

const HINTS = {
  connect: 'The client could not connect (DNS failed or timed out, TLS, a proxy, a connect timeout, gRPC UNAVAILABLE before any answer): check that the server is up and reachable on that host and port, the cluster DNS, proxies (HTTP(S)_PROXY / NO_PROXY) and the CA bundle.',
  dropped: "An open connection broke mid-request (the other side closed it, a GOAWAY, a body cut short, EOF): the server or a proxy between died or closed it; the server's own log says why.",
  timeout: 'The server did not answer in time (headers/body timeout, a deadline exceeded, a read timeout): check its latency under load, raise the client timeout or the gRPC deadline for long generations, cap max_tokens or lower concurrency.',
  config: 'The client was given a URL, scheme, port or size limit that cannot work (no scheme, https to a plain-HTTP port, a missing port, a gRPC message over the max size): fix the endpoint or the client option.',
  '4xx': 'The server refused the request (an HTTP 4xx, or a gRPC code that maps to one: INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED, UNAUTHENTICATED, RESOURCE_EXHAUSTED = quota): check the key, model name, request and rate limits.',
  '5xx': 'The server failed (an HTTP 5xx, or gRPC INTERNAL / UNAVAILABLE from the server / UNIMPLEMENTED): its own log says why; retry with back-off or fail over.',
  wrapper: "A request failed without an answer (undici's fetch failed, node-fetch's request failed, reqwest's error sending request): the cause printed with it (its [cause] or reason) names the failure.",
};

/** Lines of the container runtime, kubelet and image builder: their gRPC codes are those components' (k8s, build rules), not a model API's. */
const RUNTIME_CONTEXT = /\b(?:PodSandbox|pod sandbox|CreateContainer|StartContainer|ExecSync|runtime service|image service|failed to pull|pull and unpack|snapshotter|containerd|runc|OCI runtime|shim|failed to solve|ErrImagePull|kubelet|Error response from daemon)\b/i;

function verdict(r: Reading, line: string, groups: readonly NetGroup[]): Extracted {
  if (!groups.includes(r.group)) return { classOverride: null };
  const base = { netError: r.name, netGroup: r.group };
  switch (r.group) {
    case 'status': {
      if (r.status === undefined || r.status < 400) return { classOverride: null };
      if (/^(?:grpc|genai|google)/.test(r.name) && RUNTIME_CONTEXT.test(line)) return { classOverride: null };
      const strength = r.weak ? 35 : 45;
      const answered = answeredClass(line);
      if (answered) return { ...base, classOverride: answered, httpStatus: r.status, strength };
      return r.status < 500
        ? { ...base, classOverride: 'gateway.4xx', httpStatus: r.status, strength, hint: HINTS['4xx'] }
        : { ...base, classOverride: 'gateway.5xx', httpStatus: r.status, strength, hint: HINTS['5xx'] };
    }
    case 'connect':
      return { ...base, classOverride: 'network.error', strength: 45, hint: HINTS.connect };
    case 'dropped':
      return { ...base, classOverride: 'network.error', strength: 43, hint: HINTS.dropped, peerGone: true };
    case 'wrapper':
      return { ...base, classOverride: 'network.error', strength: 30, hint: HINTS.wrapper };
    case 'timeout':
      return { ...base, classOverride: 'api.timeout', strength: 46, hint: HINTS.timeout };
    case 'config':
      return { ...base, classOverride: 'config.error', strength: 47, hint: HINTS.config };
    default:
      return { ...base, classOverride: null };
  }
}

function extractFor(groups: readonly NetGroup[]) {
  return (line: string): Extracted => {
    const r = readNetLine(line);
    return r ? verdict(r, line, groups) : { classOverride: null };
  };
}

// --- patterns: each rule wakes on the names and texts of its own groups ------------------------------------

function patternsFor(groups: readonly NetGroup[]): RegExp[] {
  const has = (x: NetError) => groups.includes(x.group);
  const out: RegExp[] = [];
  const codes = GRPC_CODES.filter((c) => groups.includes(c[3]) || (groups.includes('connect') && c[3] === 'unavailable') || (groups.includes('status') && (c[3] === 'unavailable' || c[3] === 'skip')));
  const timeoutCodes = groups.includes('timeout') ? GRPC_CODES.filter((c) => c[3] === 'timeout') : [];
  const codeSet = [...new Set([...codes, ...timeoutCodes])].filter((c) => c[0] !== 0);
  if (codeSet.length) {
    out.push(new RegExp(String.raw`\brpc error: code = (${codeSet.map((c) => c[1]).join('|')}) desc = ?(.{0,400})`));
    const canon = codeSet.map((c) => c[2]).filter((n) => n.length >= 4);
    out.push(new RegExp(String.raw`\b(\d{1,2}) (${canon.join('|')}): `), new RegExp(String.raw`\bStatusCode\.(${canon.join('|')})\b`), new RegExp(String.raw`\bio\.grpc\.Status(?:Runtime)?Exception: (${canon.join('|')})\b`), new RegExp(String.raw`\bgot status: (${canon.join('|')})\b`));
    out.push(GRPC_CORE);
  }
  if (groups.includes('status')) out.push(/\bgot status: [1-5]\d\d\b/);
  const core = API_CORE_CLASSES.filter((c) => groups.includes(c[2]) || (c[2] === 'unavailable' && (groups.includes('connect') || groups.includes('status'))));
  if (core.length) out.push(new RegExp(String.raw`\bgoogle\.api_core\.exceptions\.(${core.map((c) => c[0]).join('|')})\b`));
  if (groups.includes('timeout') || groups.includes('connect') || groups.includes('status')) out.push(API_CORE_RETRY);
  for (const p of ['undici', 'node-fetch', 'stainless-ts'] as const) {
    const names = namesOf(p, has);
    if (names.length) out.push(NAMED(names));
  }
  const generic = NET_ERRORS.filter((x) => x.generic && has(x) && (x.producer === 'node' || x.producer === 'node-fetch'));
  if (generic.length) out.push(new RegExp(String.raw`(?:${GENERIC_NAMES.join('|')})(?: \[\w{2,40}\])?: (?:${alt([...new Set(generic.map((x) => templateHead(x.message)))])})`));
  const nodeCodes = NET_ERRORS.filter((x) => x.producer === 'node' && x.code?.startsWith('ERR_') && has(x));
  if (nodeCodes.length) out.push(new RegExp(String.raw`\bcode: '(${[...new Set(nodeCodes.map((x) => x.code!))].join('|')})'`));
  if (groups.includes('connect')) out.push(NODE_DNS);
  const claude = NET_ERRORS.filter((x) => x.producer === 'claude-code' && has(x));
  if (claude.length) out.push(new RegExp(String.raw`\bAPI Error:? \(?(?:${alt(claude.map((x) => x.message))})`));
  // Codex's stream disconnect says after its colon whether it timed out or carried a status.
  const crossGroup = (x: NetError) => x.producer === 'codex' && x.name === 'Stream' && (groups.includes('timeout') || groups.includes('status'));
  const fixed = NET_ERRORS.filter((x) => ['codex', 'gemini-cli', 'reqwest', 'go', 'grpc'].includes(x.producer) && !x.contextual && (has(x) || crossGroup(x)));
  const details = NET_ERRORS.filter((x) => x.producer === 'grpc' && x.contextual && has(x));
  if (details.length) out.push(new RegExp(String.raw`(?:\bdetails = "|\bgrpc_message:")(?:[^"]{0,200}?)(?:${alt(details.map((x) => templateHead(x.message)))})`));
  if (fixed.length) out.push(new RegExp(alt([...new Set(fixed.map((x) => templateHead(x.message)))].sort((a, b) => b.length - a.length))));
  // Go's texts that need their url.Error / OpError / DNSError before them.
  const contextual = NET_ERRORS.filter((x) => x.producer === 'go' && x.contextual && (has(x) || (x.name === 'os.ErrDeadlineExceeded' && groups.includes('connect')) || (groups.includes('connect') && x.group !== 'echo' && x.group !== 'dropped')));
  if (contextual.length) {
    const tails = alt([...new Set(contextual.map((x) => x.message))]);
    out.push(new RegExp(String.raw`\b(?:dial|read|write) (?:tcp|udp|unix)[46]?\b.{0,200}: (?:${tails})\b`), new RegExp(String.raw`\blookup \S{1,253}.{0,120}: (?:${tails})\b`));
    out.push(new RegExp(String.raw`\b(?:Get|Post|Put|Patch|Delete|Head|Options) \\?"?[a-z][\w+.-]{1,20}:\/\/[^\s"\\]{1,300}\\?"?: (?:${tails})(?:\\?["'])?\s*$`));
  }
  return out;
}

/**
 * Source shown in a stack or traceback that names the errors without one happening; trackers' background
 * retries; a line its producer logged at an information level (k3s "level=info msg=\"Waiting for containerd
 * startup: rpc error: code = Unavailable …\"", grpc-go's INFO reconnect notes): a wait or a retry, not the failure.
 */
// Codex's retry note quotes the stream error it is about to retry (codex-rs/core/src/codex.rs
// notify_stream_error "stream error: {e}; retrying {retries}/{max_retries} in {delay:?}…"): only the failure
// after the last retry counts (agent-cli-vocab.ts reads the note as an echo).
const CODEX_RETRY_NOTE = /; retrying \d+\/\d+ in \S/;
const NOT_A_FAILURE: readonly RegExp[] = [TRACKER_NOISE, /\bexcept\b|\bcatch \(|\binstanceof\b|\bisinstance\(|\berrors\.Is\(|===? ['"]UND_ERR/, CODEX_RETRY_NOTE, ...INFO_LEVELS.map((l) => l.re)];

const WHY = "a Node.js (undici, node-fetch, the TypeScript SDKs), Go (net/http, net) or gRPC client reported one of its own errors (node-go-grpc-vocab.ts), whose group says what failed";

export const netlibRules = defineRules([
  {
    // An error status: HTTP, or a gRPC code by grpc-gateway's / google-api-core's HTTP mapping.
    id: 'netlib.status',
    class: 'gateway.5xx',
    patterns: patternsFor(['status']),
    unless: NOT_A_FAILURE,
    strength: 45,
    extract: extractFor(['status']),
    why: WHY,
    hint: HINTS['5xx'],
  },
  {
    // No connection, a connection broken mid-request, gRPC UNAVAILABLE from the transport, and the wrappers whose cause decides (weak).
    id: 'netlib.connection',
    class: 'network.error',
    patterns: patternsFor(['connect', 'dropped', 'wrapper']),
    unless: NOT_A_FAILURE,
    strength: 45,
    extract: extractFor(['connect', 'dropped', 'wrapper']),
    why: WHY,
    hint: HINTS.connect,
  },
  {
    id: 'netlib.timeout',
    class: 'api.timeout',
    patterns: patternsFor(['timeout']),
    unless: NOT_A_FAILURE,
    strength: 46,
    extract: extractFor(['timeout']),
    why: WHY,
    hint: HINTS.timeout,
  },
  {
    // The URL, scheme, port or message-size limit the run was given: counted in the run's logs only (an
    // agent's session quotes such errors from the task it works on).
    id: 'netlib.config',
    class: 'config.error',
    patterns: patternsFor(['config']),
    unless: NOT_A_FAILURE,
    strength: 47,
    sections: RUN_LOG_ONLY,
    extract: extractFor(['config']),
    why: 'a Node.js, Go or gRPC client rejected the URL, scheme, port or message size it was configured with',
    hint: HINTS.config,
  },
  {
    // A cancel, an abort, a client destroyed at shutdown, a redirect limit, the run misusing the client: judged, as nothing.
    id: 'netlib.quiet',
    class: 'unknown',
    patterns: patternsFor(['echo', 'usage']),
    strength: 1,
    extract: () => ({ classOverride: null }),
    why: 'a Node.js, Go or gRPC client error that says nothing about a failure on its own (node-go-grpc-vocab.ts groups echo, usage)',
    hint: 'No failure of its own: a request the caller cancelled or aborted, a client closed at shutdown, a redirect limit, or the run misusing the client.',
  },
]);

/** For tests and docs: the class each deciding group gives (status by its code). */
export const GROUP_CLASS: Record<Exclude<NetGroup, 'status' | 'unavailable' | 'echo' | 'usage' | 'skip'>, FailureClass> = {
  connect: 'network.error',
  dropped: 'network.error',
  wrapper: 'network.error',
  timeout: 'api.timeout',
  config: 'config.error',
};
