// Severity markers: how producers themselves flag a line as a failure (log levels, exception lines,
// runtime crash banners, exit-status reports). They pick the failure lines the vocabulary fallback
// (fallback.ts) reads when no rule decided; they decide no class themselves. Keys for the byte scan are
// derived from each pattern like a rule's (keys.ts): a pattern without a 4+ character literal fails the load.
/**
 * A client's own note that it is about to try again ("Retrying in 2s", urllib3's "Retrying (Retry(total=…))",
 * Go clients' "will retry", "retry in 5s"): a request error on such a line is no failure yet. The engine
 * weighs a RETRYABLE rule's line that carries it at RETRIED_STRENGTH, so it decides only when nothing else
 * does; the families that give a line a class of their own (aws.ts, pkg.ts) use the same note and weight.
 * Here, below the engine and the rules both, because rules files may not import the engine.
 */
export const RETRYING_RE = /\b[Rr]etrying\b|\bwill retry\b|\bretry(?:ing)? in \d/;
export const RETRIED_STRENGTH = 15;
/** The classes whose request errors a client retries (the engine demotes their retry-note lines). */
export const RETRYABLE: ReadonlySet<string> = new Set<string>(['network.error', 'gateway.4xx', 'gateway.5xx', 'api.timeout']);

export interface SeverityMarker {
  /** Who prints lines like this, and where its format is defined. */
  producer: string;
  re: RegExp;
}

