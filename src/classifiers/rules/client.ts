// HTTP clients and LLM SDKs: every exception class of the table in client-vocab.ts (sources there), read
// by the qualified name Python prints for it (`openai.RateLimitError: …`, `aiohttp.client_exceptions.
// ServerDisconnectedError: …`, LiteLLM's own `litellm.RateLimitError: …` prefix). Of botocore, only its
// HTTP-layer and settings classes (aws-vocab.ts BOTOCORE_HTTP_CLASSES, by name and, for most, by their
// fmt's opening words); every other botocore line (its other classes, the codes of a ClientError, a
// model runtime's included) is rules/aws.ts's. The narrower rules of gateway.ts, network.ts and config.ts
// match many of the same lines by their own wordings and are stronger, so they keep first place; these decide what no narrower rule names. The usage and echo
// classes are read too, as nothing (client.quiet): such a line is no failure of its own, so it is no
// input of the vocabulary fallback either (which guessed config.error from "Pool is closed."); the
// traceback catch-alls still read a usage error that ends the run's traceback as the run's code. The
// skip group (base classes) is in no pattern: its message decides, by the other rules or the fallback.
import { defineRules, type Extracted } from '../rule.js';
import { answeredClass } from './answerer.js';
import { ALL_CLIENT_ERRORS, LITELLM_PROVIDER_TEXTS, OPENAI_API_ERROR_TEXTS, type ClientError, type ClientErrorGroup, type ClientProducer, clientError, clientErrorByCode, clientErrorByText, namesOf, PRODUCER_MODULES, producerOf } from './client-vocab.js';
import { ANTHROPIC_TYPE_STATUS } from './gateway.js';
import { HARNESS_TIMEOUTS, TRACKER_NOISE } from './network.js';
import { RUN_LOG_ONLY } from './sections.js';
import { escapeRegExp } from './regex-text.js';

/**
 * One pattern per producer: its module path, then one of its class names that `pick` keeps (groups
 * module, name); one of the texts that name a class on their own (group text: botocore's fmt, undici's
 * default messages); one of undici's codes (group code). Each rule below takes the names of the groups it
 * decides, so the rule's class is what those names mean (the vocabulary fallback reads rule keys by the
 * rule's class).
 */
const longestFirst = (xs: string[]): string[] => [...xs].sort((a, b) => b.length - a.length);
function qualified(pick: (x: ClientError) => boolean): RegExp[] {
  const byModule = (Object.keys(PRODUCER_MODULES) as ClientProducer[]).flatMap((p) => {
    const names = namesOf(p).filter((n) => pick(clientError(p, n)!));
    return names.length ? [new RegExp(String.raw`\b(?<module>${PRODUCER_MODULES[p]})\.(?<name>${names.join('|')})\b(?![.\w])`)] : [];
  });
  const texts = longestFirst(ALL_CLIENT_ERRORS.filter((x) => x.byText && pick(x)).map((x) => escapeRegExp(x.byText!)));
  const codes = longestFirst(ALL_CLIENT_ERRORS.filter((x) => x.code && pick(x)).map((x) => x.code!));
  return [
    ...byModule,
    ...(texts.length ? [new RegExp(`(?<text>${texts.join('|')})`)] : []),
    ...(codes.length ? [new RegExp(String.raw`\b(?<code>${codes.join('|')})\b`)] : []),
  ];
}
const refusedByClass = (x: ClientError): boolean => x.group === 'status' && x.status !== undefined && x.status < 500;
const statusByMessage = (x: ClientError): boolean => (x.group === 'status' || x.group === 'body') && !refusedByClass(x);

