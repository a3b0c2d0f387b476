// Cause → symptom: the one table of "X explains Y". When the class that resolution picked is a row's
// symptom and the bundle also shows one of the row's causes (in the allowed order), the cause is the
// root cause and the symptom is named in the hint as its consequence. Rows apply in order, each once.
import { compareLogTimes, type LogTime } from '../logline.js';
import type { Signal, SignalRuleId } from './rule.js';
import { ENGINE_DEAD_WORDING } from './rules/gateway.js';
import { TORCHELASTIC_SIGTERM_WORDING } from './rules/host.js';
import { RESTART_BACKOFF_WORDING } from './rules/k8s.js';
import { PKG_ERRORS } from './rules/pkg-vocab.js';
import type { FailureClass } from './taxonomy.js';

export interface Explains {
  symptom: FailureClass;
  /** The symptom only counts as one when its signals say so (e.g. NCCL errors only about a peer that exited). */
  symptomIf?: (signals: Signal[]) => boolean;
  causes: FailureClass[];
  /** The cause class's strongest signal must be at least this strong… */
  minCauseStrength?: number;
  /** …and not from one of these rules (a bare SIGKILL follows a hang as often as it causes one). */
  notFromRules?: SignalRuleId[];
  /** Which of the cause's signals count at all (the others are ignored for this relation). */
  causeSignal?: (s: Signal) => boolean;
  /**
   * 'not-after': the cause's first signal is not later than the symptom's (unknown order counts);
   * 'before': it is earlier, and with stamps that do not compare, earlier in the same file;
   * 'any': anywhere in the bundle (evidence about the symptom, printed before or after it).
   */
  order: 'not-after' | 'before' | 'any';
  /** Appended to the cause's hint. */
  consequence: string;
}

/** Failures that take a rank's process down, so the other ranks wait in their next collective until the watchdog fires. */
export const RANK_KILLERS: FailureClass[] = ['user.code_error', 'config.error', 'host.oom', 'network.error'];
/** A rank's own death of any kind (RANK_KILLERS and the GPU's or the disk's): what its peers wait for. */
const RANK_DEATHS: FailureClass[] = [...RANK_KILLERS, 'cuda.oom', 'cuda.error', 'disk.full'];

/**
 * A Ray worker or actor that died without saying why (the raylet's "connection error code 2. End of
 * file", "Worker exits unexpectedly", an actor or node death): Ray cannot see a SIGKILL, so the reason is
 * whatever else the bundle shows. Ray's own fatal checks and native crashes are a cause of their own.
 */
export const RAY_DEATH_RULES: ReadonlySet<SignalRuleId> = new Set<SignalRuleId>(['ray.actor_died', 'ray.node_or_raylet_died', 'ray.worker_crash_summary', 'ray.vocab_crash']);
const RAY_OWN_CRASH_RE = /Check failed|\*\*\* SIG[A-Z]+ received|RaySystemError|~RayLog|\bray::\w+::|Segmentation fault/;
// Of Ray's vocabulary (rules/ray-vocab.ts) only a death or its echo names no cause; its 'system' group is Ray's own failure.
export const rayDeathWithoutCause = (s: Signal): boolean =>
  RAY_DEATH_RULES.has(s.rule.id) && !RAY_OWN_CRASH_RE.test(s.text) && (s.rule.id !== 'ray.vocab_crash' || s.extracted.rayGroup === 'died' || s.extracted.rayGroup === 'echo');

export const EXPLAINS: Explains[] = [
  {
    // Ray's docs: a worker killed by the Linux OOM killer shows up as exactly such a death. With memory
    // evidence anywhere in the bundle (an OOM-killer line, a cgroup count, the memory monitor, host memory
    // nearly full) the OOM is the cause; without any it stays ray.crash.
    symptom: 'ray.crash',
    symptomIf: (signals) => signals.every(rayDeathWithoutCause),
    causes: ['host.oom'],
    order: 'any',
    consequence: "The Ray worker/actor deaths are its consequence: a process killed for memory vanishes without telling Ray why (Ray reports a connection error / unexpected exit).",
  },
  {
    symptom: 'nccl.timeout',
    causes: RANK_KILLERS,
    minCauseStrength: 20,
    notFromRules: ['host.sigkill_worker'],
    order: 'not-after',
    consequence: 'The NCCL watchdog timeouts on the other ranks are a consequence: they waited on the rank that failed.',
  },
  {
    symptom: 'nccl.error',
    symptomIf: (signals) => signals.every((s) => s.extracted.remote === true),
    causes: RANK_KILLERS,
    minCauseStrength: 20,
    notFromRules: ['host.sigkill_worker'],
    order: 'not-after',
    consequence: 'The NCCL errors about a remote peer that exited are a consequence: they waited on the rank that failed.',
  },
  {
    // A run that hung until the collective timed out is then often stopped from outside (an outer
    // `timeout`, an operator, the scheduler): that later kill is the reaction, the timeout the failure.
    // Only when the timeout came first; a kill before the peers' timeouts is the other story above.
    symptom: 'host.killed',
    // A stall that a watchdog or the stacks reported first (SGLang's watchdog, a py-spy dump, a hang in the
    // first collective) is the same story: the kill ended a run that had already stopped.
    causes: ['nccl.timeout', 'nccl.p2p_deadlock', 'job.stall'],
    minCauseStrength: 10,
    order: 'before',
    consequence: 'The run was stopped from outside after it had already hung (a collective timed out or it stopped making progress): the kill was the reaction to the hang, not its cause.',
  },
  {
    // A proxy or wrapper service that calls an upstream model API answers its own client 500/502 when
    // that upstream request times out; a gateway's own 504 with no client timeout stays gateway.5xx.
    symptom: 'gateway.5xx',
    causes: ['api.timeout'],
    causeSignal: (s) => s.strength > 15 && s.extracted.bareTimeout !== true,
    order: 'before',
    consequence: 'The 5xx answer that follows is the proxy or service reporting its own upstream request timing out, not a separate server failure.',
  },
];

