// NCCL / ProcessGroupNCCL. A watchdog timeout is a symptom: the engine decides afterwards whether it is a
// P2P transport deadlock, a desync, or the echo of another rank's crash (see engine nccl analysis).
import { defineRules } from '../rule.js';

export const NCCL_SOCKET_FUNCS = ['socketProgress', 'socketPoll', 'socketWait', 'socketStartConnect', 'socketTryAccept', 'socketFinalizeAccept', 'socketFinalizeConnect', 'socketConnect', 'socketAccept', 'socketRecv', 'socketSend', 'socketPollConnect'];
/** NCCL's own socket-layer lines (a WARN or PyTorch's "Last error:" copy of it), not a generic network error. */
/** A function of NCCL's socket layer naming itself (src/misc/socket.cc socketCamelCase / ncclSocketCamelCase; 2.30's src/os/linux.cc ncclOsSocketCamelCase). */
const NCCL_SOCKET_FN = String.raw`\b(?:socket|ncclSocket|ncclOsSocket)[A-Z]\w{2,40}: `;
export const NCCL_SOCKET_LINE = new RegExp(String.raw`${NCCL_SOCKET_FN}|NET\/(?:IB|Socket) ?: `);

const num = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s));
/** Below this a watchdog timeout is a misconfigured timeout setting (PyTorch's default is 10 minutes). */
const MIN_REAL_TIMEOUT_MS = 5000;