/** The status an error report carries, in each producer's wording (read after the class name). */
const STATUS_IN_MESSAGE: readonly RegExp[] = [
  /Error code: ([1-5]\d\d)\b/, // openai-python / anthropic _make_status_error_from_response
  /^:\s*([1-5]\d\d), message=/, // aiohttp ClientResponseError.__str__
  /\b([1-5]\d\d) (?:Client|Server) Error: /, // requests raise_for_status
  /(?:Informational response|Redirect response|Client error|Server error|Invalid status code) '([1-5]\d\d) /, // httpx raise_for_status
  /too many ([1-5]\d\d) error responses/, // urllib3 ResponseError
  /HTTP code ([1-5]\d\d) from API|HTTP response code was ([1-5]\d\d)\b/, // openai 0.28 api_requestor
  /<Response \[([1-5]\d\d)/, // requests / httpx Response repr in a message
];

/** Anthropic's error envelope, in a JSON body or a Python dict repr ('type': 'overloaded_error'). */
const ANTHROPIC_TYPE_RE = /["']type["']:\s*["'](invalid_request_error|authentication_error|permission_error|not_found_error|request_too_large|rate_limit_error|api_error|overloaded_error)["']/;

function statusIn(rest: string): number | undefined {
  for (const re of STATUS_IN_MESSAGE) {
    const m = re.exec(rest);
    const v = m?.[1] ?? m?.[2];
    if (v) return Number(v);
  }
  return undefined;
}

/** A status error's code: the class's own, else the message's (an error event mid-stream after a 200: the envelope's type), else the class's fallback. */
function statusOf(entry: ClientError, rest: string): number | undefined {
  if (entry.status !== undefined) return entry.status;
  const said = statusIn(rest);
  const typed = ANTHROPIC_TYPE_RE.exec(rest)?.[1];
  if (said !== undefined && said >= 400) return said;
  if (typed) return ANTHROPIC_TYPE_STATUS[typed];
  return said ?? entry.fallback;
}

/** Host-name and TLS failures are no server that is not listening (peer-not-listening in relations.ts). */
const NOT_A_REFUSAL = /Name or service not known|name resolution|nodename nor servname|getaddrinfo|No address associated|\bSSL|certificate/i;
const REFUSAL_NAMES = new Set(['ConnectError', 'ClientConnectorError', 'UnixClientConnectorError', 'NewConnectionError']);

const HINTS: Record<'connect' | 'dropped' | 'timeout' | 'config' | '4xx' | '5xx', string> = {
  connect: 'The client could not connect to the server (refused, DNS, TLS, a proxy, a connect timeout): check that the server is up and listening on that host and port, the proxy settings (HTTP(S)_PROXY / NO_PROXY) and the CA bundle.',
  dropped: "An open connection broke mid-request (reset, the server disconnected, a body cut short): the server or a proxy between died or closed it; the server's own log says why.",
  timeout: 'The server did not answer in time: check its latency under load (queueing on the inference server), raise the client timeout for long generations, cap max_tokens, or lower the client concurrency (a pool timeout is the client waiting for its own connections).',
  config: 'The client was given a URL or header it cannot use (no scheme, an unsupported scheme, a newline in a header value such as an API key read with its line end), or code written for another major version of the SDK: fix the endpoint setting or the installed version.',
  '4xx': 'The server refused the request (4xx): 429 is rate limiting (lower concurrency, back off), 401/403 the key, 404 the model name or path, 400/413/422 the request itself (context length, parameters the server does not take).',
  '5xx': 'The server or gateway failed (5xx, overloaded): its own log says why; retry with back-off or fail over to another deployment.',
};

/** The class a group and status give, as a signal's extract. */
function verdict(group: ClientErrorGroup, entry: ClientError, rest: string, line: string): Extracted {
  const name = `${entry.producer === 'openai<1' ? 'openai.error' : entry.producer}.${entry.name}`;
  if (group === 'status' || group === 'body') {
    const status = statusOf(entry, rest);
    // A body the client could not read says whose fault it is only with an error status beside it;
    // a redirect or an informational status is no refusal.
    if (status === undefined || status < 400 || (group === 'body' && entry.status === undefined && statusIn(rest) === undefined)) return { classOverride: null, clientError: name };
    // A registry or a sandbox runtime answering the status is an image pull or a sandbox (answerer.ts).
    const answered = answeredClass(line);
    if (answered) return { classOverride: answered, httpStatus: status, clientError: name, strength: 48 };
    // 424 Failed Dependency: the model behind the API failed (Bedrock ModelErrorException, SageMaker ModelError).
    return status < 500 && status !== 424
      ? { classOverride: 'gateway.4xx', httpStatus: status, clientError: name, strength: 48, hint: HINTS['4xx'] }
      : { classOverride: 'gateway.5xx', httpStatus: status, clientError: name, strength: 48, hint: HINTS['5xx'] };
  }
  if (group === 'connect') return { classOverride: 'network.error', clientError: name, strength: 46, hint: HINTS.connect, ...(REFUSAL_NAMES.has(entry.name) && !NOT_A_REFUSAL.test(line) ? { peerRefused: true } : {}) };
  if (group === 'dropped') return { classOverride: 'network.error', clientError: name, strength: 44, hint: HINTS.dropped, peerGone: true };
  if (group === 'timeout') return { classOverride: 'api.timeout', clientError: name, strength: 46, hint: HINTS.timeout };
  return { classOverride: null, clientError: name };
}

/** urllib3's MaxRetryError (and requests' exceptions around it) name their reason as a repr: "(Caused by ReadTimeoutError(…))". */
const CAUSED_BY_RE = /\(Caused by (\w{3,60})\(/;

function readLine(line: string, m: RegExpExecArray): { entry: ClientError; rest: string } | undefined {
  const g = m.groups ?? {};
  const producer = g.module ? producerOf(g.module) : undefined;
  const entry = g.text ? clientErrorByText(g.text) : g.code ? clientErrorByCode(g.code) : producer && g.name ? clientError(producer, g.name) : undefined;
  return entry ? { entry, rest: line.slice(m.index + m[0].length) } : undefined;
}

function extractClient(line: string, m: RegExpExecArray): Extracted {
  const read = readLine(line, m);
  if (!read) return { classOverride: null };
  const { entry, rest } = read;
  if (entry.group !== 'reason') return verdict(entry.group, entry, rest, line);
  // The reason inside decides; a read timeout retried to the end is the server not answering in time,
  // which network.max_retries (a connection that could not be made or kept) does not say, so it is read
  // above that rule. Any other reason stays below it.
  const causeName = CAUSED_BY_RE.exec(rest)?.[1];
  const cause = causeName ? (clientError('urllib3', causeName) ?? clientError('requests', causeName)) : undefined;
  if (cause && cause.group !== 'reason' && cause.group !== 'config') {
    const v = verdict(cause.group, cause, rest, line);
    if (v.classOverride === null) return { classOverride: 'network.error', clientError: `${entry.producer}.${entry.name}`, strength: 46, hint: HINTS.connect };
    return cause.group === 'timeout' ? { ...v, strength: 53, clientError: `${entry.producer}.${entry.name}(${cause.name})` } : { ...v, clientError: `${entry.producer}.${entry.name}(${cause.name})` };
  }
  return { classOverride: 'network.error', clientError: `${entry.producer}.${entry.name}`, strength: 46, hint: HINTS.connect };
}

/** The providers' texts LiteLLM classifies by and the OpenAI API's own messages, read as LiteLLM reads them: case-insensitively. */
const PROVIDER_TEXTS = [...LITELLM_PROVIDER_TEXTS, ...OPENAI_API_ERROR_TEXTS];
const PROVIDER_TEXT_RE = new RegExp(`(?<providerText>${longestFirst(PROVIDER_TEXTS.map(([text]) => escapeRegExp(text))).join('|')})`, 'i');
const PROVIDER_TEXT = new Map(PROVIDER_TEXTS.map(([text, status, what]) => [text, { status, what }]));

/** Source shown in a traceback ("except httpx.ReadTimeout:"), experiment trackers' own retries, harness timeouts that wrap a client's. */
const NOT_A_FAILURE: readonly RegExp[] = [TRACKER_NOISE, /\bexcept\b/, /\bisinstance\(|\braise_for_status\(\)\s*$/, HARNESS_TIMEOUTS];

const WHY = "an HTTP client or LLM SDK raised one of its own exception classes (client-vocab.ts), whose group says what failed";

export const clientRules = defineRules([
  {
    // Classes that stand for one 4xx code (RateLimitError 429, OAuthError 401, LiteLLM's guardrails 400).
    id: 'client.refused',
    class: 'gateway.4xx',
    patterns: qualified(refusedByClass),
    unless: NOT_A_FAILURE,
    strength: 48,
    extract: extractClient,
    why: WHY,
    hint: HINTS['4xx'],
  },
  {
    // Classes whose message carries the status (APIStatusError, HTTPStatusError, ClientResponseError), a
    // 5xx class, and a body the client could not read: the status decides 4xx vs 5xx.
    id: 'client.status',
    class: 'gateway.5xx',
    patterns: qualified(statusByMessage),
    unless: NOT_A_FAILURE,
    strength: 48,
    extract: extractClient,
    why: WHY,
    hint: HINTS['5xx'],
  },
  {
    // No connection, a connection broken mid-request, and urllib3's retries giving up (the reason decides).
    id: 'client.connection',
    class: 'network.error',
    patterns: qualified((x) => x.group === 'connect' || x.group === 'dropped' || x.group === 'reason'),
    unless: NOT_A_FAILURE,
    strength: 46,
    extract: extractClient,
    why: WHY,
    hint: HINTS.connect,
  },
  {
    id: 'client.timeout',
    class: 'api.timeout',
    patterns: qualified((x) => x.group === 'timeout'),
    unless: NOT_A_FAILURE,
    strength: 46,
    extract: extractClient,
    why: WHY,
    hint: HINTS.timeout,
  },
  {
    // A provider's text that LiteLLM maps to ContextWindowExceededError, ContentPolicyViolationError or
    // RateLimitError whatever status came with it (exception_mapping_utils.py ExceptionCheckers), and the
    // OpenAI API's own messages, whose documented status decides (a 503 overload is gateway.5xx).
    id: 'client.provider_text',
    class: 'gateway.4xx',
    patterns: [PROVIDER_TEXT_RE],
    unless: NOT_A_FAILURE,
    strength: 47,
    extract: (line, m) => {
      const read = PROVIDER_TEXT.get(m.groups!.providerText!.toLowerCase())!;
      const answered = answeredClass(line);
      if (!answered && read.status >= 500) return { httpStatus: read.status, providerText: read.what, classOverride: 'gateway.5xx', hint: HINTS['5xx'] };
      return { httpStatus: read.status, providerText: read.what, ...(answered ? { classOverride: answered } : {}) };
    },
    why: 'the provider refused the request in words LiteLLM reads as a context-window, content-policy or rate-limit refusal',
    hint: "The provider refused the request: a prompt longer than the model's context (truncate it, lower max_tokens), its content filter (a policy refusal: the prompt, not the infrastructure), or its capacity tier (lower concurrency).",
  },
  {
    // A note or a consequence (a retry, a redirect loop, a pool closed at shutdown, the model's answer cut
    // at max_tokens) or the run's own misuse of the client: judged, as nothing. Class unknown: its names
    // are no vocabulary of any failure class.
    id: 'client.quiet',
    class: 'unknown',
    patterns: qualified((x) => x.group === 'usage' || x.group === 'echo'),
    strength: 1,
    extract: () => ({ classOverride: null }),
    why: 'an HTTP client or SDK class that says nothing about a failure on its own (client-vocab.ts groups usage, echo)',
    hint: 'No failure of its own: a retry note, a redirect the client did not follow, a closed pool, or the run misusing the client.',
  },
  {
    // The URL, header or SDK version the run was given cannot be used at all: counted only in the run's
    // logs, as config.invalid_url (an agent's session quotes such errors from the task it works on).
    id: 'client.config',
    class: 'config.error',
    patterns: qualified((x) => x.group === 'config'),
    unless: NOT_A_FAILURE,
    strength: 47,
    sections: RUN_LOG_ONLY,
    extract: (line, m) => {
      const read = readLine(line, m);
      return read ? { clientError: `${read.entry.producer}.${read.entry.name}` } : { classOverride: null };
    },
    why: 'an HTTP client or SDK rejected the URL, header or API it was given before sending anything',
    hint: HINTS.config,
  },
]);
