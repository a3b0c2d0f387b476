// The HTTP clients' and LLM SDKs' own error vocabularies, as data: every exception class of openai-python,
// anthropic-sdk-python, httpx/httpcore, aiohttp, requests, urllib3, LiteLLM and undici (Node's fetch), with
// the message it prints, put in a group that says what it means for a run; botocore's HTTP-layer and
// client-settings classes are aws-vocab.ts's (the one table of botocore's classes), which gives them in
// this table's shape (BOTOCORE_ERRORS). The rules of rules/client.ts (client.refused, client.status,
// client.connection, client.timeout, client.config, client.quiet) read a line through this table; the
// narrower rules of gateway.ts, network.ts and config.ts (gateway.rate_limited, gateway.context_length,
// gateway.client_error, gateway.server_error, gateway.http_status, api.request_timeout, network.connection,
// network.dns, network.tls, network.max_retries, config.missing_api_key, config.empty_api_key) keep the
// wordings they had and stay first where both match (they are stronger).
//
// Sources (read in each producer's repository):
// - openai-python 3.3.1 (e43b422): src/openai/_exceptions.py (every class and its fixed message),
//   _base_client.py (_make_status_error_from_response "Error code: {status} - {body}", the raw body text
//   when it is not JSON; APITimeoutError / APIConnectionError raised after the retries; the INFO line
//   "Retrying request in %f seconds"), _client.py _make_status_error (status → class), _streaming.py
//   (APIError "An error occurred during streaming"), lib/_old_api.py APIRemovedInV1; openai 0.28.1
//   openai/error.py and api_requestor.py ("Request timed out: …", "Error communicating with OpenAI: …",
//   "HTTP code N from API (…)", "Invalid response object from API: … (HTTP response code was N)",
//   ServiceUnavailableError "The server is overloaded or not ready yet.").
// - anthropic-sdk-python 0.121.0 (009b035): src/anthropic/_exceptions.py, _client.py _make_status_error
//   (413 RequestTooLargeError, 529 OverloadedError, ≥ 500 InternalServerError), _streaming.py (an SSE
//   `error` event raised as a status error of the 200 response, message = the event body), the retry line
//   "Retrying request to %s in %f seconds".
// - httpx 0.28.1 (ae1b9f6): httpx/_exceptions.py, _models.py raise_for_status ("{Client error|Server
//   error|Redirect response} '{status} {reason}' for url '{url}'"), _client.py (TooManyRedirects
//   "Exceeded maximum allowed redirects."), _transports/default.py (httpcore → httpx mapping);
//   httpcore 1.0.9 (9820975): _exceptions.py, _sync/http11.py ("Server disconnected without sending a
//   response."), http2.py ("Server disconnected"), connection_pool.py (UnsupportedProtocol "Request URL
//   is missing an 'http://' or 'https://' protocol."), http_proxy.py / socks_proxy.py (ProxyError).
// - aiohttp 4.0.0a2.dev0 (495e778; the 3.x names are the same): aiohttp/client_exceptions.py (every class;
//   ClientResponseError.__str__ "{status}, message={message!r}, url={url!r}", ClientConnectorError
//   "Cannot connect to host {host}:{port} ssl:{ssl} [{strerror}]"), client_proto.py ("Response payload is
//   not completed: …", SocketTimeoutError "Timeout on reading data from socket"), client.py
//   ("Connection timeout to host {url}"), client_reqrep.py (ContentTypeError "Attempt to decode JSON with
//   unexpected mimetype: …", "Connection closed"), connector.py, http_writer.py ("Cannot write to closing
//   transport").
// - requests 2.34.2 (1f6589e): src/requests/exceptions.py, models.py (raise_for_status "{status} Client
//   Error: {reason} for url: {url}", MissingSchema "Invalid URL …: No scheme supplied."), adapters.py
//   (which urllib3 failure becomes which class), sessions.py (InvalidSchema "No connection adapters were
//   found for …", TooManyRedirects "Exceeded N redirects.").
// - urllib3 2.x (6a8536b): src/urllib3/exceptions.py (MaxRetryError "Max retries exceeded with url: {url}
//   (Caused by {reason!r})", NewConnectionError, NameResolutionError, ResponseError "too many {status}
//   error responses"), connection.py, connectionpool.py ("Read timed out. (read timeout=…)", the WARNING
//   "Retrying (%r) after connection broken by '%r': %s"), response.py ("Connection broken: …").
// - LiteLLM (64ecc9b): litellm/exceptions.py (every class; each prefixes its message with
//   "litellm.<Class>: "), litellm_core_utils/exception_mapping_utils.py (the message body
//   "<Class>: <Provider>Exception - <provider message>"; which provider texts become which class).
// - undici 8.10.0 (7eb7c8e): see UNDICI_ERRORS below.

import { BOTOCORE_ERRORS } from './aws-vocab.js';

import { STAINLESS_MODULES, type StainlessKind, stainlessClassesOf } from './stainless-vocab.js';

