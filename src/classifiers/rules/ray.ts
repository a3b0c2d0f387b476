// Ray actors, workers, raylets and the GCS. An actor's death is a symptom: when the same bundle says why
// it died (memory monitor, CUDA OOM, a CUDA fault) that cause has the higher strength and wins.
import { defineRules, type Extracted, type Rule } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import { type RayErrorGroup, rayGroupOf, rayVocabPatterns } from './ray-vocab.js';

export const rayRules = defineRules([
  {
    id: 'ray.gcs_unreachable',
    class: 'ray.crash',
    patterns: [
      /Failed to connect to GCS/,
      /GCS may have been killed/,
      /Timed out while waiting for GCS to become available/,
      /Failed to get cluster ID from GCS server/,
      /gcs_server.{0,80}(?:died|crashed|exited)/i,
    ],
    strength: 62,
    why: 'a Ray process lost its connection to the GCS (cluster head)',
    hint: 'The Ray GCS was unreachable: check that the head node is alive and its address/port is right; a stale cluster from an earlier run is fixed with `ray stop` before `ray start`.',
  },
  {
    id: 'ray.node_or_raylet_died',
    class: 'ray.crash',
    patterns: [
      // The GCS's death cause of a node (≥ 2.30, `ray list nodes` / dashboard: "Unexpected termination: health
      // check failed due to missing too many heartbeats"), and verl's watchdog on its Ray workers
      // (single_controller/ray/base.py "worker Actor(…) is not alive sending signal to main thread").
      // (Serve's "Replica … failed health check, stopping it." is a warning it recovers from: not read.)
      /Unexpected termination: health check failed due to missing too many heartbeats/,
      /\bworker Actor\(.{1,300}\) is not alive sending signal to main thread/,
      /raylet.{0,120}(?:died|crashed|exited|is terminated|terminated unexpectedly)/i,
      // A raylet's fatal RAY_CHECK (glog "F0505 … node_manager.cc:3094] Check failed: …", or "C" severity in
      // newer spdlog-style lines) aborts the process: the node's scheduler is gone.
      /(?:pid=raylet|\(raylet\)|raylet\.(?:out|err)|gcs_server|pid=gcs_server).{0,200}(?:Check failed|Check failure stack trace|\*\*\* SIG(?:SEGV|ABRT|BUS) received)/,
      // local_scheduler*: the raylet's predecessor (Ray ≤ 0.6, src/local_scheduler/local_scheduler_client.cc).
      /\b(?:node_manager|raylet|gcs_\w+|core_worker\w*|object_manager|plasma\w*|worker_pool|cluster_task_manager|local_task_manager|direct_actor\w*|normal_task\w*|lineage_cache|dependency_manager|task_dependency_manager|reconstruction_policy|scheduling_queue|object_directory|local_object_manager|actor_manager|task_manager|reference_count|wait_manager|placement_group\w*|cluster_resource\w*|local_scheduler\w*)\.(?:cc|h):\d+\]?:?\s+Check failed/,
      // RAY_LOG(FATAL) / RAY_CHECK in Ray's own log format (src/ray/util/logging.cc, spdlog pattern
      // "[%Y-%m-%d %H:%M:%S,%e %L %P %t]", level letter C for fatal) and the stack it prints after it.
      /^\s*(?:\([\w:. =-]{1,80}\)\s*)?\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} C \d+ \d+\] (?:\(\w+\) )?\w+\.(?:cc|h):\d+:/,
      /\bray::(?:RayLog::~RayLog|SpdLogMessage::Flush)\(\)/,
      // A native crash of a Ray daemon: the failure signal handler's stack ("*** SIGSEGV received at
      // time=…" then "@ 0x… ray::gcs::RuntimeEnvHandler::…") with frames of Ray's own C++ namespaces.
      /^\s*(?:PC: )?@\s+0x[0-9a-f]+\s+.{0,40}\bray::(?:gcs|raylet|rpc|core|syncer|pubsub|pubsub_internal)::/,
      // The same handler's output as the driver relays a daemon's stderr ("(pid=raylet) *** SIGSEGV received
      // at …", "(raylet)     @     0x55d6… boost::asio::…"; gcs_server alike): the daemon itself crashed.
      /^\((?:pid=)?(?:raylet|gcs_server)(?:, ip=[\d.]{7,15})?\)\s+(?:\*\*\* (?:SIG[A-Z]{2,6}|Aborted at)\b|(?:PC: )?@\s+0x[0-9a-f]{6,16}\s)/,
      /node .{0,80}has been marked dead/i,
      /\bRaySystemError\b/,
      /\b(?:ObjectLostError|OwnerDiedError|NodeDiedError|WorkerCrashedError|\w*RayletDiedError)\b/,
      // ObjectLostError's subclasses and siblings (python/ray/exceptions.py): the object's copies or its
      // lineage are gone, or no node holding it answered.
      /\b(?:ObjectReconstructionFailed\w{0,40}Error|ObjectFetchTimedOutError|ReferenceCountingAssertionError)\b/,
    ],
    // The raylet's worker-death summary line says "Workers crashed due to other reasons": counted below.
    // "(raylet) A worker died or was killed while executing a task" is the raylet reporting a worker's
    // death (ray.actor_died), not its own.
    // The driver's notice of a raylet that got SIGTERM ("Raylet is terminated: … Termination is graceful.")
    // is a node shut down from outside (ray.node_terminated).
    unless: [/Workers? \(tasks \/ actors\) killed due to memory pressure/, /A worker died or was killed while executing/, /Termination is graceful/],
    strength: 50,
    why: 'a Ray raylet, node or object owner died',
    hint: 'A Ray node or raylet died: read raylet.out and gcs_server.out on that node (ray logs) for the reason; preemption and host OOM are the usual causes.',
  },
  {
    // Ray's serialization (python/ray/_private/serialization.py) wraps an exception raised while a worker
    // unpickles a task's arguments or an actor's class in RaySystemError ("System error: {client_exc}",
    // exceptions.py): a ModuleNotFoundError ("No module named 'x'") or pickle's AttributeError ("Can't get
    // attribute 'X' on <module …>") there is the run's own code not importable on that worker (not shipped
    // with runtime_env working_dir / py_modules, or a different version), not Ray failing.
    id: 'ray.worker_import_error',
    class: 'user.code_error',
    patterns: [/RaySystemError: System error: No module named '([^']{1,200})'/, /RaySystemError: System error: Can't get attribute '([^']{1,200})' on <module /],
    // Above ray.node_or_raylet_died, which reads any RaySystemError as Ray's own machinery.
    strength: 55,
    extract: (_l, m): Extracted => ({ module: m[1] ?? null }),
    why: "a Ray worker could not import the run's own module while it deserialized a task's arguments",
    hint: "The Ray worker could not import the run's own code while unpickling the task's arguments or the actor's class: ship the code with the job (runtime_env={'working_dir': ...} or 'py_modules'), install the package on every node, or keep driver and workers on the same version of it.",
  },
  {
    id: 'ray.worker_crash_summary',
    class: 'ray.crash',
    patterns: [/(\d+) Workers? crashed due to other reasons/],
    strength: 30,
    extract: (_l, m) => (Number(m[1]) > 0 ? {} : { classOverride: null }),
    why: 'the raylet counts workers that crashed for reasons other than memory',
    hint: 'Ray workers on a node crashed (not for memory): `ray logs raylet.out -ip <node>` and the workers\' own logs hold the reason (segfault, CUDA error, an exception in the task).',
  },
  {
    id: 'ray.actor_died',
    class: 'ray.crash',
    patterns: [
      /\b(?:RayActorError|ActorDiedError|ActorUnavailableError)\b/,
      /The actor died unexpectedly|The actor is dead because|The actor died because (?!of an error raised in its creation task)/,
      /Worker exit type: SYSTEM_ERROR|exit_type = SYSTEM_ERROR/,
      /A worker died or was killed while executing/,
      // node_manager.cc HandleClientConnectionError: the worker's socket closed without an exit report
      // ("… connection error code 2. End of file. There are some potential root causes. (1) … SIGKILL by
      // OOM killer …"): the process vanished. Ray's docs list it, and "The leased worker has unrecoverable
      // failure", as what a Linux OOM kill looks like from Ray's side; on its own it names no cause.
      /Worker unexpectedly exits with a connection error/,
      /The leased worker has unrecoverable failure/,
      /Reporting worker exit/,
      // A Ray worker's own native crash, as Ray prefixes worker output: "(WorkerDict pid=123) *** SIGSEGV received…".
      /^\((?:\w+ )?pid=\d+[^)]{0,80}\).{0,120}(?:SIGSEGV|Segmentation fault)/,
    ],
    // An actor whose constructor raised died of that exception (ray.creation_task_error, weaker than it);
    // one the job itself ended (ray.kill, exit_actor) did not crash (ray.intended_exit).
    unless: [/error raised in its creation task|exception in the initialization method/, /killed by `ray\.kill`|Worker exit type: INTENDED_USER_EXIT|all references to the actor were removed/],
    strength: 30,
    extract: (line) =>
      /connection error code|The leased worker has unrecoverable failure/.test(line)
        ? { hint: "The worker process vanished without telling Ray why (its socket closed: a SIGKILL or a native crash). Nothing else in the bundle names the cause; Ray's docs give this exact message for a Linux OOM kill, so check the node first: `dmesg -T | grep -i 'killed process'` (OOM killer), `ray logs raylet.out` for workers killed for memory, the worker's own python-core-worker-*.log / worker-*.err for a segfault or CUDA error." }
        : {},
    why: 'a Ray actor or worker process died',
    hint: "A Ray actor/worker died. Its own log (worker-*.err, `ray logs`) holds the reason: look for a segfault, CUDA error or OOM there; RayActorError itself only says the actor is gone.",
  },
  {
    // gcs_actor_manager.cc GenNodeDiedCause: "The actor died because its node has died. Node Id: …\n\tthe
    // actor's node was preempted: <drain reason>" (AUTOSCALER_DRAIN_PREEMPTED) or "… was terminated
    // expectedly: received SIGTERM" (EXPECTED_TERMINATION): the node was taken away from outside. "…
    // terminated unexpectedly: health check failed …" stays a node death (ray.actor_died).
    id: 'ray.node_terminated',
    class: 'host.killed',
    // The driver's notice when the raylet's log shows "Raylet received SIGTERM" (python/ray/_private):
    // "Raylet is terminated: ip=…, id=…. Termination is graceful."
    patterns: [/the actor's node was preempted: /, /the actor's node was terminated expectedly: /, /Raylet is terminated.{0,300}Termination is graceful/],
    strength: 45,
    why: "the Ray node the actor ran on was preempted or terminated from outside",
    hint: 'The Ray node was preempted or shut down from outside (spot/preemptible capacity reclaimed, the autoscaler draining it, a SIGTERM to the raylet); nothing failed inside the actor. Use non-preemptible nodes for actors that cannot restart, or set max_restarts / checkpoint so the job survives a node loss.',
  },
  {
    // The raylet's and the GCS server's own SIGTERM handlers (src/ray/raylet/main.cc signal_handler:
    // "received SIGTERM. Existing local drain request = …", then shutdown_raylet_gracefully_internal
    // "Raylet graceful shutdown triggered, reason = <NodeDeathInfo reason>, reason message = …";
    // src/ray/gcs/gcs_server_main.cc "GCS server received SIGTERM, shutting down..."): the node was
    // stopped from outside (EXPECTED_TERMINATION: a SIGTERM; AUTOSCALER_DRAIN_PREEMPTED: the autoscaler
    // drained it for preemption). AUTOSCALER_DRAIN_IDLE (an idle node scaled down) and
    // UNEXPECTED_TERMINATION are not a kill of the run. Weak: `ray stop` at the end of a job says the
    // same, so any failure in the bundle decides.
    id: 'ray.raylet_sigterm',
    class: 'host.killed',
    patterns: [
      /Raylet graceful shutdown triggered, reason = (?:EXPECTED_TERMINATION|AUTOSCALER_DRAIN_PREEMPTED)\b/,
      /\breceived SIGTERM\. Existing local drain request = /,
      /GCS server received SIGTERM, shutting down/,
    ],
    strength: 20,
    extract: (line) => (/AUTOSCALER_DRAIN_PREEMPTED/.test(line) ? { killedFor: 'preemption' } : {}),
    why: "Ray's raylet or GCS server received SIGTERM from outside and shut down gracefully, with no error of its own",
    hint: "The Ray node's raylet (or the GCS) was sent SIGTERM and shut down cleanly: something outside Ray stopped the node (a spot/preemptible VM reclaimed, the cluster launcher or KubeRay deleting the Pod, a scheduler's time limit, `ray stop`). Look at the cloud/Kubernetes events for that node (preemption, Pod deletion) and make the job tolerate node loss (max_restarts, checkpoints).",
  },
  {
    // The autoscaler's infeasible-request report (python/ray/autoscaler/_private/autoscaler.py
    // _report_pending_infeasible: "Error: No available node types can fulfill resource request {…}. Add
    // suitable node types to this cluster to resolve this issue."; autoscaler v2 "No available node types
    // can fulfill resource requests {…}*N"), and the raylet's (cluster_task_manager.cc: "There are tasks
    // with infeasible resource requests that cannot be scheduled."): no node type of the cluster, even
    // after full scale-up, has what the task or actor asks for (a GPU on a CPU-only cluster, a placement
    // group bigger than a node, a custom resource no node declares). The request can never fit: the job's
    // configuration against the cluster's, not a transient wait (stall.ray_pending_resources).
    id: 'ray.infeasible_request',
    class: 'config.error',
    // (autoscaler v2 words placement groups apart: "No available node types can fulfill placement group requests (detail=PACK): …".)
    patterns: [/No available node types c(?:an|ould) fulfill (?:resource|placement group) requests? /, /There are tasks with infeasible resource requests that cannot be scheduled/],
    strength: 40,
    extract: (line) => {
      const m = /fulfill resource requests? (?:defaultdict\([^,]{1,40}, )?(\{[^}]{1,200}\})/.exec(line);
      return m ? { request: m[1], hint: `Ray cannot place the request ${m[1]} on any node type of this cluster, even after scaling up: no node offers that much (or that kind) of resource. Lower the request (num_gpus/num_cpus, placement-group bundles, tensor-parallel size) or add a node type that has it; \`ray status\` shows demands vs. capacity. A node that registered without its GPUs (Ray did not detect them: CUDA_VISIBLE_DEVICES, a container without the GPU runtime) or under another IP than the one requested (vLLM: set VLLM_HOST_IP) looks the same.` } : {};
    },
    why: 'Ray reports a resource request that no node type of the cluster can ever fulfill',
    hint: 'A Ray task, actor or placement group asks for resources no node of the cluster has, so it waits forever: lower the request or add nodes that have it (`ray status` shows demands vs. capacity); check that the nodes registered their GPUs.',
  },
  {
    // Ray's IO workers (python/ray/_raylet.pyx spill_objects_handler / restore_spilled_objects_handler /
    // delete_spilled_objects_handler) catch what their external-storage call raised and log "An unexpected
    // internal error occurred while the IO worker was spilling objects: <error>" (restoring / deleting
    // spilled objects): the exception before it (a ValueError from ray/external_storage.py) is Ray's own
    // object store failing, not the run's code. A disk error quoted in it (EDQUOT, ENOSPC) is the disk's
    // rules, stronger.
    id: 'ray.io_worker_error',
    class: 'ray.crash',
    patterns: [/An unexpected internal error occurred while the IO worker was (?:spilling|restoring|deleting)\b/],
    strength: 40,
    why: "Ray's IO worker failed while spilling, restoring or deleting objects in external storage",
    hint: "Ray's object spilling failed inside Ray (the IO worker), not in the job's code: an object whose owner or node is gone (ObjectLost / owner died: check for a node marked dead or a worker killed before it), or the spill target failing. `ray logs` for io_worker and raylet.out on that node name it; set object_spilling_config to a disk with room.",
  },
  {
    // file_system_monitor.cc: "<session dir> is over 95% full, available space: …; capacity: …. Object
    // creation will fail if spilling is required." Ray logs it every 10 s while the disk of its session
    // directory stays full; many runs fail for another reason with it in the log, so it is weak.
    id: 'ray.spill_disk_full',
    class: 'disk.full',
    patterns: [/is over [\d.]+% full, available space: .{1,60}Object creation will fail if spilling is required/, /has no capacity, object creation will fail if spilling is required/],
    strength: 25,
    // The monitor warns at a share of the disk (95% by default), which on a large disk still leaves tens of
    // GB: only a disk left with under 5 GB (or none) is short enough to fail what writes to it (a
    // runtime_env's unpacked packages and virtualenvs: relations.ts runtime-env-disk, minStrength 30).
    extract: (line): Extracted => {
      const m = /available space: ([\d.]+) ?(B|KB|MB|GB|TB)\b/.exec(line);
      const gb = m ? Number(m[1]) / ({ B: 1e9, KB: 1e6, MB: 1e3, GB: 1, TB: 1e-3 } as const)[m[2] as 'B'] : 0;
      return gb < 5 ? { strength: 35 } : {};
    },
    why: "the disk of Ray's session directory (object spilling) was over its capacity threshold",
    hint: "The disk under Ray's temp/session directory (/tmp/ray by default) is nearly full, so objects can no longer be spilled: free it, or point Ray at a larger disk (ray start --temp-dir, or object_spilling_config); RAY_local_fs_capacity_threshold sets the threshold.",
  },
  {
    // The job's working_dir / py_modules package is larger than Ray takes: runtime_env/packaging.py
    // _store_package_in_gcs ("Package size (612.35MiB) exceeds the maximum size of 100.00MiB. You can exclude
    // large files using the 'excludes' option to the runtime_env"). The folder handed to Ray holds
    // checkpoints or data.
    id: 'ray.runtime_env_package_size',
    class: 'config.error',
    // (The dashboard's 413 for `ray job submit` is aiohttp's HTTPRequestEntityTooLarge, which any aiohttp
    // server raises: not read here, the line does not say it is Ray's.)
    patterns: [/Package size \([\d.]+[KMG]iB\) exceeds the maximum size of [\d.]+[KMG]iB/],
    strength: 70,
    why: "the job's runtime_env package (working_dir / py_modules) is larger than Ray accepts",
    hint: "Ray refused the job's working_dir / py_modules package as too large (100 MiB for the GCS; the dashboard's upload limit for `ray job submit`): the folder holds checkpoints, datasets or a virtualenv. Add them to runtime_env's `excludes` (or a .gitignore in it), or put the code in a zip on S3/GCS/HTTPS and pass its URI.",
  },
  {
    // python/ray/exceptions.py RuntimeEnvSetupError ("Failed to setup runtime environment." then the
    // agent's reason): the job's runtime_env (pip/conda packages, working_dir, container image) could not
    // be built. The reason printed with it (a pip resolution error, a network failure) decides when a rule
    // knows it; otherwise it is the job's configuration.
    id: 'ray.runtime_env_setup',
    class: 'config.error',
    patterns: [/\bRuntimeEnvSetupError\b/, /Failed to set ?up runtime environment/],
    strength: 45,
    why: "Ray could not set up the job's runtime environment",
    hint: "Ray could not build the runtime_env (pip/conda packages, working_dir, py_modules): read the lines after the error (and `ray logs runtime_env_setup-*.log` / dashboard_agent.log) for the failing package or path; pin installable versions or pre-install them in the image.",
  },
  {
    // gcs_actor_manager.cc GenKilledByApplicationCause "The actor is dead because it was killed by
    // `ray.kill`." and WorkerExitType INTENDED_USER_EXIT ("Worker exits by an user request. exit_actor() is
    // called."): the job's own code ended the actor and then still called it. Weak: a failure that made
    // the job tear its actors down wins.
    id: 'ray.intended_exit',
    class: 'user.code_error',
    // GenActorOutOfScopeCause / GenActorRefDeletedCause: the GCS destroyed the actor once the job dropped
    // its last handle, and the job still called it.
    patterns: [/The actor is dead because it was killed by `ray\.kill`/, /Worker exit type: INTENDED_USER_EXIT/, /The actor is dead because all references to the actor were removed/],
    strength: 28,
    why: "the job's own code killed or exited the actor, then still called it",
    hint: "The actor was ended on purpose (ray.kill or exit_actor in the job's code) and then called again: find the code that kills it (a shutdown/cleanup path running too early, a retry after teardown) or, if an earlier failure triggered the teardown, look for that failure first.",
  },
  {
    id: 'ray.creation_task_error',
    class: 'ray.crash',
    // core_worker.cc exits such a worker with USER_ERROR: "Worker exits because there was an exception in
    // the initialization method (e.g., __init__). Fix the exceptions from the initialization to resolve the issue."
    patterns: [/The actor died because of an error raised in its creation task|Exception raised in creation task/, /Worker exits because there was an exception in the initialization method/],
    // Weaker than a user exception: an actor whose constructor raised died of that exception.
    strength: 15,
    why: "a Ray actor's constructor raised, so the actor never started",
    hint: "The actor's __init__ raised: the exception printed with it (and the actor's log) is the cause.",
  },
]);