// ---------------------------------------------------------------------------------------------------
// Symptom mechanisms: lines that are a failure's echo by how their producer works, whatever their
// strength. A signal in one of these wordings is explained when the bundle holds a cause of a row's
// classes (itself no symptom, not on the symptom's own line) in the row's order; an explained signal
// never competes for the root cause (resolve.ts drops it before picking), and the cause's hint names it
// as the consequence. EXPLAINS above works on whole classes once one has won; these rows work on
// single signals, before.

/**
 * Where a cause must lie relative to the symptom:
 * - 'any': anywhere in the bundle (vLLM logs the 500 and "engine is already dead" before the engine's traceback);
 * - 'not-after': not later by stamps that compare; without them not later in the same file, either way across files;
 * - 'before': earlier by stamps that compare, or earlier in the same file;
 * - 'stamped-before': earlier by stamps that compare, and only then (a bare kill may as well follow a hang).
 */
export type CauseOrder = 'any' | 'not-after' | 'before' | 'stamped-before';

export interface CauseGroup {
  classes: readonly FailureClass[];
  order: CauseOrder;
  /** Only a cause in the symptom's own file (the server's traceback beside its 500s, not a client's). */
  sameFile?: boolean;
  /** Only a cause on the symptom's own line (a status that quotes the error behind it); other groups never take one there. */
  sameLine?: boolean;
  minStrength?: number;
  /** Only a cause in the symptom's own file at most this many lines above it (a retry note right before the give-up it led to). */
  withinLines?: number;
  /** Only signals of these rules count (a cause class is wider than the mechanism). */
  fromRules?: readonly SignalRuleId[];
  notFromRules?: readonly SignalRuleId[];
  /**
   * Only a cause that lies after a server's start line in its own file (rules/server-start.ts): the
   * traceback is the server's, not the client's own bug logged before its refused requests.
   */
  afterServerStart?: boolean;
}

/** What the relations read beyond the signals. */
export interface SymptomEvidence {
  /** The first line of each file where a server announced its start. */
  serverStarts?: ReadonlyMap<string, number>;
}

export interface SymptomMechanism {
  id: string;
  /** The producer and the source file that words (or causes) the symptom: docs/engine.md lists them. */
  source: string;
  /** Signals of these classes only (any class when absent)… */
  symptomClasses?: readonly FailureClass[];
  /** …from these rules only (any rule when absent)… */
  symptomRules?: readonly SignalRuleId[];
  /** …whose line is in one of these wordings; or, with `extracted`, whose rule says so. */
  wording: readonly RegExp[];
  /** A signal whose rule extracted this flag (e.g. NCCL's `remote`: an error about a peer that went away). */
  extracted?: string;
  /** Also every signal of these classes in a file that holds a line in `wording` (a server's 500s beside its dead engine). */
  sameFileClasses?: readonly FailureClass[];
  /** Not a symptom where the bundle holds a signal of these rules (the launcher itself received the signal it forwarded). */
  unlessBundleHas?: readonly SignalRuleId[];
  causes: readonly CauseGroup[];
  consequence: string;
}

/** A failure that ends a process (or its GPU work) on its own: what makes the other side of a connection or collective go away. */
const PROCESS_ENDERS: FailureClass[] = ['cuda.oom', 'cuda.error', 'host.oom', 'disk.full', 'nccl.error', 'nccl.timeout', 'nccl.p2p_deadlock'];
/** Every failure class a signal can name (outcomes are not failures of a process). */
const ANY_FAILURE: FailureClass[] = [...PROCESS_ENDERS, 'host.killed', 'user.code_error', 'config.error', 'ray.crash', 'network.error', 'gateway.4xx', 'gateway.5xx', 'api.timeout', 'sandbox.failure', 'image.build_failure', 'agent.setup_failure', 'verifier.failure', 'job.stall'];

/**
 * How far above a build step's failure line its own output reaches (build-fetch-failed): the plain
 * progress replay (10 lines) and a RUN instruction of a few dozen lines with its frame, with room to spare.
 */
const BUILD_STEP_LINES = 50;

