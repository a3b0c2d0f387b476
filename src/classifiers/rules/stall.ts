// Hangs in plain logs: what a stalled run prints, in its producers' own words, and the vocabulary of
// stack frames that mean "this thread waits". Both the live-bundle analysis (hang.ts) and the stack
// tracker of plain logs (stacks.ts) read WAIT_FRAMES through waitChainAt, so a frame means the same
// wait everywhere.
import { defineRules } from '../rule.js';

/** Where a stalled thread waits: the API the run called, named by the outermost frame of its wait chain. */
export type WaitKind = 'collective' | 'gpu-kernel' | 'http' | 'dataloader' | 'queue-lock' | 'build-lock' | 'subprocess' | 'ray' | 'asyncio' | 'socket' | 'python' | 'os-wait' | 'unknown';

export interface WaitFrame {
  kind: WaitKind;
  /** The frame's file, as a path suffix (CPython prints full paths, py-spy strips sys.path prefixes). */
  file: RegExp;
  /** The function; any function of the file when absent. */
  fn?: RegExp;
  /**
   * Only names the API the run called (DataLoader.__next__): as the innermost frame it does not prove
   * a wait (it may be computing), above a blocking frame it says what the run waited for.
   */
  apiOnly?: true;
}

/**
 * Standard library and framework frames that block, by source file and function (CPython Lib/threading.py,
 * queue.py, multiprocessing/*, selectors.py, socket.py, ssl.py, subprocess.py, concurrent/futures,
 * asyncio; torch.distributed, torch.cuda, torch.utils.data; ray; http clients). Order: first match wins.
 */
export const WAIT_FRAMES: readonly WaitFrame[] = [
  // torch.cuda.synchronize / Stream.synchronize / Event.synchronize: the host waits for the GPU.
  { kind: 'gpu-kernel', file: /torch\/cuda\/(?:__init__|streams)\.py$/, fn: /^(?:synchronize|wait|query|wait_event|wait_stream)$/ },
  // Every c10d entry point (all_reduce, barrier, broadcast, recv, monitored_barrier, the store-based
  // barrier of init_process_group) and the logging wrapper around them.
  { kind: 'collective', file: /torch\/distributed\/(?:distributed_c10d|c10d_logger|_functional_collectives|rendezvous)\.py$/ },
  // torch.utils.cpp_extension's JIT build: a process that finds the build folder's `lock` file polls
  // (FileBaton.wait: `while os.path.exists(lock): time.sleep(...)`) until the builder removes it; a build
  // that was killed never does (DeepSpeed's and vLLM's ops, any `load()` extension).
  { kind: 'build-lock', file: /torch\/utils\/file_baton\.py$/, fn: /^wait$/ },
  { kind: 'build-lock', file: /torch\/utils\/cpp_extension\.py$/, fn: /^(?:_jit_compile|load|load_inline)$/, apiOnly: true },
  { kind: 'dataloader', file: /torch\/utils\/data\/dataloader\.py$/, fn: /^(?:_try_get_data|_get_data|_next_data|__next__|_shutdown_workers)$/, apiOnly: true },
  { kind: 'ray', file: /ray\/_private\/(?:worker|client_mode_hook)\.py$/, fn: /^(?:get|wait|get_objects|wrapper)$/ },
  { kind: 'subprocess', file: /(?:^|\/)subprocess\.py$/, fn: /^(?:wait|_wait|_try_wait|communicate|_communicate|run|call|check_call|check_output)$/ },
  { kind: 'subprocess', file: /multiprocessing\/(?:popen_fork|popen_spawn_posix|popen_forkserver|process)\.py$/, fn: /^(?:wait|poll|join)$/ },
  { kind: 'http', file: /(?:^|\/)(?:http\/client|urllib\/request|urllib3\/(?:connectionpool|response|connection)|requests\/(?:api|sessions|adapters)|httpx\/_\w+|httpcore\/_\w+(?:\/\w+)?|openai\/_base_client|anthropic\/_base_client)\.py$/, apiOnly: true },
  { kind: 'socket', file: /(?:^|\/)(?:socket|ssl)\.py$/, fn: /^(?:readinto|recv|recv_into|read|accept|connect|create_connection|do_handshake|_real_connect|makefile)$/ },
  { kind: 'asyncio', file: /asyncio\/(?:base_events|runners|tasks)\.py$/, fn: /^(?:run_forever|_run_once|run_until_complete|run|wait|wait_for|gather|sleep)$/ },
  { kind: 'queue-lock', file: /(?:^|\/)(?:queue|threading)\.py$|multiprocessing\/(?:queues|synchronize|connection|pool|managers|reduction|resource_sharer)\.py$|concurrent\/futures\/(?:_base|thread|process)\.py$/, fn: /^(?:get|put|join|wait|wait_for|_wait|acquire|__enter__|_wait_for_tstate_lock|recv|recv_bytes|_recv_bytes|_recv|poll|_poll|result|__get_result|as_completed|_callmethod|select)$/ },
  { kind: 'os-wait', file: /(?:^|\/)selectors\.py$/, fn: /^select$/ },
];