// ---------------------------------------------------------------------------------------------------
// Ray's whole error vocabulary (ray-vocab.ts, sources there), one rule per class so that each pattern
// key is its class's word for the vocabulary fallback. Weaker than the rules above on every wording
// they read, so those keep their rule and class; these decide the classes, exit types, error types and
// death texts nothing above knows. The entries an older rule reads in the same class are the table's
// `elsewhere` group and build no pattern here (the node preempted or terminated from outside is
// ray.node_terminated's: no vocabulary rule for host.killed).

/** The groups a vocabulary rule reads (skip and elsewhere decide nothing here). */
type RayReadGroup = Exclude<RayErrorGroup, 'skip' | 'elsewhere'>;

const RAY_VERDICT: Record<RayReadGroup, { strength: number; hint: string }> = {
  // Below any exception of the run's own code (user.traceback_exception 20) and the actor-died-of
  // mechanism's minimum: a death that names no cause gives way to the exception the process died of.
  died: { strength: 19, hint: "A Ray actor, worker, node or object owner is gone and Ray's message names no cause: the dead process's own log (`ray logs`, worker-*.err, raylet.out on its node) holds it; a SIGKILL from the OOM killer, a native crash or a lost node are the usual ones." },
  system: { strength: 45, hint: "Ray's own machinery failed (a system error, an RPC or compiled-graph channel error, a reference-counting or object-directory bug): read raylet.out / gcs_server.out and the core worker logs for the first error, and check the Ray version across the cluster." },
  oom: { strength: 85, hint: "Ray ran out of host memory (its memory monitor killed a worker, or the object store is full of objects still in scope): lower per-worker memory or object store use (`ray memory` lists what holds it), or give the nodes more memory." },
  disk: { strength: 85, hint: "The object store spilled onto a disk that is over capacity: free the disk under Ray's temp/session directory or point object_spilling_config at a larger one." },
  env: { strength: 44, hint: "Ray could not set up the job's runtime_env (pip/conda packages, working_dir, container): the lines after the error and runtime_env_setup-*.log name what failed." },
  limit: { strength: 40, hint: "A limit the job set itself was exceeded (an actor's max_pending_calls, a compiled graph's buffer capacity): raise it or add back-pressure in the caller." },
  user: { strength: 21, hint: "The run's own code raised in a Ray task or misused the object API (an object it freed itself, an exception class Ray cannot deserialize): the traceback after the Ray error shows where." },
  intended: { strength: 27, hint: "The job's own code cancelled or ended what it then waited on (ray.cancel, ray.kill, exit_actor, the last handle dropped): find that code path, or the earlier failure that made the job tear down." },
  wait: { strength: 16, hint: 'A ray.get (or a compiled-graph channel read) gave up waiting: the task or actor it waited on is slow, hung or pending for resources; its own log or `ray status` says which.' },
  echo: { strength: 12, hint: 'A consequence of an earlier failure or of teardown (the placement group was removed, an upstream task failed): look for the first error before it.' },
};

