// The error classes of the Stainless-generated API clients, as data, once: openai-python and
// anthropic-sdk-python, their TypeScript twins openai-node and anthropic-sdk-typescript, and
// runloop_api_client (the Runloop sandbox provider's Python SDK). One generator writes the same classes
// with the same status mapping into each (`_exceptions.py`, `src/core/error.ts`), so each family selects
// its producers' rows here and reads them in its own groups: client-vocab.ts (openai, anthropic: client.*),
// node-go-grpc-vocab.ts (the TypeScript SDKs, and Claude Code's "API Error: <the SDK's message>": netlib.*),
// sandbox-sdk-vocab.ts (runloop: sandbox.sdk_*, the sandbox provider's API, not a model's).
//
// Sources: openai-python 3.3.1 (e43b422) src/openai/_exceptions.py, _client.py _make_status_error,
// _streaming.py; anthropic-sdk-python 0.121.0 (009b035) src/anthropic/_exceptions.py, _client.py
// _make_status_error (413, 503, 504, 529 of its own); openai/openai-node 7b7d6ca src/core/error.ts
// (APIError.makeMessage "N body" / "N status code (no body)"), src/client.ts; anthropics/anthropic-sdk-typescript
// bfa9197 src/core/error.ts; runloopai/api-client-python ae5ffd5 src/runloop_api_client/_exceptions.py.

/** The producers generated from the template; `ts` is openai-node and anthropic-sdk-typescript (bare class names). */
export type StainlessProducer = 'openai' | 'anthropic' | 'runloop' | 'ts';

/**
 * How a producer's classes are printed: Python's module path before the class name (`openai.RateLimitError`,
 * `anthropic._exceptions.OverloadedError`, `runloop_api_client.RateLimitError`; openai's lib/_old_api.py
 * holds APIRemovedInV1); the TypeScript SDKs print the bare class name (none here).
 */
export const STAINLESS_MODULES: Record<Exclude<StainlessProducer, 'ts'>, string> = {
  openai: String.raw`openai(?:\._exceptions|\.lib\._old_api)?`,
  anthropic: String.raw`anthropic(?:\._exceptions)?`,
  runloop: String.raw`runloop_api_client(?:\._exceptions)?`,
};

/**
 * What a class says, before a family reads it in its own groups:
 * - connect: no connection to the API could be made (APIConnectionError "Connection error.");
 * - timeout: the SDK's own request timeout ran out;
 * - abort: the caller aborted the request (the TypeScript SDKs' APIUserAbortError);
 * - status: the API answered an error status: the class's own (`status`), else the one its message carries,
 *   else `fallback`;
 * - body: a 2xx body that fails the SDK's schema (an API of another version in between);
 * - length: openai's structured-output parse met finish_reason "length" (the request's max_tokens);
 * - base: a base class whose message decides.
 */
export type StainlessKind = 'connect' | 'timeout' | 'abort' | 'status' | 'body' | 'length' | 'base';

export interface StainlessClass {
  name: string;
  kind: StainlessKind;
  /** The status the class stands for whatever its message says (RateLimitError 429). */
  status?: number;
  /** The status when the message carries none, for a class that takes a range (InternalServerError ≥ 500). */
  fallback?: number;
  /** The producers that have the class, each with the message it prints (its fixed text, or a typical one, `N` for a status). */
  by: Partial<Record<StainlessProducer, string>>;
}

const body = (status: number, message: string, type: string) => `Error code: ${status} - {'error': {'message': '${message}', 'type': '${type}'}}`;

