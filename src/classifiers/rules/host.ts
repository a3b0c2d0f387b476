// Host (CPU) memory exhaustion: the kernel OOM killer, cgroup limits, Kubernetes OOMKilled, Ray's
// memory monitor. A bare SIGKILL is only a weak hint on its own.
import { defineRules, type Extracted } from '../rule.js';

const OOM_HINT = 'Host RAM ran out. Lower DataLoader num_workers / prefetch, avoid copying the dataset into every worker, raise the Pod memory limit, or spread the job over more nodes.';

/** "Killed process 629 (onmt_train) total-vm:14119556kB, anon-rss:6538204kB": name the victim in the hint. */
function oomKillExtract(line: string): Extracted {
  const m = /Killed process (\d+) \(([^)]{1,64})\)(?:.{0,80}?anon-rss:(\d+)kB)?/.exec(line);
  if (!m) return {};
  const rss = m[3] ? ` holding ${(Number(m[3]) / 1024 ** 2).toFixed(1)} GiB of anonymous memory` : '';
  return { pid: Number(m[1]), proc: m[2], hint: `The kernel OOM killer killed process ${m[1]} (${m[2]})${rss}: host RAM ran out. ${OOM_HINT.slice('Host RAM ran out. '.length)}` };
}

/**
 * torchelastic's report of a worker ended by SIGTERM (errors/__init__.py: "exitcode : -15", "Signal 15
 * (SIGTERM) received by PID N"): launchers SIGTERM the surviving workers once one fails, so
 * relations.ts (SYMPTOMS) makes these give way to that failure.
 */
export const TORCHELASTIC_SIGTERM_WORDING: readonly RegExp[] = [/exitcode\s*:\s*-15\b/, /Signal 15 \(SIGTERM\) received by PID/];

/**
 * slurmctld's completion record of a job whose batch step died of a signal (src/slurmctld/job_mgr.c
 * _job_complete: "_job_complete: JobId=127441 WTERMSIG 9"; %pJ prints array and het jobs as
 * JobId=127441_3(127444), JobId=123+0(124)).
 */
const slurmctldSignalled = (signal: number): RegExp => new RegExp(String.raw`\b_job_complete: JobId=\d+(?:[_+]\d+)?(?:\(\d+\))? WTERMSIG ${signal}\b`);