export const SEVERITY_MARKERS: readonly SeverityMarker[] = [
  {
    // glog/absl: `<L><MMDD> <hh:mm:ss.uuuuuu> <tid> <file>:<line>] msg`, L in IWEF (glog logging.cc
    // LogMessage::Init). PyTorch c10d (`[E1202 10:00:00.123 ProcessGroupNCCL.cpp:…]`), XLA, TensorFlow, gRPC C++.
    producer: 'glog/absl ERROR and FATAL lines',
    re: /\b[EF](?:0[1-9]|1[0-2])[0-3]\d \d\d:\d\d:\d\d/,
  },
  {
    // c10's own logging when built without glog (c10/util/Logging.cpp): `[E ProcessGroupNCCL.cpp:737] …`.
    producer: 'c10 (PyTorch) ERROR and FATAL lines without glog',
    re: /\[[EF] [\w.]{1,80}\.(?:cpp|cc|cu|h):\d/,
  },
  {
    // Ray's C++ core (src/ray/util/logging.cc, spdlog pattern `[%Y-%m-%d %H:%M:%S,%e %L %P %t]`): level letter after the milliseconds.
    producer: 'Ray C++ (raylet, GCS, core worker) E/C lines',
    re: /,\d{3} [EC] \d{1,10} \d{1,10}\]/,
  },
  {
    // Python logging levelname (`ERROR:root:`, `%(levelname)s`), vLLM's `ERROR 12-02 10:00:00 [file.py:1]`,
    // uvicorn's `ERROR:    Exception in ASGI application`, Ray's Python `ERROR worker.py:…`, loguru `| ERROR    |`,
    // zap/zerolog console `\tERROR\t`, Docker/BuildKit `ERROR: failed to solve`, Java/log4j `ERROR`/`FATAL`.
    producer: 'log level ERROR / CRITICAL / FATAL (Python logging, vLLM, uvicorn, Ray, loguru, zap, log4j, BuildKit)',
    re: /\b(?:ERROR|CRITICAL|FATAL)\b/,
  },
  {
    // logrus/slog/zap key-value and JSON lines (`level=error msg=…`, `"level":"error"`): containerd, Docker, kubelet helpers, Go services.
    producer: 'structured level=error / "level":"error" (logrus, slog, zap, zerolog)',
    re: /\blevel=(?:error|fatal|panic|ERROR|FATAL)\b|"level": ?"(?:error|fatal|panic|critical)"/,
  },
  {
    // nginx/Apache error log levels (`[error] 12#12: *1 connect() failed`), structlog's `[error    ]`.
    producer: 'bracketed error levels (nginx, Apache, structlog)',
    re: /\[(?:error|crit|alert|emerg|fatal) *\]/,
  },
  {
    // The line that ends a Python traceback, `module.ClassName: message` (traceback.format_exception_only;
    // Ray's `RayTaskError(ValueError): …`), Java's `java.lang.…Exception: …`, Node's `Error: …`, JS `TypeError: …`.
    // With the colon: a bare class-name suffix is common in ordinary words ("the default" holds "fault").
    producer: 'exception lines (Python, Java, JavaScript/Node)',
    re: /(?:Error|Exception|Timeout|Interrupt|Failure|Fault|Expired|Refused|Unavailable|Exceeded)\)?: /,
  },
  {
    // Compilers and CLIs: gcc/clang `file.c:1:2: error: …`, rustc `error[E0425]: …`, Go/Cobra `Error: …`, Hydra/argparse `error: …`.
    producer: 'error: (gcc, clang, rustc, argparse, Cobra CLIs, npm)',
    re: /\berror: |\berror\[E\d{4}\]: |npm ERR!|npm error /,
  },
  {
    // Go's runtime (runtime/panic.go printpanics `panic: `, throw's `fatal error: `), Rust's default panic hook.
    producer: 'Go and Rust runtime panics',
    re: /\bpanic: |fatal error: |thread '[^']{0,200}' panicked at|\bpanicked at '/,
  },
  {
    // C/C++ runtime and the shell: libstdc++'s verbose terminate handler, glibc's abort, CPython's
    // faulthandler (`Fatal Python error: Segmentation fault`), bash reporting a signalled child (`Killed`, `Aborted (core dumped)`).
    // Not SIGTERM: it is how launchers stop the other workers after a failure (torchelastic's "closing signal SIGTERM").
    producer: 'native crashes (libstdc++ terminate, CPython faulthandler, bash job status, signals)',
    re: /terminate called after throwing|Segmentation fault|core dumped|\bAborted\b|Fatal Python error|\bKilled\b|\bSIG(?:SEGV|ABRT|BUS|ILL|FPE|KILL)\b/,
  },
  {
    // `failed`, `FAILED` and `failure`: pytest's `FAILED tests/…`, systemd `Failed to start`, kubelet's `failed to …`.
    producer: 'failed / FAILED / failure',
    re: /\b(?:[Ff]ailed|FAILED|[Ff]ailure|FAILURE)\b/,
  },
  {
    // Exit statuses: subprocess `returned non-zero exit status 1`, torchelastic `exitcode  : 1`, Docker
    // `exited with code 137`, BuildKit `did not complete successfully: exit code: 1`, Kubernetes `Exit Code: 137`.
    producer: 'exit status reports (subprocess, torchelastic, Docker, BuildKit, Kubernetes)',
    re: /\bexit(?:ed with)? (?:code|status)\b|\bexitcode\b|[Ee]xit [Cc]ode:|non-zero exit/,
  },
  {
    // pytest's failure detail lines: `E       AssertionError: …` (_pytest/_code/code.py, the `E` flow marker).
    producer: 'pytest E lines',
    re: /^E {3}/,
  },
  {
    // Kubernetes events (`kubectl get events`, `kubectl describe` Events table): type Warning.
    producer: 'Kubernetes Warning events',
    re: /\bWarning {2,}[A-Z]|"type": ?"Warning"|\btype=Warning\b/,
  },
  {
    // Kubernetes container state as kubectl prints it (-o yaml / -o json): `reason: OOMKilled`, `"exitCode": 137`
    // (core/v1 ContainerStateTerminated), the Pod's `reason: Evicted`.
    producer: 'Kubernetes container and Pod status (reason, exitCode)',
    re: /\breason"?: ?"?[A-Z][A-Za-z]{2,40}\b|\bexitCode"?: ?[1-9]/,
  },
  {
    // An HTTP error status in a client's or gateway's error report: openai-python's APIStatusError message
    // `Error code: 429 - {…}` (_client.py _make_status_error), error bodies `"code": 503` / `'code': 503`,
    // `Status Code: 500`, google-genai's `503 UNAVAILABLE.` (errors.py APIError: code, status, message).
    producer: 'HTTP error statuses in client and gateway error reports',
    re: /(?:[Ee]rror code|[Ss]tatus [Cc]ode|"code"|'code'|"status"|status_code)["']?: ?[45]\d\d\b|\b[45]\d\d (?:UNAVAILABLE|RESOURCE_EXHAUSTED|INTERNAL|DEADLINE_EXCEEDED|INVALID_ARGUMENT|PERMISSION_DENIED|NOT_FOUND|UNAUTHENTICATED|FAILED_PRECONDITION)\b/,
  },
  {
    // NCCL prints its failures at WARN level (`host:pid:tid [dev] NCCL WARN …`, debug.cc ncclDebugLog).
    producer: 'NCCL WARN',
    re: /NCCL WARN/,
  },
  {
    // Time-outs as producers word them: `timed out`, gRPC `DEADLINE_EXCEEDED` / `Deadline Exceeded`.
    producer: 'timed out / deadline exceeded',
    re: /timed out|DEADLINE_EXCEEDED|[Dd]eadline [Ee]xceeded/,
  },
];

