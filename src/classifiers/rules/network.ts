// Transport-level network failures: refused/reset connections, DNS, TLS/mTLS. An HTTP status is not a
// network error (gateway rules); NCCL transport failures are NCCL's (nccl rules, stronger).
import { defineRules } from '../rule.js';
import { byAnswerer } from './answerer.js';
import { NCCL_SOCKET_LINE } from './nccl.js';

/** Experiment trackers retry in the background; their network trouble does not stop a run. */
export const TRACKER_NOISE = /\bwandb\b|W&B|entering retry loop|mlflow|sentry_sdk|telemetry/i;

/** Harbor's own timeouts (trial/errors.py): a line that names one wraps the error of the call it stopped waiting for, and the harness timeout decides (rules/harbor.ts). */
export const HARNESS_TIMEOUTS = /EnvironmentStartTimeout|AgentSetupTimeout|VerifierTimeout|AgentTimeoutError/;
/**
 * LiteLLM names every failure of its provider client APIConnectionError, whatever it carried: these are the
 * two it carries that another rule reads (gateway.ts), so network.connection leaves them. The provider
 * client's read timeout (str() of httpx's ReadTimeout is "timed out"; "… - litellm.Timeout: …"):
 * api.request_timeout's.
 */
export const LITELLM_WRAPPED_TIMEOUT = /\bAPIConnectionError\b.{0,160}?(?:\w+Exception - (?:Request )?timed out\b|\blitellm\.Timeout:)/;
/**
 * Ollama's runner failing on a request (server/routes.go and llm/server.go answer 500 with "an unknown error
 * was encountered while running the model", or "model runner has unexpectedly stopped, this may be due to
 * resource limitations or an internal error"): gateway.server_error's, however a client relays it.
 */
export const OLLAMA_RUNNER_FAILED = /an unknown error was encountered while running the model|model runner has unexpectedly stopped, this may be due to resource limitations or an internal error/;

/**
 * PyTorch c10d's warnings (`[W socket.cpp:663] [c10d] …`, newer `[W1201 18:42:51.79 socket.cpp:752] [c10d] …`):
 * its socket layer (torch/csrc/distributed/c10d/socket.cpp) warns about each address family it could not
 * resolve or reach ("The IPv6 network addresses of (host, port) cannot be retrieved (gai error: -3 - …)") and
 * retries; the connection often succeeds over IPv4. Only its `[E …]` line and the exception it throws
 * ("The client socket has failed to connect to any network address of …", "… has timed out after …") mean failure.
 */
export const C10D_WARNING = /\[W[\d :.]{0,40}[^\]\s]{0,200}\.[ch]pp:\d+\] \[c10d\] /;