/** Functions at the bottom of a helper thread's or helper process's stack (not the run's main program). */
export const HELPER_BOTTOM = /^(?:_bootstrap|_bootstrap_inner|_worker|_worker_loop|_pin_memory_loop|_handle_workers|_handle_results|_handle_tasks|_spawn_main|_main)$/;

export function waitFrameOf(path: string, fn: string | null): WaitFrame | undefined {
  // CPython on Windows prints `…\Lib\site-packages\torch\utils\file_baton.py`.
  const p = path.includes('\\') ? path.replace(/\\/g, '/') : path;
  return WAIT_FRAMES.find((w) => w.file.test(p) && (!w.fn || (fn !== null && w.fn.test(fn))));
}

/** A decorator's frame (c10d_logger's `wrapper`) names nothing: the call under it does. */
const WRAPPER_FN = /^(?:wrapper|inner|wrapped|_fn|decorate_context|__call__)$/;

export interface WaitChain {
  kind: WaitKind;
  /** The chain's outermost frame that names a call: what the run called. */
  api: number;
  /** The frame right after the chain (its caller); undefined when the stack ends there or `joined` cut it. */
  caller: number | undefined;
}

/**
 * The wait that `frames[start]` (frames innermost first) blocks in, read outward through the frames of
 * WAIT_FRAMES: the outermost one is the call the run made (DataLoader.__next__ above the queue get,
 * subprocess.run above waitpid, urlopen above the socket read) and its kind names the wait. null when
 * `frames[start]` is no wait (outside the vocabulary, or a frame that only names an API). `joined(i)`
 * says whether frame i follows frame i-1 (a listing that leaves frames out breaks the chain there).
 */
export function waitChainAt(frames: readonly { path: string; fn: string | null }[], start: number, joined: (i: number) => boolean = () => true): WaitChain | null {
  const first = frames[start];
  const w0 = first ? waitFrameOf(first.path, first.fn) : undefined;
  if (!w0 || w0.apiOnly) return null;
  let api = start;
  let kind = w0.kind;
  for (let i = start + 1; i < frames.length; i++) {
    if (!joined(i)) return { kind, api, caller: undefined };
    const f = frames[i]!;
    const w = waitFrameOf(f.path, f.fn);
    if (!w) return { kind, api, caller: i };
    if (w.kind !== kind || !WRAPPER_FN.test(f.fn ?? '')) api = i;
    kind = w.kind;
  }
  return { kind, api, caller: undefined };
}

/**
 * Source-file names of WAIT_FRAMES as py-spy prints them (`get (queue.py:170)`): the prefilter keys of
 * py-spy frame lines, which carry no fixed literal of their own. CPython and faulthandler frames are
 * found by their `File "` prefix.
 */