/**
 * A producer's own lower level at the head of a line: it flagged the line as information or a warning,
 * whatever words follow ("WARNING … failed to connect, retrying", torchelastic's `W… Sending process N
 * closing signal SIGTERM`). Such a line is no failure line. Kubernetes' `Warning` events are not these
 * (their type is where a failure is reported).
 */
export const LOWER_LEVELS: readonly SeverityMarker[] = [
  { producer: 'glog/absl INFO and WARNING (`I1202 …`, `[W1202 …`)', re: /^\[?[IWD](?:0[1-9]|1[0-2])[0-3]\d \d\d:\d\d:\d\d/ },
  { producer: 'c10 INFO and WARNING without glog (`[W socket.cpp:663]`)', re: /^\[[IWD] [\w.]{1,80}\.(?:cpp|cc|cu|h):\d/ },
  { producer: 'Ray C++ I/W/D lines', re: /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [IWD] \d{1,10} \d{1,10}\]/ },
  {
    // Python logging `%(levelname)s` first or after a timestamp (`WARNING:root:`, `2026-12-02 10:11:12,345 INFO …`,
    // vLLM's `INFO 12-02 10:11:12 [x.py:1]`, Hydra's `[2026-12-02 10:11:12,345][root][WARNING] -`, loguru's `| WARNING  |`).
    producer: 'Python logging levels below ERROR',
    re: /^(?:\S+\s+){0,3}(?:\[[^\]]{0,40}\])*\[?\|?\s?(?:INFO|WARNING|WARN|DEBUG|TRACE|NOTICE)\s*[\]|:]?(?:\s|:|$)/,
  },
  { producer: 'logrus/slog level=info|warn|debug', re: /\blevel=(?:info|warn|warning|debug|trace|INFO|WARN|WARNING|DEBUG)\b/ },
];

/**
 * A producer's information level at the head of a line (below WARNING): it says the line reports normal
 * operation ("INFO … Available KV cache memory", NCCL INFO set-up chatter). The vocabulary fallback's weak
 * guess for a log without failure lines (fallback.ts, engine.ts) does not read such lines; a WARNING still
 * counts there (something was off).
 */
export const INFO_LEVELS: readonly SeverityMarker[] = [
  { producer: 'glog/absl INFO (`I1202 …`)', re: /^\[?[ID](?:0[1-9]|1[0-2])[0-3]\d \d\d:\d\d:\d\d/ },
  { producer: 'c10 INFO without glog (`[I socket.cpp:663]`)', re: /^\[[ID] [\w.]{1,80}\.(?:cpp|cc|cu|h):\d/ },
  { producer: 'Ray C++ I/D lines', re: /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [ID] \d{1,10} \d{1,10}\]/ },
  {
    // The same places as LOWER_LEVELS' Python logging row, INFO/DEBUG/TRACE/NOTICE only; NCCL's `host:pid:tid [dev] NCCL INFO`.
    producer: 'Python logging INFO/DEBUG, vLLM, loguru, NCCL INFO',
    // Up to six fields before it: `[titan] 2025-08-21 11:19:52,951 - root - INFO - …` (a logger name between dashes).
    re: /^(?:\S+\s+){0,6}(?:\[[^\]]{0,40}\])*\[?\|?\s?(?:INFO|DEBUG|TRACE|NOTICE)\s*[\]|:]?(?:\s|:|$)/,
  },
  { producer: 'logrus/slog level=info|debug', re: /\blevel=(?:info|debug|trace|INFO|DEBUG)\b/ },
];