// Source lines of a traceback (`except ray.exceptions.GetTimeoutError:`) and the narrower rules'
// wordings that must keep their class: an actor whose __init__ raised died of that exception.
// A comment is '# ' (syslog's '#033[' rendering of an escape byte is not one).
const RAY_VOCAB_UNLESS = [/\bexcept\b|\braise\b|^\s*#\s|isinstance\(/, /error raised in its creation task|exception in the initialization method/];

function rayVocabExtract(patterns: readonly RegExp[]) {
  const global = patterns.map((re) => new RegExp(re.source, `${re.flags}g`));
  return (line: string): Extracted => {
    let best: { group: RayReadGroup; token: string } | undefined;
    for (const re of global)
      for (const m of line.matchAll(re)) {
        const g = rayGroupOf(m[1] ?? '');
        if (!g || g === 'skip' || g === 'elsewhere') continue;
        if (!best || RAY_VERDICT[g].strength > RAY_VERDICT[best.group].strength) best = { group: g, token: m[1]! };
      }
    if (!best) return { classOverride: null };
    return { strength: RAY_VERDICT[best.group].strength, hint: RAY_VERDICT[best.group].hint, rayError: best.token.slice(0, 80), rayGroup: best.group };
  };
}

function rayVocabRule<const Id extends string>(id: Id, cls: FailureClass, groups: readonly RayReadGroup[], why: string): Rule<Id> {
  const patterns = rayVocabPatterns(groups);
  const strongest = Math.max(...groups.map((g) => RAY_VERDICT[g].strength));
  return { id, class: cls, patterns, unless: RAY_VOCAB_UNLESS, strength: strongest, extract: rayVocabExtract(patterns), why, hint: RAY_VERDICT[groups[0]!].hint };
}

export const rayVocabRules = defineRules([
  rayVocabRule('ray.vocab_crash', 'ray.crash', ['died', 'system', 'echo'], 'a Ray exception, exit type, error type or death text says an actor, worker, node or Ray itself failed'),
  rayVocabRule('ray.vocab_oom', 'host.oom', ['oom'], 'a Ray exception, exit type or error type says the node ran out of host memory'),
  rayVocabRule('ray.vocab_disk', 'disk.full', ['disk'], "a Ray exception or error type says the object store's spill disk is full"),
  rayVocabRule('ray.vocab_config', 'config.error', ['env', 'limit'], "a Ray exception or error type says the job's runtime_env or its own limits failed it"),
  rayVocabRule('ray.vocab_user', 'user.code_error', ['user'], "a Ray exception, exit type or error type says the run's own code raised"),
  // Its own rule, so that relations can tell it from an exception: a cancel or kill the job made is often
  // its teardown after another failure (actors cancelled before they ran because a worker died), never what
  // an actor died of (relations.ts actor-died-of takes no cause from it).
  rayVocabRule('ray.vocab_intended', 'user.code_error', ['intended'], "a Ray exception, exit type or error type says the job cancelled or killed what it waited on"),
  rayVocabRule('ray.vocab_wait', 'api.timeout', ['wait'], "a ray.get or compiled-graph channel read gave up waiting (RayChannelTimeoutError, GetTimeoutError's message)"),
]);