export const SYMPTOMS: SymptomMechanism[] = [
  {
    id: 'engine-dead',
    source: 'vLLM: V0 entrypoints/launcher.py ("MQLLMEngine is already dead, terminating server process", then 500), engine/async_llm_engine.py (AsyncEngineDeadError "Background loop has errored already."), engine/multiprocessing/client.py ("Engine process (pid N) died."); V1 engine/core_client.py ("Engine core proc … died unexpectedly, shutting down client."), engine/exceptions.py (EngineDeadError "EngineCore encountered an issue. See stack trace (above) for the root cause.")',
    wording: ENGINE_DEAD_WORDING,
    // The EngineDeadError line also ends a traceback (user.traceback_other): the same symptom.
    symptomClasses: ['gateway.5xx', 'user.code_error'],
    sameFileClasses: ['gateway.5xx'],
    causes: [
      { classes: ['cuda.oom', 'cuda.error', 'disk.full', 'nccl.error', 'nccl.timeout'], order: 'any' },
      { classes: ['host.oom', 'host.killed'], order: 'not-after' },
      // The engine's own traceback, logged in the server's log (V0: after the 500s it caused, same second).
      { classes: ['user.code_error', 'config.error'], order: 'any', sameFile: true },
    ],
    consequence: "The server's 500s and the dead engine are its consequence: vLLM answers every request with 500 (and stops) once its engine process has died.",
  },
  {
    // uvicorn writes the access line of the 500 that Starlette's ServerErrorMiddleware sent, then the
    // server logs "Exception in ASGI application" and the traceback: the traceback is the 500's cause.
    id: 'server-error-response',
    source: 'uvicorn access log (h11/httptools protocols: `"POST /path HTTP/1.1" 500 Internal Server Error`) after Starlette ServerErrorMiddleware; uvicorn "Exception in ASGI application" with the traceback',
    symptomRules: ['gateway.server_error'],
    wording: [/"(?:POST|GET|PUT|PATCH|DELETE) [^"]{1,300} HTTP\/\d(?:\.\d)?" 5\d\d\b/],
    causes: [{ classes: ANY_FAILURE.filter((c) => c !== 'gateway.5xx' && c !== 'gateway.4xx'), order: 'any', sameFile: true, minStrength: 7 }],
    consequence: "The server's 500 answers are its consequence: the server failed on the request and answered 500.",
  },
  {
    // A daemon or proxy that answers 5xx with the error it hit itself quoted in the body: dockerd's
    // `500 Server Error … ("Get "https://registry-1.docker.io/v2/": net/http: request canceled …")`,
    // LiteLLM's `Error code: 500 - {… 'litellm.Timeout: …'}`. The quoted error is the failure.
    id: 'relayed-status',
    source: 'dockerd API errors as docker-py raises them (requests HTTPError "500 Server Error for http+docker://…: Internal Server Error (\"<daemon error>\")"), LiteLLM proxy error bodies, Go services quoting net/http errors',
    symptomClasses: ['gateway.5xx'],
    wording: [/\b5\d\d\b|Internal Server Error|Server Error|Bad Gateway|Service Unavailable/],
    causes: [{ classes: ['network.error', 'api.timeout', 'disk.full', 'cuda.oom', 'cuda.error', 'host.oom', 'sandbox.failure', 'image.build_failure'], order: 'any', sameLine: true }],
    consequence: 'The 5xx status that carries it is only the server relaying that error.',
  },
  {
    id: 'daemon-relayed',
    source: 'docker-py APIError / requests HTTPError for a dockerd 5xx ("500 Server Error for http+docker://…"), answered by the container runtime (answerer.ts)',
    symptomClasses: ['sandbox.failure'],
    symptomRules: ['gateway.server_error', 'gateway.http_status'],
    wording: [/\b5\d\d Server Error\b.{0,60}?\bfor (?:url: )?http\+docker:\/\//],
    causes: [{ classes: ['network.error', 'api.timeout', 'disk.full', 'cuda.oom', 'cuda.error', 'host.oom', 'image.build_failure'], order: 'any', sameLine: true }],
    consequence: "The daemon's 5xx only relays the error it quotes.",
  },
  {
    // The container runtime relays the error of the step that failed in its own error chain, on one line
    // (runc "error during container init: error running hook #0: … stderr: <the hook's error>", "error
    // mounting …: <errno text>"; containerd/dockerd wrap it): that quoted error is why the container did
    // not start (a prestart hook out of memory, a full disk under the mount, a GPU driver the NVIDIA hook
    // cannot use).
    id: 'runtime-relayed',
    source: 'runc libcontainer (process_linux.go / container_linux.go error chain: "OCI runtime create failed: … error running hook: exit status N, stdout: …, stderr: …"), containerd ("failed to create shim task: …"), dockerd ("failed to create task for container: …")',
    symptomRules: ['oci.start_failed', 'k8s.container_start', 'sandbox.start'],
    wording: [/OCI runtime (?:create|start|run|exec) failed|runc (?:create|run|exec) failed|error running (?:prestart )?hook|failed to create (?:shim task|task for container)|starting container process caused/],
    // (Not a connection error: on a runtime's line that is a local unix socket of the daemon or a hook.)
    causes: [{ classes: ['host.oom', 'disk.full', 'cuda.error'], order: 'any', sameLine: true }],
    consequence: "The container runtime's failed start only relays it: the runtime quotes the error of the step that failed.",
  },
  {
    // dockerd and the kubelet report an image pull that failed with the registry request's own error on
    // the same line: dockerd "Error response from daemon: Get \"https://registry-1.docker.io/v2/…\": net/http:
    // TLS handshake timeout", containerd via the kubelet "Failed to pull image … failed to do request: Head
    // …: dial tcp: lookup …: i/o timeout". A network failure quoted there (TAXONOMY: DNS, TLS, refused,
    // reset) is why the image never came; a pull refused by the registry (not found, denied) stays the
    // start's failure.
    id: 'pull-network',
    source: 'moby daemon/images and distribution (registry requests: "Error response from daemon: Get|Head \"https://…/v2/…\": <net/http error>"), containerd remotes/docker resolver ("failed to resolve reference", "failed to do request: Head …"), kubelet images/image_manager.go ("Failed to pull image \"…\": rpc error: …")',
    symptomRules: ['sandbox.start', 'k8s.image_pull', 'harbor.sandbox'],
    wording: [/Error response from daemon: (?:Get|Head) "?https?:\/\/[^\s"]{1,300}\/v2\//, /Failed to pull image|failed to (?:resolve reference|do request|pull and unpack image)|[Ee]rror pulling image/, /initializing source docker:\/\/|pinging container registry /],
    causes: [{ classes: ['network.error'], order: 'any', sameLine: true }],
    consequence: "The failed image pull only relays it: the daemon's request to the registry failed on the network (DNS, connection, TLS; for a certificate the daemon does not trust, put the registry's CA in /etc/docker/certs.d/<host>/ca.crt), so the image never came and the container never started.",
  },
  {
    // Ray builds a job's runtime_env on the node's disk (working_dir and py_modules unpacked, pip/uv/conda
    // environments created under the session's runtime_resources): a disk the raylet already reports full
    // (file_system_monitor), or ENOSPC anywhere before, is why the setup failed.
    id: 'runtime-env-disk',
    source: 'Ray python/ray/_private/runtime_env (agent/runtime_env_agent.py RuntimeEnvSetupError "Failed to set up runtime environment."), after src/ray/common/file_system_monitor.cc ("… is over 95% full, available space: …") or an ENOSPC (rules/disk.ts)',
    symptomRules: ['ray.runtime_env_setup', 'ray.vocab_config'],
    wording: [/\bRuntimeEnvSetupError\b|Failed to set ?up runtime environment/],
    causes: [{ classes: ['disk.full'], order: 'not-after', minStrength: 30 }],
    consequence: "Ray's failed runtime_env setup is its consequence: the environment is unpacked and installed on the node's disk, which was full (clear /tmp/ray session logs and spilled objects, or point --temp-dir at a larger volume).",
  },
  {
    // A proxy in front of a server that died answers its client 502/503 ("no healthy upstream").
    id: 'upstream-died',
    source: 'nginx ("502 Bad Gateway"), Envoy/Istio ("upstream connect error or disconnect/reset before headers", "no healthy upstream"), LiteLLM/OpenAI SDK reporting them (BadGatewayError, ServiceUnavailableError)',
    symptomClasses: ['gateway.5xx'],
    wording: [/Bad Gateway|\bBadGatewayError\b|\b502\b/, /upstream connect error or disconnect\/reset before headers|no healthy upstream/],
    // rules/proxy.ts flags a proxy's own "no upstream / bad answer" page or log line (proxy-vocab.ts groups
    // down, bad_answer: Cloudflare 521/523, HAProxy's 503, Traefik's "no available server", Kong's bodies).
    extracted: 'upstreamDown',
    causes: [
      { classes: PROCESS_ENDERS, order: 'not-after' },
      { classes: ['host.killed', 'user.code_error', 'config.error', 'sandbox.failure'], order: 'before', minStrength: 15 },
    ],
    consequence: "The proxy's 502/503 answers are its consequence: the server behind it had died.",
  },
  {
    // Ray reports an actor or worker death on the driver (ActorDiedError / RayActorError, the raylet's "A
    // worker died or was killed while executing a task", RayTaskError(ActorDiedError) for the task that
    // called it) and forwards the dead process's own stderr to the driver's log ("(WorkerDict pid=N)
    // Traceback …"): an exception of the run's own code or configuration in that same log is what the
    // process died of (python/ray/exceptions.py RayActorError, RayTaskError.as_instanceof_cause; raylet
    // node_manager.cc worker-death reports). Ray's own fatal checks and native crashes are no symptom.
    id: 'actor-died-of',
    source: 'Ray python/ray/exceptions.py (RayActorError/ActorDiedError "The actor died unexpectedly before finishing this task.", RayTaskError(ActorDiedError)), raylet node_manager.cc ("A worker died or was killed while executing a task"), log_monitor forwarding worker stderr with "(Actor pid=N)" prefixes',
    symptomRules: ['ray.actor_died', 'ray.worker_crash_summary'],
    wording: [/\b(?:RayActorError|ActorDiedError)\b|The actor died unexpectedly|The actor is dead because|A worker died or was killed while executing|Workers? crashed due to other reasons/],
    // (Not a cancel or kill the job made: actors cancelled before they ran follow a death, they do not cause it.)
    causes: [{ classes: ['user.code_error', 'config.error'], order: 'any', sameFile: true, minStrength: 20, notFromRules: ['ray.vocab_intended'] }],
    consequence: "The Ray actor/worker deaths are its consequence: the process died of that exception, and Ray reported the death to the driver.",
  },
  {
    id: 'peer-gone',
    source: 'CPython socket/http.client (ConnectionResetError, BrokenPipeError, RemoteDisconnected "Remote end closed connection without response"), aiohttp ServerDisconnectedError, httpx/httpcore RemoteProtocolError "Server disconnected without sending a response.", PyTorch c10d TCPStore ("failed to recv, got 0 bytes", DistNetworkError "Connection was likely closed. Did the remote server shutdown or crash?")',
    symptomClasses: ['network.error'],
    // client.connection flags a connection broken mid-request by its class (rules/client-vocab.ts group 'dropped').
    extracted: 'peerGone',
    wording: [
      // Go's syscall texts are glibc's lower-cased ("read: connection reset by peer", "write: broken pipe").
      /[Cc]onnection reset by peer|ConnectionResetError|\bECONNRESET\b/,
      /[Bb]roken pipe|BrokenPipeError|\bEPIPE\b/,
      /RemoteDisconnected|Remote end closed connection without response/,
      /ServerDisconnectedError|Server disconnected|RemoteProtocolError|peer closed connection/,
      /got 0 bytes|Connection was likely closed|remote server shutdown or crash/,
    ],
    causes: [
      { classes: PROCESS_ENDERS, order: 'not-after' },
      { classes: ['host.killed'], order: 'not-after', minStrength: 40 },
      { classes: ['host.killed', 'user.code_error', 'config.error'], order: 'before', minStrength: 15 },
    ],
    consequence: 'The connection errors (reset, broken pipe, server disconnected) are its consequence: the process on the other end died, and its peers saw the connection drop.',
  },
  {
    // A client refused by a server that is not listening: the server's process ended (or never came up)
    // on a failure the same bundle shows first. CPython/urllib3/httpx/aiohttp and Go word the refusal
    // (ECONNREFUSED); the server's own failure before it is the cause.
    id: 'peer-not-listening',
    source: 'ECONNREFUSED as CPython (ConnectionRefusedError "[Errno 111] Connection refused"), urllib3 ("Failed to establish a new connection"), httpx/httpcore (ConnectError), aiohttp (ClientConnectorError "Cannot connect to host"), Go net ("connect: connection refused") word it',
    symptomRules: ['network.connection', 'network.max_retries', 'errno.network', 'client.connection'],
    // client.connection flags a refusal by its class (httpx ConnectError "All connection attempts failed", aiohttp ClientConnectorError).
    extracted: 'peerRefused',
    wording: [/[Cc]onnection refused|\bECONNREFUSED\b|ConnectionRefusedError|Failed to establish a new connection|\bhttpx\.ConnectError\b|Cannot connect to host \S/],
    causes: [
      { classes: PROCESS_ENDERS, order: 'not-after' },
      { classes: ['host.killed', 'sandbox.failure'], order: 'before', minStrength: 20 },
      // A code or settings error is the server's only after the server's start line: a client's own
      // traceback before its refused requests says nothing about the server.
      { classes: ['user.code_error', 'config.error'], order: 'before', minStrength: 20, afterServerStart: true },
    ],
    consequence: 'The refused connections are its consequence: the server that failed was no longer (or never) listening.',
  },
  {
    id: 'peer-exited',
    source: 'NCCL ncclRemoteError ("remote process exited or there was a network error"), socket.cc "Connection closed by remote peer"; PyTorch ProcessGroupNCCL raises it on the surviving ranks',
    symptomClasses: ['nccl.error'],
    wording: [],
    extracted: 'remote',
    causes: [
      { classes: RANK_DEATHS, order: 'not-after', minStrength: 20, notFromRules: ['host.sigkill_worker'] },
      // A kill stamped before the peers' errors: the killed rank is the peer that exited.
      { classes: ['host.killed', 'host.oom'], order: 'stamped-before' },
    ],
    consequence: 'The NCCL errors about a remote peer that exited are its consequence: that peer was the rank that failed.',
  },
  {
    // EXPLAINS turns a won nccl.timeout into its cause when the cause is a clear crash (strength ≥ 20);
    // a weaker exception (a library's own error class) counts too when it came first: stamped earlier, or
    // earlier in the same log (a merged torchrun log is in time order; the watchdog fires minutes later).
    id: 'peer-waited',
    source: 'PyTorch ProcessGroupNCCL.cpp watchdog ("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=N, OpType=…, Timeout(ms)=…)"), gloo transport/tcp/unbound_buffer.cc ("Timed out waiting Nms for recv operation to complete") on every rank that waited for the one that stopped',
    symptomRules: ['nccl.watchdog_timeout', 'nccl.watchdog_stuck', 'nccl.gloo_timeout'],
    wording: [/Watchdog caught collective operation timeout|Timeout\(ms\)=|Heartbeat monitor timed out|watchdog got stuck/, /Timed out waiting \d+ms for (?:recv|send) operation to complete/],
    // (A tracker's retry note, tracker.network_retry, is no rank failing: wandb retries in a thread of its own.)
    causes: [{ classes: RANK_DEATHS, order: 'before', minStrength: 7, notFromRules: ['host.sigkill_worker', 'tracker.network_retry'] }],
    consequence: "The NCCL watchdog timeouts on the other ranks are its consequence: they waited in a collective for the rank that failed.",
  },
  {
    // The ranks that did reach the store wait there for the others (TCPStore's server, init_process_group's
    // store-based barrier, the elastic rendezvous) until the timeout: a rank that failed before it got
    // there (an exception at import, a CUDA or memory failure while it set up) is why it "never joined".
    // Only a failure printed before the timeout: the timeout is minutes after the crash.
    id: 'peers-never-joined',
    source: 'PyTorch c10d TCPStore.cpp / DistStoreError ("Timed out after N seconds waiting for clients. M/N clients joined."), distributed_c10d.py _store_based_barrier ("Timed out initializing process group in store based barrier on rank …"), torchelastic RendezvousTimeoutError',
    symptomRules: ['network.connection'],
    wording: [/Timed out after \d+ seconds waiting for clients\. \d+\/\d+ clients joined/, /Timed out initializing process group in store based barrier on rank/, /\bRendezvousTimeoutError\b/],
    // A rank's own death only: a helper client's gateway, API or sandbox error in a training log is no rank
    // that never joined, and a network error is the timeout's own reading.
    causes: [{ classes: RANK_DEATHS.filter((c) => c !== 'network.error'), order: 'before', minStrength: 20, notFromRules: ['host.sigkill_worker', 'tracker.network_retry'] }],
    consequence: 'The store/rendezvous timeout on the ranks that did start is its consequence: they waited for the rank that failed before it could join.',
  },
  {
    // The kubelet restarts a container that exits with backoff; the Job controller gives up after its
    // retries. Either is the container's own failure repeated: its log (--previous) says which.
    id: 'restart-backoff',
    source: 'Kubernetes kubelet pkg/kubelet/kuberuntime (waiting reason CrashLoopBackOff, event BackOff "Back-off restarting failed container"), Job controller pkg/controller/job (BackoffLimitExceeded, "Job has reached the specified backoff limit")',
    symptomRules: ['k8s.crashloop'],
    wording: RESTART_BACKOFF_WORDING,
    causes: [{ classes: ANY_FAILURE.filter((c) => c !== 'sandbox.failure'), order: 'any', minStrength: 7 }],
    consequence: "The container's restarts with back-off (CrashLoopBackOff) are its consequence: the kubelet restarts a container that keeps failing this way.",
  },
  {
    // The scheduler leaves a Pod Pending while one of its claims is unbound ("pod has unbound immediate
    // PersistentVolumeClaims"); the PersistentVolume controller's own event on the claim says why (no
    // volume and no StorageClass for it: FailedBinding), and that is the Pod spec's. The scheduler's line
    // is k8s.unschedulable's alone (FailedScheduling is `readBy` it in rules/k8s-vocab.ts).
    id: 'unbound-claim',
    source: 'kube-scheduler volumebinding plugin ("0/N nodes are available: pod has unbound immediate PersistentVolumeClaims"), PersistentVolume controller pkg/controller/volume/persistentvolume/pv_controller.go (FailedBinding "no persistent volumes available for this claim and no storage class is set")',
    symptomRules: ['k8s.unschedulable'],
    wording: [/unbound immediate PersistentVolumeClaims/],
    causes: [{ classes: ['config.error'], order: 'any', fromRules: ['k8s.reason_config'] }],
    consequence: "The scheduler's \"unbound immediate PersistentVolumeClaims\" is its consequence: the Pod waits on a claim that nothing can bind.",
  },
  {
    // NCCL's proxy thread fails on the network (net_ib.cu "NET/IB : Got completion with error 12" when
    // the HCA gives up retrying); tearing the communicators down while their kernels still wait on it
    // then trips CUDA checks (init.cu CUDACHECK "Cuda failure 'an illegal memory access…'", nccl-tests
    // "unhandled cuda error"). The transport failure came first.
    id: 'nccl-teardown-fault',
    source: 'NCCL transport/net_ib.cu and the socket/proxy WARN lines, then init.cu CUDACHECK ("NCCL WARN Cuda failure \'…\'") and nccl-tests common.cu ("Test NCCL failure … \'unhandled cuda error\'") in the same run',
    symptomRules: ['cuda.nccl_cuda_failure', 'cuda.fault', 'nccl.test_failure', 'nccl.error_code'],
    wording: [/NCCL WARN Cuda failure/, /unhandled cuda error/i],
    causes: [{ classes: ['nccl.error'], order: 'before', fromRules: ['nccl.warn_transport', 'nccl.last_error_transport'] }],
    consequence: 'The CUDA failures NCCL reported after it are its consequence: the communicators were torn down while their kernels still waited on the failed transport.',
  },
  {
    id: 'closing-signal',
    source: 'PyTorch torchelastic multiprocessing/api.py ("Sending process N closing signal SIGTERM" to the surviving workers once one fails; errors/__init__.py reports them as "exitcode : -15", "Signal 15 (SIGTERM) received by PID N")',
    symptomRules: ['host.sigterm'],
    wording: TORCHELASTIC_SIGTERM_WORDING,
    // The agent itself got the signal ("Received SIGTERM death signal, shutting down workers"): then it came from outside.
    unlessBundleHas: ['host.launcher_signal'],
    causes: [{ classes: ANY_FAILURE.filter((c) => c !== 'host.killed'), order: 'any', minStrength: 7 }],
    consequence: "The other ranks' SIGTERMs are its consequence: torchelastic sends the surviving workers SIGTERM once one worker fails.",
  },
  {
    id: 'launcher-teardown',
    source: 'DeepSpeed launcher/launch.py sigkill_handler: after one child exits non-zero it logs "Killing subprocess N" for every child and "<cmd> exits with return code = N"; sent SIGTERM itself it logs "Main process received SIGTERM, exiting"',
    symptomRules: ['host.sigkill_worker'],
    wording: [/sigkill_handler\] Killing subprocess \d+/],
    unlessBundleHas: ['host.launcher_signal'],
    causes: [{ classes: ANY_FAILURE.filter((c) => c !== 'host.killed'), order: 'any', minStrength: 7 }],
    consequence: "DeepSpeed's \"Killing subprocess\" lines are its consequence: the launcher kills the other processes once one fails.",
  },
  {
    id: 'exit-wrapper',
    source: 'PyTorch torchelastic ChildFailedError (errors/__init__.py), CPython subprocess CalledProcessError ("returned non-zero exit status N"), GNU make ("*** [target] Error N"), GitHub Actions ("Process completed with exit code N")',
    symptomClasses: ['user.code_error'],
    wording: [/\bChildFailedError\b/, /\bCalledProcessError\b|returned non-zero exit status \d+/, /\bmake(?:\[\d+\])?: \*\*\* .{0,300}Error \d+/, /Process completed with exit code \d+/],
    causes: [{ classes: ANY_FAILURE, order: 'not-after' }],
    consequence: "The wrapper's report of the child's non-zero exit (ChildFailedError, CalledProcessError) only repeats it.",
  },
  {
    // apt and pip say a package is not there when they could not read the index at all: apt-get update's
    // fetches failed ("W: Failed to fetch … Temporary failure resolving '…'", "Some index files failed to
    // download. They have been ignored, or old ones used instead."), so the install finds no candidate; pip's
    // index page never came ("Retrying … after connection broken by …"), so no version satisfies the
    // requirement "(from versions: none)". A fetch failing on the network before it is the cause; so is a
    // retry note (weighed at severity.ts RETRIED_STRENGTH) in the few lines just above it: what pip gave up
    // on. A retry further up was one the tool recovered from.
    id: 'index-unreachable',
    source: 'apt apt-pkg/update.cc ("Some index files failed to download…" as a warning) then apt-private/private-cacheset.cc ("Package \'%s\' has no installation candidate") and apt-pkg/cacheset.cc ("Unable to locate package %s"); pip resolution/resolvelib/factory.py ("Could not find a version that satisfies the requirement %s (from versions: none)") after its vendored urllib3 retries; uv, conda the same way (rules/pkg-vocab.ts groups missing, conflict)',
    symptomRules: ['pkg.unresolved', 'pkg.agent_install', 'agent.install_step_failed'],
    wording: PKG_ERRORS.filter((x) => x.group === 'missing' || x.group === 'conflict').map((x) => x.template),
    // Both in the install's own file: a network error another process logged (a client's Hub download, an
    // apt warning in another log) says nothing about this index.
    causes: [
      { classes: ['network.error'], order: 'before', minStrength: 40, sameFile: true },
      { classes: ['network.error'], order: 'before', withinLines: 12 },
    ],
    consequence: 'The packages reported missing after it are its consequence: the package index could not be fetched, so the install found no candidate.',
  },
  {
    // A build step that fetched over a network that failed (apt-get update, pip install, git clone in a RUN
    // step) exits non-zero, and BuildKit or the classic builder reports the step: the build failing is the
    // symptom (TAXONOMY: a network failure while fetching is network.error, inside a build too). Only a
    // failure, not a retry note the tool recovered from (≥ 40).
    // Only a RUN step's exit: a COPY whose source is not there ("failed to compute cache key: … not found"),
    // a Dockerfile error or a registry refusal fetched nothing. And only a fetch in the step's own output,
    // which sits just above its failure line in the build's log: BuildKit's plain progress prints the
    // step's lines, then "#N ERROR: process … did not complete successfully", then replays the step's last
    // 10 lines (progressui printer.go logsBufferSize) and the instruction's Dockerfile lines with up to 4
    // around them (solver/errdefs/source.go Source.Print) before "ERROR: failed to solve"; the classic
    // builder prints "returned a non-zero code" right after the step's output. A fetch further up, or in
    // another file, was another step's (apt survives a failed update with its cached lists).
    id: 'build-fetch-failed',
    source: 'BuildKit ("failed to solve: process \"/bin/sh -c …\" did not complete successfully: exit code: N", before v0.11 "executor failed running [/bin/sh -c …]: exit code: N"), the classic builder ("The command \'/bin/sh -c …\' returned a non-zero code: N"), buildah ("building at STEP \"RUN …\""), after the fetch of that step failed on the network (rules/pkg.ts pkg.fetch_network, network.ts)',
    symptomRules: ['build.failed'],
    wording: [/did not complete successfully: exit code: \d+/, /returned a non-zero code: \d+/, /executor failed running \[/, /[Bb]uilding at STEP "RUN /],
    causes: [{ classes: ['network.error'], order: 'before', minStrength: 40, sameFile: true, withinLines: BUILD_STEP_LINES }],
    consequence: 'The build step failing after it is its consequence: the step could not fetch what it installs.',
  },
  {
    id: 'comm-aborted',
    source: 'PyTorch c10d NCCLUtils.cpp NCCLComm::getNcclComm ("NCCL communicator was aborted on rank N." with no "Original reason for failure was: …"): a later call on a communicator an earlier failure aborted',
    wording: [/communicator was aborted on rank \d+\.?\s*$/],
    causes: [{ classes: ANY_FAILURE, order: 'not-after', minStrength: 15 }],
    consequence: 'The later "NCCL communicator was aborted" errors are its consequence: the communicator had been aborted after that failure.',
  },
];

/** A symptom signal, why it is one, and the causes in the bundle that explain it. */
export interface ExplainedSymptom {
  symptom: Signal;
  mechanism: SymptomMechanism;
  causes: Signal[];
}

function isSymptomOf(m: SymptomMechanism, s: Signal, all: readonly Signal[], wordedFiles: Set<string>): boolean {
  if (s.rootHint) return false;
  if (m.unlessBundleHas && all.some((o) => m.unlessBundleHas!.includes(o.rule.id))) return false;
  if (m.sameFileClasses?.includes(s.class) && wordedFiles.has(s.file)) return true;
  if (m.symptomClasses && !m.symptomClasses.includes(s.class)) return false;
  if (m.symptomRules && !m.symptomRules.includes(s.rule.id)) return false;
  if (m.extracted && s.extracted[m.extracted] === true) return true;
  return m.wording.some((re) => re.test(s.text));
}

/** Lines of one record (a traceback, a multi-line error) carry a stamp only on the first: how far back a line's stamp reaches. */
const RECORD_LINES = 30;

/**
 * When a signal happened: its own stamp, or that of the nearest signal above it in the same file and
 * stream (rank) within RECORD_LINES, the line that opened its record ("[rank1]:[E… ProcessGroupNCCL…]"
 * then "[rank1]: ncclRemoteError: …").
 */
function timeOf(s: Signal, all: readonly Signal[]): LogTime | undefined {
  if (s.time) return s.time;
  let best: Signal | undefined;
  for (const o of all) {
    if (o.time === undefined || o.file !== s.file || o.rank !== s.rank || o.line > s.line || s.line - o.line > RECORD_LINES) continue;
    if (!best || o.line > best.line) best = o;
  }
  return best?.time;
}

function inOrder(order: CauseOrder, cause: Signal, symptom: Signal, times: ReadonlyMap<Signal, LogTime | undefined>): boolean {
  if (order === 'any') return true;
  const ct = times.get(cause);
  const st = times.get(symptom);
  const c = ct !== undefined && st !== undefined ? compareLogTimes(ct, st) : undefined;
  if (order === 'stamped-before') return c !== undefined && c < 0;
  if (c !== undefined) return c <= 0;
  const sameFile = cause.file === symptom.file;
  if (order === 'before') return sameFile && cause.order < symptom.order;
  return sameFile ? cause.order < symptom.order : true;
}

/** Which signals are symptoms that a cause in the bundle explains (SYMPTOMS), and by what. */
export function explainSymptoms(signals: readonly Signal[], mechanisms: readonly SymptomMechanism[] = SYMPTOMS, evidence: SymptomEvidence = {}): ExplainedSymptom[] {
  const startedBefore = (c: Signal): boolean => {
    const start = evidence.serverStarts?.get(c.file);
    return start !== undefined && start < c.line;
  };
  const mechsOf = new Map<Signal, SymptomMechanism[]>();
  for (const m of mechanisms) {
    const worded = new Set<string>();
    if (m.sameFileClasses) for (const s of signals) if (m.wording.some((re) => re.test(s.text))) worded.add(s.file);
    for (const s of signals) if (isSymptomOf(m, s, signals, worded)) mechsOf.set(s, [...(mechsOf.get(s) ?? []), m]);
  }
  if (mechsOf.size === 0) return [];
  const symptomLines = new Set([...mechsOf.keys()].map((s) => `${s.file}:${s.line}`));
  // Each signal's time once (a bundle keeps a few signals per rule, so this stays small).
  const times = new Map(signals.map((s) => [s, timeOf(s, signals)] as const));
  const causesOf = (s: Signal, m: SymptomMechanism, candidates: readonly Signal[], blocked: ReadonlySet<string>): Signal[] =>
    candidates.filter((c) => {
      if (c === s) return false;
      const onLine = c.file === s.file && c.line === s.line;
      return m.causes.some(
        (g) =>
          (g.sameLine ? onLine : !onLine && !blocked.has(`${c.file}:${c.line}`)) &&
          g.classes.includes(c.class) &&
          c.strength >= (g.minStrength ?? 0) &&
          !g.notFromRules?.includes(c.rule.id) &&
          (!g.fromRules || g.fromRules.includes(c.rule.id)) &&
          (!g.sameFile || c.file === s.file) &&
          (g.withinLines === undefined || (c.file === s.file && c.line <= s.line && s.line - c.line <= g.withinLines)) &&
          (!g.afterServerStart || startedBefore(c)) &&
          inOrder(g.order, c, s, times),
      );
    });
  const out: ExplainedSymptom[] = [];
  const explainWith = (candidates: readonly Signal[], blocked: ReadonlySet<string>): void => {
    for (const [s, ms] of mechsOf) {
      if (out.some((e) => e.symptom === s)) continue;
      for (const m of ms) {
        const causes = causesOf(s, m, candidates, blocked);
        if (causes.length) {
          out.push({ symptom: s, mechanism: m, causes });
          break;
        }
      }
    }
  };
  // First the plain failures; then a symptom that nothing explained stands as a failure of its own and may
  // explain another (a watchdog timeout that no crash explains is the cause of torchelastic's SIGTERMs).
  const plain = signals.filter((s) => !mechsOf.has(s));
  explainWith(plain, symptomLines);
  const explained = new Set(out.map((e) => e.symptom));
  // A line whose symptom nothing explained is a failure of its own now, in all its readings (a pip retry
  // note that no server crash explains is the network failing, and explains the "not found" after it).
  const explainedLines = new Set([...explained].map((s) => `${s.file}:${s.line}`));
  explainWith([...plain, ...[...mechsOf.keys()].filter((s) => !explained.has(s))], explainedLines);
  return out;
}
