// LLM gateways and inference servers (OpenAI SDK, LiteLLM, vLLM/SGLang OpenAI servers, nginx/ALB pages)
// and request timeouts. HTTP status is what classifies: the client-side exception that follows
// (KeyError on a missing field, an agent stopping) is a consequence.
import { defineRules, type Extracted } from '../rule.js';
import { byAnswerer } from './answerer.js';
import { HARNESS_TIMEOUTS, LITELLM_WRAPPED_TIMEOUT, OLLAMA_RUNNER_FAILED, TRACKER_NOISE } from './network.js';

function statusOf(line: string): Extracted {
  const m = /(?:Error code:|status(?:_code)?[=: ]+|HTTP\/\d(?:\.\d)?"? |Server error '|Client error '|^\s*<title>|<h1>)\s*([1-5]\d\d)\b/.exec(line);
  return m ? { httpStatus: Number(m[1]) } : {};
}

/** Anthropic's error types (API reference "Errors") and the HTTP status each stands for. */
export const ANTHROPIC_TYPE_STATUS: Record<string, number> = { invalid_request_error: 400, authentication_error: 401, permission_error: 403, not_found_error: 404, request_too_large: 413, rate_limit_error: 429, api_error: 500, overloaded_error: 529 };

/** The 4xx statuses HTTP defines (RFC 9110 §15.5, RFC 6585, RFC 7725): a server sending one refused the request. 418 and the like are not among them. */
const HTTP_CLIENT_STATUSES = new Set([400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451]);

/**
 * A Node web framework's access line for a model-API route ("--> POST /v1/chat/completions 400 976ms":
 * hono/logger and koa-logger; morgan's dev format "POST /v1/chat/completions 500 12.345 ms - 45"; the same
 * with the method bracketed): the gateway answering that status. Only model-API routes, right after the
 * method (these loggers print the path, not a URL): OpenAI-style routes under /v1/ (at most two segments
 * before it: /openai/v1/…), Ollama's /api/chat|generate and TGI's /generate at the path's start; an app's
 * own /api/messages says nothing of a model call. The route is a lookahead so that the prefilter keys are
 * the method-and-slash and the status: a busy log's ordinary request lines (httpx "POST http://…/v1/chat/
 * completions \"HTTP/1.1 200 OK\"") hold the route's words but never "POST /".
 */
const MODEL_ROUTE = String.raw`(?:\/[\w-]{1,40}){0,2}?\/v1\/(?:chat\/completions|completions|messages|responses|embeddings)\b|\/api\/(?:chat|generate)\b|\/generate(?:_stream)?\b`;
const nodeAccessLine = (status: string): RegExp => new RegExp(String.raw`\b(?:POST|GET|PUT)\]?(?: -)? (?=(?:https?:\/\/[^\s/]{1,200})?(?:${MODEL_ROUTE}))\S{1,300} (${status}) \d+(?:\.\d+)? ?ms\b`);

/**
 * vLLM's words for an engine that is gone: V0 entrypoints/launcher.py ("MQLLMEngine is already dead,
 * terminating server process"), engine/async_llm_engine.py (AsyncEngineDeadError "Background loop has
 * errored already."), engine/multiprocessing/client.py ("Engine process (pid N) died."); V1
 * engine/core_client.py ("Engine core proc EngineCore_DP0 died unexpectedly, shutting down client."),
 * engine/exceptions.py (EngineDeadError "EngineCore encountered an issue. See stack trace (above) for the
 * root cause."). The engine's own failure is logged beside it; relations.ts (SYMPTOMS) makes it give way.
 */
export const ENGINE_DEAD_WORDING: readonly RegExp[] = [
  /\b(?:MQLLMEngine|AsyncLLMEngine) is already dead/,
  /\b(?:MQ|Async)?EngineDeadError\b|EngineCore encountered an issue/,
  /Engine core proc \S{1,80} died unexpectedly/,
  /Engine process \(pid \d+\) died/,
  /Background loop has errored already|Background loop is not running/,
];

export const gatewayRules = defineRules([
  {
    id: 'gateway.engine_dead',
    class: 'gateway.5xx',
    patterns: ENGINE_DEAD_WORDING,
    strength: 30,
    why: "the inference server's engine process died, so the server answers 500 or shuts down",
    hint: "vLLM's engine process died, so the server answers every request with 500 (or shuts down). The engine's own traceback just before or after this line (CUDA OOM, an illegal memory access, NCCL, a bug) is the cause; with none in the log, capture the server's full stderr (every engine and worker process).",
  },
  {
    id: 'gateway.rate_limited',
    class: 'gateway.4xx',
    patterns: [
      /\b(?:RateLimitError|ApiRateLimitError)\b/,
      /rate_limit_exceeded|[Rr]ate limit (?:reached|exceeded)/,
      /Too Many Requests/,
      /No (?:deployments|models) available/,
      /insufficient_quota/,
      // Google's APIs (Gemini API, Vertex AI) answering 429 RESOURCE_EXHAUSTED: the quota service's "Quota
      // exceeded for quota metric '…' and limit '…'" and google-api-core's ResourceExhausted "429 Resource has
      // been exhausted (e.g. check quota)."
      /Quota exceeded for quota metric '|\b429 Resource has been exhausted\b/,
      /Error code: 429|HTTP\/\d(?:\.\d)?"? 429\b|status(?:_code)?[=: ]+429\b/,
    ],
    strength: 66,
    extract: byAnswerer((l) => ({ httpStatus: 429, ...statusOf(l) })),
    why: 'the gateway refused requests for rate or quota (all deployments cooling down counts too)',
    hint: 'Requests were rate-limited (HTTP 429 / quota). Lower concurrency (n_concurrent trials, rollout batch), add backoff, or raise the TPM/RPM limit; a LiteLLM "No deployments available" means every deployment is in cooldown.',
  },
  {
    id: 'gateway.context_length',
    class: 'gateway.4xx',
    patterns: [/maximum context length is \d+/, /context_length_exceeded|ContextWindowExceededError/, /exceeds? (?:the )?context limit|exceed context limit/, /prompt is too long/, /max_tokens must be at least/, /tokens \+ `max_new_tokens` must be <=/,
      // TGI's router (router/src/validation.rs ValidationError::InputLength / MaxNewTokens, answered 422 as
      // "Input validation error: …"): the prompt alone, or the tokens asked for, exceed the served limits.
      /`inputs` must have less than \d+ tokens\. Given: \d+|`max_new_tokens` must be <= \d+\. Given: \d+/,
    ],
    strength: 67,
    extract: (l) => ({ httpStatus: 400, ...statusOf(l) }),
    why: 'the server rejected a request whose prompt plus max_tokens exceeds the model context',
    hint: 'The request did not fit the context window: lower max_tokens (or the client default), truncate the prompt/history, or serve the model with a larger --max-model-len.',
  },
  {
    id: 'gateway.client_error',
    class: 'gateway.4xx',
    patterns: [
      /\b(?:BadRequestError|AuthenticationError|PermissionDeniedError|UnprocessableEntityError|ConflictError|RequestTooLargeError)\b/,
      // openai-python < 1.0 (openai/error.py) and LiteLLM's NotFoundError (a model the provider does not serve).
      /\bopenai\.error\.(?:InvalidRequestError|AuthenticationError|PermissionError)\b|\blitellm\.(?:exceptions\.)?NotFoundError\b/,
      // LiteLLM's own 4xx exceptions (litellm/exceptions.py): a policy refusal, a spend budget, a parameter
      // the provider does not take, a request its pre-call checks rejected.
      /\b(?:ContentPolicyViolationError|BudgetExceededError|UnsupportedParamsError|RejectedRequestError)\b/,
      /\bNotFoundError\b.{0,80}(?:404|model|endpoint)/,
      /invalid_api_key|Incorrect API key/i,
      /invalid_request_error/,
      /Error code: 4\d\d\b/,
      /Client error '4\d\d/,
      // 402 Payment Required: a prepaid gateway out of credit for the request. OpenRouter's own texts ("This
      // request requires more credits, or fewer max_tokens. You requested up to N tokens, but can only afford
      // M.", "Insufficient credits. Add more using https://openrouter.ai/credits") and the reason phrase.
      /This request requires more credits, or fewer max_tokens|Insufficient credits\. Add more using|\b402 Payment Required\b/,
      // TGI's other request validations (router/src/validation.rs, 422 "Input validation error: `<param>` must
      // be …") and Ollama's unknown model (server/routes.go: "model '<name>' not found, try pulling it first",
      // later %q-quoted), a 404.
      /Input validation error: `\w{1,40}` must /,
      /model ['"][^'"\s]{1,200}['"] not found, try pulling it first/,
      // OpenAI's request validation of a parameter the model does not take (code unsupported_parameter /
      // unsupported_value, 400): "Unsupported parameter: 'max_tokens' is not supported with this model. Use
      // 'max_completion_tokens' instead.", "Unsupported value: 'temperature' does not support 0.7 with this model."
      /Unsupported (?:parameter|value): '[\w.]{1,60}' (?:is not supported|does not support)/,
    ],
    strength: 65,
    extract: byAnswerer(statusOf),
    why: 'the gateway or inference server answered a 4xx client error',
    hint: 'The model endpoint rejected the request (4xx): check the API key, model name, endpoint path and request parameters sent by the client.',
  },
  {
    id: 'gateway.access_log_4xx',
    class: 'gateway.4xx',
    patterns: [/"(?:POST|GET|PUT) [^"]{1,300} HTTP\/\d(?:\.\d)?" (40[0-9]|41[0-9]|42[0-9])\b/, /\bHTTP\/\d(?:\.\d)? (40[0-9]|41[0-9]|42[0-9]) [A-Z]/, nodeAccessLine('4[0-2]\\d')],
    strength: 55,
    extract: byAnswerer((_l, m) => ({ httpStatus: Number(m[1]) })),
    why: 'the server access log shows requests answered with a 4xx status',
    hint: 'The server answered 4xx to the client: the endpoint path, method or payload the client uses is not what the server serves (e.g. /generate vs /v1/completions on an OpenAI-compatible server).',
  },
  {
    id: 'gateway.server_error',
    class: 'gateway.5xx',
    patterns: [
      // LiteLLM's BadGatewayError (502).
      /\bBadGatewayError\b/,
      /Internal Server Error|\bInternalServerError\b/,
      // anthropic-sdk-python's 529 and 504 classes; openai < 1.0 APIError/TryAgain; LiteLLM's catch-all APIError (status 500 unless mapped).
      /\b(?:OverloadedError|DeadlineExceededError)\b|\bopenai\.error\.(?:APIError|TryAgain)\b|\blitellm\.(?:exceptions\.)?APIError\b/,
      /Bad Gateway|Service Unavailable|ServiceUnavailableError|Gateway Time-?out/,
      /Error code: 5\d\d\b|Server error '5\d\d/,
      /HTTP\/\d(?:\.\d)?"? 5\d\d\b/,
      nodeAccessLine('5\\d\\d'),
      /(?:\b|MQ|Async)EngineDeadError\b/,
      /upstream connect error or disconnect\/reset before headers|no healthy upstream/,
      /overloaded_error/,
      // Anthropic's 529 with its reason as clients print the status line ("529 Overloaded"; Claude Code's retry
      // note "529 Overloaded · Retrying in 5s · attempt 3/10"; its final "Repeated 529 Overloaded errors" is
      // agent.vocab_overloaded's).
      /\b529 Overloaded\b(?! errors)/,
      /The server had an error (?:while )?processing your request/,
      // The OpenAI-style error envelope of a 500 in lower case ({"error":{"message":"internal server error",…}}),
      // as Go and Node gateways (one-api/new-api, OpenAI-compatible proxies) write it: the envelope only, not
      // any app's JSON body.
      /\{\s*"error"\s*:\s*\{\s*"message"\s*:\s*"internal server error"/,
      /status(?:_code)?[= ]5\d\d\b|status code 5\d\d\b/,
      // Ollama's runner failing on a request (network.ts OLLAMA_RUNNER_FAILED), relayed by LiteLLM as an APIConnectionError.
      OLLAMA_RUNNER_FAILED,
    ],
    strength: 55,
    extract: byAnswerer(statusOf),
    why: 'the gateway or inference server answered 5xx',
    hint: 'The model server failed (5xx). Its own log decides the cause: look there for an engine crash (CUDA OOM, illegal memory access) or for no healthy workers behind the router.',
  },
  {
    id: 'api.request_timeout',
    class: 'api.timeout',
    patterns: [
      /\bAPITimeoutError\b|Request timed out|\blitellm\.(?:exceptions\.)?Timeout\b|\bopenai\.error\.Timeout\b/,
      // httpx's other timeouts (a request written or a pooled connection waited on too long) and aiohttp's socket read timeout.
      /\bhttpx\.(?:WriteTimeout|PoolTimeout|TimeoutException)\b|\bSocketTimeoutError\b/,
      /\b(?:ReadTimeout|ReadTimeoutError|httpx\.ReadTimeout|requests\.exceptions\.Timeout|GetTimeoutError)\b/,
      // aiohttp's read timeout (the client other SDKs and agent harnesses use).
      /\bServerTimeoutError\b/,
      /The read operation timed out|Read timed out/,
      /Streaming request timeout after/,
      // The same in lower case, only with the deadline's length ("Ollama request timed out after 30s"): a
      // client's own deadline for the request, not a connection ("Request timed out" above reads the rest).
      /\brequest timed out after \d+(?:\.\d+)? ?(?:ms|s|secs?|seconds)\b/,
      /(?:^|[\s:(\]])(?:asyncio\.(?:exceptions\.)?)?TimeoutError(?::|\)|$)/,
      /DEADLINE_EXCEEDED|Deadline Exceeded|context deadline exceeded/,
      /\bsocket\.timeout\b|(?<!connect )\bE(?:SOCKET)?TIMEDOUT\b/,
      /timed out waiting for (?:a )?(?:response|completion)/i,
      // LiteLLM's APIConnectionError carrying the provider client's read timeout (network.ts LITELLM_WRAPPED_TIMEOUT).
      LITELLM_WRAPPED_TIMEOUT,
    ],
    // (asyncio's "TimeoutError: [Errno 10060] Connect call failed (…)" is a connection never made: network.ts.)
    unless: [TRACKER_NOISE, /\bexcept\b/, /Timed out while waiting for GCS/, /Watchdog|WorkNCCL|Timeout\(ms\)=/, HARNESS_TIMEOUTS, /\bConnect call failed \(/],
    strength: 50,
    // A bare TimeoutError is also how harness timeouts (asyncio.wait_for) surface; the resolver drops it
    // when the same file names the harness timeout.
    extract: (line): Extracted => (/\b(?:APITimeoutError|ReadTimeout|ServerTimeoutError|Request timed out|Streaming request timeout|timed out waiting|litellm)/.test(line) ? {} : { bareTimeout: true }),
    why: 'a request to the model, gateway or another API timed out',
    hint: 'A request timed out: check the server latency under load (queueing on the inference server), raise the client timeout for long generations, and cap max_tokens.',
  },
  {
    // Anthropic's error envelope ({"type":"error","error":{"type":"rate_limit_error",…}}: the type names of
    // docs "Errors") and Claude Code's one-line report of it ("API Error: 529 Overloaded", "API Error: 500
    // {…api_error…}", "API Error: Request rejected (429) · …"). The status (or type) decides 4xx vs 5xx.
    id: 'gateway.anthropic_error',
    class: 'gateway.5xx',
    patterns: [
      /\bAPI Error: (?:Request rejected )?\(?([45]\d\d)\b/,
      /"type"\s*:\s*"(rate_limit_error|overloaded_error|api_error|authentication_error|permission_error|not_found_error|request_too_large)"/,
    ],
    strength: 66,
    extract: (_l, m): Extracted => {
      const v = m[1]!;
      const status = /^\d+$/.test(v) ? Number(v) : ANTHROPIC_TYPE_STATUS[v]!;
      // Any 4xx that HTTP defines is a refusal (Claude Code behind another provider's gateway also relays that
      // gateway's 402 "more credits" or 404); a 5xx, or a status HTTP does not define (418), is an unrecognised
      // provider answer, as Harbor's UnknownApiError.
      return HTTP_CLIENT_STATUSES.has(status) ? { httpStatus: status, classOverride: 'gateway.4xx', strength: 65 } : { httpStatus: status };
    },
    why: "the Anthropic API (as Claude Code reports it) answered an error status",
    hint: 'The model provider answered an error: 5xx/529 (api_error, overloaded_error) is the provider failing or overloaded, retry later or fail over; 429 (rate_limit_error) is the organisation\'s rate limit, lower concurrency; 401/403 is the key.',
  },
  {
    // An HTTP status in a client library's own error wording, the status deciding 4xx vs 5xx: requests'
    // raise_for_status ("429 Client Error: Too Many Requests for url: …", "503 Server Error: …"), aiohttp's
    // ClientResponseError ("ClientResponseError: 404, message='Not Found', url='…'"), urllib3's retries
    // running out on error statuses ("Caused by ResponseError('too many 503 error responses')").
    id: 'gateway.http_status',
    class: 'gateway.5xx',
    patterns: [
      /\b([45]\d\d) (?:Client|Server) Error: [^\n]{0,200}? for url: /,
      /\bClientResponseError: ([45]\d\d), message=/,
      /ResponseError\('too many ([45]\d\d) error responses'\)/,
      // urllib.request's HTTPError ("HTTP Error 404: Not Found"), google-api-core's status classes
      // ("google.api_core.exceptions.ResourceExhausted: 429 …"), google-genai's ClientError/ServerError
      // ("429 RESOURCE_EXHAUSTED. …").
      /\bHTTP Error ([45]\d\d): /,
      /\bgoogle\.api_core\.exceptions\.\w{1,60}: ([45]\d\d) /,
      /\bgenai\.errors\.(?:ClientError|ServerError|APIError): ([45]\d\d) [A-Z_]{3,40}\b/,
      // A response object the code rejected, as the clients print it: requests' Response.__repr__
      // ("<Response [403]>"), httpx's ("<Response [503 Service Unavailable]>").
      /<Response \[([45]\d\d)(?: [A-Z][\w -]{1,40})?\]>/,
      // An API client's own error class followed by the status it got (GitHub Copilot's CAPIError "CAPIError
      // 400 This organization has been disabled", SDKs' "<Provider>APIError: 503 …"): the status decides.
      /\b[A-Z]\w{0,40}A[Pp][Ii]Error:? \(?([45]\d\d)\)?(?=[\s:,.]|$)/,
      // A hand-written fetch client's error, the idiom of many agents and tools calling a provider directly
      // (`throw new Error(\`OpenAI API error ${res.status}: ${body}\`)`): a provider's name, "API error", the status.
      /\b(?:OpenAI|Anthropic|Claude|Gemini|Google|OpenRouter|Groq|Mistral|DeepSeek|xAI|Grok|Together|Fireworks|Cohere|Perplexity|Azure(?: OpenAI)?|Bedrock|Ollama|vLLM|LiteLLM|Moonshot|Qwen|DashScope|Zhipu|LLM|Model|Provider) API (?:error|request failed)[: ]\s?\(?([45]\d\d)\)?(?=[\s:,.)]|$)/i,
    ],
    strength: 60,
    extract: byAnswerer((_l, m): Extracted => {
      const status = Number(m[1]);
      return status < 500 ? { httpStatus: status, classOverride: 'gateway.4xx' } : { httpStatus: status };
    }),
    why: 'an HTTP client library reported an error status from the server it called',
    hint: 'The server answered an error status: 5xx is the server or gateway failing (its own log says why), 429 is rate limiting (lower concurrency, back off), other 4xx is the request itself (URL, key, parameters).',
  },
  {
    // FastChat's OpenAI-compatible server answers errors as {"object": "error", "message": …, "code": N}
    // with its own ErrorCode (fastchat/constants.py): 400xx–404xx request errors, 429xx rate/overload,
    // 50001 internal error, 50002 CUDA OOM, 50006 the controller's worker timing out.
    id: 'gateway.fastchat_error',
    class: 'gateway.5xx',
    patterns: [/"object":\s?"error",\s?"message":\s?"[^"]{0,2000}",\s?"code":\s?([45]\d{4})\b/],
    strength: 62,
    extract: (_l, m): Extracted => {
      const code = Number(m[1]);
      if (code === 50002) return { fastchatCode: code, classOverride: 'cuda.oom' };
      if (code === 50006 || code === 40304) return { fastchatCode: code, classOverride: 'api.timeout' };
      return code < 50000 ? { fastchatCode: code, httpStatus: Math.floor(code / 100), classOverride: 'gateway.4xx' } : { fastchatCode: code, httpStatus: 500 };
    },
    why: "FastChat's API server answered an error (its ErrorCode names the kind)",
    hint: "FastChat's server answered an error: 50001 is an internal error of the model worker (its log says why), 50006 the worker did not answer in time (raise FASTCHAT_WORKER_API_TIMEOUT for long generations), 429xx rate/overload, 40xxx the request.",
  },
  {
    // Ollama's llm/server.go WaitUntilRunning, while the model loads for a request: the client's context
    // ended first ("client connection closed before server finished loading, aborting load", then the
    // scheduler's "timed out waiting for llama runner to start: context canceled" and a 499 access line),
    // or the load made no progress for OLLAMA_LOAD_TIMEOUT ("timed out waiting for llama runner to start -
    // progress 0.28 - …", answered 500). Either way the request timed out on a model load.
    id: 'api.model_load_timeout',
    class: 'api.timeout',
    patterns: [/client connection closed before server finished loading, aborting load/, /timed out waiting for llama runner to start(?:: context (?:canceled|deadline exceeded)| - progress [\d.]+)/],
    strength: 45,
    // Only the stall timeout fails the run on its own; the client leaving mid-load (the WARN and the
    // "context canceled" error) is as weak as vLLM's aborted requests: a warm-up probe with a short timeout
    // prints it on every cold load, and the load may go on for the next request.
    extract: (line): Extracted => (/ - progress/.test(line) ? { hint: 'Ollama gave up loading the model: the load made no progress within OLLAMA_LOAD_TIMEOUT (default 5 min). Slow storage, a model larger than free GPU + host memory (swapping), or a stuck GPU keeps a load from progressing; the runner lines just above say how far it got. Raise OLLAMA_LOAD_TIMEOUT only if the load is merely slow.' } : { strength: 12 }),
    why: 'the request timed out while the model server (Ollama) was still loading the model',
    hint: "The client gave up while Ollama was still loading the model for its request (a cold load of a large model takes longer than the client's timeout). Raise the client's timeout for the first request, preload the model (a warm-up request, OLLAMA_KEEP_ALIVE) or use a smaller model.",
  },
  {
    // vLLM's engine logs "Aborted request <id>." when the client went away before the answer was done
    // (async_llm_engine / v1 AsyncLLM abort on disconnect). On a healthy server that is the client's
    // request timeout expiring; weaker than anything else so a real server failure always wins.
    id: 'api.client_aborted',
    class: 'api.timeout',
    patterns: [/\bAborted request \S{1,200}\.?$/],
    strength: 12,
    why: 'the inference server aborted requests because their clients disconnected (their timeout expired)',
    hint: "The server aborted requests whose clients hung up: the client's request timeout is shorter than the server's queueing + generation time. Raise the client timeout, lower concurrency, or cap max_tokens; the server's own metrics show whether it was merely slow.",
  },
]);
