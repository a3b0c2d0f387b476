// The error vocabularies of the HTTP proxies, load balancers and CDNs that sit in front of model servers
// and sandbox ingresses, as data: the error pages and bodies each one answers with itself (not its
// upstream's), and the error-log lines it writes about its upstream. rules/proxy.ts (proxy.error_page,
// proxy.upstream_log) reads a line through these tables; the narrower rules of gateway.ts
// (gateway.server_error "Bad Gateway" / "Service Unavailable" / "Gateway Time-out" / Envoy's reset text,
// gateway.rate_limited, gateway.access_log_4xx), build.ts (build.registry_push, a registry proxy's 413) and
// network.ts (network.connection "Connection refused") keep the wordings they had and stay first where
// both match (they are stronger).
//
// Sources:
// - nginx/nginx 3f6f782 (2026-08-21): src/http/ngx_http_special_response.c (every error page:
//   "<head><title>{status} {reason}</title></head>", "<center><h1>…</h1></center>", the
//   "<hr><center>nginx</center>" tail), src/http/ngx_http_upstream.c (the upstream error-log texts
//   "upstream timed out", "upstream prematurely closed connection", "upstream sent too big header", "no
//   live upstreams", "upstream SSL certificate verify error", and the log actions "while connecting to
//   upstream", "while reading response header from upstream"), src/http/ngx_http_request_body.c ("client
//   intended to send too large body"), modules/ngx_http_limit_req_module.c / limit_conn ("limiting
//   requests, excess: … by zone", "limiting connections by zone"). AWS ALB/ELB answer with the same page
//   shape without the nginx tail (header "Server: awselb/2.0").
// - haproxy/haproxy 50872da (2026-08-21): src/http.c http_err_msgs (every page: "<html><body><h1>{status}
//   {reason}</h1>\n{sentence}\n</body></html>").
// - Envoy (envoyproxy/envoy, read through the code index): source/common/router/router.cc local replies
//   ("upstream connect error or disconnect/reset before headers. [retried and the latest ]reset reason:
//   {reason}[, transport failure reason: …]", "no healthy upstream", "upstream request timeout"),
//   source/common/http/utility.cc resetReasonToString (the reason texts), the response_code_details ids
//   of its access log (no_healthy_upstream, upstream_response_timeout, upstream_reset_before_response_
//   started{…}), the RBAC filter's "RBAC: access denied". Istio's sidecars and gateways are Envoy.
// - traefik/traefik fd5a576 (2026-07-24): pkg/server/service/loadbalancer/wrr/wrr.go (errNoAvailableServer
//   "no available server", 503), pkg/proxy/httputil/proxy.go (other failures answer Go's
//   http.StatusText, e.g. "Bad Gateway", "Gateway Timeout").
// - Kong/kong 22246ef (2026-07-01): kong/error_handlers.lua and kong/pdk/response.lua (the JSON bodies
//   {"message":"…"} of 500/502/503/504), kong/runloop/balancer/init.lua ("failure to get a peer from the
//   ring-balancer", "name resolution failed"), kong/runloop/handler.lua ("no Route matched with those
//   values"), plugins key-auth ("No API key found in request") and rate-limiting ("API rate limit
//   exceeded").
// - Cloudflare's error pages (developers.cloudflare.com "Cloudflare 5xx errors", the pages as served:
//   "<title>{host} | {code}: {text}</title>", "<span class=\"inline-block\">{text}</span><span
//   class=\"code-label\">Error code {code}</span>", and the short body "error code: {code}" it sends to
//   API clients).

/**
 * What a proxy's own answer says about the request:
 * - down: the proxy had no upstream to send it to, or could not connect to it (no healthy upstream, no
 *   server available, Cloudflare 521/522/523): gateway.5xx, flagged `upstreamDown` so the server's own
 *   crash in the bundle explains it (relations.ts upstream-died);
 * - bad_answer: the upstream answered something the proxy could not pass on, or reset the request (a 502,
 *   Cloudflare 520, Envoy's reset before headers): gateway.5xx, also `upstreamDown`;
 * - timeout: the proxy's wait for the upstream's answer ran out (504, Cloudflare 524, Envoy's upstream
 *   request timeout): gateway.5xx (TAXONOMY lists 504 there; the client's own timeout is api.timeout, which
 *   relations.ts EXPLAINS reads as the cause of the proxy's 5xx);
 * - tls: the proxy's TLS to the upstream failed (Cloudflare 525/526): gateway.5xx;
 * - proxy_error: the proxy itself failed or shed the request (500, 501, 503 of nginx's limit modules,
 *   Envoy's circuit-breaker overflow): gateway.5xx;
 * - refused: the proxy refused the request itself (4xx: a body too large, a rate limit, no route, a key or
 *   an access rule): gateway.4xx;
 * - skip: not a failure (redirects, HAProxy's 200 page).
 */