export const hostRules = defineRules([
  {
    id: 'host.oom_killer',
    class: 'host.oom',
    patterns: [
      /Out of memory: Kill(?:ed)? process/i,
      /Memory cgroup out of memory/,
      /invoked oom-killer/,
      /oom-kill:/,
      /oom_reaper: reaped process/,
      // mm/oom_kill.c before 5.x printed the victim on its own line ("Killed process 6345 (sleep)
      // total-vm:1736kB, anon-rss:44kB, …"; RHEL 6: "Killed process 215701, UID 679, (java) total-vm:…"),
      // and memcontrol.c named the limit hit ("Task in /docker/4b1c killed as a result of limit of
      // /docker/4b1c", then "memory: usage 1048576kB, limit 1048576kB, failcnt 267"); out_of_memory()
      // with nothing left to kill: "Out of memory and no killable processes...", "System is deadlocked on memory".
      /Killed process \d+,? (?:UID \d+, )?\([^)]{1,64}\),? total-vm:\d+kB/,
      /Task in \S{1,300} killed as a result of limit of/,
      /\bmemory: usage \d+kB, limit \d+kB, failcnt \d+/,
      /Out of memory and no killable processes|System is deadlocked on memory|Out of memory: (?:compulsory|system-wide) panic_on_oom is enabled/,
      // The OOM report's own pieces when a paste starts mid-dump: the call trace through the OOM killer
      // ("oom_kill_process.cold+0xb/0x10", "out_of_memory+0x1ab/0x4a0") and memcontrol.c's "Memory cgroup stats for".
      /\b(?:oom_kill_process|out_of_memory|mem_cgroup_out_of_memory)(?:\.cold)?\+0x[0-9a-f]+\/0x[0-9a-f]+/,
      /Memory cgroup stats for \//,
      // cgroup v2 memory.events / v1 memory.oom_control counters (Documentation/admin-guide/cgroup-v2.rst:
      // "oom_kill: The number of processes belonging to this cgroup killed by any kind of OOM killer"),
      // as `cat` or `grep -H` prints them; a zero count says nothing.
      /(?:^\s*|memory\.(?:events(?:\.local)?|oom_control):)oom(?:_group)?_kill [1-9]\d*\s*$/,
      /\bOOMKilled\b/,
      // Docker's own words for it: `docker inspect` State "OOMKilled": true, `docker events` "container oom <id>";
      // containerd's CRI plugin logging the kernel's OOM event ("TaskOOM event container_id:…").
      /\bcontainer oom [0-9a-f]{12,64}\b/,
      /\bTaskOOM event\b/,
      /Created an OOM event|System OOM encountered/,
      // Slurm's cgroup plugins: "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=4242.batch. Some
      // of your processes may have been killed by the cgroup out-of-memory handler." (older: "oom_kill
      // event", "have been OOM Killed"), and srun's per-task summary "srun: error: node7: task 13: Out Of Memory".
      /Detected \d+ oom[-_]kill events?(?:\(s\))?|have been OOM Killed|killed by the cgroup out-of-memory handler/,
      /srun: error: \S{1,200}: tasks? [\d,-]{1,200}: Out Of Memory/,
      // Slurm's job state as seff/sacct print it ("State: OUT_OF_MEMORY (exit code 0)"; sacct cuts it to OUT_OF_ME+).
      /\bState: OUT_OF_MEMORY\b|\bOUT_OF_ME(?:MORY|\+)\s+\d+:\d+\b/,
      // Hosted runtimes saying so: AWS ECS/Batch stoppedReason "OutOfMemoryError: Container killed due to
      // memory usage", Google Colab "Your session crashed after using all available RAM."
      /OutOfMemoryError: [Cc]ontainer killed due to memory usage/,
      /Your session crashed after using all available RAM/,
      // The userspace OOM killer of systemd hosts (src/oom/oomd-manager.c): "systemd-oomd[612]: Killed
      // /user.slice/… due to memory pressure for … being 81.20% > 50.00% for > 20s with reclaim activity",
      // "Killed … due to swap used (…) / total (…) being more than 90.00%"; the unit's own line
      // (src/core/unit.c): "session-4.scope: systemd-oomd killed 12 process(es) in this unit."
      /Killed \/\S{1,300} due to (?:memory pressure for|memory used|swap used) /,
      /systemd-oomd killed \d+ process\(es\) in this unit/,
      // Batch schedulers enforcing a memory limit: PBS/Torque "PBS: job killed: mem 70gb exceeded limit
      // 64gb", LSF's TERM_MEMLIMIT exit reason, Slurm's cgroup plugin "Exceeded job memory limit".
      /PBS: job killed: [pv]?mem \S{1,40} exceeded limit/,
      /TERM_MEMLIMIT: job killed after reaching LSF memory usage limit/,
      /slurmstepd: error: (?:Exceeded (?:job|step) memory limit|Job \S{1,40} exceeded memory limit)/,
      // systemd's unit results (src/core/unit.c, service.c): "A process of this unit has been killed by the
      // OOM killer.", "trainer.service: Failed with result 'oom-kill'."
      /A process of this unit has been killed by the OOM killer|Failed with result 'oom-kill'/,
      // earlyoom (main.c, kill.c): "low memory! at or below SIGTERM limits: mem 10.00%, swap 10.00%", then
      // "sending SIGTERM to process 7378 uid 1000 \"python\": oom_score 856, …" (≤ 1.7: "badness"), and
      // "escalating to SIGKILL after 0.5 seconds".
      /low memory! at or below SIG(?:TERM|KILL) limits: mem /,
      /sending SIG(?:TERM|KILL) to process \d+ uid \d+ "[^"]{0,100}": (?:oom_score|badness) \d+/,
    ],
    // `docker inspect` prints the flag for every container: false is evidence that it was not the OOM killer.
    unless: [/"?OOMKilled"?\s*[:=]\s*"?false/i],
    strength: 92,
    extract: oomKillExtract,
    why: 'the kernel (or the kubelet for a container) killed a process for exceeding host memory',
    hint: OOM_HINT,
  },
  {
    id: 'host.ray_memory_monitor',
    class: 'host.oom',
    patterns: [
      /killed due to the node running low on memory/,
      /NODE_OUT_OF_MEMORY/,
      /which exceeds the memory usage threshold of/,
      /OOM kill reason/,
      /Ray killed (?:this worker|\d+ worker)/,
      // The memory monitor's report (raylet node_manager.cc) without its first sentence, as a terminal or a
      // paste cuts it: "Memory on the node (IP: 10.0.0.5, ID: 9f2…) where the task (task ID: …, name=…" (Ray
      // ≥ 2.47: "where the lease ("), or the node-level summary "Memory on the node (IP: 10.0.0.5) was 1.99GB / 2.00GB".
      /Memory on the node \(IP: [\w.:-]{2,64}(?:, ID: [0-9a-f.]{4,64})?\) (?:where the (?:task|lease|actor) \(|was [\d.]+\s?[GMK]B \/)/,
      // Ray < 2.0's memory monitor (ray/_private/memory_monitor.py RayOutOfMemoryError).
      /RayOutOfMemoryError: More than \d+% of the memory on node \S+ is used/,
      // The object store (plasma, host shared memory) full with spilling unable to keep up.
      /\bObjectStoreFullError\b/,
      // python/ray/exceptions.py OutOfMemoryError, whatever its message ("1 worker(s) were killed …").
      /\bray\.exceptions\.OutOfMemoryError\b/,
    ],
    strength: 92,
    why: "Ray's memory monitor killed a worker because the node's host memory crossed its threshold",
    hint: 'Ray killed workers for host memory. Reduce per-worker memory (rollout buffers, object store copies), raise memory per node, or set task/actor memory requirements so Ray schedules fewer per node; RAY_memory_usage_threshold tunes the monitor.',
  },
  {
    // The raylet's periodic summary counts both kinds of worker death on a node: "2 Workers (tasks /
    // actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node …".
    // Only a non-zero OOM count is host memory (the other count is ray.worker_crash_summary).
    id: 'host.ray_oom_summary',
    class: 'host.oom',
    patterns: [/(\d+) Workers? \(tasks \/ actors\) killed due to memory pressure \(OOM\)/],
    strength: 92,
    extract: (_l, m) => (Number(m[1]) > 0 ? { oomKilled: Number(m[1]) } : { classOverride: null }),
    why: "the raylet reports workers it killed because the node's host memory ran low",
    hint: 'Ray killed workers for host memory (its memory monitor). Reduce per-worker memory (rollout buffers, object store copies, dataset copies per worker), raise memory per node, or request more CPUs/memory per task so fewer run per node; `ray logs raylet.out -ip <node>` names the killed workers; RAY_memory_usage_threshold tunes the monitor.',
  },
  {
    id: 'host.evicted_memory',
    class: 'host.oom',
    // kubelet eviction manager (pkg/kubelet/eviction/helpers.go): nodeLowMessageFmt "The node was low on
    // resource: memory. ", and nodeConditionMessageFmt "The node had condition: [MemoryPressure]. " when it
    // refuses to admit a Pod while the node is under memory pressure.
    patterns: [/low on resource: memory/, /had untolerated taint \{?node\.kubernetes\.io\/memory-pressure/, /The node had condition: \[[^\]]{0,80}MemoryPressure/],
    strength: 88,
    why: 'the kubelet evicted the Pod because the node ran low on memory',
    hint: 'The node ran out of memory and evicted the Pod: set memory requests equal to the real usage so the scheduler does not overcommit the node.',
  },
  {
    id: 'host.alloc_failure',
    class: 'host.oom',
    patterns: [
      /(?:^|[\s:.])_?(?:Array)?MemoryError\b(?!\()/,
      /std::bad_alloc/,
      /[Cc]annot allocate memory/,
      /Unable to allocate [\d.]+ [KMGTP]i?B for an array/,
      // c10/core/impl/alloc_cpu.cpp on Windows/macOS ("DefaultCPUAllocator: not enough memory: you tried to
      // allocate 1073741824 bytes."); the JVM's heap (PySpark, Ray's Java workers): java.lang.OutOfMemoryError.
      /DefaultCPUAllocator: (?:can't allocate memory|not enough memory)/,
      // PyTorch ≤ 1.1's CPUAllocator.cpp: "[enforce fail at CPUAllocator.cpp:56] posix_memalign(&data,
      // gAlignment, nbytes) == 0. 12 vs 0" (12 is ENOMEM).
      /\[enforce fail at \w*Allocator\.cpp:\d+\] posix_memalign\([^)]{0,80}\) == 0\. 12 vs 0/,
      // Windows ERROR_COMMITMENT_LIMIT (1455) "The paging file is too small for this operation to complete":
      // the commit charge (RAM + page file) is used up, typically by DataLoader workers each loading torch's DLLs.
      /\[WinError 1455\]|The paging file is too small for this operation to complete/,
      /java\.lang\.OutOfMemoryError: (?:Java heap space|GC overhead limit exceeded|Direct buffer memory|Metaspace|Requested array size exceeds VM limit)/,
      // V8's fatal OOM as Node prints it (node_errors.cc OnFatalError: "FATAL ERROR: Reached heap limit
      // Allocation failed - JavaScript heap out of memory"; older "CALL_AND_RETRY_LAST", "Ineffective
      // mark-compacts near heap limit"): agent CLIs, tsc, bundlers; and Go's runtime failing to map memory
      // (runtime/malloc.go throw "runtime: out of memory", printed "fatal error: runtime: out of memory").
      /Allocation failed - JavaScript heap out of memory/,
      /fatal error: runtime: out of memory/,
    ],
    unless: [/\bexcept\b/],
    strength: 60,
    extract: (line): Extracted => (/JavaScript heap out of memory/.test(line) ? { hint: "Node's V8 heap reached its limit (the process, not necessarily the host, ran out): raise it with NODE_OPTIONS=--max-old-space-size=<MiB> within the container's memory limit, or make the tool hold less (a smaller project per tsc/bundler run)." } : {}),
    why: 'a host allocation failed (Python MemoryError, std::bad_alloc, ENOMEM, V8 or Go runtime out of memory)',
    hint: 'A host memory allocation failed: the process (or its cgroup) is out of RAM. Check the memory limit and what holds memory.',
  },
  {
    // An inference server that checks host memory before loading a model and refuses (Ollama
    // llm/server.go: "model requires more system memory (%s) than is available (%s)", error returned to
    // the client as the body of its HTTP 500; logged as slog "model request too large for system"), and
    // ggml's CPU backend failing to allocate a host buffer (ggml-backend.cpp
    // ggml_backend_cpu_buffer_type_alloc_buffer: "failed to allocate buffer of size N"; CPU_Mapped /
    // CPU buffers of llama.cpp's loader). A client that relays the server's answer ("status code: 500")
    // is relaying this cause (relations.ts relayed-status on the same line; stronger elsewhere).
    id: 'host.server_memory_refusal',
    class: 'host.oom',
    patterns: [
      /model requires more system memory \([\d.]+ ?[KMGT]i?B\) than is available/,
      /model request too large for system/,
      /ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size \d+/,
      /unable to allocate CPU(?:_Mapped)? buffer|failed to allocate CPU(?:_Mapped)? buffer of size \d+/,
    ],
    strength: 70,
    why: 'the inference server refused to load the model because host memory (RAM + swap) was too small for it',
    hint: 'The model server (Ollama / llama.cpp) needs more host RAM than is free for the part of the model it keeps on the CPU: use a smaller or more quantized model, lower the context size (num_ctx), offload more layers to the GPU, free memory (other loaded models: OLLAMA_MAX_LOADED_MODELS=1), or run on a host with more RAM.',
  },
  {
    // PyTorch's DataLoader reporting one of its workers gone (torch/csrc/DataLoader.cpp SIGCHLD handler:
    // "DataLoader worker (pid N) is killed by signal: Killed."; torch/utils/data/dataloader.py
    // "DataLoader worker (pid(s) N) exited unexpectedly" when the dead worker is found later). A worker
    // that raised would have had its exception re-raised ("Caught X in DataLoader worker process N"); a
    // SIGKILL of one child while its parent lives on to report it is the kernel OOM killer's signature
    // (it picks the process with the largest footprint: a worker holding its own copy of the dataset), not
    // a scheduler's or an operator's, who end the job or its process group. Other signals are their own
    // story (Bus error: /dev/shm, disk.full; Segmentation fault: a native crash).
    id: 'host.dataloader_worker_killed',
    class: 'host.oom',
    patterns: [/DataLoader worker \(pid \d+\) is killed by signal: Killed\b/, /DataLoader worker \(pid\(s\) [\d, ]{1,200}\) exited unexpectedly/],
    strength: 45,
    extract: (line) => (/exited unexpectedly/.test(line) ? { strength: 25 } : {}),
    why: 'a DataLoader worker was SIGKILLed (or vanished) while the main process lived on: how the kernel OOM killer ends the largest process',
    hint: 'A DataLoader worker was killed with SIGKILL while the training process survived: the kernel OOM killer picks the biggest process, and each worker holds its own copy of what the Dataset keeps in Python objects. Lower num_workers / prefetch_factor, keep the dataset in numpy/arrow arrays or on disk instead of Python lists/dicts, or give the host/container more RAM; `dmesg -T | grep -i "killed process"` confirms it.',
  },
  {
    // A SIGKILL says nothing about why on its own: the OOM killer, a scheduler's time limit or
    // preemption, a node drain and an operator's `kill -9` look the same from the victim's side. It is
    // host.killed unless the same bundle holds memory evidence (resolve.ts: memory evidence upgrades it).
    id: 'host.sigkill_worker',
    class: 'host.killed',
    patterns: [
      /is killed by signal: Killed/,
      /Signal 9 \(SIGKILL\) received by PID/,
      // torch.multiprocessing.spawn: "ProcessExitedException: process 1 terminated with signal SIGKILL".
      /exited with (?:signal )?SIGKILL|killed by SIGKILL|terminated with signal SIGKILL/,
      /exitcode\s*:\s*-9\b/,
      // Docker's `docker inspect` State prints it as "ExitCode": 137.
      /(?:exit(?:ed with)? (?:code|status)|Exit Code:?|[Ee]xitCode"?:)\s*137\b/,
      /^(?:.{0,200}\s)?\d+\s+Killed\s+\S|^\s*Killed\s*$/,
      // bash's report of a job a non-interactive shell (a batch script) lost to SIGKILL (jobs.c
      // notify_of_job_status: "<script>: line <n>: <pid> Killed <command>"), its command cut off.
      /: line \d+:\s+\d+ Killed\b/,
      // The shell's job-control report of a SIGKILLed job (bash jobs.c: "[1]+  Killed   python train.py";
      // zsh: "zsh: killed     python train.py"), and bash's "Killed" glued to a progress bar the job left
      // without a newline (tqdm redraws its bar with \r: "Loading checkpoint shards:  38%|███ | 3/8 [00:02<00:03,  1.28it/s]Killed").
      /^\[\d{1,4}\][+-]?\s+Killed\s+\S/,
      /^zsh: killed\s+\S/,
      /\d+\/\d+ \[[^\]]{0,200}\]\s?Killed\s*$/,
      // DeepSpeed's launcher (launcher/launch.py sigkill_handler) killing the other ranks after one died
      // and then exiting: the run was taken down, the reason is elsewhere.
      /\[launch\.py:\d+:sigkill_handler\] Killing subprocess \d+/,
      /\bexits with return code = -9\b/,
      // A compiler killed mid-build (building flash-attn/apex from source with too many parallel jobs):
      // GCC "c++: fatal error: Killed signal terminated program cc1plus", nvcc "nvcc error   : 'cicc' died
      // due to signal 9 (Kill signal)".
      /Killed signal terminated program \w{2,20}/,
      /died due to signal 9 \(Kill signal\)/,
      // CPython's CalledProcessError for a child killed by a signal: "Command '[…]' died with <Signals.SIGKILL: 9>."
      /died with <Signals\.SIGKILL: 9>/,
      // slurmctld's job completion record for a batch step that died of SIGKILL (job_mgr.c _job_complete).
      slurmctldSignalled(9),
      // Go's os/exec ExitError for a SIGKILLed child (ProcessState.String: "signal: killed"), as Go servers
      // report their runner: Ollama "llama runner process has terminated: signal: killed".
      /\b(?:process|runner|command|child)\b.{0,80}\bsignal: killed\b/,
      // systemd: "trainer.service: Main process exited, code=killed, status=9/KILL".
      /Main process exited, code=killed, status=9\/KILL/,
      // Open MPI's report of the first rank that died ("mpirun noticed that process rank 3 with PID 10243 on
      // node node042 exited on signal 9 (Killed)."; PRRTE in Open MPI 5: "prterun noticed …"). (srun's
      // "task N: Killed" is not read: srun prints it for the tasks it kills itself after another exited.)
      /(?:mpirun|prterun) noticed that process rank \d+ with PID \d+ on node \S{1,200} exited on signal 9 \(Killed\)/,
    ],
    // Ray's actor-death text lists what might have happened ("(1) The process is killed by SIGKILL by OOM
    // killer due to high memory usage. (2) ray stop --force is called."): a guess, not a kill. A terminal
    // that wraps Ray's long line puts the list's items on lines of their own, so they are read too.
    unless: [/There are some potential root causes|potential root causes/, /killed by SIGKILL by OOM killer due to high memory usage/],
    strength: 40,
    why: 'a process was SIGKILLed and nothing in the bundle says why',
    hint: 'A process was killed from outside (SIGKILL) and no memory evidence says the OOM killer did it: check dmesg / journalctl -k for "Killed process" (OOM killer), the scheduler for a time limit or preemption (sacct, kubectl describe pod / events), and node drains.',
  },
  {
    // SIGTERM (exit 143) from outside: the shell's job status "45678 Terminated  python train.py",
    // torchelastic "failed (exitcode: -15)" / "Signal 15 (SIGTERM) received by PID", systemd
    // "code=killed, status=15/TERM", CPython's "died with <Signals.SIGTERM: 15>". A scheduler, an
    // orchestrator or an operator stopping the run. Launchers SIGTERM the other ranks after one fails
    // (torchelastic's "Sending process … closing signal SIGTERM", then "[1]: exitcode: -15" in its failure
    // list), so it sits below every failure, a bare user traceback included: it decides only alone.
    id: 'host.sigterm',
    class: 'host.killed',
    patterns: [
      /^(?:.{0,200}\s)?\d+\s+Terminated\s+\S/,
      // bash's own line for a foreground child lost to SIGTERM (strsignal(SIGTERM) "Terminated" on a line of
      // its own, as "Killed" is for SIGKILL) and the job-control forms ("[1]+  Terminated  python train.py",
      // zsh "zsh: terminated  python train.py").
      /^\s*Terminated\s*$|^\[\d{1,4}\][+-]?\s+Terminated\s+\S|^zsh: terminated\s+\S/,
      // slurmctld's job completion record for a batch step that died of SIGTERM (WTERMSIG 9 is host.sigkill_worker's).
      slurmctldSignalled(15),
      ...TORCHELASTIC_SIGTERM_WORDING,
      /Main process exited, code=killed, status=15\/TERM/,
      /died with <Signals\.SIGTERM: 15>|terminated with signal SIGTERM/,
      /(?:exit(?:ed with)? (?:code|status)|Exit Code:?|[Ee]xitCode"?:)\s*143\b/,
    ],
    strength: 15,
    why: 'the process was terminated (SIGTERM, exit 143) from outside and nothing in the bundle says why',
    hint: 'The run was sent SIGTERM from outside (exit 143): look at what stops jobs on this host: the batch scheduler (time limit, preemption, scancel: sacct -j), Kubernetes (Pod deletion, eviction, a failing liveness probe: kubectl get events), an outer `timeout`, or an orchestrator tearing the job down after another component failed.',
  },
  {
    // Someone outside the run ended it and said so: a batch scheduler's time limit, preemption or cancel
    // (Slurm slurmstepd "*** JOB 42 ON node CANCELLED AT … DUE TO TIME LIMIT ***", PBS/Torque "PBS: job
    // killed: walltime N exceeded limit M", LSF exit reasons TERM_RUNLIMIT/TERM_PREEMPT/TERM_OWNER/…,
    // submitit's preemption notice), or Kubernetes ending a Pod (activeDeadlineSeconds, node shutdown).
    id: 'host.scheduler_kill',
    class: 'host.killed',
    patterns: [
      /\*\*\* (?:JOB|STEP) \S{1,80}(?: ON \S{1,200})? CANCELLED AT \S{1,40}(?: DUE TO (TIME LIMIT|PREEMPTION|JOB REQUEUE|NODE FAILURE))?/,
      /PBS: job killed: (?:walltime|cput) \d+ exceeded limit \d+/,
      /\bTERM_(?:RUNLIMIT|PREEMPT|OWNER|ADMIN|FORCE_OWNER|FORCE_ADMIN|CPULIMIT|REQUEUE_OWNER|REQUEUE_ADMIN): job killed/,
      /Caught signal SIG\w+ on \S{1,200}: this job is preempted/,
      /Pod was active on the node longer than the specified deadline|\b[Rr]eason\W{0,5}DeadlineExceeded\b/,
      /Pod was terminated in response to imminent node shutdown/,
    ],
    strength: 82,
    extract: (line) => {
      const why = /TIME LIMIT|walltime|cput|TERM_RUNLIMIT|TERM_CPULIMIT|deadline|DeadlineExceeded/i.test(line) ? 'its time limit' : /PREEMPT|preempted|REQUEUE/i.test(line) ? 'preemption' : /node shutdown|NODE FAILURE/i.test(line) ? 'its node going away' : 'a cancel';
      return { killedFor: why, hint: `The scheduler ended the run (${why}); nothing failed inside it. For a time limit: request more time or checkpoint and resume; for preemption: run on a non-preemptible partition or make the job requeue-safe; a cancel came from a user or admin (sacct -j / bhist / kubectl get events).` };
    },
    why: 'the batch scheduler or the cluster ended the run (time limit, preemption, cancel, node shutdown)',
    hint: 'The scheduler ended the run: request more time, checkpoint and resume, or use a non-preemptible queue.',
  },
  {
    // torchelastic's agent forwarding a signal it received from outside (elastic/agent/server/api.py
    // "Received 15 death signal, shutting down workers"; multiprocessing/api.py raises SignalException
    // "Process N got signal: 15"). SIGINT (2) is a terminal's Ctrl-C: not an outside kill.
    id: 'host.launcher_signal',
    class: 'host.killed',
    patterns: [
      // The signal as Python formats `signal.Signals` with %s: "Received 1 death signal" (3.11+) or
      // "Received Signals.SIGHUP death signal" (3.8–3.10).
      /Received (?:Signals\.)?(\d{1,2}|SIG[A-Z]{2,6}) death signal, shutting down workers/,
      /SignalException: Process \d+ got signal: (\d{1,2})/,
      // DeepSpeed's launcher (launcher/launch.py sigkill_handler) when it is itself sent SIGTERM.
      /sigkill_handler\] Main process received SIGTERM, exiting/,
      // torchelastic passes the signal it received on to its workers (multiprocessing/api.py _close:
      // "Sending process %s closing signal %s"): SIGTERM is also its own teardown after a failure, SIGHUP
      // only ever came from outside (the terminal or SSH session closed).
      /Sending process \d+ closing signal (SIG[A-Z]{2,6})\b/,
    ],
    // SIGINT (2) is a terminal's Ctrl-C: ruled out here, so the line is judged and no fallback reads its words as a kill.
    unless: [/Received (?:2|SIGINT|Signals\.SIGINT) death signal|got signal: 2\b/],
    strength: 45,
    // The teardown's own SIGTERM (or a Ctrl-C's SIGINT) passed on is judged here and dropped: no kill from outside.
    extract: (line) =>
      /closing signal SIG/.test(line) && !/closing signal SIGHUP\b/.test(line)
        ? { classOverride: null }
        : /Received 1 |got signal: 1\b|SIGHUP/.test(line)
        ? { hint: 'The launcher received SIGHUP: the terminal or SSH session that started it went away (nohup does not shield torchrun, whose agent installs its own handler). Start long runs under tmux/screen, setsid, or a batch scheduler.' }
        : {},
    why: 'the launcher (torchrun/torchelastic agent) received a termination signal from outside and shut the workers down',
    hint: 'The launcher was sent a termination signal from outside (SIGTERM/SIGHUP): look at what stops jobs on this host (the scheduler, an orchestrator tearing the job down after another component failed, a closed terminal).',
  },
  {
    // The host itself was shut down under the run, as the host and the cloud say it: systemd-logind
    // handling the ACPI power button (src/login/logind-button.c "Power key pressed." — newer "Power key
    // pressed short." / "long."; logind-action.c "Powering off..."), which is how a GCE preemptible/spot VM
    // is stopped (ACPI G2 soft-off, 30 s before the hard stop); the cloud's own preemption notices (GCE
    // operation compute.instances.preempted "Instance was preempted."; AWS's two-minute spot notice as
    // EventBridge names it "EC2 Spot Instance Interruption Warning", aws-node-termination-handler
    // "Spot Interruption event received. Instance … will be interrupted at …"); and a Kubernetes node
    // drain (kubectl drain "evicting pod ns/name"). Nothing failed inside the run.
    id: 'host.power_off',
    class: 'host.killed',
    patterns: [
      /\bPower key pressed(?: short| long)?\./,
      /systemd-logind(?:\[\d{1,10}\])?:? (?:Powering off\.\.\.|System is powering down)/,
      /\bcompute\.instances\.preempted\b|\bInstance was preempted\b/,
      /EC2 Spot Instance Interruption Warning|Spot Interruption event received/,
      // Spot runners relaying the IMDS spot/instance-action notice ("Spot interruption payload received: {\"action\":\"terminate\"…}",
      // "Instance is going to be interrupted in 2 minutes").
      /\b[Ss]pot [Ii]nterruption (?:payload|notice|warning) received\b|\b[Ii]nstance is going to be interrupted in \d+ minutes?/,
      // GitHub Actions runner (actions/runner Runner.Listener) stopped under a job: "The runner has received a shutdown signal."
      /The runner has received a shutdown signal\./,
      /^(?:.{0,40}\s)?evicting pod [\w.-]{1,253}\/[\w.-]{1,253}\s*$/,
      // The kubelet's own log of its graceful node shutdown (pkg/kubelet/nodeshutdown/nodeshutdown_manager_linux.go:
      // its logind inhibitor saw the node going down, then it kills every Pod with a shortened grace period;
      // the Pod status it leaves, "Pod was terminated in response to imminent node shutdown.", is host.scheduler_kill's).
      // (Not "detected new shutdown event" alone: it is logged with event=false / "cancelled" too.)
      /Shutdown manager killing pod with gracePeriod/,
    ],
    strength: 50,
    extract: (line) => {
      const why = /Power key|Powering off|powering down/.test(line) ? 'the VM being powered off (ACPI power button: how a GCE preemptible/spot VM is stopped)' : /runner has received a shutdown signal/.test(line) ? 'the CI runner being shut down (its service stopped, or its spot/ephemeral machine reclaimed)' : /[Ss]pot|interrupted in/.test(line) ? 'an AWS spot interruption' : /preempted/.test(line) ? 'a GCE preemption' : /Shutdown manager/.test(line) ? "the node shutting down (the kubelet's graceful node shutdown killed its Pods)" : 'a node drain';
      return { killedFor: why, hint: `The host was taken away under the run by ${why}; nothing failed inside it. On preemptible/spot capacity: checkpoint often and resume (the job is requeue-safe only if it can restart from its last checkpoint), or run on on-demand capacity; for a drain, ask who drained the node (kubectl get events, the cluster autoscaler).` };
    },
    why: 'the host was powered off, preempted or drained under the run',
    hint: 'The host was shut down, preempted or drained under the run; nothing failed inside it. Checkpoint and resume, or use non-preemptible capacity.',
  },
  {
    // Host memory close to full just before a kill or a worker's death without a cause: DeepSpeed's
    // see_memory_usage line ("CPU Virtual Memory:  used = 26.4 GB, percent = 84.6%", psutil), Ray Tune's
    // status ("Memory usage on this node: 15.5/15.8 GiB: ***LOW MEMORY*** less than 10% of the memory on
    // this node is available for use."), the kubelet's node event NodeHasInsufficientMemory.
    // Only memory evidence for a kill or a death, never a failure on its own (strength below every failure;
    // resolve.ts keeps it only beside one).
    id: 'host.memory_pressure',
    class: 'host.oom',
    patterns: [
      /CPU Virtual Memory:\s+used = [\d.]+ GB, percent = (\d{1,3}(?:\.\d+)?)%/,
      /Memory usage on this node: ([\d.]+)\/([\d.]+) Gi?B/,
      /\*\*\*LOW MEMORY\*\*\* less than \d+% of the memory on this node is available/,
      /\bNodeHasInsufficientMemory\b/,
    ],
    strength: 5,
    extract: (line, m) => {
      if (/LOW MEMORY|NodeHasInsufficientMemory/.test(line)) return { memoryPercent: 90 };
      const percent = m[2] !== undefined ? (100 * Number(m[1])) / Number(m[2]) : Number(m[1]);
      return Number.isFinite(percent) && percent >= HIGH_MEMORY_PERCENT ? { memoryPercent: Math.round(percent) } : { classOverride: null };
    },
    why: 'host memory was nearly full',
    hint: OOM_HINT,
  },
  {
    // A process SIGKILLed while it read a model's weights into host memory: the progress bar that
    // transformers (modeling_utils.py `tqdm(…, desc="Loading checkpoint shards")`), vLLM
    // (model_loader/weight_utils.py "Loading safetensors checkpoint shards", "Loading pt checkpoint
    // shards") and many loaders ("Loading weights") draw per shard, left unfinished, with the kill glued
    // to it or right after (resolve.ts gate). Every shard goes through host RAM on its way to the GPU, so
    // a kill at that moment is the OOM killer's signature; a finished bar says nothing (the run went on).
    // Only memory evidence for a kill, never a failure on its own.
    id: 'host.killed_loading_weights',
    class: 'host.oom',
    // tqdm's default bar ("38%|███▊ | 3/8 [") and vLLM's _BAR_FORMAT ("  5% Completed | 2/37 [").
    patterns: [/\bLoading (?:(?:safetensors |pt )?checkpoint shards|weights):\s{0,4}\d{1,3}%(?:\||\s+Completed \|)/],
    strength: 5,
    extract: (line) => {
      // tqdm redraws with \r: the last `n/N [` on the line is where it stopped.
      const counts = [...line.matchAll(/(\d{1,6})\/(\d{1,6}) \[/g)];
      const last = counts[counts.length - 1];
      return last && Number(last[1]) < Number(last[2]) ? { loadingShards: `${last[1]}/${last[2]}` } : { classOverride: null };
    },
    why: "the process was killed while it loaded the model's weights into host memory",
    hint: "The process was SIGKILLed while it read the model's checkpoint shards into host RAM, which is where a load peaks (each rank or worker holds its own copy): the OOM killer's usual victim. Load with low_cpu_mem_usage / device_map, fewer ranks loading at once, or more host RAM; `dmesg -T | grep -i \"killed process\"` confirms it.",
  },
]);

export const stallRules = defineRules([
  {
    // The kernel's own stall detectors (kernel/hung_task.c "INFO: task python:4711 blocked for more than 120
    // seconds.", the soft-lockup watchdog, RCU stall warnings): a task stuck in the kernel (NFS, a GPU
    // driver call, a dead disk) with nothing more specific in the bundle.
    id: 'host.hung_task',
    class: 'job.stall',
    // (Kernels before 4.20 print the RCU report without the "rcu: " prefix.)
    patterns: [/INFO: task \S{1,64}:\d+ blocked for more than \d+ seconds/, /watchdog: BUG: soft lockup - CPU#\d+ stuck for \d+s/, /(?:rcu: )?INFO: rcu_\w+ (?:self-detected stall|detected stalls on CPUs)/],
    strength: 30,
    why: 'the kernel reports a task stuck in the kernel (hung task, soft lockup, RCU stall)',
    hint: 'The kernel saw the process stuck in an uninterruptible wait: the stack printed after the line names the subsystem (nfs, nvidia, a block device). Check that filesystem/driver on the node; the run itself is not at fault.',
  },
  {
    // A live stack dump of a process that is still running: py-spy dump's per-thread header
    // (`Thread 0x7FA6E7C01740 (idle): "MainThread"`, `Thread 96488 (active+gil): "MainThread"`) or
    // faulthandler.dump_traceback_later's `Timeout (0:30:00)!` banner. Someone (or a watchdog) dumped
    // stacks because the job stopped progressing. Weak: any real error in the same bundle decides.
    id: 'host.stack_dump',
    class: 'job.stall',
    patterns: [/^Thread (?:0x[0-9A-Fa-f]{1,16}|\d{1,10}) \((?:active|idle)(?:\+gil)?\): "[^"]{1,64}"/, /^Timeout \(\d+:\d\d:\d\d(?:\.\d{1,6})?\)!$/],
    strength: 12,
    why: 'a stack dump of the still-running process (py-spy dump, faulthandler timeout) shows it waiting, not failing',
    hint: 'The stacks show where each thread waits: a main thread parked in a collective (all_gather, all_reduce, recv) means another rank stopped; one parked in a queue get means a data-loader worker died or hung. Dump every rank and compare.',
  },
]);

/** Host memory use at or above this share counts as memory evidence for a kill. */
const HIGH_MEMORY_PERCENT = 80;
