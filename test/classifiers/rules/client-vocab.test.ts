// The HTTP clients' and LLM SDKs' error vocabularies (rules/client-vocab.ts, the client.* rules of
// rules/client.ts): every class of the table through the ways a run's log prints it, the status
// deciding 4xx vs 5xx, and the groups ordering against real causes the way the messages mean.
import { describe, expect, it } from 'vitest';
import { AWS_MODEL_APIS, BOTOCORE_ERRORS } from '../../../src/classifiers/rules/aws-vocab.js';
import { CLIENT_ERRORS, LITELLM_PROVIDER_TEXTS, OPENAI_API_ERROR_TEXTS, CLIENT_RETRY_NOTES, type ClientError, type ClientErrorGroup, type ClientProducer, UNDICI_ERRORS } from '../../../src/classifiers/rules/client-vocab.js';
import { classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const rules = (text: string) => classifyText(text).evidence.map((e) => e.rule);

/** The module Python prints before each producer's class name (each package sets __module__ on its exports). */
const PRINTED_MODULE: Record<Exclude<ClientProducer, 'undici'>, string> = {
  botocore: 'botocore.exceptions',
  openai: 'openai',
  'openai<1': 'openai.error',
  anthropic: 'anthropic',
  httpx: 'httpx',
  httpcore: 'httpcore',
  aiohttp: 'aiohttp.client_exceptions',
  requests: 'requests.exceptions',
  urllib3: 'urllib3.exceptions',
  litellm: 'litellm.exceptions',
};
const printed = (x: ClientError): string =>
  x.name === 'APIRemovedInV1' ? 'openai.lib._old_api.APIRemovedInV1' : x.name === 'RouterRateLimitError' ? 'litellm.types.router.RouterRateLimitError' : `${PRINTED_MODULE[x.producer as Exclude<ClientProducer, 'undici'>]}.${x.name}`;

/** Where each producer raises from, for a traceback's innermost frame (library code). */
const FRAME: Record<Exclude<ClientProducer, 'undici'>, string> = {
  botocore: 'botocore/endpoint.py", line 386, in _send',
  openai: 'openai/_base_client.py", line 1047, in request',
  'openai<1': 'openai/api_requestor.py", line 775, in _interpret_response_line',
  anthropic: 'anthropic/_base_client.py", line 1112, in request',
  httpx: 'httpx/_transports/default.py", line 118, in map_httpcore_exceptions',
  httpcore: 'httpcore/_sync/connection_pool.py", line 256, in handle_request',
  aiohttp: 'aiohttp/client.py", line 770, in _request',
  requests: 'requests/adapters.py", line 700, in send',
  urllib3: 'urllib3/connectionpool.py", line 841, in urlopen',
  litellm: 'litellm/litellm_core_utils/exception_mapping_utils.py", line 2214, in exception_type',
};

/** What each group means for a run (the table's own documentation), for a status that is not the class's. */
const GROUP_CLASS: Record<Exclude<ClientErrorGroup, 'status' | 'body'>, string | null> = {
  connect: 'network.error',
  dropped: 'network.error',
  timeout: 'api.timeout',
  config: 'config.error',
  reason: 'network.error', // the table's MaxRetryError / requests ConnectionError examples carry NewConnectionError
  usage: null,
  echo: null,
  skip: null,
};
const byStatus = (s: number): string => (s < 500 ? 'gateway.4xx' : 'gateway.5xx');

/** Each entry's lines as a run prints them: the exception line alone, behind a traceback of library frames, and behind a launcher's prefix. */
function templates(x: ClientError, message: string): string[] {
  if (x.producer === 'undici') {
    // Node prints an error as "<name>: <message>" then its stack and own properties; fetch wraps it as the [cause] of a TypeError.
    const head = x.name === 'TypeError' ? `TypeError: ${message}` : `${x.name}: ${message}`;
    return [
      [head, '    at Fetch.onAborted (node:internal/deps/undici/undici:11190:53)', ...(x.code ? ['  {', `  code: '${x.code}'`, '}'] : [])].join('\n'),
      ...(x.code ? [['TypeError: fetch failed', '    at node:internal/deps/undici/undici:13502:13', `  [cause]: ${head}`, '      at onConnectTimeout (node:internal/deps/undici/undici:2602:28) {', `    code: '${x.code}'`, '  }'].join('\n')] : []),
    ];
  }
  const line = `${printed(x)}: ${message}`;
  // A text of its own, logged by the run without the class name.
  const logged = x.byText ? [`2026-12-02 10:00:04,118 ERROR bedrock_client.py:88 converse failed: ${message}`] : [];
  return [
    ...logged,
    line,
    ['Traceback (most recent call last):', '  File "/workspace/rollout/reward_client.py", line 61, in score', '    resp = client.post(url, json=payload)', `  File "/opt/venv/lib/python3.11/site-packages/${FRAME[x.producer]}`, '    raise exc', line].join('\n'),
    `(TaskRunner pid=48211) ${line}`,
  ];
}

/** The status messages of a class that takes its code from the message ("N"), once a 4xx and once a 5xx. */
const STATUSES = [429, 503];
/** A message with its status in the producer's wording (requests' "Client Error" / "Server Error", httpx's "Client error" / "Server error"). */
const withStatus = (message: string, s: number): string =>
  s < 500 ? message.replace(/\bN\b/, String(s)).replace('Server Error', 'Client Error').replace('Server error', 'Client error').replace('Service Unavailable', 'Too Many Requests') : message.replace(/\bN\b/, String(s));
/** Decides only with a status on its line: a body class whose message carries none. */
const needsStatus = (x: ClientError): boolean => x.group === 'body' && x.status === undefined && !/\bN\b/.test(x.message);

const ENTRIES: readonly ClientError[] = [...CLIENT_ERRORS, ...BOTOCORE_ERRORS, ...UNDICI_ERRORS];

describe('every client exception class through the lines that print it', () => {
  const deciding = ENTRIES.filter((x) => x.group !== 'usage' && x.group !== 'echo' && x.group !== 'skip' && !needsStatus(x));
  it.each(deciding.map((x) => [x.producer, x.name, x] as const))('%s %s', (_p, _n, x) => {
    const cases: { message: string; want: string }[] = [];
    if (x.group === 'status' || x.group === 'body') {
      if (x.status !== undefined) cases.push({ message: x.message, want: byStatus(x.status) });
      // A class for a range (InternalServerError ≥ 500, an APIError that the narrower gateway.server_error
      // reads as 5xx) with its message's 5xx, or with none: its fallback.
      else if (x.fallback !== undefined) cases.push(/\bN\b/.test(x.message) ? { message: withStatus(x.message, 502), want: 'gateway.5xx' } : { message: x.message, want: byStatus(x.fallback) });
      else for (const s of STATUSES) cases.push({ message: withStatus(x.message, s), want: byStatus(s) });
    } else cases.push({ message: x.message, want: GROUP_CLASS[x.group]! });
    for (const { message, want } of cases) for (const t of templates(x, message)) expect(cls(t), t).toBe(want);
  });

  it('a class that decides nothing on its own (usage, echo, a body without a status) is no failure, and no guess either', () => {
    const quiet = ENTRIES.filter((x) => x.group === 'usage' || x.group === 'echo' || needsStatus(x));
    expect(quiet.length).toBeGreaterThan(30);
    const infra = new Set(['network.error', 'api.timeout', 'gateway.4xx', 'gateway.5xx', 'config.error']);
    for (const x of quiet) {
      // The run's own code may be blamed (a JSONDecodeError, a usage error ending the run's traceback are
      // read as the run's by the traceback rules): the infrastructure never, and no vocabulary guess is made.
      for (const t of templates(x, x.message.replace(/\bN\b/, '503'))) {
        const d = classifyText(t);
        expect(d.evidence.map((e) => e.rule).filter((r) => r.startsWith('client.')), t).toEqual([]);
        // An undici class read by its code only: its head line ("InvalidArgumentError: …") names a class
        // other libraries share, so what the vocabulary makes of that line is not the table's to say.
        if (x.producer === 'undici' && !x.byText) continue;
        expect(infra.has(d.class), t).toBe(false);
        expect(d.evidence.map((e) => e.rule), t).not.toContain('fallback.vocabulary');
      }
    }
  });

  it('a base class is left to its message (the other rules, the vocabulary fallback)', () => {
    for (const x of ENTRIES.filter((y) => y.group === 'skip' && y.producer !== 'botocore')) for (const t of templates(x, x.message)) expect(rules(t).filter((r) => r.startsWith('client.')), t).toEqual([]);
    expect(cls('openai.OpenAIError: The api_key client option must be set either by passing api_key to the client or by setting the OPENAI_API_KEY environment variable')).toBe('config.error');
  });

  it("the SDKs' retry notes are no failure", () => {
    for (const [, , text] of CLIENT_RETRY_NOTES) expect(cls(text), text).toBe('unknown');
  });

  it("reads every provider text LiteLLM classifies by, whatever its case, as the refusal LiteLLM makes of it", () => {
    for (const [text, status] of LITELLM_PROVIDER_TEXTS) {
      const said = text.charAt(0).toUpperCase() + text.slice(1);
      for (const t of [`2026-12-02 10:00:04,118 ERROR harness.py:41 model call failed: {"error": {"message": "${said}.", "code": ${status}}}`, `RuntimeError: generation failed: ${text}`])
        expect(cls(t), t).toBe(byStatus(status));
    }
    // llama.cpp's server and Mistral's API in their own envelopes.
    expect(cls('{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}')).toBe('gateway.4xx');
    expect(cls('{"object":"error","message":"Service tier capacity exceeded for this model.","type":"service_tier_capacity_exceeded","param":null,"code":"3505"}')).toBe('gateway.4xx');
  });

  it("reads the OpenAI API's own error messages by their documented status (an overload is the server's, a quota or region refusal the request's)", () => {
    for (const [text, status] of OPENAI_API_ERROR_TEXTS) {
      const said = text.charAt(0).toUpperCase() + text.slice(1);
      for (const t of [`{"error": {"message": "${said}.", "type": "${status >= 500 ? 'server_error' : 'invalid_request_error'}", "param": null, "code": null}}`, `ERROR agent.py:88 LLM call failed: ${said}. (Please include the request ID fac8b65ed1c009c456a00410c4f6c376 in your message.)`])
        expect(cls(t), t).toBe(byStatus(status));
    }
    // The server's own failure behind an overload message stays the cause.
    const engine = "ERROR 03-19 10:55:18 [serving_chat.py:677] vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is not running. Inspect the stacktrace to find the original error: OutOfMemoryError('CUDA out of memory. Tried to allocate 128.00 MiB. GPU 0 has a total capacity of 79.33 GiB of which 16.00 MiB is free.";
    expect(cls(`${engine}\nThe engine is currently overloaded, please try again later`)).toBe('cuda.oom');
  });

  it('covers every producer the table names, with each class once per producer', () => {
    const keys = ENTRIES.map((x) => `${x.producer}:${x.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ENTRIES.map((x) => x.producer))).toEqual(new Set([...Object.keys(PRINTED_MODULE), 'undici']));
  });

  it("reads every model API error of botocore's service models by its status, in both the modeled class and the event stream's lower-camel code", () => {
    let n = 0;
    for (const api of AWS_MODEL_APIS)
      for (const [code, status] of Object.entries(api.errors)) {
        const want = status === 408 ? 'api.timeout' : status < 500 && status !== 424 ? 'gateway.4xx' : 'gateway.5xx';
        const op = api.operations.find((o) => /^Invoke|^Converse$/.test(o))!;
        const modeled = `botocore.errorfactory.${code}: An error occurred (${code}) when calling the ${op} operation (reached max retries: 4): The request failed.`;
        const stream = `botocore.exceptions.EventStreamError: An error occurred (${code.charAt(0).toLowerCase()}${code.slice(1)}) when calling the ${op} operation: The request failed.`;
        for (const t of [modeled, stream]) expect(cls(t), `${api.service} ${t}`).toBe(want);
        n += 1;
      }
    expect(n).toBeGreaterThan(25);
    // Another service's error (an S3 upload, STS) is no model API answering.
    expect(rules('botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied')).not.toContain('aws.model_api');
  });
});

describe('what the groups and statuses mean in a run', () => {
  it('an Anthropic error event mid-stream (a status error of the 200 response) is read by its envelope type', () => {
    expect(cls("anthropic.APIStatusError: {'type': 'error', 'error': {'details': None, 'type': 'rate_limit_error', 'message': 'Number of concurrent connections has exceeded your rate limit.'}, 'request_id': 'req_011CVx'}")).toBe('gateway.4xx');
    expect(cls("anthropic.APIStatusError: {'type': 'error', 'error': {'details': None, 'type': 'api_error', 'message': 'Internal server error'}, 'request_id': 'req_011CVy'}")).toBe('gateway.5xx');
  });

  it('a redirect httpx did not follow and a JSON body that was an HTML page with 200 blame no server', () => {
    expect(cls("httpx.HTTPStatusError: Redirect response '307 Temporary Redirect' for url 'http://gateway:4000/v1/chat/completions'\nRedirect location: 'https://gateway:4000/v1/chat/completions'")).toBe('unknown');
    expect(cls("aiohttp.client_exceptions.ContentTypeError: 200, message='Attempt to decode JSON with unexpected mimetype: text/html', url='http://10.0.0.5:8000/v1/completions'")).toBe('unknown');
    // With an error status the status decides.
    expect(cls("aiohttp.client_exceptions.ContentTypeError: 502, message='Attempt to decode JSON with unexpected mimetype: text/html', url='http://10.0.0.5:8000/v1/completions'")).toBe('gateway.5xx');
  });

  it("a read timeout retried to the end by urllib3 is the server not answering in time, not a connection that failed", () => {
    const line = `requests.exceptions.ConnectionError: HTTPConnectionPool(host='reward-model', port=8000): Max retries exceeded with url: /score (Caused by ReadTimeoutError("HTTPConnectionPool(host='reward-model', port=8000): Read timed out. (read timeout=30)"))`;
    expect(cls(line)).toBe('api.timeout');
    expect(cls(line.replace('ReadTimeoutError("HTTPConnectionPool(host=\'reward-model\', port=8000): Read timed out. (read timeout=30)")', "NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3a>: Failed to establish a new connection: [Errno 111] Connection refused')"))).toBe('network.error');
  });

  it("a connection that broke because the server died gives way to the server's failure (peer-gone)", () => {
    // urllib3 used directly: a chunked body cut off when the server process raised and went away.
    const dropped = `(TaskRunner pid=48211) urllib3.exceptions.ProtocolError: ("Connection broken: InvalidChunkLength(got length b'', 0 bytes read)", InvalidChunkLength(got length b'', 0 bytes read))`;
    const log = [
      '(RewardServer pid=311) Traceback (most recent call last):',
      '(RewardServer pid=311)   File "/workspace/reward/server.py", line 88, in handle',
      "(RewardServer pid=311)     score = judge(sample['answer'])",
      "(RewardServer pid=311) KeyError: 'answer'",
      dropped,
    ].join('\n');
    expect(cls(log)).toBe('user.code_error');
    // Alone, the broken connection is the network's.
    expect(cls(dropped)).toBe('network.error');
  });

  it('a refused connection after the server was killed is the kill, not the network (peer-not-listening)', () => {
    const refused = 'httpcore.ConnectError: All connection attempts failed';
    const log = ['[2026-12-02 10:00:01] vllm serve Qwen/Qwen3-8B --port 8000', 'Killed', '[2026-12-02 10:00:05] ERROR rollout worker: request to http://localhost:8000/v1/completions failed', refused].join('\n');
    expect(cls(log)).toBe('host.killed');
    expect(cls(refused)).toBe('network.error');
  });

  it("a 5xx mid-stream from a server whose engine died of CUDA OOM is the OOM", () => {
    const log = [
      'ERROR 12-02 10:00:03 [core.py:712] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.10 GiB is free.',
      '(APIServer pid=1) ERROR 12-02 10:00:04 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.',
      'openai.APIError: An error occurred during streaming',
    ].join('\n');
    expect(cls(log)).toBe('cuda.oom');
  });

  it("an SDK's refusal that ended the evaluation is the gateway's, not the RuntimeError raised while handling it", () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "/opt/venv/lib/python3.11/site-packages/openai/_base_client.py", line 1047, in request',
      '    raise self._make_status_error_from_response(err.response) from None',
      "openai.OAuthError: invalid_client",
      'During handling of the above exception, another exception occurred:',
      'Traceback (most recent call last):',
      '  File "/workspace/eval/run.py", line 40, in main',
      '    answers = solve(batch)',
      'RuntimeError: evaluation aborted',
    ].join('\n');
    expect(cls(log)).toBe('gateway.4xx');
  });

  it("Node's fetch wrapper is no Python exception: its [cause] decides, and gives way to the server's crash", () => {
    const fetchLog = [
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:13502:13',
      '    at async OpenAI.makeRequest (file:///app/node_modules/openai/core.mjs:341:21)',
      '  [cause]: SocketError: other side closed',
      '      at TLSSocket.onHttpSocketClose (node:internal/deps/undici/undici:6294:26) {',
      "    code: 'UND_ERR_SOCKET',",
      '  }',
    ];
    expect(cls(fetchLog.join('\n'))).toBe('network.error');
    expect(cls('TypeError: terminated')).toBe('network.error');
    const serverDied = ['ERROR 12-02 10:00:03 [core.py:712] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.10 GiB is free.', ...fetchLog];
    expect(cls(serverDied.join('\n'))).toBe('cuda.oom');
  });

  it('a Bedrock throttling answer ends the trial as the gateway refusing, whatever score the harness wrote after', () => {
    const log = [
      '2026-12-02 10:00:01,004 INFO harness: trial 17 started (agent=bedrock-agent)',
      "botocore.exceptions.EventStreamError: An error occurred (throttlingException) when calling the InvokeAgent operation: Your request rate is too high. Reduce the frequency of requests.",
      '2026-12-02 10:00:09,551 INFO harness: trial 17 finished, reward 0.0',
    ].join('\n');
    expect(cls(log)).toBe('gateway.4xx');
    // botocore's read timeout on the model endpoint is the model not answering in time.
    expect(cls('botocore.exceptions.ReadTimeoutError: Read timeout on endpoint URL: "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse"')).toBe('api.timeout');
  });

  it('source code and tracker retries that name the classes are no failure', () => {
    expect(rules('    except (httpx.WriteTimeout, httpcore.ConnectError) as exc:').filter((r) => r.startsWith('client.'))).toEqual([]);
    expect(rules('wandb: Network error (httpcore.ReadError), entering retry loop.').filter((r) => r.startsWith('client.'))).toEqual([]);
  });
});
