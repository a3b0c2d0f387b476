// Servers announcing that they start: the line a server process logs as it comes up, before it listens.
// Not a failure: relations.ts reads it to tell whose traceback a log shows. A client refused by a server
// (peer-not-listening) is the server's crash only when the code error lies after such a start line in the
// same log, i.e. the traceback is the server's; a client's own bug before its refused requests is not.
//
// The wordings, from the servers' own logging calls:
// - uvicorn (uvicorn/server.py Server.serve/startup): "Started server process [%d]", "Waiting for
//   application startup.", "Application startup complete.", "Uvicorn running on %s://%s:%d (Press CTRL+C to quit)";
// - gunicorn (gunicorn/arbiter.py): "Starting gunicorn %s", "Listening at: %s (%s)", "Booting worker with pid: %s";
// - werkzeug / Flask (werkzeug/serving.py, flask/cli.py): " * Running on %s", " * Serving Flask app %r";
// - vLLM (vllm/entrypoints/openai/api_server.py run_server; vllm/v1/engine): "vLLM API server version %s",
//   "Starting vLLM API server %d on %s", "Initializing a V1 LLM engine (v%s) with config: %s" (≤ 0.6:
//   "Initializing an LLM engine (v%s) with config: %s"): vLLM builds its engine before uvicorn starts, so a
//   server that fails on its model or settings shows these lines and never uvicorn's;
// - SGLang (python/sglang/srt/entrypoints/http_server.py, server_args.py): "server_args=ServerArgs(";
// - Hugging Face TGI (launcher/src/main.rs): "text_generation_launcher: Args {";
// - Ray Serve (serve/_private/controller.py, proxy.py): "Starting HTTP proxy with name".
export interface ServerStart {
  server: string;
  pattern: RegExp;
}

export const SERVER_STARTS: readonly ServerStart[] = [
  { server: 'uvicorn', pattern: /\bStarted server process \[\d+\]/ },
  { server: 'uvicorn', pattern: /\bWaiting for application startup\./ },
  { server: 'uvicorn', pattern: /\bUvicorn running on \w+:\/\// },
  { server: 'gunicorn', pattern: /\bStarting gunicorn \d/ },
  { server: 'gunicorn', pattern: /\bBooting worker with pid: \d+/ },
  { server: 'werkzeug', pattern: /\* Running on \w+:\/\// },
  { server: 'flask', pattern: /\* Serving Flask app / },
  { server: 'vllm', pattern: /\bvLLM API server version \d/ },
  { server: 'vllm', pattern: /\bStarting vLLM API server \d+ on / },
  { server: 'vllm', pattern: /\bInitializing an? (?:V1 )?LLM engine \(v[\w.+-]+\) with config/ },
  { server: 'sglang', pattern: /\bserver_args=ServerArgs\(/ },
  { server: 'tgi', pattern: /\btext_generation_launcher: Args \{/ },
  { server: 'ray-serve', pattern: /\bStarting HTTP proxy with name\b/ },
];

/** Whether a line (its prefix already cut) is a server announcing its start. */
export const isServerStart = (line: string): boolean => SERVER_STARTS.some((s) => s.pattern.test(line));
