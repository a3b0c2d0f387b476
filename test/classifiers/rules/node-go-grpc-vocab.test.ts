// Node.js's HTTP stack, Go net/http + net and gRPC (rules/node-go-grpc-vocab.ts, the netlib.* rules of
// rules/node-go-grpc.ts): every entry of the table through the lines its producer prints it in, the gRPC
// codes by each client's template, and the groups ordering against real causes the way the errors mean.
import { describe, expect, it } from 'vitest';
import { API_CORE_CLASSES, GRPC_CODES, NET_ERRORS, type NetError, type NetGroup } from '../../../src/classifiers/rules/node-go-grpc-vocab.js';
import { classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const rules = (text: string) => classifyText(text).evidence.map((e) => e.rule);
const byStatus = (s: number): string => (s < 500 ? 'gateway.4xx' : 'gateway.5xx');

/** What each group means for a run (the table's own documentation). */
const GROUP_CLASS: Record<Exclude<NetGroup, 'status' | 'unavailable'>, string | null> = {
  connect: 'network.error',
  dropped: 'network.error',
  wrapper: 'network.error',
  timeout: 'api.timeout',
  config: 'config.error',
  echo: null,
  usage: null,
  skip: null,
};

const URL = 'https://api.example.com/v1/chat/completions';
/** A message with its placeholders filled as the producer fills them. */
const fill = (m: string, status: number): string => m.replace(/\bN\b/, String(status)).replace('STATUS', status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE').replace(/Service Unavailable/, status === 429 ? 'Too Many Requests' : 'Service Unavailable');

/** Each entry's lines as a run prints them. */
function templates(x: NetError, message: string): string[] {
  switch (x.producer) {
    case 'node':
      // util.inspect of the error (Node 20), alone and as the [cause] of a wrapper; a code property line for ERR_ codes.
      return [
        `${x.name === 'AbortError' || x.name === 'TimeoutError' ? `DOMException [${x.name}]` : x.code?.startsWith('ERR_') ? `${x.name} [${x.code}]` : x.name}: ${message}${/ E[A-Z]+$/.test(message) ? ' api.example.com' : ''}`,
        ['Error: request to the model failed', '    at async Agent.run (/app/dist/agent.js:88:19) {', `  [cause]: ${x.name}: ${message}${/ E[A-Z]+$/.test(message) ? ' api.example.com' : ''}`, '      at TLSSocket.onConnectEnd (node:_tls_wrap:1727:19) {', `    code: '${x.code}'`, '  }', '}'].join('\n'),
      ];
    case 'node-fetch':
      return [`${x.name}: ${message}${message.endsWith(' ') ? URL : ''}`, `(node:4182) UnhandledPromiseRejectionWarning: ${x.name}: ${message}${message.endsWith(' ') ? URL : ''}`];
    case 'undici':
    case 'stainless-ts':
      return [`${x.name}: ${message}`, [`${x.name}: ${message}`, '    at APIError.generate (file:///app/node_modules/openai/core/error.mjs:41:20)', '    at OpenAI.makeStatusError (file:///app/node_modules/openai/client.mjs:312:25)'].join('\n')];
    case 'claude-code':
      return [`  ⎿  API Error: ${message}`, `  ⎿  API Error (${message}) · Retrying in 4 seconds… (attempt 3/10)`];
    case 'gemini-cli':
      return [`✕ [API Error: ${message}${message.endsWith(' ') ? '{"error":{"message":"{}"}}' : ''}]`];
    case 'reqwest':
      return [`Error: ${message}${message.endsWith('(') ? 'https://api.openai.com/v1/responses)' : ''}`];
    case 'go':
      if (x.contextual) return goContextual(x);
      return [`Post "${URL}": ${message}`, `E1202 10:00:03.118230    4711 reflector.go:147] failed to list *v1.Pod: Get "https://10.96.0.1:443/api/v1/pods?limit=500": ${message}`];
    case 'grpc': {
      const code = x.group === 'timeout' ? 'DeadlineExceeded' : x.group === 'config' ? 'ResourceExhausted' : x.group === 'echo' ? 'Canceled' : 'Unavailable';
      return [`rpc error: code = ${code} desc = ${message}`, `Error: rpc error: code = ${code} desc = ${message}`];
    }
    default:
      return [`${x.name}: ${message}`];
  }
}

/** Go's texts that mean something only as the tail of a url.Error, an OpError or a DNSError, with the class each operation gives them. */
function goContextual(x: NetError): string[] {
  if (x.name === 'os.ErrDeadlineExceeded') return []; // read by operation in its own test below
  if (x.group === 'connect') return [`dial tcp: lookup vllm.inference.svc.cluster.local on 10.96.0.10:53: ${x.message}`, `Get "http://vllm.inference.svc.cluster.local:8000/v1/models": dial tcp: lookup vllm.inference.svc.cluster.local on 10.96.0.10:53: ${x.message}`];
  return [`Post "http://reward-model:8000/score": ${x.message}`];
}

/**
 * Codex's model-API errors (texts in agent-cli-vocab.ts, read here): one line per error as `codex exec`
 * prints it ("ERROR: " + CodexErr's Display, codex-rs/core/src/error.rs), with the class it means.
 */
const CODEX_LINES: Record<string, readonly (readonly [string, string])[]> = {
  Stream: [
    ['ERROR: stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)', 'network.error'],
    ['ERROR: stream disconnected before completion: idle timeout waiting for SSE', 'api.timeout'],
  ],
  ResponseStreamFailed: [['ERROR: Error while reading the server response: error decoding response body', 'network.error']],
  ConnectionFailed: [['ERROR: Connection failed: error sending request for url (https://api.openai.com/v1/responses)', 'network.error']],
  UnexpectedStatus: [
    ['ERROR: unexpected status 503 Service Unavailable: upstream connect error or disconnect/reset before headers', 'gateway.5xx'],
    ['ERROR: unexpected status 401 Unauthorized: {"detail":"Unauthorized"}', 'gateway.4xx'],
  ],
  RetryLimit: [
    ['ERROR: exceeded retry limit, last status: 429 Too Many Requests, request id: 9c2e', 'gateway.4xx'],
    ['ERROR: exceeded retry limit, last status: 502 Bad Gateway, request id: 9c2f', 'gateway.5xx'],
  ],
  QuotaExceeded: [['ERROR: Quota exceeded. Check your plan and billing details.', 'gateway.4xx']],
  UsageLimitReached: [["ERROR: You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), or try again in 2 days 3 hours.", 'gateway.4xx']],
  InternalServerError: [["ERROR: We're currently experiencing high demand, which may cause temporary errors.", 'gateway.5xx']],
  ContextWindowExceeded: [["ERROR: Codex ran out of room in the model's context window. Start a new conversation or clear earlier history before retrying.", 'gateway.4xx']],
};

describe("Codex's model-API errors (agent-cli-vocab.ts's texts, netlib's reading)", () => {
  it('has a line for each', () => {
    expect(NET_ERRORS.filter((x) => x.producer === 'codex').map((x) => x.name).sort()).toEqual(Object.keys(CODEX_LINES).sort());
  });
  it.each(Object.entries(CODEX_LINES).flatMap(([name, lines]) => lines.map(([line, want]) => [name, line, want] as const)))('%s: %s', (_n, line, want) => {
    const d = classifyText(line);
    expect(d.class).toBe(want);
    expect(d.evidence[0]?.rule.startsWith('agent.vocab_'), line).toBe(false);
  });
});

describe('every entry of the table through the lines that print it', () => {
  const deciding = NET_ERRORS.filter((x) => x.group !== 'echo' && x.group !== 'usage' && x.group !== 'skip' && x.producer !== 'codex');
  it.each(deciding.map((x) => [x.producer, x.name, x.message, x] as const))('%s %s: %s', (_p, _n, _m, x) => {
    const cases: { message: string; want: string }[] = [];
    if (x.group === 'status') {
      if (x.status !== undefined) cases.push({ message: x.message, want: byStatus(x.status) });
      else if (!/\bN\b|STATUS/.test(x.message)) cases.push({ message: x.message, want: byStatus(Number(/^\d{3}/.exec(x.message)![0])) });
      else for (const s of [429, 503]) cases.push({ message: fill(x.message, s), want: byStatus(s) });
    } else if (x.group === 'unavailable') cases.push({ message: x.message, want: 'network.error' });
    else cases.push({ message: fill(x.message, 503), want: GROUP_CLASS[x.group]! });
    for (const { message, want } of cases) for (const t of templates(x, message)) expect(cls(t), t).toBe(want);
  });

  it('a note, a cancel or the run misusing the client is no failure, and no guess either', () => {
    const quiet = NET_ERRORS.filter((x) => x.group === 'echo' || x.group === 'usage');
    expect(quiet.length).toBeGreaterThan(15);
    const infra = new Set(['network.error', 'api.timeout', 'gateway.4xx', 'gateway.5xx', 'config.error']);
    for (const x of quiet) {
      for (const t of templates(x, x.message)) {
        const d = classifyText(t);
        expect(infra.has(d.class), t).toBe(false);
        expect(d.evidence.map((e) => e.rule), t).not.toContain('fallback.vocabulary');
      }
    }
  });

  it('names each entry once per producer and text', () => {
    const keys = NET_ERRORS.map((x) => `${x.producer}:${x.name}:${x.message}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('gRPC status codes by every client template', () => {
  const desc = 'the request could not be served';
  // UNAVAILABLE with a description that names no transport failure is the server's 503.
  const want = (group: NetGroup, http: number): string | null => (group === 'status' ? byStatus(http) : group === 'timeout' ? 'api.timeout' : group === 'unavailable' ? 'gateway.5xx' : null);
  it.each(GRPC_CODES.map((c) => [c[0], c[2], c] as const))('%i %s', (_n, _c, [num, goName, canonical, group, http]) => {
    const lines = [
      `rpc error: code = ${goName} desc = ${desc}`, // grpc-go internal/status
      `Error: ${num} ${canonical}: ${desc}`, // grpc-js call.ts
      `io.grpc.StatusRuntimeException: ${canonical}: ${desc}`, // grpc-java
      ['grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:', `\tstatus = StatusCode.${canonical}`, `\tdetails = "${desc}"`, '>'].join('\n'), // grpcio
    ].filter((l) => canonical.length >= 4 || l.startsWith('rpc error'));
    const w = want(group, http);
    for (const l of lines) {
      const d = classifyText(l);
      if (w) expect(d.class, l).toBe(w);
      else expect(['network.error', 'api.timeout', 'gateway.4xx', 'gateway.5xx'].includes(d.class), l).toBe(false);
    }
  });

  it('UNAVAILABLE is the transport when its description says the connection failed or was lost, and when it says nothing', () => {
    expect(cls('rpc error: code = Unavailable desc = transport is closing')).toBe('network.error');
    expect(cls('Error: 14 UNAVAILABLE: No connection established. Last error: null. Resolution note: ')).toBe('network.error');
    // grpcio prints the details on the line after the code: a transport text there decides over the bare UNAVAILABLE.
    expect(cls(['grpc.aio._call.AioRpcError: <AioRpcError of RPC that terminated with:', '\tstatus = StatusCode.UNAVAILABLE', '\tdetails = "failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.0.5:50051: Failed to connect to remote host: Timeout occurred: FD Shutdown"', '>'].join('\n'))).toBe('network.error');
    // Gemini CLI over @google/genai: the server's overload, as the canonical name.
    expect(cls('✕ [API Error: got status: UNAVAILABLE. {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}]')).toBe('gateway.5xx');
  });

  it('a message over the max size is the size option, not the server refusing', () => {
    expect(cls('rpc error: code = ResourceExhausted desc = grpc: received message larger than max (5242880 vs. 4194304)')).toBe('config.error');
    expect(cls(['grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:', '\tstatus = StatusCode.RESOURCE_EXHAUSTED', '\tdetails = "Quota exceeded for quota metric \'Generate Content API requests per minute\'"'].join('\n'))).toBe('gateway.4xx');
  });

  it("the container runtime's and the image builder's gRPC codes are theirs, and XLA's bare statuses are no RPC", () => {
    const notGateway = (l: string) => expect(['gateway.4xx', 'gateway.5xx'].includes(cls(l)), l).toBe(false);
    notGateway('Warning  Failed     12s   kubelet  Failed to pull image "registry.internal/agent:v3": rpc error: code = NotFound desc = failed to pull and unpack image "registry.internal/agent:v3": failed to resolve reference "registry.internal/agent:v3": not found');
    notGateway('E1202 10:00:03.118230    4711 remote_runtime.go:343] "StartContainer from runtime service failed" err="rpc error: code = Unknown desc = failed to create containerd task"');
    expect(cls('jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.')).toBe('cuda.oom');
  });

  it('google-api-core classes by their status, DeadlineExceeded as the deadline', () => {
    for (const [name, http, group] of API_CORE_CLASSES) {
      if (http < 400 || group === 'skip' || group === 'wrapper' || group === 'echo' || group === 'config') continue;
      const line = `google.api_core.exceptions.${name}: ${http} the request could not be served`;
      expect(cls(line), line).toBe(group === 'timeout' ? 'api.timeout' : byStatus(http));
    }
    expect(cls('google.api_core.exceptions.ServiceUnavailable: 503 failed to connect to all addresses; last error: UNAVAILABLE: ipv4:142.250.72.42:443: Socket closed')).toBe('network.error');
    expect(cls('google.api_core.exceptions.RetryError: Timeout of 600.0s exceeded, last exception: 503 failed to connect to all addresses')).toBe('network.error');
    expect(cls('google.api_core.exceptions.RetryError: Timeout of 120.0s exceeded, last exception: 429 Quota exceeded for aiplatform.googleapis.com/generate_content_requests_per_minute_per_project_per_base_model')).toBe('gateway.4xx');
  });
});

describe('what the groups mean in a run', () => {
  it('Go: an i/o timeout is no connection when dialing or resolving, and the server not answering when reading', () => {
    expect(cls('Get "https://registry-1.docker.io/v2/": dial tcp 44.205.64.79:443: i/o timeout')).toBe('network.error');
    expect(cls('Post "http://reward-model:8000/score": read tcp 10.0.3.7:51422->10.0.9.12:8000: i/o timeout')).toBe('api.timeout');
    expect(cls('failed to do request: Head "https://registry-1.docker.io/v2/library/python/manifests/3.12-slim": dial tcp: lookup registry-1.docker.io on 192.168.1.1:53: read udp 172.17.0.2:40167->192.168.1.1:53: i/o timeout')).toBe('network.error');
  });

  it("Go: the client's own timeout while awaiting headers is a timeout, not a cancel", () => {
    expect(cls('Error: Post "https://api.openai.com/v1/chat/completions": net/http: request canceled (Client.Timeout exceeded while awaiting headers)')).toBe('api.timeout');
    expect(cls('Post "https://api.openai.com/v1/chat/completions": net/http: request canceled')).toBe('unknown');
    // No connection before the timeout stays network.connection's.
    expect(rules('Get "https://registry-1.docker.io/v2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)')[0]).toBe('network.connection');
  });

  it('a bare EOF is a Go url.Error tail only', () => {
    expect(cls('Post "http://reward-model:8000/score": EOF')).toBe('network.error');
    expect(cls('reached EOF')).toBe('unknown');
    expect(cls('warning: context canceled')).toBe('unknown');
  });

  it("a connection that broke because the server died gives way to the server's failure (peer-gone)", () => {
    const log = [
      'ERROR 12-02 10:00:03 [core.py:712] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.10 GiB is free.',
      '(APIServer pid=1) ERROR 12-02 10:00:04 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.',
      'time="2026-12-02T10:00:04Z" level=error msg="rollout failed" error="Post \\"http://vllm:8000/v1/completions\\": EOF"',
      'rpc error: code = Unavailable desc = error reading from server: EOF',
    ].join('\n');
    expect(cls(log)).toBe('cuda.oom');
  });

  it("an EOF from a server that raised gives way to the server's own exception, even a weaker one (peer-gone)", () => {
    const eof = 'time="2026-12-02T10:00:04Z" level=error msg="scoring failed" error="Post \\"http://reward-model:8000/score\\": EOF"';
    const log = [
      '(RewardServer pid=311) Traceback (most recent call last):',
      '(RewardServer pid=311)   File "/workspace/reward/server.py", line 88, in handle',
      "(RewardServer pid=311)     score = judge(sample['answer'])",
      "(RewardServer pid=311) KeyError: 'answer'",
      eof,
    ].join('\n');
    expect(cls(log)).toBe('user.code_error');
    // Alone, the cut connection is the network's (a logrus field quoting Go's url.Error).
    expect(cls(eof)).toBe('network.error');
  });

  it("the SDK's connection error is read by its cause: DNS through Node's fetch", () => {
    const log = [
      'APIConnectionError: Connection error.',
      '    at OpenAI.makeRequest (file:///app/node_modules/openai/client.mjs:421:19) {',
      '  [cause]: TypeError: fetch failed',
      '      at node:internal/deps/undici/undici:13502:13 {',
      '    [cause]: Error: getaddrinfo ENOTFOUND api.openai.com',
      "        at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:120:26) { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'api.openai.com' }",
      '  }',
      '}',
    ].join('\n');
    expect(cls(log)).toBe('network.error');
  });

  it('Codex: a stream cut by an idle timeout is the server not answering in time; a status names its class', () => {
    expect(cls('ERROR: stream disconnected before completion: idle timeout waiting for SSE')).toBe('api.timeout');
    expect(cls("ERROR: exceeded retry limit, last status: 429 Too Many Requests, request id: 9a1c2f")).toBe('gateway.4xx');
    expect(cls('ERROR: unexpected status 502 Bad Gateway: <html><head><title>502 Bad Gateway</title></head></html>')).toBe('gateway.5xx');
  });

  it('a wait or retry logged at an information level is no failure', () => {
    // k3s waiting for containerd to come up (logrus level=info): the agent retries until it is up.
    expect(rules('Feb 25 20:41:06 node-1 k3s[19334]: time="2026-02-25T20:41:06.734438562Z" level=info msg="Waiting for containerd startup: rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing dial unix /run/k3s/containerd/containerd.sock: connect: no such file or directory\\""').filter((r) => r.startsWith('netlib.'))).toEqual([]);
    expect(rules('I1202 10:00:03.118230    4711 clientconn.go:1203] [core] grpc: addrConn.createTransport failed to connect: rpc error: code = Unavailable desc = transport is closing').filter((r) => r.startsWith('netlib.'))).toEqual([]);
  });

  it('source and error-handling code that names the errors is no failure', () => {
    expect(rules("    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE') return retry();").filter((r) => r.startsWith('netlib.'))).toEqual([]);
    expect(rules('    except grpc.RpcError as e:  # StatusCode.UNAVAILABLE: retry').filter((r) => r.startsWith('netlib.'))).toEqual([]);
    expect(rules('\t\tif errors.Is(err, io.EOF) || strings.Contains(err.Error(), "http: server closed idle connection") {').filter((r) => r.startsWith('netlib.'))).toEqual([]);
  });
});