export const PY_SPY_FRAME_KEYS: readonly string[] = [
  'torch/cuda/', 'torch/distributed/', 'torch/utils/data/', 'file_baton.py:', 'cpp_extension.py:', 'ray/_private/', 'subprocess.py:', 'multiprocessing/',
  'http/client.py:', 'urllib/request.py:', 'urllib3/', 'requests/', 'httpx/', 'httpcore/', '_base_client.py:', 'socket.py:', 'ssl.py:',
  'asyncio/', 'queue.py:', 'threading.py:', 'concurrent/futures/', 'selectors.py:',
  // Native frames of `py-spy dump --native` (`pthread_cond_timedwait (libc.so.6)`, `take_gil (python3.12)`).
  '.so)', '.so.', '(python3', '(python2',
];

export const WHERE_WORDS: Record<WaitKind, string> = {
  collective: 'a collective with its peers',
  'gpu-kernel': 'a GPU kernel',
  http: 'an HTTP call',
  dataloader: 'the DataLoader',
  'queue-lock': 'a queue or lock',
  'build-lock': "the lock of a C++/CUDA extension build (torch.utils.cpp_extension)",
  subprocess: 'a child process',
  ray: 'a Ray object or task (ray.get / ray.wait)',
  asyncio: 'an idle asyncio event loop',
  socket: 'a socket read',
  python: 'its own Python code',
  'os-wait': 'the operating system',
  unknown: 'an unknown place',
};

export const WHERE_HINTS: Record<WaitKind, string> = {
  collective: 'Every rank waits in the same collective and no rank is behind: look at the GPUs and the links between them (NCCL_DEBUG=INFO, nvidia-smi topo -m), and run `fdiag preflight` for a timed NCCL probe.',
  'gpu-kernel': 'A GPU kernel does not finish (the host waits for it): look at the kernel launched before that line (an endless loop, a spin-wait on a flag, a deadlocked custom kernel); CUDA_LAUNCH_BLOCKING=1 and compute-sanitizer narrow it down.',
  http: 'The run waits for an HTTP response that never comes: give the client a timeout (openai/httpx/requests `timeout=`), and check the server it calls (`fdiag preflight --gateway URL`).',
  dataloader: 'A DataLoader worker stopped delivering batches: a worker deadlocked after fork or died silently; num_workers=0 shows its error, and a too small /dev/shm is a usual cause (`fdiag preflight`).',
  'queue-lock': 'The run waits on a queue or lock that nothing releases: the producer (another thread or process) died or waits itself; the other threads’ stacks in stacks/ show which.',
  'build-lock': "The run waits for another process's JIT build of a C++/CUDA extension to release its lock file (torch.utils.cpp_extension's FileBaton): a build that was killed or crashed leaves the `lock` file behind and every later run waits forever. Delete `<extensions root>/<extension>/lock` (TORCH_EXTENSIONS_DIR, by default ~/.cache/torch_extensions/py<ver>_cu<ver>/; the log's \"Using … as PyTorch extensions root\" names it) with no build running, then rerun.",
  subprocess: 'The run waits for a child process that does not end; its stack is among the stacks in the bundle.',
  ray: 'The run waits for a Ray task or actor result that never arrives: the task is pending (no node has the resources it asks for: `ray status`) or its worker hangs (`ray stack` on its node).',
  asyncio: 'The event loop has nothing to run: every task awaits something that never completes (a response without a timeout, a future nobody sets); `asyncio.all_tasks()` or py-spy shows what they await.',
  socket: 'The run waits on a socket read with no timeout: the peer (a server, another rank, a store) stopped answering; set a timeout on the connection and check the peer.',
  python: 'The run is in its own code (a polling or retry loop that waits for something that does not come); the stack names the function.',
  'os-wait': 'Without py-spy only the kernel wait channel is known: install py-spy on the node (pip install py-spy) and take `fdiag snapshot --pid PID` as root for the Python stack.',
  unknown: 'No stack says where it waits: install py-spy on the node (pip install py-spy) and take `fdiag snapshot --pid PID` as root.',
};

/**
 * A log shows one stack, not every rank's: a rank waiting in a collective says its peers did not join
 * (stuck elsewhere, or dead) or the transport hangs, not which.
 */