export const STAINLESS_CLASSES: readonly StainlessClass[] = [
  { name: 'APIConnectionError', kind: 'connect', by: { openai: 'Connection error.', anthropic: 'Connection error.', runloop: 'Connection error.', ts: 'Connection error.' } },
  {
    name: 'APITimeoutError',
    kind: 'timeout',
    by: {
      openai: 'Request timed out.',
      anthropic: 'Request timed out or interrupted. This could be due to a network timeout, dropped connection, or request cancellation. See https://docs.anthropic.com/en/api/errors#long-requests for more details.',
      runloop: 'Request timed out.',
    },
  },
  { name: 'APIConnectionTimeoutError', kind: 'timeout', by: { ts: 'Request timed out.' } },
  { name: 'APIUserAbortError', kind: 'abort', by: { ts: 'Request was aborted.' } },
  // Python's status base class; the TypeScript SDKs' is APIError (below).
  { name: 'APIStatusError', kind: 'status', by: { openai: 'Error code: N - {}', anthropic: 'Error code: N - {}', runloop: 'Error code: 503 - {}' } },
  // The base of every API error. openai-python raises it for an `error` event in the SSE stream after a 200
  // (_streaming.py: the server failed mid-answer; anthropic raises a status error there instead); the
  // TypeScript SDKs for a status without its own class.
  { name: 'APIError', kind: 'status', fallback: 500, by: { openai: 'An error occurred during streaming', runloop: 'Error code: 500', ts: 'N status code (no body)' } },
  { name: 'BadRequestError', kind: 'status', status: 400, by: { openai: body(400, 'Invalid value for temperature', 'invalid_request_error'), anthropic: body(400, 'Invalid value for temperature', 'invalid_request_error'), runloop: "Error code: 400 - {'message': 'invalid blueprint'}", ts: '400 Invalid value for temperature' } },
  { name: 'AuthenticationError', kind: 'status', status: 401, by: { openai: body(401, 'invalid credentials', 'authentication_error'), anthropic: body(401, 'invalid credentials', 'authentication_error'), runloop: "Error code: 401 - {'message': 'invalid api key'}", ts: '401 Incorrect API key provided' } },
  { name: 'PermissionDeniedError', kind: 'status', status: 403, by: { openai: body(403, 'not allowed', 'permission_error'), anthropic: body(403, 'not allowed', 'permission_error'), runloop: "Error code: 403 - {'message': 'forbidden'}", ts: '403 Project does not have access to model' } },
  { name: 'NotFoundError', kind: 'status', status: 404, by: { openai: body(404, 'model not found', 'not_found_error'), anthropic: body(404, 'model not found', 'not_found_error'), runloop: "Error code: 404 - {'message': 'devbox not found'}", ts: '404 The model does not exist' } },
  { name: 'ConflictError', kind: 'status', status: 409, by: { openai: "Error code: 409 - {'error': {'message': 'conflict'}}", anthropic: "Error code: 409 - {'error': {'message': 'conflict'}}", runloop: "Error code: 409 - {'message': 'conflict'}", ts: '409 conflict' } },
  { name: 'UnprocessableEntityError', kind: 'status', status: 422, by: { openai: "Error code: 422 - {'detail': 'unprocessable'}", anthropic: "Error code: 422 - {'detail': 'unprocessable'}", runloop: "Error code: 422 - {'message': 'unprocessable'}", ts: '422 unprocessable' } },
  { name: 'RateLimitError', kind: 'status', status: 429, by: { openai: body(429, 'slow down', 'rate_limit_error'), anthropic: body(429, 'slow down', 'rate_limit_error'), runloop: "Error code: 429 - {'message': 'Too many running devboxes'}", ts: '429 Rate limit reached' } },
  // ≥ 500 (any 5xx no class below takes): the message's status decides, 500 when it has none.
  { name: 'InternalServerError', kind: 'status', fallback: 500, by: { openai: 'Error code: N - {}', anthropic: 'Error code: N - {}', runloop: "Error code: 500 - {'message': 'internal error'}", ts: '503 upstream failure' } },
  // anthropic's own statuses (_client.py _make_status_error).
  { name: 'RequestTooLargeError', kind: 'status', status: 413, by: { anthropic: "Error code: 413 - {'type': 'error', 'error': {'type': 'request_too_large', 'message': 'Request exceeds the maximum allowed number of bytes.'}}" } },
  { name: 'ServiceUnavailableError', kind: 'status', status: 503, by: { anthropic: "Error code: 503 - {'type': 'error', 'error': {'type': 'api_error', 'message': 'Service unavailable'}}" } },
  { name: 'DeadlineExceededError', kind: 'status', status: 504, by: { anthropic: 'Error code: 504 - upstream request timeout' } },
  { name: 'OverloadedError', kind: 'status', status: 529, by: { anthropic: "Error code: 529 - {'type': 'error', 'error': {'type': 'overloaded_error', 'message': 'Overloaded'}}" } },
  { name: 'APIResponseValidationError', kind: 'body', by: { openai: 'Data returned by API invalid for expected schema.', anthropic: 'Data returned by API invalid for expected schema.', runloop: 'Data returned by API invalid for expected schema.' } },
  // openai's own: OAuth token exchange, and the structured-output parse helpers. finish_reason
  // "content_filter" is the provider refusing the request (as LiteLLM's ContentPolicyViolationError, 400).
  { name: 'OAuthError', kind: 'status', status: 401, by: { openai: 'OAuth authentication error.', ts: 'OAuth2 authentication error' } },
  { name: 'ContentFilterFinishReasonError', kind: 'status', status: 400, by: { openai: 'Could not parse response content as the request was rejected by the content filter', ts: 'Could not parse response content as the request was rejected by the content filter' } },
  { name: 'LengthFinishReasonError', kind: 'length', by: { openai: 'Could not parse response content as the length limit was reached', ts: 'Could not parse response content as the length limit was reached' } },
  // Base classes: the message (a client option, an API key) decides, e.g. config.missing_api_key.
  { name: 'OpenAIError', kind: 'base', by: { openai: 'The api_key client option must be set', ts: 'Cannot iterate over a consumed stream, use `.tee()` to split the stream.' } },
  { name: 'AnthropicError', kind: 'base', by: { anthropic: 'The api_key client option must be set', ts: '' } },
];

/** A producer's classes, in table order, each with the message that producer prints. */
export function stainlessClassesOf(producer: StainlessProducer): (StainlessClass & { message: string })[] {
  return STAINLESS_CLASSES.filter((c) => c.by[producer] !== undefined).map((c) => ({ ...c, message: c.by[producer]! }));
}