/**
 * What an error says about the run:
 * - status: the server answered an HTTP error status; the status decides (< 500 gateway.4xx, ≥ 500
 *   gateway.5xx). `status` is the class's own code where the producer fixes it (RateLimitError 429), or
 *   undefined where the message carries it (APIStatusError, HTTPStatusError, ClientResponseError);
 * - connect: no connection to the server could be made (refused, DNS, TLS, a proxy, a connect timeout):
 *   network.error;
 * - dropped: an open connection broke mid-request (reset, server disconnected, a body cut short):
 *   network.error, and the peer-gone mechanism (relations.ts) makes it give way to the server's own
 *   failure;
 * - timeout: the server did not answer in time (read, write or pool timeout, the SDK's request timeout):
 *   api.timeout;
 * - config: the URL or scheme the run was configured with cannot be used at all (no scheme, an
 *   unsupported scheme, a header value with a newline), or the installed SDK does not match the code
 *   (openai ≥ 1 running code written for 0.x): config.error;
 * - reason: urllib3's MaxRetryError: the "Caused by" error it carries decides (read through this table);
 *   with none readable, network.error;
 * - body: the server answered, but not with what the client could read (HTML where JSON was expected, a
 *   body that fails the SDK's schema, an undecodable encoding): an error status on the same line decides;
 *   without one the line does not say whose fault it is (a proxy's page, a wrong URL, a version mismatch);
 * - usage: the run's own code misused the client (a stream read twice, a body not read first, an illegal
 *   header it built): the traceback rules read that as the run's code, nothing here;
 * - echo: a consequence or a note, no failure of its own (a retry the SDK is about to make, a pool closed at
 *   shutdown, a connection the pool will reopen, a redirect loop or the model's answer cut at max_tokens,
 *   which the line alone cannot blame on the infrastructure);
 * - skip: a base class whose message decides (OpenAIError, ClientError, RequestException, HTTPError), or a
 *   part no run's call reaches (webhook signatures, the library's own test doubles).
 */
export type ClientErrorGroup = 'status' | 'connect' | 'dropped' | 'timeout' | 'config' | 'reason' | 'body' | 'usage' | 'echo' | 'skip';

export type ClientProducer = 'openai' | 'openai<1' | 'anthropic' | 'httpx' | 'httpcore' | 'aiohttp' | 'requests' | 'urllib3' | 'litellm' | 'botocore' | 'undici';

/**
 * One exception class: its producer, its name, the message it prints (the producer's fixed text where it
 * has one; else a typical text of what it wraps, as printed, `N` standing for a status; empty for a base
 * class whose message is whatever its subclass or cause says), its group, and the status its class fixes.
 */
export interface ClientError {
  producer: ClientProducer;
  name: string;
  message: string;
  group: ClientErrorGroup;
  /** The status the class stands for whatever the message says (RateLimitError 429). */
  status?: number;
  /** The status when the message carries none, for classes that take a range (InternalServerError ≥ 500, LiteLLM's APIError). */
  fallback?: number;
  /** undici's error code (`code: 'UND_ERR_SOCKET'` in Node's print of the error), read wherever it appears. */
  code?: string;
  /** A text the producer prints that names the class on its own (botocore's fmt up to its first field, undici's default message), read without the class name. */
  byText?: string;
}

const e = (producer: ClientProducer, name: string, message: string, group: ClientErrorGroup, status?: number): ClientError => ({ producer, name, message, group, ...(status !== undefined ? { status } : {}) });
/** A class whose status the message carries, `fallback` when it carries none. */
const ranged = (producer: ClientProducer, name: string, message: string, fallback: number): ClientError => ({ producer, name, message, group: 'status', fallback });

/** How each producer's classes appear as a qualified name on a line (`openai.RateLimitError`, `aiohttp.client_exceptions.ServerDisconnectedError`); undici (JavaScript) has none. */
export const PRODUCER_MODULES: Partial<Record<ClientProducer, string>> = {
  openai: STAINLESS_MODULES.openai,
  'openai<1': String.raw`openai\.error`,
  anthropic: STAINLESS_MODULES.anthropic,
  httpx: String.raw`httpx(?:\._exceptions)?`,
  httpcore: String.raw`httpcore(?:\._exceptions)?`,
  aiohttp: String.raw`aiohttp(?:\.client_exceptions)?`,
  requests: String.raw`requests(?:\.exceptions)?`,
  urllib3: String.raw`urllib3(?:\.exceptions)?`,
  litellm: String.raw`litellm(?:\.exceptions|\.types\.router)?`,
  botocore: String.raw`botocore(?:\.exceptions)?`,
};

/** How client.* reads a Stainless class (stainless-vocab.ts): a parse that met max_tokens is a note, a base class its message's. */
const STAINLESS_GROUP: Record<StainlessKind, ClientErrorGroup> = { connect: 'connect', timeout: 'timeout', abort: 'echo', status: 'status', body: 'body', length: 'echo', base: 'skip' };

// openai-python ≥ 1 and anthropic-sdk-python are generated from one template (stainless-vocab.ts, which
// holds their classes, statuses and module paths); the classes either adds of its own follow.
const STAINLESS = (p: 'openai' | 'anthropic'): ClientError[] =>
  stainlessClassesOf(p).map((c) => ({ producer: p, name: c.name, message: c.message, group: STAINLESS_GROUP[c.kind], ...(c.status !== undefined ? { status: c.status } : {}), ...(c.fallback !== undefined && c.status === undefined ? { fallback: c.fallback } : {}) }));