const LOG_COLLECTIVE_HINT =
  'A rank waiting in a collective waits for its peers: either a peer never reached the same collective (it is stuck elsewhere, took another code path or died) or the transport between the GPUs hangs. Dump every rank (py-spy dump --pid PID on each) and compare where they are; TORCH_NCCL_TRACE_BUFFER_SIZE=2000 with TORCH_NCCL_DUMP_ON_TIMEOUT=1 records each rank’s last collectives, and NCCL_P2P_DISABLE=1 rules out a GPU peer-to-peer hang.';

/** The hint for a stall in a log, naming where it waits. */
export function stallHint(kind: WaitKind, at: string, caller: string | undefined, how: string): string {
  return `${how}: the main thread waits in ${WHERE_WORDS[kind]} at ${at}${caller ? `, called from ${caller}` : ''}. ${kind === 'collective' ? LOG_COLLECTIVE_HINT : WHERE_HINTS[kind]}`;
}

export const logStallRules = defineRules([
  {
    // A stack printed while the run waited (stacks.ts): a KeyboardInterrupt / Ctrl-C traceback whose
    // innermost frames block, fired from a `wait-stack` signal (rules/facts.ts).
    id: 'stall.interrupted_wait',
    class: 'job.stall',
    patterns: [],
    strength: 26,
    why: 'the run was interrupted (Ctrl-C) while its main thread was blocked in a wait: it had stopped making progress',
    hint: 'The run was interrupted while it waited; the stack names where.',
  },
  {
    // A stack dump of the live process (py-spy dump, faulthandler.dump_traceback_later / a registered
    // signal) whose main thread blocks in a wait (stacks.ts).
    id: 'stall.dumped_wait',
    class: 'job.stall',
    patterns: [],
    strength: 28,
    why: "a stack dump of the still-running process shows its main thread blocked in a wait",
    hint: 'A stack dump shows the main thread waiting; the stack names where.',
  },
  {
    // A live stack dump whose main thread runs its own code (stacks.ts): someone dumped a run that seemed
    // stuck; just above the dump header's own weak signal (host.stack_dump), with where it spins.
    id: 'stall.dumped_busy',
    class: 'job.stall',
    patterns: [],
    strength: 13,
    why: 'a stack dump of the still-running process shows its main thread running its own code, not waiting',
    hint: 'A stack dump shows the main thread busy in its own code.',
  },
  {
    // torch/utils/data/dataloader.py _try_get_data: "DataLoader timed out after {} seconds" (timeout=N).
    id: 'stall.dataloader_timeout',
    class: 'job.stall',
    patterns: [/DataLoader timed out after \d+ seconds/],
    strength: 45,
    why: 'the DataLoader got no batch from its workers within its timeout',
    hint: 'A DataLoader worker stopped delivering batches within `timeout=`: a worker deadlocked (fork after threads, a lock held in a transform) or is stuck on slow storage; num_workers=0 shows the worker’s own error or stall, and a too small /dev/shm is a usual cause.',
  },
  {
    // Horovod's stall inspector (horovod/common/stall_inspector.cc): a collective that some ranks
    // submitted and others never did, then "Missing ranks:" and each missing rank's pending tensors. The
    // ranks are in different collectives: a desync in the run's control flow (one rank skipped a step or
    // took another branch), not a transport fault.
    id: 'stall.horovod_missing_ranks',
    class: 'job.stall',
    patterns: [/One or more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for remainder of ranks/],
    strength: 40,
    why: "Horovod's stall inspector saw a collective submitted by only some of the ranks: the ranks wait in different collectives",
    hint: "Horovod found ranks waiting in different collectives (\"Missing ranks:\" lists what each missing rank has pending): one rank took another path through the step (a rank-dependent branch, a skipped batch, a callback or checkpoint run on one rank only) or is stuck before the collective. Compare the pending tensor names per rank, and make every rank run the same collectives in the same order.",
  },
  {
    // vLLM distributed/device_communicators/shm_broadcast.py: the reader/writer of the message queue
    // between engine and workers waited past VLLM_RINGBUFFER_WARNING_INTERVAL.
    id: 'stall.vllm_shm_broadcast',
    class: 'job.stall',
    patterns: [/No available shared memory broadcast block found in \d+ seconds?/],
    strength: 22,
    why: 'vLLM workers waited a long time for the engine’s broadcast queue: some process hangs or does long work',
    hint: 'A vLLM process stopped taking part in the engine’s shared-memory broadcast: one worker hangs (a collective, a GPU kernel) or is still compiling. If it repeats, take py-spy dumps of every worker (py-spy dump --pid PID) to see where each waits.',
  },
  {
    // SGLang scheduler watchdog (srt/managers/scheduler.py, utils/watchdog.py): the forward loop made no
    // progress for --watchdog-timeout seconds.
    id: 'stall.sglang_watchdog',
    class: 'job.stall',
    // "Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)"; the tokenizer and
    // detokenizer managers have the same watchdog ("TokenizerManager watchdog timeout …").
    // Releases before the soft watchdog printed "Watchdog timeout (self.watchdog_timeout=300)" (an f-string's `=`).
    patterns: [/\b(?:Scheduler|TokenizerManager|DetokenizerManager) watchdog timeout \(self\.watchdog_timeout=[\d.]+/, /\bWatchdog timeout \(self\.watchdog_timeout=[\d.]+\)/],
    strength: 30,
    why: 'the SGLang scheduler watchdog saw no progress of the forward loop for its timeout',
    hint: 'The SGLang scheduler made no progress within --watchdog-timeout: one scheduler or TP/PP rank hangs (a collective waiting for a peer, a GPU kernel); the py-spy dumps SGLang prints after the line show where each scheduler waits.',
  },
  {
    // vLLM V0 MQLLMEngineClient (engine/multiprocessing/client.py run_output_handler_loop): the API server
    // polled the engine process for VLLM_RPC_TIMEOUT and got nothing ("Waiting for output from
    // MQLLMEngine." at DEBUG). Weak: between requests an idle engine says the same; it counts only when
    // nothing else in the log does.
    id: 'stall.vllm_engine_no_output',
    class: 'job.stall',
    patterns: [/Waiting for output from MQLLMEngine\./],
    strength: 10,
    why: 'the vLLM API server got no output from its engine process for the RPC timeout',
    hint: 'The vLLM API server waits for its engine process, which sends nothing: the engine (or one of its tensor-parallel workers) hangs, typically in a collective at start-up or in a GPU kernel; py-spy dump of the engine and worker processes shows where. With several GPUs on PCIe, a hang right after start is often GPU peer-to-peer: try NCCL_P2P_DISABLE=1 (and --disable-custom-all-reduce).',
  },
  {
    // gdb's `info threads` of a stuck process: thread 1 (the main thread, LWP = pid) parked in a
    // blocking libc/syscall frame ("* 1 Thread 0x7fc7… (LWP 52422) "" select_poll_poll () at …",
    // "1 Thread 0x… (LWP 77) "python" 0x00007f… in __futex_abstimed_wait_common64 (…)").
    id: 'stall.gdb_main_thread_wait',
    class: 'job.stall',
    patterns: [
      /^\*?\s+1\s+Thread 0x[0-9a-fA-F]{4,16} \(LWP \d{1,10}\)(?: "[^"]{0,40}")? (?:0x[0-9a-fA-F]{4,16} in )?(select_poll_poll|poll|__poll|select|__select|epoll_wait|pthread_cond_wait|pthread_cond_timedwait|__pthread_cond_wait|__futex_abstimed_wait_common\w*|futex_wait\w*|futex_abstimed_wait\w*|do_futex_wait\w*|__lll_lock_wait\w*|sem_wait|sem_timedwait|__new_sem_wait\w*|accept4?|recv|recvfrom|recvmsg|__libc_recv\w*|read|__libc_read|__GI___libc_read|nanosleep|clock_nanosleep\w*|__GI___clock_nanosleep|waitpid|__waitpid|wait4|__wait4)\b/,
    ],
    strength: 24,
    extract: (line) => {
      const m = /\(LWP \d+\)(?: "[^"]*")? (?:0x[0-9a-fA-F]+ in )?(\S+?) \(/.exec(line);
      return m ? { hint: `gdb shows the main thread (thread 1) blocked in ${m[1]}: the run waits on a lock, a condition, a socket or a child process that never answers. \`thread apply all py-bt\` (gdb with CPython's python-gdb.py) or py-spy dump --native --pid PID names the Python call it waits in.` } : {};
    },
    why: "gdb's thread list shows the main thread parked in a blocking system call or lock",
    hint: 'gdb shows the main thread blocked in a wait.',
  },
  {
    // CUDA samples p2pBandwidthLatencyTest hanging: see the `cuda-p2p-test` context (resolve.ts); this
    // rule is its explicit form, an IOMMU fault on a GPU's own DMA (drivers/iommu/amd/iommu.c
    // "Event logged [IO_PAGE_FAULT …]" prefixed with the nvidia/amdgpu device), the signature of
    // peer-to-peer traffic the IOMMU does not pass.
    id: 'stall.gpu_iommu_fault',
    class: 'nccl.p2p_deadlock',
    patterns: [/\b([\w-]{2,40}) [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.\d: AMD-Vi: Event logged \[IO_PAGE_FAULT/],
    strength: 36,
    // Another device's fault (a USB or NIC controller) is ruled out here, so the line is judged and the
    // fallback does not read its IOMMU words as the GPUs'.
    extract: (_line, m) => (/^(?:nvidia|amdgpu)$/.test(m[1] ?? '') ? {} : { classOverride: null }),
    why: "the IOMMU rejected a GPU's DMA (AMD-Vi IO_PAGE_FAULT on the GPU): GPU peer-to-peer traffic is not passed through",
    hint: 'The IOMMU faulted DMA of the GPU itself: with the IOMMU translating (not pass-through), GPU peer-to-peer transfers fault and collectives between GPUs hang. Boot with iommu=pt (amd_iommu=on iommu=pt) or disable the IOMMU, or work around it with NCCL_P2P_DISABLE=1.',
  },
  {
    // Ray's autoscaler/scheduler warning (python/ray/_private/… "Warning: The following resource request
    // cannot be scheduled right now" / "The actor or task with ID … cannot be scheduled right now"):
    // the task waits for resources that never free up.
    id: 'stall.ray_pending_resources',
    class: 'job.stall',
    patterns: [/The (?:actor or task|following resource request) .{0,200}cannot be scheduled right now/, /Warning: The following resource request cannot be scheduled right now/],
    strength: 24,
    why: 'Ray cannot schedule a task or actor: it waits for resources no node has free',
    hint: 'A Ray task or actor is pending because no node offers the resources it asks for (GPUs, CPUs, memory or a custom resource): `ray status` shows demands vs. capacity; lower the request (num_gpus/num_cpus) or add nodes, and make sure earlier actors released their GPUs.',
  },
  {
    // How a log ends (tail.ts): its last lines are a wait or poll the producer prints while it waits
    // (LOG_ENDINGS below: c10d's store-based barrier, torchelastic's rendezvous, vLLM's engine client and
    // pynccl set-up, "Waiting for …"/"pending" polls) and nothing came after. Weak: any failure wins.
    id: 'stall.ends_waiting',
    class: 'job.stall',
    patterns: [],
    strength: 16,
    why: 'the log ends while the run waited for something that never came (its last lines are a wait or poll)',
    hint: 'The log ends in a wait: the run stopped making progress there.',
  },
  {
    // The same line repeated at the end of the log with nothing but its time changing (a heartbeat, a
    // status poll): the process was alive and reporting, and nothing moved.
    id: 'stall.ends_repeating',
    class: 'job.stall',
    patterns: [],
    strength: 10,
    why: 'the log ends in the same periodic line repeated with nothing but its time changing: alive, not progressing',
    hint: 'The log ends in a repeated status line that does not change: the run was alive but made no progress.',
  },
  {
    // An inference server's periodic metrics line last (vLLM metrics.py / v1 loggers.py LoggingStatLogger
    // "Avg prompt throughput: … Avg generation throughput: … Running: N reqs"; SGLang scheduler "Decode
    // batch. #running-req: N, … gen throughput (token/s): …") with requests still running: generating
    // nothing (both throughputs 0) is a stuck engine; otherwise the log ends mid-serving (weaker).
    id: 'stall.serving_no_progress',
    class: 'job.stall',
    patterns: [],
    strength: 18,
    why: 'the inference server reports requests running and the log ends there (no tokens generated, or nothing after)',
    hint: 'The inference server held running requests when the log ends.',
  },
  {
    // A progress bar (tqdm's "{desc}: {percentage}%|{bar}| {n}/{total} [{elapsed}<{remaining}, {rate}]")
    // short of its total is the last line: the run stopped in the middle of it, with no error and no
    // kill reported. Weakest: a kill that printed nothing looks the same.
    id: 'stall.ends_mid_progress',
    class: 'job.stall',
    patterns: [],
    strength: 9,
    why: 'the log ends on a progress bar short of its total, with no error after it',
    hint: 'The log ends on an unfinished progress bar: the run stopped there.',
  },
]);

/** A producer's line printed while it waits for something (tail.ts reads the last lines of a log). */
export interface LogEnding {
  /** Who prints it, and where. */
  producer: string;
  re: RegExp;
  /** What the run waits for, for the hint; a capture group's text replaces `$1`. */
  awaits: string;
  /** Matched against the line's message (tail.ts messageOf: its time stamp, level and logger name cut off), not anywhere in it: prose says "waiting for" too. */
  atHead?: boolean;
  /** The class when it is not job.stall (a harness waiting for its sandbox is the sandbox failing to come up). */
  cls?: 'sandbox.failure';
}

/**
 * Waits and polls as the producers print them, each read in its source. Checked against the last
 * meaningful line of a log (tail.ts); a line that is a failure line (severity.ts) is never a wait.
 */
export const LOG_ENDINGS: readonly LogEnding[] = [
  {
    producer: 'PyTorch c10d distributed_c10d.py _store_based_barrier ("Waiting in store based barrier to initialize process group for rank: …", every 10 s until all ranks joined)',
    re: /Waiting in store based barrier to initialize process ?group/,
    awaits: 'the other ranks to join the process group (c10d store-based barrier): a rank never reached init_process_group, or cannot reach the store',
  },
  {
    producer: 'PyTorch c10d _store_based_barrier ("Added key: store_based_barrier_key:1 to store for rank: 0", before it waits)',
    re: /Added key: store_based_barrier_key:\d+ to store for rank: \d+/,
    awaits: 'the other ranks to join the process group (c10d store-based barrier)',
  },
  {
    producer: 'torchelastic agent/server/api.py _rendezvous ("[default] Rendezvous\'ing worker group")',
    re: /Rendezvous'ing worker group/,
    awaits: 'the other nodes to join the torchrun rendezvous (--nnodes): a node never started or cannot reach the rendezvous endpoint',
  },
  {
    producer: 'torchelastic rendezvous/dynamic_rendezvous.py ("The node \'…\' attempts to join the next round of the rendezvous \'…\'.")',
    re: /attempts to join the next round of the rendezvous/,
    awaits: 'the other nodes to join the torchrun rendezvous',
  },
  {
    producer: 'torch.utils.cpp_extension _get_build_directory ("Using %s as PyTorch extensions root...", printed by a verbose load() before it takes the build folder\'s lock; DeepSpeed\'s op builder and other JIT extensions load through it): with nothing after it, the process polls the lock file (FileBaton.wait) of a build that another process runs, or that a killed build left behind',
    re: /^Using \S.* as PyTorch extensions root\.\.\./,
    atHead: true,
    awaits: "the lock of a C++/CUDA extension build (torch.utils.cpp_extension's FileBaton) held by another process, or left behind by a build that was killed: delete `<extensions root>/<extension>/lock` with no build running and rerun",
  },
  {
    producer: 'vLLM distributed/device_communicators/pynccl.py PyNcclCommunicator ("vLLM is using nccl==%s", just before ncclCommInitRank)',
    re: /vLLM is using nccl==\S+/,
    awaits: "NCCL's communicator set-up with the other workers (ncclCommInitRank): a worker did not join, or GPU peer-to-peer/IPC set-up hangs",
  },
  {
    producer: 'Gloo (gloo/transport, via c10d ProcessGroupGloo: "[Gloo] Rank N is connected to M peer ranks. Expected number of connected peer ranks is : M")',
    re: /\[Gloo\] Rank \d+ is connected to \d+ peer ranks/,
    awaits: 'the first collective after the process group was set up',
  },
  {
    producer: 'vLLM V0 MQLLMEngineClient (engine/multiprocessing/client.py: "Waiting for output from MQLLMEngine.")',
    re: /Waiting for output from MQLLMEngine/,
    awaits: 'output from its engine process, which sends nothing',
  },
  {
    producer: 'vLLM V1 engine start-up (v1/engine/utils.py wait_for_engine_startup: "Waiting for %d local, %d remote core engine proc(s) to start.")',
    re: /Waiting for \d+ local, \d+ remote core engine proc\(s\) to start/,
    awaits: 'its engine core processes to start',
  },
  {
    producer: 'agent harnesses polling a sandbox runtime (OpenHands remote runtime "Runtime not yet ready (status: pending)", "Waiting for sandbox/runtime/container …")',
    re: /\b(?:[Rr]untime|[Ss]andbox|[Cc]ontainer|[Ee]nvironment) (?:is )?not (?:yet )?ready\b|[Ww]aiting for (?:the )?(sandbox|runtime|container|environment)\b/,
    awaits: 'its sandbox ($1) to become ready',
    cls: 'sandbox.failure',
  },
  {
    producer: 'wandb run.finish (sdk/lib/progress.py "wandb: <spinner> X.XXX MB of Y.YYY MB uploaded", older internal/file_pusher.py "X.XXMB of Y.YYMB uploaded (Z.ZZMB deduped)"): printed while the run waits for the W&B service to push its files before the process may exit',
    re: /\b[\d.]+ ?MB of [\d.]+ ?MB uploaded\b/,
    awaits: "wandb.finish to push the run's files and exit (the training itself had ended): the W&B service or its upload hangs; WANDB_MODE=offline or a timeout on finish lets the job end",
  },
  {
    producer: 'any poll that says it waits, as the message of a log line ("Waiting for …", "Still waiting …"): a client or supervisor polling for something that never comes',
    re: /^(?:[Ss]till )?[Ww]aiting (?:for|on|until) (\S.{2,80}?)(?:\.{0,3}\s*$|[.,;(])/,
    atHead: true,
    awaits: '$1',
  },
  {
    producer: 'a status poll that reports a pending state ("… (status: pending)", `state=pending`)',
    re: /\((?:status|state): ?pending\)|\b(?:status|state)["']?[:=] ?["']?(?:pending|PENDING|Pending)\b/,
    awaits: 'something that stays pending',
  },
];

/**
 * A run's own words for having finished, as its last line: no ending of the log is a stall then (a
 * healthy log that ends in metrics or INFO output followed by one of these finished). From the producers'
 * source: transformers Trainer ("Training completed. Do not forget to share your model"), Lightning's
 * fit loop ("`Trainer.fit` stopped: `max_epochs=3` reached."), torchelastic's agent ("worker group
 * successfully finished", older "Local worker group finished (WorkerState.SUCCEEDED)"), uvicorn's
 * lifespan ("Application shutdown complete.", "Finished server process"), IDE/shell runners ("Process
 * finished with exit code 0"), and the generic words of a clean end.
 */
export const SUCCESS_ENDINGS: readonly RegExp[] = [
  /Training completed\. Do not forget to share your model/,
  /`Trainer\.fit` stopped: /,
  /worker group successfully finished|Local worker group finished \(WorkerState\.SUCCEEDED\)/,
  /Application shutdown complete\.|Finished server process \[\d+\]/,
  /\b(?:exit(?:ed)?(?: with)? (?:code|status)|exitcode\s*:?)\s*0\b(?!\.\d)/i,
  /\b(?:[Cc]ompleted|[Ff]inished|[Ss]ucceeded|[Dd]one)(?: successfully)?[.!]?\s*$|\bsuccessfully\b/,
];
