// A server's start line (rules/server-start.ts) tells whose traceback a log shows: a code error after it
// is the server's crash, and the client's refused connections are its consequence (relations.ts
// peer-not-listening); the same error with no server start is the client's own, and the refusals it
// gave up on stand as the network error.
import { describe, expect, it } from 'vitest';
import { isServerStart, SERVER_STARTS } from '../../../src/classifiers/rules/server-start.js';
import { classifyFiles, classifyText } from '../helpers.js';

/** Start lines as each server logs them (its own logger format around the message). */
const STARTS: [server: string, line: string][] = [
  ['uvicorn', 'INFO:     Started server process [4711]'],
  ['uvicorn', 'INFO:     Waiting for application startup.'],
  ['uvicorn', 'INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)'],
  ['gunicorn', '[2026-12-01 10:00:00 +0000] [7] [INFO] Starting gunicorn 23.0.0'],
  ['gunicorn', '[2026-12-01 10:00:00 +0000] [9] [INFO] Booting worker with pid: 9'],
  ['werkzeug', ' * Running on http://127.0.0.1:5000'],
  ['flask', " * Serving Flask app 'reward_server'"],
  ['vllm', '(APIServer pid=15841) INFO 01-21 14:16:50 [api_server.py:1272] vLLM API server version 0.14.0'],
  ['vllm', 'INFO 01-21 14:16:59 [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8000'],
  ['vllm', "INFO 05-11 09:41:10 [core.py:58] Initializing a V1 LLM engine (v0.8.5.post1) with config: model='Qwen/Qwen2.5-7B-Instruct'"],
  ['vllm', "INFO 11-27 02:01:40 llm_engine.py:249] Initializing an LLM engine (v0.6.4.post1) with config: model='/models/llama'"],
  ['sglang', "[2025-06-01 10:00:00] server_args=ServerArgs(model_path='Qwen/Qwen2.5-7B-Instruct', tokenizer_path='Qwen/Qwen2.5-7B-Instruct')"],
  ['tgi', '2024-05-01T10:00:00.000000Z  INFO text_generation_launcher: Args {'],
  ['ray-serve', "INFO 2025-01-01 10:00:00,000 controller 1234 -- Starting HTTP proxy with name 'SERVE_CONTROLLER_ACTOR:SERVE_PROXY_ACTOR-abc' on node 'abc' listening on '0.0.0.0:8000'"],
];

const serverBug = ['Traceback (most recent call last):', '  File "/srv/app/server.py", line 41, in load_routes', '    handler = ROUTES[name]', "KeyError: 'generate'"];
const refused = "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8000): Max retries exceeded with url: /generate (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))";

describe('server start lines', () => {
  it('every server in the vocabulary has a start line here', () => {
    expect(new Set(STARTS.map(([s]) => s))).toEqual(new Set(SERVER_STARTS.map((s) => s.server)));
  });

  it.each(STARTS)('%s: %s', (_server, line) => {
    expect(isServerStart(line)).toBe(true);
    // After it, the code error is the server's: the refused client is its consequence.
    const d = classifyText([line, ...serverBug, refused].join('\n'));
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/no longer \(or never\) listening/);
  });

  it("a traceback before the server's start is not the server's", () => {
    expect(classifyText([...serverBug, STARTS[0]![1], refused].join('\n')).class).toBe('network.error');
  });

  it("a server's start in another file does not make a client's own traceback the server's", () => {
    const d = classifyFiles({ 'logs/server.log': STARTS[0]![1], 'logs/client.log': [...serverBug, refused].join('\n') });
    expect(d.class).toBe('network.error');
  });

  it('lines that talk about servers without one starting are no start', () => {
    for (const line of ['Waiting for the vLLM server to start...', 'Started server', 'server_args = ServerArgs(', 'Running on CPU']) expect(isServerStart(line)).toBe(false);
  });
});