import type { FailureClass } from '../taxonomy.js';

export type ProxyGroup = 'down' | 'bad_answer' | 'timeout' | 'tls' | 'proxy_error' | 'refused' | 'skip';

export type ProxyProducer = 'nginx' | 'haproxy' | 'envoy' | 'cloudflare' | 'traefik' | 'kong';

/**
 * One answer: its producer, its status, its name (the reason phrase, code or detail id as printed), the
 * sentence it prints beside it ('' none), its group, and whether that sentence (or text) is distinctive
 * enough to be read on a line of its own (HAProxy's "The server didn't respond in time." is; its "The
 * resource could not be found." is not).
 */
export interface ProxyAnswer {
  producer: ProxyProducer;
  status: number;
  name: string;
  text: string;
  group: ProxyGroup;
  alone: boolean;
  /**
   * An older, stronger rule reads this answer in the same class on every shape the proxy rules would read
   * it in (pkg-vocab.ts's `readBy` convention): that rule and its class. The proxy rules decide nothing on
   * it, so such a line has one rule. Only answers without `upstreamDown` (down / bad_answer set it for
   * relations.ts, which gateway.server_error does not), and only page-shaped ones (a sentence read alone
   * is a shape the older rule does not read).
   */
  readBy?: { rule: string; class: FailureClass };
}

const a = (producer: ProxyProducer, status: number, name: string, text: string, group: ProxyGroup, alone = false): ProxyAnswer => ({ producer, status, name, text, group, alone });

// gateway.server_error (55) reads "Internal Server Error" and "Gateway Time-out" wherever they are printed.
const READ_BY: Readonly<Record<string, { rule: string; class: FailureClass }>> = {
  'nginx 500': { rule: 'gateway.server_error', class: 'gateway.5xx' },
  'nginx 504': { rule: 'gateway.server_error', class: 'gateway.5xx' },
  'haproxy 500': { rule: 'gateway.server_error', class: 'gateway.5xx' },
};
const withReadBy = (x: ProxyAnswer): ProxyAnswer => {
  const by = READ_BY[`${x.producer} ${x.status}`];
  return by ? { ...x, readBy: by } : x;
};

/** The group a status gives when its reason phrase is none the table lists. */
export function groupOfStatus(status: number): ProxyGroup {
  if (status < 400) return 'skip';
  if (status < 500) return 'refused';
  if (status === 502) return 'bad_answer';
  if (status === 504) return 'timeout';
  return 'proxy_error';
}

// nginx: the reason phrases of ngx_http_special_response.c; 494–497 print as 400 with their own phrase.
const NGINX_PAGES: readonly (readonly [number, string])[] = [
  [301, 'Moved Permanently'], [302, 'Found'], [303, 'See Other'], [307, 'Temporary Redirect'], [308, 'Permanent Redirect'],
  [400, 'Bad Request'], [400, 'Request Header Or Cookie Too Large'], [400, 'The SSL certificate error'], [400, 'No required SSL certificate was sent'], [400, 'The plain HTTP request was sent to HTTPS port'],
  [401, 'Authorization Required'], [402, 'Payment Required'], [403, 'Forbidden'], [404, 'Not Found'], [405, 'Not Allowed'], [406, 'Not Acceptable'],
  [407, 'Proxy Authentication Required'], [408, 'Request Time-out'], [409, 'Conflict'], [410, 'Gone'], [411, 'Length Required'], [412, 'Precondition Failed'],
  [413, 'Request Entity Too Large'], [414, 'Request-URI Too Large'], [415, 'Unsupported Media Type'], [416, 'Requested Range Not Satisfiable'], [421, 'Misdirected Request'], [429, 'Too Many Requests'],
  [500, 'Internal Server Error'], [501, 'Not Implemented'], [502, 'Bad Gateway'], [503, 'Service Temporarily Unavailable'], [504, 'Gateway Time-out'], [505, 'HTTP Version Not Supported'], [507, 'Insufficient Storage'],
];