export const networkRules = defineRules([
  {
    id: 'network.tls',
    class: 'network.error',
    patterns: [/CERTIFICATE_VERIFY_FAILED|certificate verify failed|SSLCertVerificationError/, /tls: (?:bad certificate|handshake failure|unknown certificate|internal error|failed to verify)/, /TLS handshake (?:error|timeout|failure)/, /x509: certificate/, /\bSSL(?:EOF)?Error\b|\[SSL: [A-Z_]{3,60}\]/, /gnutls_handshake\(\) failed/],
    unless: [TRACKER_NOISE],
    strength: 61,
    why: 'a TLS/mTLS handshake failed (certificate or protocol)',
    hint: 'TLS failed: check the CA bundle (REQUESTS_CA_BUNDLE/SSL_CERT_FILE behind a corporate proxy), certificate expiry and SANs, and for Kubernetes components that client and server certificates come from the same CA.',
  },
  {
    id: 'network.dns',
    class: 'network.error',
    patterns: [
      /NameResolutionError|\bClientConnectorDNSError\b/,
      /getaddrinfo (?:failed|ENOTFOUND|EAI_AGAIN)|\bEAI_AGAIN\b|\bENOTFOUND\b/,
      /Temporary failure in name resolution/,
      /Name or service not known|nodename nor servname provided|No address associated with hostname/,
      /Could not resolve host/,
      /dial tcp: lookup .{1,200} no such host/,
    ],
    unless: [TRACKER_NOISE, C10D_WARNING],
    strength: 60,
    why: 'a host name could not be resolved',
    hint: 'DNS failed: the host is offline or its resolver cannot reach the name. For Hugging Face downloads on an offline host set HF_HUB_OFFLINE=1 with a pre-populated cache, or fix /etc/resolv.conf / the cluster DNS.',
  },
  {
    // gorilla/websocket's CloseError for a connection that dropped with no close frame (1006, "abnormal
    // closure"), as kubectl exec/attach/port-forward and Go clients print it. The stream also drops so when
    // the process at the other end dies (a Pod's container killed: "command terminated with exit code
    // 137"), so it is weak: a kill or the other end's own failure decides before it.
    id: 'network.websocket_abnormal_close',
    class: 'network.error',
    patterns: [/websocket: close 1006 \(abnormal closure\)/],
    strength: 30,
    why: 'a websocket stream (kubectl exec/attach, a Go client) dropped without a close frame',
    hint: "The websocket stream dropped without a close frame (1006): a proxy or load balancer between client and API server cut it (idle or upgrade timeouts, a proxy that does not pass websockets), or the process at the other end died. Check the Pod's status and events first, then the proxy's websocket support and timeouts.",
  },
  {
    id: 'network.connection',
    class: 'network.error',
    patterns: [
      /[Cc]onnection refused|\bECONNREFUSED\b|ConnectionRefusedError/,
      /[Cc]onnection reset by peer|\bECONNRESET\b|ConnectionResetError/,
      /Connection aborted|RemoteDisconnected|BrokenPipeError/,
      /No route to host|Network is unreachable|\bEHOSTUNREACH\b|\bENETUNREACH\b/,
      /connect: connection timed out|dial tcp [^ ]{1,80}: i\/o timeout|connect ETIMEDOUT/,
      // ETIMEDOUT on connect as Python words it (Linux 110, macOS 60); aiohttp's connect timeout.
      /\[Errno 110\] Connection timed out|\[Errno 60\] Operation timed out|\bConnectionTimeoutError: Connection timeout to host/,
      // aiohttp's and httpx's other connection failures.
      /\b(?:ClientConnectionError|ClientConnectionResetError|ClientOSError|ClientProxyConnectionError|ServerConnectionError)\b|\bhttpx\.CloseError\b/,
      /Failed to establish a new connection/,
      // asyncio's own connect failure (selector_events.py sock_connect: OSError(err, f'Connect call failed
      // {address}')), raised as ConnectionRefusedError, TimeoutError (WSAETIMEDOUT 10060, ETIMEDOUT) or
      // OSError: the TCP connection never came up, whatever the exception class.
      /\bConnect call failed \(/,
      /\bAPIConnectionError\b|\bConnectTimeout(?:Error)?\b|httpx\.ConnectError|\bProxyError\b/,
      // LiteLLM re-raising openai-python's APIConnectionError ("Connection error.") under another class
      // (InternalServerError, APIError, ServiceUnavailableError): "<Provider>Exception - Connection error.".
      /\w+Exception - Connection error\./,
      /Failed to connect to \S{1,200} port \d+/,
      // Go's net/http (transport.go errRequestCanceledConn): no connection to the server before the
      // client's timeout, as dockerd, kubelet and Go CLIs quote it ("… (Client.Timeout exceeded while awaiting headers)").
      /net\/http: request canceled while waiting for connection/,
      /\b(?:RemoteProtocolError|ServerDisconnectedError|ClientConnectorError)\b|Cannot connect to host \S/,
      /\bDistNetworkError\b|\bRendezvousConnectionError\b|socket has timed out after \d+m?s while trying to connect to/,
      // c10d's older TCP connect (torch ≤ 1.11, csrc/distributed/c10d/Utils.cpp tcputil::connect) on the
      // TCPStore / rendezvous endpoint: "connect() timed out. Original timeout was 60000 ms.".
      /connect\(\) timed out\. Original timeout was \d+ ?ms/,
      /The client socket has failed to connect to any network address of \(/,
      // TCPStore server waiting for ranks that never arrived (c10d/TCPStore.cpp, DistStoreError) and the
      // elastic rendezvous giving up (RendezvousTimeoutError): the job never assembled.
      /Timed out after \d+ seconds waiting for clients\. \d+\/\d+ clients joined|\bRendezvousTimeoutError\b/,
      // The same at init_process_group's store-based barrier (torch/distributed/distributed_c10d.py
      // _store_based_barrier: "Timed out initializing process group in store based barrier on rank …
      // (world_size=…, worker_count=… / num_workers_joined=…)"): some ranks never reached the store.
      /Timed out initializing process group in store based barrier on rank/,
      // Hugging Face Hub unreachable (transformers/utils/hub.py, huggingface_hub LocalEntryNotFoundError).
      /We couldn't connect to '[^']{1,120}' to load (?:this file|the files)|\bLocalEntryNotFoundError\b/,
      // 🤗 datasets' ConnectionError (load.py / file_utils.py): the Hub or a data URL not reachable.
      /Couldn't reach '[^']{1,200}' on the Hub|Couldn't reach https?:\/\/\S{1,300} \(/,
      // httpx's other transport errors, requests' broken chunked body, aiohttp's cut payload.
      /\bhttpx\.(?:ReadError|WriteError|ConnectTimeout|NetworkError)\b|\bChunkedEncodingError\b|Connection broken: IncompleteRead|\bClientPayloadError\b/,
      // The Ollama CLI finding no server to talk to (cmd/cmd.go: "could not connect to ollama app, is it
      // running?", later "could not connect to ollama server, run 'ollama serve' to start it").
      /could not connect to ollama (?:app, is it running\?|server, run 'ollama serve')/,
      // Gloo's process group could not connect its mesh (ProcessGroupGloo.cpp "Gloo connectFullMesh failed with
      // […/gloo/transport/tcp/pair.cc:N] …"): the ranks cannot reach each other over TCP (GLOO_SOCKET_IFNAME).
      /\bGloo connectFullMesh failed with \[/,
      // UCX's IB transport giving up on a link (uct/ib/mlx5 ib_mlx5_log.c "Transport retry count exceeded on
      // mlx5_0:1/IB"). (NIXL's NIXL_ERR_REMOTE_DISCONNECT and UCX's failed sends follow a peer engine's death,
      // which vLLM's connector recovers from: not read.)
      /\bUCX\s+ERROR Transport retry count exceeded on /,
    ],
    // NCCL's own socket layer (its WARN lines and the "Last error:" copy PyTorch prints) is nccl.error.
    // A kubelet probe's connection error is the probe's (k8s.probe_failed), not the run's network.
    // (LiteLLM's APIConnectionError carrying a read timeout or an Ollama 500 body is read by what it carries.)
    unless: [
      /NCCL WARN/,
      NCCL_SOCKET_LINE,
      /\bexcept\b/,
      TRACKER_NOISE,
      C10D_WARNING,
      /\b(?:Liveness|Readiness|Startup) probe failed: /,
      LITELLM_WRAPPED_TIMEOUT,
      OLLAMA_RUNNER_FAILED,
    ],
    strength: 58,
    // The kube-apiserver failing to reach a Pod's kubelet for exec/logs ("error dialing backend: dial tcp
    // <node>:10250: … connection refused") is the Pod's node, not the run's network (answerer.ts).
    extract: byAnswerer(() => ({}), ['kubelet']),
    why: 'a TCP connection was refused, reset or could not be established',
    hint: 'A connection failed at the transport level: check that the target service is running and listening on that host/port, firewalls/NetworkPolicies, and proxies (HTTP(S)_PROXY / NO_PROXY).',
  },
  {
    // urllib3's MaxRetryError ("Max retries exceeded with url: … (Caused by …)") whose cause no more specific
    // rule names (a connection it could not make or keep). Its error-status form is gateway.http_status's.
    id: 'network.max_retries',
    class: 'network.error',
    patterns: [/Max retries exceeded with url: /],
    unless: [/Caused by ResponseError\(/, TRACKER_NOISE, /\bexcept\b/],
    strength: 52,
    why: "an HTTP client gave up after its retries: the connection could not be made or kept",
    hint: 'The client retried and could not reach the server: the "Caused by" part names the transport failure (refused, DNS, TLS, timeout). Check the host and port, proxies (HTTP(S)_PROXY / NO_PROXY) and whether the server is up.',
  },
]);
