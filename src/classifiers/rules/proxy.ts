// HTTP proxies, load balancers and CDNs in front of model servers and sandbox ingresses: their own error
// pages and bodies and nginx's upstream error-log lines, read through the tables of proxy-vocab.ts
// (sources there) by the shape each producer prints them in. The narrower gateway rules that already
// knew some of these wordings (gateway.server_error's "Bad Gateway" / "Gateway Time-out" / Envoy's reset
// text, build.registry_push for a registry proxy's 413) are stronger and keep first place; these add the
// pages, codes and lines no rule read (Cloudflare's 52x titles, HAProxy's sentences, Kong's bodies,
// Traefik's "no available server", Envoy's response_code_details, nginx's "upstream timed out").
// Who answered decides over the status where the line shows it (answerer.ts: a sandbox ingress's 502 is
// the sandbox not being there).
import { defineRules, type Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import { byAnswerer } from './answerer.js';
import { groupOfStatus, NGINX_UPSTREAM_LOG, PROXY_ANSWERS, type ProxyAnswer, type ProxyGroup, type ProxyProducer, proxyAnswer } from './proxy-vocab.js';
import { escapeRegExp } from './regex-text.js';


const HINTS: Record<Exclude<ProxyGroup, 'skip'>, string> = {
  down: 'The proxy in front of the server had no healthy upstream to send the request to, or could not connect to it: the model server (or sandbox) behind it was down, not yet ready, or not registered with the proxy. Its own log says why it was not up; check the proxy\'s upstream/backend health checks.',
  bad_answer: 'The proxy got no usable answer from its upstream (a connection closed or reset before the response, an invalid response): the server behind it crashed or restarted mid-request. Its own log says why.',
  timeout: "The proxy stopped waiting for its upstream's answer (its read/response timeout, Cloudflare's 100 s): the model server was too slow for the proxy's timeout (long generations, queueing). Raise the proxy timeout (proxy_read_timeout, Envoy route timeout; Cloudflare's cannot be raised on most plans), stream the response, or cap max_tokens.",
  tls: "The proxy's TLS connection to its upstream failed (handshake, an invalid or expired certificate on the origin): fix the origin's certificate or the proxy's TLS settings for that upstream.",
  proxy_error: 'The proxy itself failed or shed the request (an internal error, its rate/connection limit answering 503, a circuit breaker overflow): check the proxy\'s own log and limits.',
  refused: 'The proxy refused the request itself (4xx): a body larger than it allows (client_max_body_size), its rate limit, no route for the path, or a missing/invalid key or access rule. Fix the request or the proxy\'s limits and routes.',
};

const GROUP_CLASS: Record<Exclude<ProxyGroup, 'skip'>, FailureClass> = {
  down: 'gateway.5xx',
  bad_answer: 'gateway.5xx',
  timeout: 'gateway.5xx',
  tls: 'gateway.5xx',
  proxy_error: 'gateway.5xx',
  refused: 'gateway.4xx',
};

function verdict(producer: ProxyProducer | 'unknown', status: number | undefined, group: ProxyGroup, strength: number): Extracted {
  if (group === 'skip') return { classOverride: null };
  return {
    classOverride: GROUP_CLASS[group],
    strength,
    hint: HINTS[group],
    proxy: producer,
    proxyGroup: group,
    ...(status !== undefined ? { httpStatus: status } : {}),
    ...(group === 'down' || group === 'bad_answer' ? { upstreamDown: true } : {}),
  };
}

// An answer an older rule reads (readBy) decides nothing here.
const of = (x: ProxyAnswer | undefined, strength: number): Extracted | undefined => (x ? (x.readBy ? { classOverride: null } : verdict(x.producer, x.status, x.group, strength)) : undefined);

// The page shapes: nginx / ALB "<title>502 Bad Gateway</title>", HAProxy "<h1>504 Gateway Time-out</h1>".
const STATUS_PAGE = /<(?:title|h1)>([1-5]\d\d) ([A-Z][\w' -]{1,60})<\/(?:title|h1)>/;
// Cloudflare's "<title>{host} | 524: A timeout occurred</title>", its code label, its short API body.
const CF_TITLE = /<title>[^<|]{1,200} \| (\d{3,4}): ([^<]{2,80})<\/title>/;
const CF_CODE_LABEL = /<span class="code-label">Error code (\d{3,4})<\/span>/;
const CF_SHORT_BODY = /(?:^|[\s"'>:])error code: (52\d|530|10\d\d)\b/;
// Envoy's local reply with the reset reason, and its access log's response_code_details.
const ENVOY_RESET = /upstream connect error or disconnect\/reset before headers\. (?:retried and the latest )?reset reason: ([a-zA-Z][a-zA-Z_ ]{1,40}[a-zA-Z])/;
const ENVOY_DETAILS = /\b(no_healthy_upstream|upstream_response_timeout|upstream_per_try_timeout|cluster_not_found|route_not_found|rbac_access_denied_matched_policy)\b|\bupstream_reset_before_response_started\{([a-z_]{2,60})/;
// Texts each distinctive enough alone (HAProxy's sentences, Kong's bodies, Traefik's, Envoy's, Cloudflare's).
const ALONE = PROXY_ANSWERS.filter((x) => x.alone && !x.readBy && x.group !== 'skip' && (x.text || x.producer === 'cloudflare'));
const aloneText = (x: ProxyAnswer) => x.text || x.name;
const ALONE_TEXT = new RegExp(`(?:^|[\\s"'>:=])(${[...new Set(ALONE.map(aloneText))].sort((p, q) => q.length - p.length).map(escapeRegExp).join('|')})(?=$|[\\s"'<.,}])`);

// Kong's JSON body ({"message":"…"}, kong.response.error): every text of the table, the generic ones too.
const KONG = PROXY_ANSWERS.filter((x) => x.producer === 'kong');
const KONG_BODY = new RegExp(`"message"\\s*:\\s*"(${KONG.map((x) => escapeRegExp(x.text)).join('|')})"`);

function readPage(line: string): Extracted | undefined {
  let m = CF_TITLE.exec(line);
  if (m) {
    const code = Number(m[1]);
    return of(PROXY_ANSWERS.find((x) => x.producer === 'cloudflare' && (x.name === m![1] || (x.status === code && x.name.toLowerCase() === m![2]!.trim().toLowerCase()))), 58) ?? verdict('cloudflare', code < 1000 ? code : undefined, code >= 1000 ? 'proxy_error' : groupOfStatus(code), 58);
  }
  if ((m = CF_CODE_LABEL.exec(line) ?? CF_SHORT_BODY.exec(line))) {
    const code = m[1]!;
    return of(PROXY_ANSWERS.find((x) => x.producer === 'cloudflare' && (x.name === code || (Number(code) < 1000 && x.status === Number(code)))), 58);
  }
  if ((m = STATUS_PAGE.exec(line))) {
    const status = Number(m[1]);
    const found = proxyAnswer('nginx', status, m[2]!.trim()) ?? proxyAnswer('haproxy', status, m[2]!.trim());
    // The older rule reads the phrase as printed; another case of it ("Gateway time-out") stays this rule's.
    const x = found?.readBy && found.name !== m[2]!.trim() ? { ...found, readBy: undefined } : found;
    // A 4xx page says little about whose request it was; any other rule on the bundle decides first.
    const strength = status < 500 ? 44 : 54;
    return x ? of(x, strength) : verdict('unknown', status, groupOfStatus(status), strength);
  }
  if ((m = ENVOY_RESET.exec(line))) {
    const reason = m[1]!.replace(/_/g, ' ').trim();
    return of(proxyAnswer('envoy', 503, reason) ?? PROXY_ANSWERS.find((x) => x.producer === 'envoy' && reason.startsWith(x.name)), 54) ?? verdict('envoy', 503, 'bad_answer', 54);
  }
  if ((m = ENVOY_DETAILS.exec(line))) {
    if (m[1]) return of(PROXY_ANSWERS.find((x) => x.producer === 'envoy' && x.name === m![1]), 54);
    const reason = m[2]!.replace(/_/g, ' ');
    return of(PROXY_ANSWERS.find((x) => x.producer === 'envoy' && x.name === reason), 54) ?? verdict('envoy', 503, 'bad_answer', 54);
  }
  if ((m = KONG_BODY.exec(line))) {
    const t = m[1]!;
    return of(KONG.find((x) => x.text === t), 54);
  }
  if ((m = ALONE_TEXT.exec(line))) {
    const t = m[1]!;
    return of(ALONE.find((x) => aloneText(x) === t), 54);
  }
  return undefined;
}

export const proxyRules = defineRules([
  {
    id: 'proxy.error_page',
    class: 'gateway.5xx',
    patterns: [STATUS_PAGE, CF_TITLE, CF_CODE_LABEL, CF_SHORT_BODY, ENVOY_RESET, ENVOY_DETAILS, KONG_BODY, ALONE_TEXT],
    // Source or a client's own retry list quoting the texts (`if "no healthy upstream" in body:`).
    unless: [/\b(?:if|elif|in|==|!=)\s+["']|["']\s+in\s+\w|\bexcept\b/],
    strength: 54,
    extract: byAnswerer((line) => readPage(line) ?? { classOverride: null }),
    why: "an HTTP proxy, load balancer or CDN answered with its own error page or body (proxy-vocab.ts), whose status and wording say what failed behind it",
    hint: HINTS.bad_answer,
  },
  {
    // nginx's error log: "[error] 26#26: *1 upstream timed out (110: Connection timed out) while reading
    // response header from upstream, client: …". Above the errno rules, which would read the "(110:
    // Connection timed out)" inside as a connection failing.
    id: 'proxy.upstream_log',
    class: 'gateway.5xx',
    patterns: NGINX_UPSTREAM_LOG.map(([, re]) => re),
    strength: 57,
    extract: byAnswerer((line) => {
      const row = NGINX_UPSTREAM_LOG.find(([, re]) => re.test(line));
      return row ? verdict('nginx', undefined, row[2], 57) : { classOverride: null };
    }),
    why: "nginx logged that its upstream (the model server or sandbox behind it) timed out, was unavailable or answered badly, or that it refused the request itself",
    hint: HINTS.timeout,
  },
]);