// HAProxy: http_err_msgs of src/http.c, each with the sentence on the line after its <h1>.
const HAPROXY_PAGES: readonly (readonly [number, string, string, boolean])[] = [
  [200, 'OK', 'Service ready.', false],
  [400, 'Bad request', 'Your browser sent an invalid request.', false],
  [401, 'Unauthorized', 'You need a valid user and password to access this content.', false],
  [403, 'Forbidden', 'Request forbidden by administrative rules.', true],
  [404, 'Not Found', 'The resource could not be found.', false],
  [405, 'Method Not Allowed', 'A request was made of a resource using a request method not supported by that resource.', false],
  [407, 'Unauthorized', 'You need a valid user and password to access this content.', false],
  [408, 'Request Time-out', "Your browser didn't send a complete request in time.", false],
  [410, 'Gone', 'The resource is no longer available and will not be available again.', false],
  [413, 'Payload Too Large', 'The request entity exceeds the maximum allowed.', true],
  [414, 'URI Too Long', 'The URI provided was too long for the server to process.', false],
  [421, 'Misdirected Request', 'Request sent to a non-authoritative server.', false],
  [422, 'Unprocessable Content', 'The server cannot process the contained instructions.', false],
  [425, 'Too Early', 'Your browser sent early data.', false],
  [429, 'Too Many Requests', 'You have sent too many requests in a given amount of time.', true],
  [431, 'Request Header Fields Too Large', 'Request Header Fields Too Large.', false],
  [500, 'Internal Server Error', 'An internal server error occurred.', false],
  [501, 'Not Implemented', 'The server does not support the functionality required to fulfill the request.', false],
  [502, 'Bad Gateway', 'The server returned an invalid or incomplete response.', true],
  [503, 'Service Unavailable', 'No server is available to handle this request.', true],
  [504, 'Gateway Time-out', "The server didn't respond in time.", true],
];

export const PROXY_ANSWERS: readonly ProxyAnswer[] = [
  ...NGINX_PAGES.map(([s, r]) => withReadBy(a('nginx', s, r, '', groupOfStatus(s)))),
  // HAProxy's 503 is its own: no server of the backend is up.
  ...HAPROXY_PAGES.map(([s, r, t, alone]) => withReadBy(a('haproxy', s, r, t, s === 503 ? 'down' : groupOfStatus(s), alone))),

  // Envoy's local replies (router.cc) and the reset reasons it names (utility.cc resetReasonToString).
  a('envoy', 503, 'no_healthy_upstream', 'no healthy upstream', 'down', true),
  a('envoy', 504, 'upstream_response_timeout', 'upstream request timeout', 'timeout', true),
  a('envoy', 504, 'upstream_per_try_timeout', 'upstream request timeout', 'timeout', true),
  a('envoy', 503, 'local connection failure', 'upstream connect error or disconnect/reset before headers. reset reason: local connection failure', 'down', true),
  a('envoy', 503, 'remote connection failure', 'upstream connect error or disconnect/reset before headers. reset reason: remote connection failure', 'down', true),
  // Envoy < 1.19 said "connection failure" for either side.
  a('envoy', 503, 'connection failure', 'upstream connect error or disconnect/reset before headers. reset reason: connection failure', 'down', true),
  a('envoy', 503, 'connection timeout', 'upstream connect error or disconnect/reset before headers. reset reason: connection timeout', 'down', true),
  a('envoy', 503, 'connection termination', 'upstream connect error or disconnect/reset before headers. reset reason: connection termination', 'bad_answer', true),
  a('envoy', 503, 'local reset', 'upstream connect error or disconnect/reset before headers. reset reason: local reset', 'bad_answer', true),
  a('envoy', 503, 'remote reset', 'upstream connect error or disconnect/reset before headers. reset reason: remote reset', 'bad_answer', true),
  a('envoy', 503, 'local refused stream reset', 'upstream connect error or disconnect/reset before headers. reset reason: local refused stream reset', 'bad_answer', true),
  a('envoy', 503, 'remote refused stream reset', 'upstream connect error or disconnect/reset before headers. reset reason: remote refused stream reset', 'bad_answer', true),
  a('envoy', 503, 'protocol error', 'upstream connect error or disconnect/reset before headers. reset reason: protocol error', 'bad_answer', true),
  a('envoy', 503, 'remote error with CONNECT request', 'upstream connect error or disconnect/reset before headers. reset reason: remote error with CONNECT request', 'bad_answer', true),
  // The cluster's circuit breaker (max pending requests) or the overload manager shed the request.
  a('envoy', 503, 'overflow', 'upstream connect error or disconnect/reset before headers. reset reason: overflow', 'proxy_error', true),
  a('envoy', 503, 'overload manager reset', 'upstream connect error or disconnect/reset before headers. reset reason: overload manager reset', 'proxy_error', true),
  a('envoy', 503, 'cluster_not_found', '', 'proxy_error', true),
  a('envoy', 404, 'route_not_found', '', 'refused', true),
  a('envoy', 403, 'rbac_access_denied_matched_policy', 'RBAC: access denied', 'refused', true),

  // Cloudflare's own pages (the 52x are Cloudflare's codes for an origin it could not use).
  a('cloudflare', 500, 'Internal server error', '', 'proxy_error'),
  a('cloudflare', 502, 'Bad gateway', '', 'bad_answer'),
  a('cloudflare', 504, 'Gateway time-out', '', 'timeout'),
  a('cloudflare', 520, 'Web server is returning an unknown error', '', 'bad_answer', true),
  a('cloudflare', 521, 'Web server is down', '', 'down', false),
  a('cloudflare', 522, 'Connection timed out', '', 'down', false),
  a('cloudflare', 523, 'Origin is unreachable', '', 'down', true),
  a('cloudflare', 524, 'A timeout occurred', '', 'timeout', false),
  a('cloudflare', 525, 'SSL handshake failed', '', 'tls', false),
  a('cloudflare', 526, 'Invalid SSL certificate', '', 'tls', false),
  a('cloudflare', 530, 'Origin DNS error', '', 'down', false),
  // 1xxx: Cloudflare's own refusals and its tunnel to the origin.
  a('cloudflare', 429, '1015', 'You are being rate limited', 'refused', true),
  a('cloudflare', 403, '1020', 'Access denied', 'refused', false),
  a('cloudflare', 530, '1016', 'Origin DNS error', 'down', false),
  a('cloudflare', 530, '1033', 'Cloudflare Tunnel error', 'down', true),

  a('traefik', 503, 'errNoAvailableServer', 'no available server', 'down', true),

  a('kong', 500, 'ERR_UNEXPECTED', 'An unexpected error occurred', 'proxy_error', false),
  a('kong', 502, 'BODIES[502]', 'An invalid response was received from the upstream server', 'bad_answer', true),
  a('kong', 503, 'BODIES[503]', 'The upstream server is currently unavailable', 'down', true),
  a('kong', 504, 'BODIES[504]', 'The upstream server is timing out', 'timeout', true),
  a('kong', 503, 'balancer', 'failure to get a peer from the ring-balancer', 'down', true),
  a('kong', 503, 'balancer dns', 'name resolution failed', 'down', false),
  a('kong', 404, 'router', 'no Route matched with those values', 'refused', true),
  a('kong', 401, 'ERR_NO_API_KEY', 'No API key found in request', 'refused', true),
  a('kong', 429, 'rate-limiting', 'API rate limit exceeded', 'refused', false),
];