export const ncclRules = defineRules([
  {
    id: 'nccl.watchdog_timeout',
    class: 'nccl.timeout',
    patterns: [
      // PyTorch 2.2-2.3: the other ranks told of one rank's timeout through the store ("[PG 0 Rank 3] Received a
      // global timeout from another rank and will start to dump the debug info.", then "ProcessGroupNCCL's
      // watchdog detected a collective timeout and notified current rank."), and a non-blocking communicator's
      // own deadline (NCCLUtils.cpp, TORCH_NCCL_NONBLOCKING_TIMEOUT: "NCCL timeout in: …").
      /Received a global timeout from another rank and will start to dump the debug info/,
      /watchdog detected a collective timeout (?:on some other rank )?and notified current rank/,
      /\bNCCL timeout in: \S{1,200}\.cpp:\d+/,
      // The watchdog's terminate line after a timeout ("Terminating the process after attempting to dump debug
      // info, due to collective timeout or exception.").
      /Terminating the process after attempting to dump debug info, due to collective timeout or exception/,
      /WorkNCCL\(SeqNum=(\d+), OpType=(\w+)/,
      /Watchdog caught collective operation timeout/,
      /ProcessGroupNCCL.{0,200}Timeout\(ms\)=/,
      // The watchdog's own report of the work that failed or timed out (ProcessGroupNCCL.cpp; older
      // releases: "Timeout at NCCL work: N, last enqueued NCCL work: …").
      /Exception \(either an error or timeout\) detected by watchdog at work: \d+/,
      /Timeout at NCCL work: \d+, last enqueued NCCL work/,
      // WorkNCCL::handleException's exit message after the watchdog found such a work (ProcessGroupNCCL.cpp):
      // "Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, …".
      /Some NCCL operations have failed or timed out\. Due to the asynchronous nature of CUDA kernels/,
    ],
    strength: 40,
    extract: (line) => {
      const m = /SeqNum=(\d+), OpType=(\w+)/.exec(line);
      const t = /Timeout\(ms\)=(\d+)/.exec(line);
      const pg = /\[PG(?: ID)? (\d+)/.exec(line);
      const timeoutMs = num(t?.[1]);
      // The watchdog checks the work against its timeout every few hundred milliseconds, so "ran for N
      // milliseconds" is the timeout plus at most seconds. A run time far past a short printed timeout
      // says the printed value is not the one in force (a hand-shortened paste of 1800000): no setting.
      const ranForMs = num(/ran for (\d+) milliseconds/.exec(line)?.[1]);
      const shortInForce = ranForMs === undefined || ranForMs < MIN_REAL_TIMEOUT_MS * 2;
      // A process-group timeout of a few seconds is a setting, not a hang: no real collective is given less.
      if (timeoutMs !== undefined && timeoutMs < MIN_REAL_TIMEOUT_MS && shortInForce)
        return { seq: num(m?.[1]), op: m?.[2], timeoutMs, pg: pg?.[1], classOverride: 'config.error', strength: 82, hint: `The process-group timeout is set to ${timeoutMs} ms, so collectives "time out" as soon as they take longer than that: set timeout= in init_process_group / new_group (or the launcher's timeout setting) to minutes (default 10 min for NCCL), not milliseconds.` };
      return { seq: num(m?.[1]), op: m?.[2], timeoutMs, pg: pg?.[1] };
    },
    why: 'a NCCL collective did not finish within the process-group timeout',
    hint: 'A collective timed out. Check whether every rank reached the same collective (flight recorder: TORCH_NCCL_TRACE_BUFFER_SIZE=2000 TORCH_NCCL_DUMP_ON_TIMEOUT=1), for a straggler rank, and for network or GPU faults on the slow rank.',
  },
  {
    // gloo's own collective timeout (transport/tcp|uv/unbound_buffer.cc waitRecv/waitSend: "Timed out
    // waiting <N>ms for recv operation to complete"), raised on a rank whose peer never joined a CPU
    // (gloo) collective such as a barrier or an object collective.
    id: 'nccl.gloo_timeout',
    class: 'nccl.timeout',
    patterns: [/Timed out waiting (\d+)ms for (?:recv|send) operation to complete/],
    strength: 40,
    extract: (_l, m) => {
      const timeoutMs = Number(m[1]);
      return timeoutMs < MIN_REAL_TIMEOUT_MS
        ? { timeoutMs, classOverride: 'config.error', strength: 82, hint: `The gloo process-group timeout is set to ${timeoutMs} ms, so collectives "time out" as soon as they take longer than that: set timeout= in init_process_group / new_group to minutes, not milliseconds.` }
        : { timeoutMs };
    },
    why: 'a gloo (CPU) collective timed out waiting for a peer',
    hint: "A gloo collective (a barrier, broadcast_object_list, a CPU process group) timed out: one rank did not reach it within the group's timeout. Usually that rank was busy with long work the others wait for (rank 0 saving a checkpoint or evaluating) or it failed: look at that rank's log; raise timeout= in init_process_group / new_group for long single-rank work.",
  },
  {
    id: 'nccl.watchdog_stuck',
    class: 'nccl.timeout',
    patterns: [
      /ProcessGroupNCCL's watchdog got stuck/,
      /Heartbeat monitor timed out/i,
      // ≥ 2.6: the monitor's own end ("Terminating the process after attempting to dump debug info, due to
      // ProcessGroupNCCL watchdog hang.").
      /Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang/,
    ],
    strength: 38,
    // HeartbeatMonitor (ProcessGroupNCCL.cpp): "Heartbeat monitor timed out! Process will be terminated
    // after dumping debug info. workMetaList_.size()=N": N collectives were still pending; 0 means none
    // was in flight, so the process itself was frozen, not a collective (resolve.ts analyseNccl).
    extract: (line) => {
      const m = /workMetaList_\.size\(\)\s*=\s*(\d+)/.exec(line);
      return m ? { pendingWork: Number(m[1]) } : {};
    },
    why: 'the ProcessGroupNCCL watchdog or heartbeat monitor stopped making progress',
    hint: 'The NCCL watchdog itself hung (a NCCL/CUDA call blocked). Look for a rank stuck in a collective or a CUDA API; TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC controls the monitor.',
  },
  {
    // The ranks that did not time out themselves learn of a peer's timeout through the store
    // (ProcessGroupNCCL HeartbeatMonitor): "Received a dump signal due to a collective timeout from rank 7
    // and we will try our best to dump the debug info. Last enqueued NCCL work: …", "Observed flight
    // recorder dump signal from another rank via TCPStore." A symptom of the peer's timeout.
    id: 'nccl.peer_timeout_signal',
    class: 'nccl.timeout',
    patterns: [/Received a dump signal due to a collective timeout from/, /Observed flight recorder dump signal from another rank via TCPStore/],
    strength: 36,
    why: 'another rank reported a collective timeout to this one (the NCCL flight-recorder dump signal)',
    hint: 'A collective timed out on another rank, which told the others to dump their flight recorders. Find the rank that timed out first and compare the ranks\' last enqueued collectives: a rank behind the others is the one that never joined.',
  },
  {
    // PyTorch's own desync analysis: TORCH_NCCL_DESYNC_DEBUG=1 (TraceUtils.h retrieveDesyncReport:
    // "ranks [3] are the lagging ranks that caused this timeout. They never joined any collectives",
    // "[1, 2] joined but didn't finish collective #5 (count from 1)", "[0] finished collective #5, but
    // didn't join collective #6") and the flight-recorder analyser (torchfrtrace / fr_trace: "Not all
    // ranks joining collective 5 at entry 4" … "missing ranks: {1}"). It names the lagging ranks.
    id: 'nccl.desync_report',
    class: 'nccl.timeout',
    patterns: [
      /ranks \[([\d, ]{1,200})\] are the lagging ranks that caused this timeout/,
      /\[([\d, ]{1,200})\] finished collective #(\d+), but didn't join collective #(\d+)/,
      /\[([\d, ]{1,200})\] joined but didn't finish collective #(\d+)/,
      /Not all ranks joining collective(?: (\d+) at entry \d+|, sequence number: (\d+))/,
      /^\s*missing ranks: \{([\d, ]{1,200})\}/,
    ],
    strength: 42,
    extract: (line) => {
      const lagging = /ranks \[([\d, ]+)\] are the lagging|\[([\d, ]+)\] finished collective #\d+, but didn't join|missing ranks: \{([\d, ]+)\}/.exec(line);
      const ranks = lagging ? (lagging[1] ?? lagging[2] ?? lagging[3])!.replace(/\s+/g, '') : undefined;
      const seq = /collective #(\d+)(?:, but didn't join collective #(\d+))?|joining collective (\d+)|sequence number: (\d+)/.exec(line);
      const n = seq ? Number(seq[2] ?? seq[1] ?? seq[3] ?? seq[4]) : undefined;
      return { ...(ranks ? { laggingRanks: ranks } : {}), ...(n !== undefined ? { seq: n } : {}) };
    },
    why: "PyTorch's desync report or the flight-recorder analyser names ranks that never joined the collective the others wait in",
    hint: 'A desync: some ranks never joined the collective the others wait in. Find why the lagging ranks took a different path (a rank-dependent branch, an exception caught on that rank, uneven data, a rank stuck before the call).',
  },
  {
    id: 'nccl.error_code',
    class: 'nccl.error',
    patterns: [
      /nccl(?:SystemError|InternalError|UnhandledCudaError|RemoteError|InvalidUsage|InvalidArgument|Timeout)\b/,
      /NCCL error(?: in)?:?/,
      /unhandled (?:system|cuda) error/,
      /remote process exited or there was a network error/,
    ],
    strength: 70,
    // A remote peer that exited is usually the echo of a crash elsewhere (the resolver looks for that crash).
    extract: (line) => {
      // ncclTimeout (8): NCCL's own timeout on a blocking call (NCCL_TIMEOUT / a non-blocking comm's init), by
      // name or by NCCL ≥ 2.30's ncclGetErrorString as PyTorch prints it ("NCCL error in: …, timeout, NCCL version 2.30.3").
      if (/\bncclTimeout\b|NCCL error in: \S{1,300}, timeout, NCCL version /.test(line)) return { classOverride: 'nccl.timeout', strength: 45 };
      return /ncclRemoteError|remote process exited|Connection closed by remote peer/.test(line) ? { remote: true } : {};
    },
    why: 'NCCL returned an error code',
    hint: 'NCCL failed. Re-run with NCCL_DEBUG=INFO (NCCL_DEBUG_SUBSYS=INIT,NET) and read the first "NCCL WARN" line: /dev/shm size, IB/RoCE links, duplicate GPUs per rank and driver/NCCL versions are the usual causes.',
  },
  {
    id: 'nccl.warn_transport',
    class: 'nccl.error',
    patterns: [
      /NCCL WARN .{0,200}(?:Call to ibv_\w+ failed|Got completion from peer|Connection closed by remote peer|socketProgress|Net : |NET\/IB : .{0,80}error|[Mm]essage truncated|remote process exited|failed with error|Bootstrap : .{0,80}fail)/,
    ],
    strength: 68,
    extract: (line) => (/Connection closed by remote peer|remote process exited/.test(line) ? { remote: true } : {}),
    why: 'NCCL reported a transport failure (InfiniBand/RoCE, socket or shared-memory transport)',
    hint: 'A NCCL transport failed. For IB/RoCE errors check link state (ibstat), NCCL_IB_HCA/NCCL_SOCKET_IFNAME and GID index; for shared-memory errors give the container a larger /dev/shm (--shm-size or an emptyDir with medium Memory).',
  },
  {
    // PyTorch repeats NCCL's last WARN under "Last error:" in a DistBackendError without the "NCCL WARN"
    // prefix ("socketProgressOpt: Call to recv from 10.0.0.2<33759> failed : Connection reset by peer",
    // "NET/IB : Got completion from peer … with error 12"). Those are NCCL's transport failing, not a
    // generic network error; a reset or closed socket is also what a peer that exited leaves behind.
    id: 'nccl.last_error_transport',
    class: 'nccl.error',
    patterns: [
      // NCCL's socket layer functions (NCCL_SOCKET_FN; 2.30: "ncclOsSocketStartConnect: connect to 10.1.1.2<37187>
      // returned Connection refused, exceeded error retry count after 35 attempts").
      new RegExp(String.raw`${NCCL_SOCKET_FN}.{0,160}(?:failed|[Cc]onnection|closed|error|abort|exceeded)`),
      /NET\/(?:IB|Socket) ?: .{0,160}(?:error|failed|Got completion|closed|truncated)/,
      /Got completion from peer .{0,120}with (?:status|error)/,
    ],
    unless: [/NCCL INFO/],
    strength: 68,
    extract: (line) => (/Connection (?:reset|closed) by (?:remote )?peer|remote process exited/.test(line) ? { remote: true } : {}),
    why: "NCCL's socket or InfiniBand transport failed (the error PyTorch quotes under \"Last error:\")",
    hint: 'A NCCL transport failed between ranks: a reset/closed socket means a peer exited or the link dropped; check the other ranks for a crash first, then the fabric (ibstat / ibv_devinfo link state, RoCE/IB errors, NCCL_SOCKET_IFNAME / NCCL_IB_HCA pointing at the right interfaces). NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=NET shows where.',
  },
  {
    // rdma-core's mlx5 provider dumping an error completion (providers/mlx5/cq.c: "mlx5: <host>: got
    // completion with error:" then the CQE in hex), as any verbs user (NCCL's IB transport, UCX, MPI)
    // prints it: a work request on the InfiniBand/RoCE fabric failed. It is also what a peer that exited
    // leaves behind, so it is weak: a rank's own death decides before it.
    id: 'nccl.ib_completion_error',
    class: 'nccl.error',
    patterns: [/\bmlx5: [\w.-]{1,80}: got completion with error:/],
    strength: 30,
    extract: () => ({ remote: true }),
    why: 'the InfiniBand/RoCE NIC reported an error completion (rdma-core mlx5): a transfer on the fabric failed',
    hint: "The RDMA NIC failed a transfer (mlx5 error completion). If another rank or process exited first, this is its echo: read that one. Otherwise check the fabric on that node: link state and error counters (ibstat, ibv_devinfo, /sys/class/infiniband/*/ports/*/counters), NCCL_IB_HCA / NCCL_IB_GID_INDEX, and retry with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=NET.",
  },
  {
    id: 'nccl.iommu_p2p',
    class: 'nccl.p2p_deadlock',
    patterns: [/NCCL WARN .{0,120}iommu=pt.{0,80}(?:hang|instab)/],
    strength: 36,
    why: 'NCCL/RCCL warns that the IOMMU is not in pass-through mode, which breaks GPU peer-to-peer and hangs collectives',
    hint: 'GPU peer-to-peer is unreliable with the IOMMU translating DMA: boot with iommu=pt (AMD) or intel_iommu=off, or work around it with NCCL_P2P_DISABLE=1.',
  },
  {
    id: 'nccl.p2p_check_failed',
    class: 'nccl.p2p_deadlock',
    patterns: [/Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed/],
    strength: 34,
    why: "vLLM's own GPU peer-to-peer check failed on this host, so P2P transfers between these GPUs are broken",
    hint: "GPU peer-to-peer between these GPUs is broken (vLLM's P2P check failed); if the run hangs in a collective, NCCL_P2P_DISABLE=1 confirms it; fix ACS/IOMMU settings or the driver for good.",
  },
  {
    // NCCL refusing the launch layout it was given (src/init.cc, bootstrap.cc, net_socket.cc): two ranks on
    // one GPU ("Duplicate GPU detected", ncclInvalidUsage), an interface filter that matches nothing
    // (NCCL_SOCKET_IFNAME / NCCL_OOB_NET_IFNAME), a malformed NCCL_COMM_ID. PyTorch repeats the WARN under
    // "Last error:" of its DistBackendError; the ncclInvalidUsage/ncclInternalError around it is the echo.
    id: 'nccl.launch_config',
    class: 'config.error',
    patterns: [
      /Duplicate GPU detected : rank \d+ and rank \d+ both on CUDA device/,
      // NCCL ≥ 2.28 (src/init.cc initTransportsRank) words the same check without the ranks.
      /Multiple Ranks are using the same GPU\/Partition\. Set NCCL_MULTI_RANK_GPU_ENABLE=1/,
      // src/plugin/net.cc ncclNetInit returns ncclInvalidUsage when no network plugin would start: NCCL_NET
      // names one this host lacks (IB without HCAs, a plugin not installed) or the socket transport found no
      // interface (NCCL_SOCKET_IFNAME matching nothing).
      /Failed to initialize any NET plugin/,
      /Bootstrap : no socket interface found|NET\/Socket : (?:no interface found|No usable listening interface found)/,
      /no device found (?:matching|after excluding) .{0,200}verify NCCL_OOB_NET_IFNAME/,
      /Invalid NCCL_COMM_ID, please use format/,
      // cudaErrorInvalidDevice ("invalid device ordinal": "the device ordinal supplied by the user does not
      // correspond to a valid CUDA device", CUDA runtime API): torch.cuda.set_device(local_rank) with more
      // ranks per node than GPUs visible, or a hard-coded cuda:N. The request, not the GPU, is wrong.
      /invalid device ordinal/,
      // The same request as PyTorch's lazy CUDA init checks it (aten/src/ATen/cuda/CUDAContext.cpp
      // TORCH_INTERNAL_ASSERT "device >= 0 && device < num_gpus", raised as DeferredCudaCallError): a
      // device index past the GPUs this process sees (CUDA_VISIBLE_DEVICES narrower than the rank layout).
      /device >= 0 && device < num_gpus INTERNAL ASSERT FAILED/,
      // Ranks or the application and the library on different NCCL releases (ncclInvalidUsage): src/init.cc
      // "Mismatched NCCL version detected : rank %d version %d rank %d version %d" (bootstrap allgather of
      // peer info), src/dev_runtime.cc "NCCL library is too old. This application was compiled with NCCL
      // version %s, but is running with NCCL library version %s." / "… is not backwards compatible …",
      // src/devcomm/devcomm_v*.cc "The application was compiled with too old version of NCCL".
      /Mismatched NCCL version detected : rank \d+ version \d+ rank \d+ version \d+/,
      /NCCL library is (?:too old|not backwards compatible)\. This application was compiled with NCCL version|The application was compiled with too old version of NCCL/,
    ],
    strength: 85,
    extract: (line) =>
      /invalid device ordinal/.test(line)
        ? { hint: 'A process asked for a GPU index that does not exist ("invalid device ordinal"): more ranks per node than GPUs visible (--nproc_per_node / --nproc-per-node larger than the devices in CUDA_VISIBLE_DEVICES), or a hard-coded cuda:N / device_ids. Launch as many local ranks as visible GPUs and select the device by LOCAL_RANK.' }
        : /Mismatched NCCL version|compiled with (?:too old version of )?NCCL version|compiled with too old version of NCCL/.test(line)
        ? { hint: 'The ranks (or the application and the NCCL library it loads) run different NCCL releases: every node must use the same image / the same nvidia-nccl wheel (check torch.cuda.nccl.version() and NCCL_DEBUG=INFO\'s "NCCL version" line on each node); an LD_LIBRARY_PATH or LD_PRELOAD pointing at another libnccl.so also does it.' }
        : /Failed to initialize any NET plugin/.test(line)
        ? { hint: 'NCCL could start none of its network transports: NCCL_NET names one this host does not have (IB without usable HCAs, an external plugin not installed), or the socket transport found no interface (NCCL_SOCKET_IFNAME matching nothing). Unset NCCL_NET or set it to what the host has; check NCCL_SOCKET_IFNAME against `ip addr`.' }
        : /Duplicate GPU|Multiple Ranks are using the same GPU/.test(line)
        ? { hint: 'Two ranks were placed on the same GPU (NCCL: "Duplicate GPU detected"): the launch configuration is wrong, not NCCL. Give each local rank its own device (torch.cuda.set_device(local_rank) before init_process_group, --nproc-per-node no larger than the GPUs visible, CUDA_VISIBLE_DEVICES per rank).' }
        : {},
    why: 'the launch configuration does not fit the host (two ranks on one GPU, a GPU index that does not exist, a network-interface filter matching nothing, a malformed NCCL_COMM_ID)',
    hint: 'NCCL found no network interface it was allowed to use: NCCL_SOCKET_IFNAME (or NCCL_OOB_NET_IFNAME) names an interface this host does not have. Set it to an interface that `ip addr` lists on every node (or unset it to let NCCL pick).',
  },
  {
    // NCCL's shared-memory transport creating its segment under /dev/shm (src/os/linux.cc, older
    // src/misc/shmutils.cc): "Error while creating shared memory segment /dev/shm/nccl-… (size N)",
    // "failed to extend /dev/shm/nccl-… to N bytes" (fallocate). The errno (ENOSPC) or a failed extend
    // says the space ran out.
    id: 'nccl.shm_full',
    class: 'disk.full',
    patterns: [/Error while creating shared memory segment .{0,300}(No space left on device|\(28\))/, /failed to extend \/dev\/shm\/\S{1,200} to \d+ bytes/],
    // Above disk.enospc: the same ENOSPC, with the /dev/shm-specific hint.
    strength: 92,
    why: "NCCL could not create or grow its shared-memory segment: /dev/shm is too small or full",
    hint: "NCCL's shared-memory transport could not allocate its segment in /dev/shm: the container's /dev/shm is too small (Docker defaults to 64 MiB). Run with --shm-size=16g or --ipc=host, or mount an emptyDir with medium: Memory at /dev/shm on Kubernetes; NCCL_SHM_DISABLE=1 works around it at some speed.",
  },
  {
    // The same WARN without an errno (older releases, src/include/shm.h shmOpen: "Error while %s shared memory
    // segment %s (size %d)", create ? "creating" : "attaching to"). Creating, the calls that fail are
    // shm_open(O_CREAT) and posix_fallocate of the segment's size; in a container the allocation failing on a
    // /dev/shm of 64 MiB is the usual one, so "creating" is disk.full (TAXONOMY: /dev/shm full) unless the
    // line names a permission error. Attaching to a segment another rank created fails when the ranks do
    // not share /dev/shm (separate containers): that stays nccl.error.
    id: 'nccl.shm_segment',
    class: 'nccl.error',
    patterns: [/Error while (?:creating|attaching to) shared memory segment/],
    extract: (line) => (/Error while creating shared memory segment/.test(line) && !/Permission denied|EACCES|\(13\)/.test(line) ? { classOverride: 'disk.full' } : {}),
    strength: 69,
    why: "NCCL's shared-memory transport could not create or attach its segment under /dev/shm",
    hint: "NCCL could not set up its shared-memory segment in /dev/shm: in a container give it a larger /dev/shm (--shm-size=16g or --ipc=host; an emptyDir with medium: Memory on Kubernetes) and make sure ranks that share a host share /dev/shm; NCCL_SHM_DISABLE=1 works around it.",
  },
  {
    // Any other NCCL WARN, in the logger's own format (src/debug.cc: "host:pid:tid [dev] file.cc:line NCCL
    // WARN msg"; releases before 2.4 printed "include/socket.h:344 WARN …" without "NCCL"). NCCL only
    // WARNs on the path to returning an error; the few WARNs it recovers from are listed in `unless`.
    id: 'nccl.warn_other',
    class: 'nccl.error',
    // The pre-2.4 form is taken only with the words its WARNs start with: a bare "WARN" is in every
    // other line of a training log and would make the prefilter try this rule everywhere.
    patterns: [
      /(?:^|\] |\s)(?:[\w-]+\/)*[\w-]+\.(?:cc|h|cu|c):\d+ NCCL WARN \S/,
      /(?:^|\] |\s)(?:[\w-]+\/)*[\w-]+\.(?:cc|h|cu|c):\d+ WARN (?:Net|Socket|Call to|Cuda|Error|Bootstrap|Failed|Unable|Connect)/,
    ],
    unless: [/Failed to open libibverbs|NET\/Plugin|Could not find|Ignoring|is deprecated|[Dd]isabling|falling back|Using internal|CUDA driver version|iommu/],
    strength: 55,
    why: 'NCCL warned on its way to returning an error',
    hint: 'NCCL failed: the WARN line names the failing call (socket creation, an interface, a CUDA call, shared memory). Re-run with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET for the context; check NCCL_SOCKET_IFNAME / NCCL_IB_HCA and the container network (IPv6 disabled, no usable interface).',
  },
  {
    id: 'nccl.test_failure',
    class: 'nccl.error',
    patterns: [/Test NCCL failure/],
    strength: 71,
    why: 'nccl-tests aborted on a NCCL error',
    hint: 'nccl-tests failed on a NCCL error; re-run with NCCL_DEBUG=INFO and read the first NCCL WARN line.',
  },
  {
    // NVSHMEM (DeepEP's all-to-all in SGLang/vLLM expert parallelism) reports a failed step with its
    // NVSHMEMI_NZ_ERROR_JMP macros: "<file>:<line>: non-zero status: <n> <what> failed" (src/host/init,
    // transport, modules/transport/ibrc: "ibv_modify_qp failed", "connect EPS failed", "nvshmem setup
    // connections failed"), and its API guard "NVSHMEM API called before NVSHMEM initialization has
    // completed". The communication library of the job failed, as NCCL's errors are read.
    id: 'nccl.nvshmem_error',
    class: 'nccl.error',
    patterns: [
      // (Builds with a short __FILE__ print only the file name: "init.cu:1037: non-zero status: 3 building transport map failed".)
      /(?:nvshmem\S{0,200}\/src\/\S{1,200}|^\S{1,80}\.(?:cu|cpp)):\d+: non-zero status: -?\d+ [^\n]{1,160}?failed\b/,
      /\bNVSHMEM API called before NVSHMEM initialization has completed\b/,
    ],
    strength: 55,
    why: 'NVSHMEM (the GPU-initiated communication library under DeepEP) failed to set up or run its transport',
    hint: "NVSHMEM failed (its first \"non-zero status\" line names the step): ibv_modify_qp / connect failures are the RDMA fabric or its settings (NVSHMEM_HCA_LIST / NVSHMEM_IB_GID_INDEX, RoCE GID, a NIC without the peer's subnet), \"setup connections failed\" after a rank died is that rank's failure. Run with NVSHMEM_DEBUG=INFO.",
  },
]);


export const P2P_TRANSPORT_RE = /via P2P\/(?:IPC|CUMEM|direct pointer|read)|P2P\/(?:IPC|CUMEM)\b|P2P\/direct pointer/;
// -1: none yet (pgStatus_ starts at -1): "Last enqueued NCCL work: -1, last completed NCCL work: -1".
export const LAST_ENQUEUED_RE = /(?:[Ll]ast enqueued (?:NCCL )?work:?\s*(-?\d+)),?\s*(?:[Ll]ast completed (?:NCCL )?work:?\s*(-?\d+))?/;
export const P2P_DISABLED_RE = /NCCL_P2P_DISABLE(?:["']?\s*[:=]\s*["']?|\s+set by environment to\s+)(1|true|yes)/i;
