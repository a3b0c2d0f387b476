// The proxies' and CDNs' error vocabularies (rules/proxy-vocab.ts, the proxy.* rules of rules/proxy.ts):
// every answer of the table through the page or body its producer serves, nginx's upstream log lines, and
// the groups ordering against the server's own failure the way they mean.
import { describe, expect, it } from 'vitest';
import { NGINX_UPSTREAM_LOG, PROXY_ANSWERS, type ProxyAnswer, type ProxyGroup } from '../../../src/classifiers/rules/proxy-vocab.js';
import { proxyRules } from '../../../src/classifiers/rules/proxy.js';
import { classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const rules = (text: string) => classifyText(text).evidence.map((e) => e.rule);

/** What each group means for the request (the table's own documentation). */
const GROUP_CLASS: Record<ProxyGroup, string | null> = {
  down: 'gateway.5xx',
  bad_answer: 'gateway.5xx',
  timeout: 'gateway.5xx',
  tls: 'gateway.5xx',
  proxy_error: 'gateway.5xx',
  refused: 'gateway.4xx',
  skip: null,
};

/** The answer as its producer serves it, as a client logs the body it got (each line of the page on its own line). */
function served(x: ProxyAnswer): string[] {
  switch (x.producer) {
    case 'nginx': {
      // ngx_http_special_response.c; AWS ALB serves the same page without the nginx tail.
      const page = ['<html>', `<head><title>${x.status} ${x.name}</title></head>`, '<body>', `<center><h1>${x.status} ${x.name}</h1></center>`];
      return [[...page, '<hr><center>nginx</center>', '</body>', '</html>'].join('\n'), [...page, '</body>', '</html>'].join('\n')];
    }
    case 'haproxy': {
      const page = `<html><body><h1>${x.status} ${x.name}</h1>\n${x.text}\n</body></html>`;
      return x.alone ? [page, x.text] : [page];
    }
    case 'cloudflare': {
      if (/^\d+$/.test(x.name)) return [`error code: ${x.name}`, `<span class="code-label">Error code ${x.name}</span>`];
      const page = [
        '<!DOCTYPE html>',
        `<title>api.example.com | ${x.status}: ${x.name}</title>`,
        '<div id="cf-error-details" class="p-0">',
        `<span class="inline-block">${x.name}</span>`,
        `<span class="code-label">Error code ${x.status}</span>`,
      ].join('\n');
      return x.status >= 520 ? [page, `error code: ${x.status}`] : [page];
    }
    case 'envoy': {
      // The local reply's body (router.cc) and the access log's response_code_details.
      const details = x.status === 503 && x.text.includes('reset reason') ? `upstream_reset_before_response_started{${x.name.replace(/ /g, '_')}}` : x.name;
      const access = `{"response_code":${x.status},"response_code_details":"${details}","response_flags":"-","upstream_host":"10.1.0.6:8000"}`;
      return x.text ? [x.text, `status=${x.status}, body=${x.text}`, access] : [access];
    }
    case 'traefik':
      return [x.text];
    case 'kong':
      return [`{"message":"${x.text}"}`, `{\n  "message": "${x.text}",\n  "request_id": "b1c4d9a0e2f3"\n}`];
  }
}

describe("every proxy's own answer through the page or body it serves", () => {
  const deciding = PROXY_ANSWERS.filter((x) => GROUP_CLASS[x.group] !== null);
  it.each(deciding.map((x) => [x.producer, x.status, x.name, x] as const))('%s %i %s', (_p, _s, _n, x) => {
    // Envoy's response_code_details for a cluster that does not exist: ids that are config, not a body.
    for (const t of served(x)) expect(cls(t), t).toBe(GROUP_CLASS[x.group]);
  });

  it('redirect pages and HAProxy\'s 200 are no failure', () => {
    for (const x of PROXY_ANSWERS.filter((y) => y.group === 'skip')) for (const t of served(x)) expect(cls(t), t).toBe('unknown');
  });

  it('covers each producer, each answer once', () => {
    const keys = PROXY_ANSWERS.map((x) => `${x.producer}:${x.status}:${x.name}:${x.text}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(PROXY_ANSWERS.map((x) => x.producer))).toEqual(new Set(['nginx', 'haproxy', 'envoy', 'cloudflare', 'traefik', 'kong']));
  });
});

describe("nginx's upstream error-log lines", () => {
  const lines: Record<string, string> = {
    timeout: '2026/12/02 10:00:00 [error] 26#26: *10094 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 172.17.23.1, server: api.example.com, request: "POST /v1/chat/completions HTTP/1.1", upstream: "http://10.0.0.5:8000/v1/chat/completions", host: "api.example.com"',
    down: '2026/12/02 10:00:00 [error] 26#26: *10095 upstream timed out (110: Connection timed out) while connecting to upstream, client: 172.17.23.1, server: _, request: "POST /v1/completions HTTP/1.1", upstream: "http://10.0.0.5:8000/v1/completions", host: "gw"',
    live: '2026/12/02 10:00:00 [error] 26#26: *10096 no live upstreams while connecting to upstream, client: 172.17.23.1, server: _, request: "POST /v1/completions HTTP/1.1", upstream: "http://vllm/v1/completions", host: "gw"',
    closed: '2026/12/02 10:00:00 [error] 26#26: *10097 upstream prematurely closed connection while reading response header from upstream, client: 172.17.23.1, server: _, request: "POST /v1/completions HTTP/1.1", upstream: "http://10.0.0.5:8000/v1/completions", host: "gw"',
    header: '2026/12/02 10:00:00 [error] 26#26: *10098 upstream sent too big header while reading response header from upstream, client: 172.17.23.1, server: _, request: "GET /v1/models HTTP/1.1", upstream: "http://10.0.0.5:8000/v1/models", host: "gw"',
    ssl: '2026/12/02 10:00:00 [error] 26#26: *10099 upstream SSL certificate verify error: (10:certificate has expired) while SSL handshaking to upstream, client: 172.17.23.1, server: _, request: "POST /v1/completions HTTP/1.1", upstream: "https://10.0.0.5:8443/v1/completions", host: "gw"',
    body: '2026/12/02 10:00:00 [error] 26#26: *10100 client intended to send too large body: 12582912 bytes, client: 172.17.23.1, server: _, request: "POST /v1/chat/completions HTTP/1.1", host: "gw"',
    limit: '2026/12/02 10:00:00 [error] 26#26: *10101 limiting requests, excess: 20.540 by zone "llm", client: 172.17.23.1, server: _, request: "POST /v1/chat/completions HTTP/1.1", host: "gw"',
    conn: '2026/12/02 10:00:00 [error] 26#26: *10102 limiting connections by zone "perip", client: 172.17.23.1, server: _, request: "POST /v1/chat/completions HTTP/1.1", host: "gw"',
  };

  it('every row of the table has a line, and each line its row\'s class', () => {
    for (const [, re, group] of NGINX_UPSTREAM_LOG) {
      const hits = Object.values(lines).filter((l) => re.test(l));
      expect(hits.length, String(re)).toBeGreaterThan(0);
      for (const l of hits) expect(cls(l), l).toBe(GROUP_CLASS[group]);
    }
  });

  it("reads the proxy's wait for its upstream as the proxy's 5xx, not the connection failing (the errno text inside)", () => {
    expect(rules(lines.timeout!)[0]).toBe('proxy.upstream_log');
    // A refused connect() stays the network's (network.connection's "Connection refused").
    expect(cls('2026/12/02 10:00:00 [error] 26#26: *10094 connect() failed (111: Connection refused) while connecting to upstream, client: 172.17.23.1, server: _, request: "POST /v1/completions HTTP/1.1", upstream: "http://10.0.0.5:8000/v1/completions", host: "gw"')).toBe('network.error');
  });
});

describe('what the groups mean in a run', () => {
  it("a proxy with no live upstream after the model server died of CUDA OOM is the OOM (upstream-died)", () => {
    const oom = 'ERROR 12-02 10:00:03 [core.py:712] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.10 GiB is free.';
    for (const proxyLine of ['no available server', '<title>llm.example.com | 521: Web server is down</title>', 'No server is available to handle this request.', '{"message":"failure to get a peer from the ring-balancer"}']) {
      expect(cls(proxyLine), proxyLine).toBe('gateway.5xx');
      expect(cls([oom, proxyLine].join('\n')), proxyLine).toBe('cuda.oom');
    }
  });

  it("Cloudflare's 524 page is the proxy's timeout, and a 4xx of the proxy is a refusal", () => {
    const page = ['Chat completion request error:  <none> <!DOCTYPE html>', '<head>', '<title>283892.xyz | 524: A timeout occurred</title>', '</head>'].join('\n');
    expect(cls(page)).toBe('gateway.5xx');
    expect(cls('{"message":"No API key found in request"}')).toBe('gateway.4xx');
    expect(cls('error code: 1015')).toBe('gateway.4xx');
  });

  it("a proxy's page served by a sandbox's ingress is the sandbox not being there (answerer.ts)", () => {
    expect(cls('httpx.HTTPStatusError: upstream https://4b1c9e2a.sandbox.example.dev/api/exec answered: upstream connect error or disconnect/reset before headers. reset reason: remote connection failure')).toBe('sandbox.failure');
  });

  it('generic prose and code that quote the texts are no proxy answer', () => {
    expect(rules('A timeout occurred while waiting for the lock').filter((r) => r.startsWith('proxy.'))).toEqual([]);
    expect(rules('    if "no healthy upstream" in resp.text:').filter((r) => r.startsWith('proxy.'))).toEqual([]);
    expect(rules('GitHub API rate limit exceeded for 10.0.0.1').filter((r) => r.startsWith('proxy.'))).toEqual([]);
  });
});

describe('the answers an older rule reads in the same class (readBy)', () => {
  const pages: [string, string][] = [
    ['<html><head><title>500 Internal Server Error</title></head>', 'nginx 500'],
    ['<center><h1>504 Gateway Time-out</h1></center>', 'nginx 504'],
    ['<html><body><h1>500 Internal Server Error</h1>', 'haproxy 500'],
  ];
  it('marks exactly these', () => {
    expect(PROXY_ANSWERS.filter((x) => x.readBy).map((x) => `${x.producer} ${x.status}`)).toEqual(['nginx 500', 'nginx 504', 'haproxy 500']);
  });
  it.each(pages)('%s is gateway.server_error\'s (%s)', (line) => {
    const d = classifyText(line);
    expect(d.class).toBe('gateway.5xx');
    expect(d.evidence[0]?.rule).toBe('gateway.server_error');
    for (const r of proxyRules) expect(r.extract!(line, /x/.exec('x')!).classOverride, r.id).toBeNull();
  });
  it('another case of the phrase, which the older rule does not read, stays the proxy rule\'s', () => {
    expect(rules('<h1>504 Gateway time-out</h1>')[0]).toBe('proxy.error_page');
  });
});