export const CLIENT_ERRORS: readonly ClientError[] = [
  ...STAINLESS('openai'),
  e('openai', 'WebSocketConnectionClosedError', 'WebSocket connection closed with unsent messages', 'dropped'),
  e('openai', 'WebSocketQueueFullError', 'send queue is full, message discarded', 'usage'),
  e('openai', 'StreamAlreadyConsumed', '', 'usage'),
  e('openai', 'SubjectTokenProviderError', 'The token file at /var/run/secrets/openai/token is empty.', 'skip'),
  e('openai', 'InvalidWebhookSignatureError', 'The given webhook signature does not match the expected signature', 'skip'),
  // Code written for openai < 1 run against openai ≥ 1: the installed package does not match the code.
  // (Read by its text too: pytest and loggers print the class unqualified, the attribute varies.)
  { ...e('openai', 'APIRemovedInV1', 'You tried to access openai.ChatCompletion, but this is no longer supported in openai>=1.0.0', 'config'), byText: 'but this is no longer supported in openai>=1.0.0' },

  // openai 0.28 (openai/error.py, api_requestor.py).
  ranged('openai<1', 'APIError', 'HTTP code N from API (…)', 500),
  e('openai<1', 'TryAgain', 'The server is currently overloaded, please try again', 'status', 503),
  e('openai<1', 'Timeout', 'Request timed out: HTTPSConnectionPool(host=\'api.openai.com\', port=443): Read timed out. (read timeout=600)', 'timeout'),
  e('openai<1', 'APIConnectionError', 'Error communicating with OpenAI: (\'Connection aborted.\', RemoteDisconnected(\'Remote end closed connection without response\'))', 'connect'),
  e('openai<1', 'InvalidRequestError', "This model's maximum context length is 4097 tokens", 'status', 400),
  e('openai<1', 'AuthenticationError', 'Incorrect API key provided: sk-xxxx.', 'status', 401),
  e('openai<1', 'PermissionError', 'You are not allowed to sample from this model', 'status', 403),
  e('openai<1', 'RateLimitError', 'Rate limit reached for default-gpt-3.5-turbo', 'status', 429),
  e('openai<1', 'ServiceUnavailableError', 'The server is overloaded or not ready yet.', 'status', 503),
  e('openai<1', 'InvalidAPIType', 'The API type provided in invalid. Please select one of the supported API types', 'config'),
  e('openai<1', 'SignatureVerificationError', 'No signatures found matching the expected signature for payload', 'skip'),
  e('openai<1', 'OpenAIError', '<empty message>', 'skip'),

  ...STAINLESS('anthropic'),
  e('anthropic', 'APIWebhookValidationError', '', 'skip'),
  // Raised by the run's own middleware to ask for a retry; what it wraps decides.
  e('anthropic', 'RetryableError', '', 'skip'),

  // httpx (the httpcore classes of the same names are mapped onto these).
  e('httpx', 'HTTPError', '', 'skip'),
  e('httpx', 'RequestError', '', 'skip'),
  e('httpx', 'TransportError', '', 'dropped'),
  e('httpx', 'TimeoutException', 'timed out', 'timeout'),
  // A connect timeout is no connection at all (network.connection says the same of ConnectTimeout).
  e('httpx', 'ConnectTimeout', 'timed out', 'connect'),
  e('httpx', 'ReadTimeout', 'The read operation timed out', 'timeout'),
  e('httpx', 'WriteTimeout', 'The write operation timed out', 'timeout'),
  e('httpx', 'PoolTimeout', 'timed out', 'timeout'),
  e('httpx', 'NetworkError', '', 'dropped'),
  e('httpx', 'ConnectError', 'All connection attempts failed', 'connect'),
  e('httpx', 'ReadError', '', 'dropped'),
  e('httpx', 'WriteError', '[Errno 32] Broken pipe', 'dropped'),
  e('httpx', 'CloseError', '[Errno 104] Connection reset by peer', 'dropped'),
  e('httpx', 'ProxyError', '407 Proxy Authentication Required', 'connect'),
  e('httpx', 'UnsupportedProtocol', "Request URL is missing an 'http://' or 'https://' protocol.", 'config'),
  e('httpx', 'ProtocolError', 'Malformed Digest WWW-Authenticate header', 'dropped'),
  // h11 refusing what the run's code built (an illegal header value); the empty bearer token is config.empty_api_key's.
  e('httpx', 'LocalProtocolError', "Illegal header value b'x\\n'", 'usage'),
  e('httpx', 'RemoteProtocolError', 'Server disconnected without sending a response.', 'dropped'),
  e('httpx', 'DecodingError', 'Error -3 while decompressing data: incorrect header check', 'body'),
  e('httpx', 'TooManyRedirects', 'Exceeded maximum allowed redirects.', 'echo'),
  e('httpx', 'HTTPStatusError', "Server error 'N Service Unavailable' for url 'http://gateway:4000/v1/chat/completions'", 'status'),
  e('httpx', 'InvalidURL', 'Invalid non-printable ASCII character in URL', 'config'),
  e('httpx', 'CookieConflict', 'Multiple cookies exist with name=session', 'usage'),
  e('httpx', 'StreamError', '', 'usage'),
  e('httpx', 'StreamConsumed', "Attempted to read or stream some content, but the content has already been streamed.", 'usage'),
  e('httpx', 'StreamClosed', 'Attempted to read or stream content, but the stream has been closed.', 'usage'),
  e('httpx', 'ResponseNotRead', "Attempted to access streaming response content, without having called `read()`.", 'usage'),
  e('httpx', 'RequestNotRead', "Attempted to access streaming request content, without having called `read()`.", 'usage'),

  // httpcore, raised bare where a caller uses it without httpx.
  e('httpcore', 'ConnectionNotAvailable', '', 'echo'),
  e('httpcore', 'ProxyError', 'Proxy Server could not connect: Connection refused.', 'connect'),
  e('httpcore', 'UnsupportedProtocol', "Request URL has an unsupported protocol 'ftp://'.", 'config'),
  e('httpcore', 'ProtocolError', '', 'dropped'),
  e('httpcore', 'RemoteProtocolError', 'Server disconnected', 'dropped'),
  e('httpcore', 'LocalProtocolError', "Illegal header value b'x\\n'", 'usage'),
  e('httpcore', 'TimeoutException', 'timed out', 'timeout'),
  e('httpcore', 'PoolTimeout', 'timed out', 'timeout'),
  e('httpcore', 'ConnectTimeout', 'timed out', 'connect'),
  e('httpcore', 'ReadTimeout', 'timed out', 'timeout'),
  e('httpcore', 'WriteTimeout', 'timed out', 'timeout'),
  e('httpcore', 'NetworkError', '', 'dropped'),
  e('httpcore', 'ConnectError', '[Errno 111] Connection refused', 'connect'),
  e('httpcore', 'ReadError', '[Errno 104] Connection reset by peer', 'dropped'),
  e('httpcore', 'WriteError', '[Errno 32] Broken pipe', 'dropped'),

  // aiohttp.
  e('aiohttp', 'ClientError', '', 'skip'),
  e('aiohttp', 'ClientResponseError', "N, message='Service Unavailable', url='http://vllm:8000/v1/completions'", 'status'),
  e('aiohttp', 'ContentTypeError', "N, message='Attempt to decode JSON with unexpected mimetype: text/html', url='http://vllm:8000/v1/completions'", 'body'),
  e('aiohttp', 'WSServerHandshakeError', "N, message='Invalid response status', url='ws://sandbox:8080/ws'", 'status'),
  // The proxy refused the CONNECT: no connection to the server (network.error, as httpx's ProxyError).
  e('aiohttp', 'ClientHttpProxyError', "407, message='Proxy Authentication Required', url='http://proxy:3128'", 'connect'),
  e('aiohttp', 'TooManyRedirects', "N, message='', url='http://gateway/v1/models'", 'echo'),
  e('aiohttp', 'ClientConnectionError', 'Connection closed', 'dropped'),
  e('aiohttp', 'ClientConnectionResetError', 'Cannot write to closing transport', 'dropped'),
  e('aiohttp', 'ClientOSError', '[Errno 104] Connection reset by peer', 'dropped'),
  e('aiohttp', 'ClientConnectorError', 'Cannot connect to host api.example.com:443 ssl:default [Connect call failed (\'10.0.0.7\', 443)]', 'connect'),
  e('aiohttp', 'ClientConnectorDNSError', 'Cannot connect to host api.example.com:443 ssl:default [Name or service not known]', 'connect'),
  e('aiohttp', 'ClientProxyConnectionError', 'Cannot connect to host proxy:3128 ssl:default [Connect call failed (\'10.0.0.9\', 3128)]', 'connect'),
  e('aiohttp', 'UnixClientConnectorError', 'Cannot connect to unix socket /var/run/docker.sock ssl:default [No such file or directory]', 'connect'),
  e('aiohttp', 'ClientSSLError', 'Cannot connect to host api.example.com:443 ssl:True [SSLError]', 'connect'),
  e('aiohttp', 'ClientConnectorSSLError', 'Cannot connect to host api.example.com:443 ssl:default [[SSL: WRONG_VERSION_NUMBER] wrong version number (_ssl.c:1006)]', 'connect'),
  e('aiohttp', 'ClientConnectorCertificateError', "Cannot connect to host api.example.com:443 ssl:True [SSLCertVerificationError: (1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1006)')]", 'connect'),
  e('aiohttp', 'ServerConnectionError', '', 'dropped'),
  e('aiohttp', 'ServerDisconnectedError', 'Server disconnected', 'dropped'),
  e('aiohttp', 'ServerTimeoutError', 'Timeout on reading data from socket', 'timeout'),
  e('aiohttp', 'ConnectionTimeoutError', 'Connection timeout to host https://api.example.com/v1/chat/completions', 'connect'),
  e('aiohttp', 'SocketTimeoutError', 'Timeout on reading data from socket', 'timeout'),
  e('aiohttp', 'ServerFingerprintMismatch', "<ServerFingerprintMismatch expected=b'\\x01' got=b'\\x02' host='api.example.com' port=443>", 'connect'),
  e('aiohttp', 'ClientPayloadError', "Response payload is not completed: <TransferEncodingError: 400, message='Not enough data to satisfy transfer length header.'>", 'dropped'),
  e('aiohttp', 'InvalidURL', 'localhost:8000/v1', 'config'),
  e('aiohttp', 'InvalidUrlClientError', 'vllm-server/v1/completions', 'config'),
  e('aiohttp', 'NonHttpUrlClientError', 'ftp://files.example.com/data', 'config'),
  // The server redirected to a URL the client cannot follow: the server's answer, not the run's URL.
  e('aiohttp', 'RedirectClientError', '', 'echo'),
  e('aiohttp', 'InvalidUrlRedirectClientError', '//bad - Server attempted redirecting to a location that does not look like a URL', 'echo'),
  e('aiohttp', 'NonHttpUrlRedirectClientError', 'ftp://files.example.com/x', 'echo'),
  e('aiohttp', 'WSMessageTypeError', 'Received message 8:1000 is not WSMsgType.TEXT', 'usage'),

  // requests.
  e('requests', 'RequestException', '', 'skip'),
  e('requests', 'HTTPError', 'N Server Error: Service Unavailable for url: http://localhost:8000/v1/completions', 'status'),
  // adapters.py raises it for urllib3's MaxRetryError whatever its reason (a read timeout included): the reason decides.
  e('requests', 'ConnectionError', "HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /v1/completions (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3a>: Failed to establish a new connection: [Errno 111] Connection refused'))", 'reason'),
  e('requests', 'ProxyError', "HTTPSConnectionPool(host='api.openai.com', port=443): Max retries exceeded with url: /v1/models (Caused by ProxyError('Unable to connect to proxy', OSError('Tunnel connection failed: 407 Proxy Authentication Required')))", 'connect'),
  e('requests', 'SSLError', "HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models (Caused by SSLError(SSLEOFError(8, 'EOF occurred in violation of protocol (_ssl.c:1006)')))", 'connect'),
  e('requests', 'Timeout', 'timed out', 'timeout'),
  e('requests', 'ConnectTimeout', "HTTPSConnectionPool(host='api.openai.com', port=443): Max retries exceeded with url: /v1/chat/completions (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x7f3a>, 'Connection to api.openai.com timed out. (connect timeout=10)'))", 'connect'),
  e('requests', 'ReadTimeout', "HTTPConnectionPool(host='localhost', port=8000): Read timed out. (read timeout=600)", 'timeout'),
  e('requests', 'URLRequired', 'A valid URL is required to make a request.', 'config'),
  e('requests', 'MissingSchema', "Invalid URL 'localhost:8000/v1/completions': No scheme supplied. Perhaps you meant https://localhost:8000/v1/completions?", 'config'),
  e('requests', 'InvalidSchema', "No connection adapters were found for 'localhost:8000/v1/completions'", 'config'),
  e('requests', 'InvalidURL', "Invalid URL 'http://': No host supplied", 'config'),
  // A header value the run built with a newline or leading space (an API key read with its trailing newline).
  e('requests', 'InvalidHeader', "Invalid leading whitespace, reserved character(s), or return character(s) in header value: 'Bearer sk-x\\n'", 'config'),
  e('requests', 'InvalidProxyURL', 'Please check proxy URL. It is malformed and could be missing the host.', 'config'),
  e('requests', 'TooManyRedirects', 'Exceeded 30 redirects.', 'echo'),
  e('requests', 'ChunkedEncodingError', "('Connection broken: IncompleteRead(0 bytes read, 512 more expected)', IncompleteRead(0 bytes read, 512 more expected))", 'dropped'),
  e('requests', 'ContentDecodingError', "('Received response with content-encoding: gzip, but failed to decode it.', error('Error -3 while decompressing data: incorrect header check'))", 'body'),
  e('requests', 'InvalidJSONError', 'Out of range float values are not JSON compliant', 'usage'),
  e('requests', 'JSONDecodeError', 'Expecting value: line 1 column 1 (char 0)', 'body'),
  e('requests', 'StreamConsumedError', '', 'usage'),
  // urllib3 gave up on error statuses (Retry(status_forcelist)): the status inside decides.
  e('requests', 'RetryError', "HTTPConnectionPool(host='rm', port=8000): Max retries exceeded with url: /score (Caused by ResponseError('too many N error responses'))", 'status'),
  e('requests', 'UnrewindableBodyError', 'Unable to rewind request body for redirect.', 'usage'),

  // urllib3.
  e('urllib3', 'HTTPError', '', 'skip'),
  e('urllib3', 'PoolError', '', 'skip'),
  e('urllib3', 'RequestError', '', 'skip'),
  e('urllib3', 'SSLError', "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1006)", 'connect'),
  e('urllib3', 'ProxyError', "('Unable to connect to proxy', OSError('Tunnel connection failed: 403 Forbidden'))", 'connect'),
  e('urllib3', 'DecodeError', "('Received response with content-encoding: gzip, but failed to decode it.', error('Error -3 while decompressing data: incorrect header check'))", 'body'),
  e('urllib3', 'ProtocolError', "('Connection aborted.', RemoteDisconnected('Remote end closed connection without response'))", 'dropped'),
  e('urllib3', 'MaxRetryError', "HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /v1/models (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3a>: Failed to establish a new connection: [Errno 111] Connection refused'))", 'reason'),
  e('urllib3', 'HostChangedError', "HTTPConnectionPool(host='a', port=80): Tried to open a foreign host with url: http://b/", 'usage'),
  e('urllib3', 'TimeoutStateError', 'Timeout timer has already been started.', 'usage'),
  e('urllib3', 'TimeoutError', 'timed out', 'timeout'),
  e('urllib3', 'ReadTimeoutError', "HTTPConnectionPool(host='localhost', port=8000): Read timed out. (read timeout=30)", 'timeout'),
  e('urllib3', 'ConnectTimeoutError', "(<urllib3.connection.HTTPSConnection object at 0x7f3a>, 'Connection to api.openai.com timed out. (connect timeout=10)')", 'connect'),
  e('urllib3', 'NewConnectionError', '<urllib3.connection.HTTPConnection object at 0x7f3a>: Failed to establish a new connection: [Errno 111] Connection refused', 'connect'),
  e('urllib3', 'NameResolutionError', "<urllib3.connection.HTTPSConnection object at 0x7f3a>: Failed to resolve 'huggingface.co' ([Errno -3] Temporary failure in name resolution)", 'connect'),
  // The pool waited for a free connection in blocking mode: the client's own concurrency, as httpx's PoolTimeout.
  e('urllib3', 'EmptyPoolError', "HTTPConnectionPool(host='localhost', port=8000): Pool is empty and a new connection can't be opened due to blocking mode.", 'timeout'),
  e('urllib3', 'FullPoolError', "HTTPConnectionPool(host='localhost', port=8000): Pool reached maximum size and no more connections are allowed.", 'echo'),
  e('urllib3', 'ClosedPoolError', "HTTPConnectionPool(host='localhost', port=8000): Pool is closed.", 'echo'),
  e('urllib3', 'LocationValueError', 'No host specified.', 'config'),
  e('urllib3', 'LocationParseError', 'Failed to parse: http://[::1', 'config'),
  e('urllib3', 'URLSchemeUnknown', 'Not supported URL scheme socks6', 'config'),
  e('urllib3', 'ProxySchemeUnknown', 'Proxy URL had no scheme, should start with http:// or https://', 'config'),
  e('urllib3', 'ProxySchemeUnsupported', "TLS in TLS requires support for the 'ssl' module", 'config'),
  e('urllib3', 'ResponseError', 'too many N error responses', 'status'),
  e('urllib3', 'IncompleteRead', 'IncompleteRead(0 bytes read, 512 more expected)', 'dropped'),
  e('urllib3', 'InvalidChunkLength', "InvalidChunkLength(got length b'', 0 bytes read)", 'dropped'),
  e('urllib3', 'InvalidHeader', '', 'body'),
  e('urllib3', 'ResponseNotChunked', "Response is not chunked. Header 'transfer-encoding: chunked' is missing.", 'usage'),
  e('urllib3', 'BodyNotHttplibCompatible', 'Body should be http.client.HTTPResponse like. It should have have an fp attribute which returns raw chunks.', 'usage'),

  // LiteLLM: every class prints "litellm.<Class>: <Class>: <Provider>Exception - <provider message>".
  e('litellm', 'AuthenticationError', 'litellm.AuthenticationError: AuthenticationError: OpenAIException - Incorrect API key provided', 'status', 401),
  e('litellm', 'NotFoundError', 'litellm.NotFoundError: OpenAIException - The model `qwen3-8b` does not exist', 'status', 404),
  e('litellm', 'BadRequestError', "litellm.BadRequestError: OpenAIException - Invalid value for 'temperature'", 'status', 400),
  e('litellm', 'ImageFetchError', 'litellm.BadRequestError: Unable to fetch image from url', 'status', 400),
  e('litellm', 'UnprocessableEntityError', 'litellm.UnprocessableEntityError: Hosted_vllmException - field required', 'status', 422),
  e('litellm', 'UnsupportedParamsError', "litellm.UnsupportedParamsError: vllm does not support parameters: ['reasoning_effort']", 'status', 400),
  e('litellm', 'Timeout', 'litellm.Timeout: APITimeoutError - Request timed out.', 'timeout'),
  e('litellm', 'PermissionDeniedError', 'litellm.PermissionDeniedError: AnthropicException - not allowed', 'status', 403),
  e('litellm', 'RateLimitError', 'litellm.RateLimitError: RateLimitError: OpenAIException - slow down', 'status', 429),
  e('litellm', 'ContextWindowExceededError', 'litellm.ContextWindowExceededError: litellm.BadRequestError: ContextWindowExceededError: OpenAIException - input too long', 'status', 400),
  e('litellm', 'RejectedRequestError', 'litellm.RejectedRequestError: Violated content safety policy', 'status', 400),
  e('litellm', 'ContentPolicyViolationError', 'litellm.ContentPolicyViolationError: ContentPolicyViolationError: AzureException - filtered', 'status', 400),
  e('litellm', 'ServiceUnavailableError', 'litellm.ServiceUnavailableError: OpenAIException - upstream unavailable', 'status', 503),
  e('litellm', 'BadGatewayError', 'litellm.BadGatewayError: OpenAIException - upstream returned 502', 'status', 502),
  e('litellm', 'InternalServerError', 'litellm.InternalServerError: InternalServerError: Hosted_vllmException - unhandled', 'status', 500),
  // APIError carries whatever status the provider sent; 500 when the message names none.
  ranged('litellm', 'APIError', "litellm.APIError: APIError: Hosted_vllmException - 'NoneType' object is not subscriptable", 500),
  e('litellm', 'APIConnectionError', 'litellm.APIConnectionError: APIConnectionError: OllamaException - [Errno 111] Connection refused', 'connect'),
  e('litellm', 'APIResponseValidationError', 'litellm.APIResponseValidationError: Invalid response object', 'body'),
  // The model's answer did not fit the run's JSON schema: the model's output, not the gateway failing.
  e('litellm', 'JSONSchemaValidationError', 'litellm.JSONSchemaValidationError: model=gpt-4o, returned an invalid response={}, for schema={}.', 'echo'),
  e('litellm', 'OpenAIError', '', 'skip'),
  e('litellm', 'BudgetExceededError', 'Budget has been exceeded! Current cost: 100.02, Max budget: 100.0', 'status', 400),
  e('litellm', 'InvalidRequestError', 'The model `gpt-5` does not exist', 'status', 400),
  e('litellm', 'MockException', 'litellm.MockException: mocked', 'skip'),
  // The model string names no provider ("gpt-4o" for a vLLM server needs "hosted_vllm/…"): the run's settings.
  // A model string that names no provider: LiteLLM raises it as a BadRequestError (an unknown model, gateway.4xx).
  e('litellm', 'LiteLLMUnknownProvider', 'litellm.BadRequestError: LLM Provider NOT provided. Pass in the LLM provider you are trying to call. You passed model=qwen3-8b', 'status', 400),
  e('litellm', 'GuardrailRaisedException', 'Guardrail raised an exception, Guardrail: pii, Message: blocked', 'status', 400),
  e('litellm', 'BlockedPiiEntityError', 'Blocked entity detected: EMAIL_ADDRESS by Guardrail: presidio. This entity is not allowed to be used in this request.', 'status', 400),
  e('litellm', 'MidStreamFallbackError', 'litellm.MidStreamFallbackError: upstream stream failed', 'status', 503),
  e('litellm', 'GuardrailInterventionNormalStringError', '', 'skip'),
  e('litellm', 'RouterRateLimitError', 'No deployments available for selected model, Try again in 60 seconds. Passed model=gpt-4o.', 'status', 429),
];