/**
 * nginx's error-log lines about its upstream (and its limit modules), as it writes them after
 * "[error] pid#tid: *conn ": [source, pattern, group]. A connect() that the upstream refused is
 * network.connection's ("Connection refused"), a reset is the errno rules'; these are the ones no other
 * rule reads.
 */
export const NGINX_UPSTREAM_LOG: readonly (readonly [string, RegExp, ProxyGroup])[] = [
  ['ngx_http_upstream.c', /\bupstream timed out \(\d+: [^)]{2,40}\) while (?:reading response header from|reading|sending request to) upstream\b/, 'timeout'],
  ['ngx_http_upstream.c', /\bupstream timed out \(\d+: [^)]{2,40}\) while connecting to upstream\b/, 'down'],
  ['ngx_http_upstream_round_robin.c', /\bno live upstreams while connecting to upstream\b/, 'down'],
  ['ngx_http_upstream.c', /\bupstream prematurely closed connection while reading (?:response header from )?upstream\b/, 'bad_answer'],
  ['ngx_http_upstream.c', /\bupstream sent (?:too big header|invalid header|no valid HTTP\/1\.0 header) while reading response header from upstream\b/, 'bad_answer'],
  ['ngx_event_openssl.c', /\bupstream SSL certificate (?:verify error: |does not match ")/, 'tls'],
  ['ngx_http_request_body.c', /\bclient intended to send too large body: \d+ bytes\b/, 'refused'],
  ['ngx_http_limit_req_module.c', /\blimiting requests, excess: [\d.]+ by zone "/, 'refused'],
  ['ngx_http_limit_conn_module.c', /\blimiting connections by zone "/, 'refused'],
];

export function proxyAnswer(producer: ProxyProducer, status: number, name: string): ProxyAnswer | undefined {
  return PROXY_ANSWERS.find((x) => x.producer === producer && x.status === status && x.name.toLowerCase() === name.toLowerCase());
}