/** An undici error: class, code, default message. */
const u = (name: string, code: string, message: string, group: ClientErrorGroup, byText?: string): ClientError => ({ producer: 'undici', name, message, group, code, ...(byText ? { byText } : {}) });

/**
 * undici 8.10 (nodejs/undici 7eb7c8e, lib/core/errors.js: every class, its code and default message;
 * lib/core/connect.js "Connect Timeout Error (attempted addresses: …, timeout: Nms)"; lib/dispatcher/
 * client-h1.js SocketError "other side closed"; lib/web/fetch/index.js: fetch rejects with TypeError
 * "fetch failed" whose [cause] is the undici error, and a body cut mid-stream errors with TypeError
 * "terminated"). Node's fetch, and every JavaScript SDK on it (openai-node, the AI SDK), print these.
 */
export const UNDICI_ERRORS: readonly ClientError[] = [
  u('ConnectTimeoutError', 'UND_ERR_CONNECT_TIMEOUT', 'Connect Timeout Error (attempted address: api.openai.com:443, timeout: 10000ms)', 'connect', 'Connect Timeout Error'),
  u('HeadersTimeoutError', 'UND_ERR_HEADERS_TIMEOUT', 'Headers Timeout Error', 'timeout', 'Headers Timeout Error'),
  u('BodyTimeoutError', 'UND_ERR_BODY_TIMEOUT', 'Body Timeout Error', 'timeout', 'Body Timeout Error'),
  u('HeadersOverflowError', 'UND_ERR_HEADERS_OVERFLOW', 'Headers Overflow Error', 'body', 'Headers Overflow Error'),
  u('InvalidArgumentError', 'UND_ERR_INVALID_ARG', 'invalid method', 'usage'),
  u('InvalidReturnValueError', 'UND_ERR_INVALID_RETURN_VALUE', 'Invalid Return Value Error', 'usage'),
  u('AbortError', 'UND_ERR_ABORT', 'The operation was aborted', 'echo'),
  u('RequestAbortedError', 'UND_ERR_ABORTED', 'Request aborted', 'echo'),
  u('InformationalError', 'UND_ERR_INFO', 'Request information', 'skip'),
  u('RequestContentLengthMismatchError', 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH', 'Request body length does not match content-length header', 'usage'),
  u('ResponseContentLengthMismatchError', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'Response body length does not match content-length header', 'dropped', 'Response body length does not match content-length header'),
  u('ClientDestroyedError', 'UND_ERR_DESTROYED', 'The client is destroyed', 'echo'),
  u('ClientClosedError', 'UND_ERR_CLOSED', 'The client is closed', 'echo'),
  u('SocketError', 'UND_ERR_SOCKET', 'other side closed', 'dropped', 'other side closed'),
  u('NotSupportedError', 'UND_ERR_NOT_SUPPORTED', 'Not supported error', 'usage'),
  u('BalancedPoolMissingUpstreamError', 'UND_ERR_BPL_MISSING_UPSTREAM', 'No upstream has been added to the BalancedPool', 'usage'),
  u('ResponseExceededMaxSizeError', 'UND_ERR_RES_EXCEEDED_MAX_SIZE', 'Response content exceeded max size', 'usage'),
  // The status it carries, or the retries' last error, decides.
  u('RequestRetryError', 'UND_ERR_REQ_RETRY', 'Request retry error', 'skip'),
  u('ResponseError', 'UND_ERR_RESPONSE', 'Response error', 'skip'),
  u('SecureProxyConnectionError', 'UND_ERR_PRX_TLS', 'Secure Proxy Connection failed', 'connect'),
  u('ProxyConnectionError', 'UND_ERR_PRX_CONN', 'Proxy Connection failed', 'connect'),
  u('MaxOriginsReachedError', 'UND_ERR_MAX_ORIGINS_REACHED', 'Maximum allowed origins reached', 'usage'),
  u('Socks5ProxyError', 'UND_ERR_SOCKS5', 'SOCKS5 proxy error', 'connect'),
  u('MessageSizeExceededError', 'UND_ERR_WS_MESSAGE_SIZE_EXCEEDED', 'Max decompressed message size exceeded', 'usage'),
  // fetch: a response body cut mid-stream (its [cause] is usually SocketError "other side closed"). The
  // other TypeError, "fetch failed", says only that its [cause] failed: that line decides.
  { producer: 'undici', name: 'TypeError', message: 'terminated', group: 'dropped', byText: 'TypeError: terminated' },
];

/**
 * The providers' own texts that LiteLLM maps to a class whatever status came with them
 * (litellm_core_utils/exception_mapping_utils.py ExceptionCheckers: is_error_str_context_window_exceeded's
 * known_exception_substrings and the Cerebras / "maximum input length" checks → ContextWindowExceededError;
 * is_azure_content_policy_violation_error → ContentPolicyViolationError; is_error_str_rate_limit's Mistral
 * "service tier capacity exceeded" → RateLimitError): [text as LiteLLM matches it (lower case), status of
 * the class it becomes, what it says]. Left out: its bare "rate limit" / "429" (the gateway rules read
 * those with their context) and "the model produced invalid content" (OpenAI answers that with a 500:
 * LiteLLM's 400 is its own choice, not the provider's).
 */
export const LITELLM_PROVIDER_TEXTS: readonly (readonly [string, number, string])[] = [
  ["model's maximum context limit", 400, 'context window'],
  ["is longer than the model's context length", 400, 'context window'],
  ['input tokens exceed the configured limit', 400, 'context window'],
  ['exceeds the available context size', 400, 'context window (llama.cpp)'],
  ['exceeds the maximum number of tokens allowed', 400, 'context window (Gemini)'],
  ['string too long. expected a string with maximum length', 400, 'context window'],
  ['responsibleaipolicyviolation', 400, 'content policy (Azure)'],
  ["the response was filtered due to the prompt triggering azure openai's content management", 400, 'content policy (Azure)'],
  ['your task failed as a result of our safety system', 400, 'content policy'],
  ['content_filter_policy', 400, 'content policy'],
  ['your request was rejected as a result of our safety system', 400, 'content policy'],
  ['content_policy_violation', 400, 'content policy'],
  ['service tier capacity exceeded', 429, 'rate limit (Mistral)'],
];

/**
 * The OpenAI API's own error messages, as its error-codes guide lists them (platform.openai.com/docs/
 * guides/error-codes, "API errors": the message text the API returns with each status), plus the older
 * overload text the API returned for a model at capacity. OpenAI-compatible servers and gateways return
 * the same texts. [text, status, what], read case-insensitively like LiteLLM's texts above.
 */
export const OPENAI_API_ERROR_TEXTS: readonly (readonly [string, number, string])[] = [
  ['you must be a member of an organization to use the api', 401, 'no organization (OpenAI)'],
  ['country, region, or territory not supported', 403, 'region not supported (OpenAI)'],
  ['you exceeded your current quota, please check your plan and billing details', 429, 'quota exhausted (OpenAI)'],
  ['the engine is currently overloaded, please try again later', 503, 'overloaded (OpenAI)'],
  ['model is currently overloaded with other requests', 503, 'overloaded (OpenAI)'],
  // The API's generic server_error message (a 500 answer, also the text of a failed Batch request's error file).
  ['an error occurred while processing your request. you can retry your request', 500, 'server error (OpenAI)'],
];

/**
 * Log lines of the clients' retry loops: notes before a failure, not one. [producer, where, text as printed].
 * Nothing reads them as a failure (the test checks each stays unknown on its own).
 */
export const CLIENT_RETRY_NOTES: readonly (readonly [ClientProducer, string, string])[] = [
  ['openai', '_base_client.py _sleep_for_retry (INFO)', 'INFO:openai._base_client:Retrying request to /chat/completions in 0.822 seconds'],
  ['openai', '_base_client.py _sleep_for_retry (INFO, 3.x)', 'INFO:openai._base_client:Retrying request in 0.411000 seconds'],
  ['anthropic', '_base_client.py _sleep_for_retry (INFO)', 'INFO:anthropic._base_client:Retrying request to /v1/messages in 0.934000 seconds'],
];

/** Every entry: the SDKs and HTTP clients above, botocore's HTTP-layer and settings classes (aws-vocab.ts), undici's. */
export const ALL_CLIENT_ERRORS: readonly ClientError[] = [...CLIENT_ERRORS, ...BOTOCORE_ERRORS, ...UNDICI_ERRORS];

const KEY = (p: ClientProducer, name: string): string => `${p}:${name}`;
const BY_KEY = new Map(ALL_CLIENT_ERRORS.map((x) => [KEY(x.producer, x.name), x]));
const BY_TEXT = new Map(ALL_CLIENT_ERRORS.filter((x) => x.byText).map((x) => [x.byText!, x]));
const BY_CODE = new Map(ALL_CLIENT_ERRORS.filter((x) => x.code).map((x) => [x.code!, x]));

/** The entry a text of its own names (ClientError.byText). */
export function clientErrorByText(text: string): ClientError | undefined {
  return BY_TEXT.get(text);
}

/** The entry of an undici error code. */
export function clientErrorByCode(code: string): ClientError | undefined {
  return BY_CODE.get(code);
}

/** The producer whose qualified module a matched prefix names (`aiohttp.client_exceptions` → aiohttp). */
export function producerOf(module: string): ClientProducer | undefined {
  if (module === 'openai.error') return 'openai<1';
  const head = module.split('.')[0];
  return (Object.keys(PRODUCER_MODULES) as ClientProducer[]).find((p) => p === head);
}

/** The table's entry for a producer's class name. */
export function clientError(producer: ClientProducer, name: string): ClientError | undefined {
  return BY_KEY.get(KEY(producer, name));
}

/** The class names of each producer, longest first (a regex alternation then takes the longest). */
export function namesOf(producer: ClientProducer): string[] {
  return ALL_CLIENT_ERRORS.filter((x) => x.producer === producer)
    .map((x) => x.name)
    .sort((a, b) => b.length - a.length);
}
