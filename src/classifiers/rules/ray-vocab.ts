// Ray's own error vocabulary, as data: every exception class of python/ray/exceptions.py with the text
// its __str__ prints, the worker exit types and task error types of the protobuf API, and the death
// causes the GCS and the raylet write, each put in a group that says what it means for a run. The rules
// `ray.vocab_*` in rules/ray.ts read a line through these tables; the narrower rules beside them
// (ray.actor_died, ray.node_or_raylet_died, host.ray_memory_monitor, ray.runtime_env_setup,
// ray.intended_exit, user.ray_task_error, …) keep the wordings they had and stay first where both match
// (the vocabulary rules are weaker).
//
// Sources (ray-project/ray, read through the code index): python/ray/exceptions.py at 3c6f7df (Ray 2.3:
// the classes up to ActorUnschedulableError) and a Ray 2.3x copy with ActorDiedError /
// ActorUnavailableError / NodeDiedError / OutOfMemoryError / RpcError / ObjectFreedError /
// UserCodeException / ObjectRefStreamEndOfStreamError / RayChannelError / RayChannelTimeoutError;
// doc/source/ray-core/api/exceptions.rst (newest list: adds RayCgraphCapacityExceeded and
// UnserializableException, read by name only); src/ray/protobuf/common.proto at 0008833 (ErrorType 0..23,
// WorkerExitType 0..4); src/ray/gcs/gcs_actor_manager.cc (newest: GenWorkerDiedCause, GenOwnerDiedCause,
// GenKilledByApplicationCause, GenActorOutOfScopeCause, GenActorRefDeletedCause, GenNodeDiedCause);
// src/ray/raylet/node_manager.cc HandleClientConnectionError; python/ray/_raylet.pyx (the SystemExit
// branch: "Worker exits with an exit code N. The worker may have exceeded K8s pod memory limits.");
// src/ray/core_worker/store_provider (GetTimeoutError's "Get timed out: some object(s) not ready."); the
// memory monitor's advice and the health check's wording as doc/source/ray-core/scheduling/ray-oom-prevention
// and Ray's issue reports quote them.
// How they reach a log: a driver's traceback ends in "ray.exceptions.<Name>: <str>" (or the bare class
// name when re-raised by a library), Ray's own log lines quote the death cause ("Worker exit type: X
// Worker exit detail: …"), and the state API prints a task's "error_type: X".
import type { FailureClass } from '../taxonomy.js';
import { literalAlternation } from './regex-text.js';

/**
 * What an error says about the run:
 * - died: an actor, worker, node, raylet or object owner is gone and the text names no cause (Ray cannot
 *   see a SIGKILL): ray.crash, weaker than any exception of the run's own code (relations.ts lets
 *   memory evidence explain it);
 * - system: Ray's own machinery failed (RaySystemError, an RPC or channel error, a reference-counting
 *   or object-directory bug): ray.crash as a cause of its own;
 * - oom: Ray's memory monitor or the object store ran out of host memory: host.oom;
 * - disk: the object store spilled onto a full disk: disk.full;
 * - env: the job's runtime_env could not be built: config.error;
 * - limit: a limit the job set itself was exceeded (max_pending_calls, a compiled graph's buffer):
 *   config.error;
 * - user: the run's own code raised or misused the API (a task's exception, an object it freed itself,
 *   an exception class that cannot be deserialized): user.code_error;
 * - intended: the job's own code cancelled or killed what it then waited on (ray.cancel, ray.kill,
 *   exit_actor, dropping the last handle): user.code_error, weak (a failure that made the job tear down wins);
 * - wait: a ray.get / channel read gave up waiting (RayChannelTimeoutError, GetTimeoutError's message):
 *   api.timeout as api.request_timeout already reads GetTimeoutError, weak;
 * - echo: a consequence of an earlier failure or of teardown (the placement group was removed, an
 *   upstream task failed): ray.crash, weakest;
 * - skip: not a failure of its own (the base class, an internal poll or end-of-stream marker, an idle
 *   worker reaped, a wrapper whose wrapped error decides) or another rule's (USER_ERROR: the exception
 *   in __init__ decides, ray.creation_task_error);
 * - elsewhere: a narrower rule of another family already reads it in the same class (named in `readBy`,
 *   as rules/pkg-vocab.ts does): not read here, so one wording has one rule. The node preempted or
 *   terminated from outside is ray.node_terminated's (host.killed).
 */
export type RayErrorGroup = 'died' | 'system' | 'oom' | 'disk' | 'env' | 'limit' | 'user' | 'intended' | 'wait' | 'echo' | 'skip' | 'elsewhere';

/** For `elsewhere`: the rule that reads the entry, and the class it gives. */
export interface RayReadBy {
  rule: string;
  class: FailureClass;
}

/**
 * python/ray/exceptions.py: [class, what __str__ prints ('{…}' for a value; '' where the class passes
 * its caller's message through), group, how a log names it: 'bare' where the class name alone is Ray's
 * (RayActorError, GetTimeoutError), 'qualified' where other libraries use the same name
 * (OutOfMemoryError is also torch's and the JVM's, RpcError gRPC's) and only "ray.exceptions.X" says it
 * is Ray's].
 */
export const RAY_EXCEPTIONS: readonly (readonly [string, string, RayErrorGroup, 'bare' | 'qualified', RayReadBy?])[] = [
  ['RayError', '', 'skip', 'qualified'],
  ['CrossLanguageError', 'An exception raised from {language}:\n{formatted exception}', 'skip', 'bare'],
  ['TaskCancelledError', 'Task: {task_id} was cancelled. {error_message}', 'intended', 'bare'],
  ['RayTaskError', '{proctitle}() (pid={pid}, ip={ip}, actor_id={id}, repr={repr})', 'user', 'qualified'],
  ['LocalRayletDiedError', "The task's local raylet died. Check raylet.out for more information.", 'died', 'bare'],
  ['WorkerCrashedError', 'The worker died unexpectedly while executing this task. Check python-core-worker-*.log files for more information.', 'died', 'bare'],
  ['RayActorError', 'The actor experienced an error before finishing this task.', 'died', 'bare'],
  ['ActorDiedError', 'The actor died unexpectedly before finishing this task.', 'died', 'bare'],
  ['ActorUnavailableError', 'The actor {actor_id} is unavailable: {error_message}. The task may or maynot have been executed on the actor.', 'died', 'bare'],
  ['RaySystemError', 'System error: {client_exc}', 'system', 'bare'],
  ['UserCodeException', '', 'user', 'qualified'],
  // The class names are read by host.ray_memory_monitor and disk.enospc (OutOfMemoryError in the one
  // form this table reads it, qualified); the second line of their __str__ (RAY_DEATH_TEXTS) carries
  // no class name and stays here.
  ['ObjectStoreFullError', '{message}\nThe local object store is full of objects that are still in scope and cannot be evicted. Tip: Use the `ray memory` command to list active objects in the cluster.', 'elsewhere', 'bare', { rule: 'host.ray_memory_monitor', class: 'host.oom' }],
  ['OutOfDiskError', "{message}\nThe object cannot be created because the local object store is full and the local disk's utilization is over capacity (95% by default).", 'elsewhere', 'bare', { rule: 'disk.enospc', class: 'disk.full' }],
  ['OutOfMemoryError', '{message}', 'elsewhere', 'qualified', { rule: 'host.ray_memory_monitor', class: 'host.oom' }],
  ['NodeDiedError', '{message}', 'died', 'bare'],
  ['ObjectLostError', 'Failed to retrieve object {hex}. … All copies of {hex} have been lost due to node failure.', 'died', 'bare'],
  ['ObjectFetchTimedOutError', 'Failed to retrieve object {hex}. … Fetch for object {hex} timed out because no locations were found for the object. This may indicate a system-level bug.', 'system', 'bare'],
  ['RpcError', '{message}', 'system', 'qualified'],
  ['ReferenceCountingAssertionError', 'Failed to retrieve object {hex}. … The object has already been deleted by the reference counting protocol. This should not happen.', 'system', 'bare'],
  ['ObjectFreedError', 'Failed to retrieve object {hex}. … The object was manually freed using the internal `free` call.', 'user', 'bare'],
  ['OwnerDiedError', "Failed to retrieve object {hex}. … The object's owner has exited.", 'died', 'bare'],
  ['ObjectReconstructionFailedError', 'Failed to retrieve object {hex}. … The object cannot be reconstructed because it was created by an actor, ray.put() call, or its ObjectRef was created by a different worker.', 'died', 'bare'],
  ['ObjectReconstructionFailedMaxAttemptsExceededError', 'Failed to retrieve object {hex}. … The object cannot be reconstructed because the maximum number of task retries has been exceeded.', 'died', 'bare'],
  ['ObjectReconstructionFailedLineageEvictedError', 'Failed to retrieve object {hex}. … The object cannot be reconstructed because its lineage has been evicted to reduce memory pressure.', 'died', 'bare'],
  // Its message without the class name (RAY_DEATH_TEXTS) stays here.
  ['GetTimeoutError', 'Get timed out: some object(s) not ready.', 'elsewhere', 'bare', { rule: 'api.request_timeout', class: 'api.timeout' }],
  ['PlasmaObjectNotAvailable', '', 'skip', 'bare'],
  ['AsyncioActorExit', '', 'intended', 'bare'],
  ['RuntimeEnvSetupError', 'Failed to set up runtime environment.\n{error_message}', 'env', 'bare'],
  ['TaskPlacementGroupRemoved', 'The placement group corresponding to this task has been removed.', 'echo', 'bare'],
  ['ActorPlacementGroupRemoved', 'The placement group corresponding to this Actor has been removed.', 'echo', 'bare'],
  ['PendingCallsLimitExceeded', '', 'limit', 'bare'],
  ['TaskUnschedulableError', 'The task is not schedulable: {error_message}', 'died', 'bare'],
  ['ActorUnschedulableError', 'The actor is not schedulable: {error_message}', 'died', 'bare'],
  ['ObjectRefStreamEndOfStreamError', '', 'skip', 'bare'],
  ['RayChannelError', '', 'system', 'bare'],
  ['RayChannelTimeoutError', '', 'wait', 'bare'],
  ['RayCgraphCapacityExceeded', '', 'limit', 'bare'],
  ['UnserializableException', '', 'user', 'qualified'],
];

/** common.proto WorkerExitType, as "Worker exit type: X" / "Owner worker exit type: X" print it: [name, group]. */
export const RAY_WORKER_EXIT_TYPES: readonly (readonly [string, RayErrorGroup, RayReadBy?])[] = [
  ['SYSTEM_ERROR', 'died'],
  // An idle worker the raylet reaped, or one released after its job: no failure.
  ['INTENDED_SYSTEM_EXIT', 'skip'],
  // The actor's __init__ raised: that exception decides (ray.creation_task_error, rules/usercode.ts).
  ['USER_ERROR', 'skip'],
  ['INTENDED_USER_EXIT', 'intended'],
  ['NODE_OUT_OF_MEMORY', 'elsewhere', { rule: 'host.ray_memory_monitor', class: 'host.oom' }],
  // Ray's OOM troubleshooting page quotes this name for a worker killed by the Linux OOM killer (older releases).
  ['UNEXPECTED_SYSTEM_EXIT', 'died'],
];

/** common.proto ErrorType (a failed task's error_type in the state API: `ray list tasks`, `ray get tasks`): [name, group]. */
export const RAY_ERROR_TYPES: readonly (readonly [string, RayErrorGroup])[] = [
  ['WORKER_DIED', 'died'],
  ['ACTOR_DIED', 'died'],
  ['OBJECT_UNRECONSTRUCTABLE', 'died'],
  ['TASK_EXECUTION_EXCEPTION', 'user'],
  // Internal: the result of a direct call was put in plasma, never shown to user code.
  ['OBJECT_IN_PLASMA', 'skip'],
  ['TASK_CANCELLED', 'intended'],
  ['ACTOR_CREATION_FAILED', 'died'],
  ['RUNTIME_ENV_SETUP_FAILED', 'env'],
  ['OBJECT_LOST', 'died'],
  ['OWNER_DIED', 'died'],
  ['OBJECT_DELETED', 'system'],
  // An argument's producing task failed: that failure is the cause.
  ['DEPENDENCY_RESOLUTION_FAILED', 'echo'],
  ['OBJECT_UNRECONSTRUCTABLE_MAX_ATTEMPTS_EXCEEDED', 'died'],
  ['OBJECT_UNRECONSTRUCTABLE_LINEAGE_EVICTED', 'died'],
  ['OBJECT_FETCH_TIMED_OUT', 'system'],
  ['LOCAL_RAYLET_DIED', 'died'],
  ['TASK_PLACEMENT_GROUP_REMOVED', 'echo'],
  ['ACTOR_PLACEMENT_GROUP_REMOVED', 'echo'],
  ['TASK_UNSCHEDULABLE_ERROR', 'died'],
  ['ACTOR_UNSCHEDULABLE_ERROR', 'died'],
  ['OUT_OF_DISK_ERROR', 'disk'],
  ['OBJECT_FREED', 'user'],
  ['OUT_OF_MEMORY', 'oom'],
  ['NODE_DIED', 'died'],
  ['ACTOR_UNAVAILABLE', 'died'],
];

/**
 * Death causes and details the GCS, the raylet and the core worker write into a log line (literal
 * texts, matched anywhere on the line): [producer, text, group].
 */
export const RAY_DEATH_TEXTS: readonly (readonly [string, string, RayErrorGroup, RayReadBy?])[] = [
  ['gcs_actor_manager.cc GenWorkerDiedCause', 'The actor is dead because its worker process has died.', 'died'],
  ['gcs_actor_manager.cc GenOwnerDiedCause', 'The actor is dead because its owner has died.', 'died'],
  ['gcs_actor_manager.cc GenKilledByApplicationCause', 'The actor is dead because it was killed by `ray.kill`.', 'intended'],
  ['gcs_actor_manager.cc GenActorOutOfScopeCause', 'The actor is dead because all references to the actor were removed.', 'intended'],
  ['gcs_actor_manager.cc GenActorRefDeletedCause', 'The actor is dead because all references to the actor were removed including lineage ref count.', 'intended'],
  ['gcs_actor_manager.cc GenNodeDiedCause', 'The actor died because its node has died.', 'died'],
  ['gcs_actor_manager.cc GenNodeDiedCause (UNEXPECTED_TERMINATION)', "the actor's node was terminated unexpectedly: ", 'died'],
  ['gcs_actor_manager.cc GenNodeDiedCause (EXPECTED_TERMINATION)', "the actor's node was terminated expectedly: ", 'elsewhere', { rule: 'ray.node_terminated', class: 'host.killed' }],
  ['gcs_actor_manager.cc GenNodeDiedCause (AUTOSCALER_DRAIN_PREEMPTED)', "the actor's node was preempted: ", 'elsewhere', { rule: 'ray.node_terminated', class: 'host.killed' }],
  ['exceptions.py ActorDiedError (never_started)', 'The actor never ran - it was cancelled before it started running.', 'intended'],
  ['exceptions.py RayActorError', 'The actor experienced an error before finishing this task.', 'died'],
  ['exceptions.py ActorDiedError', 'The actor died unexpectedly before finishing this task.', 'died'],
  ['exceptions.py ActorUnavailableError', 'The task may or maynot have been executed on the actor.', 'died'],
  ['exceptions.py LocalRayletDiedError', "The task's local raylet died.", 'died'],
  ['exceptions.py WorkerCrashedError', 'The worker died unexpectedly while executing this task.', 'died'],
  ['exceptions.py ObjectLostError', 'have been lost due to node failure.', 'died'],
  ['exceptions.py ObjectFetchTimedOutError', 'timed out because no locations were found for the object.', 'system'],
  ['exceptions.py ReferenceCountingAssertionError', 'The object has already been deleted by the reference counting protocol.', 'system'],
  ['exceptions.py ObjectFreedError', 'The object was manually freed using the internal `free` call.', 'user'],
  ['exceptions.py OwnerDiedError', "The object's owner has exited.", 'died'],
  ['exceptions.py ObjectReconstructionFailedError', 'The object cannot be reconstructed because it was created by an actor, ray.put() call, or its ObjectRef was created by a different worker.', 'died'],
  ['exceptions.py ObjectReconstructionFailedMaxAttemptsExceededError', 'The object cannot be reconstructed because the maximum number of task retries has been exceeded.', 'died'],
  ['exceptions.py ObjectReconstructionFailedLineageEvictedError', 'The object cannot be reconstructed because its lineage has been evicted to reduce memory pressure.', 'died'],
  ['exceptions.py ObjectStoreFullError', 'The local object store is full of objects that are still in scope and cannot be evicted.', 'oom'],
  ['exceptions.py OutOfDiskError', "The object cannot be created because the local object store is full and the local disk's utilization is over capacity", 'disk'],
  ['exceptions.py RuntimeEnvSetupError (≥ 2.10)', 'Failed to set up runtime environment.', 'env'],
  ['exceptions.py RuntimeEnvSetupError (older)', 'Failed to setup runtime environment.', 'env'],
  ['exceptions.py TaskPlacementGroupRemoved', 'The placement group corresponding to this task has been removed.', 'echo'],
  ['exceptions.py ActorPlacementGroupRemoved', 'The placement group corresponding to this Actor has been removed.', 'echo'],
  ['exceptions.py TaskUnschedulableError', 'The task is not schedulable: ', 'died'],
  ['exceptions.py ActorUnschedulableError', 'The actor is not schedulable: ', 'died'],
  ['exceptions.py TaskCancelledError (≤ 2.3)', 'This task or its dependency was cancelled by', 'intended'],
  ['core_worker store providers (GetTimeoutError)', 'Get timed out: some object(s) not ready.', 'wait'],
  ['node_manager.cc HandleClientConnectionError', 'Worker unexpectedly exits with a connection error code', 'died'],
  ['node_manager.cc (leased worker returned broken)', 'The leased worker has unrecoverable failure.', 'died'],
  ['_raylet.pyx (SystemExit with a non-zero code)', 'Worker exits unexpectedly.', 'died'],
  ['core_worker.cc (exit_actor)', 'Worker exits by an user request.', 'intended'],
  ['node_manager.cc memory monitor', 'Task was killed due to the node running low on memory.', 'elsewhere', { rule: 'host.ray_memory_monitor', class: 'host.oom' }],
  // The memory monitor's advice, printed with each kill and under the raylet's worker-kill summary
  // ("Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/
  // ray-core/scheduling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing
  // task parallelism by requesting more CPUs per task. …", as Ray's ray-oom-prevention guide shows it): it
  // still says so when a wrapped paste has cut the summary's count off its line.
  ['node_manager.cc memory monitor (advice)', 'Refer to the documentation on how to address the out of memory issue', 'oom'],
  ['node_manager.cc memory monitor (advice)', 'Consider provisioning more memory on this node or reducing task parallelism', 'oom'],
  // The GCS's health check (gcs_health_check_manager.cc "… has been marked dead because the detector has
  // missed too many heartbeats from it") and Ray ≤ 0.6's monitor.py ("<id> has been marked dead because the
  // monitor has missed too many heartbeats"): the node is gone, why is in its own logs.
  ['gcs_health_check_manager.cc', 'has been marked dead because the detector has missed too many heartbeats', 'died'],
  ['monitor.py (Ray ≤ 0.6)', 'has been marked dead because the monitor has missed too many heartbeats', 'died'],
  // A guess Ray adds whenever KUBERNETES_SERVICE_HOST is set, not evidence of a memory limit.
  ['_raylet.pyx (in Kubernetes)', 'The worker may have exceeded K8s pod memory limits.', 'skip'],
  // The actor's __init__ raised: that exception decides (ray.creation_task_error).
  ['core_worker.cc (USER_ERROR)', 'Worker exits because there was an exception in the initialization method', 'skip'],
];

const live = <T extends readonly [string, ...unknown[]]>(rows: readonly T[], groups: readonly RayErrorGroup[], groupAt: number): string[] =>
  rows.filter((r) => groups.includes(r[groupAt] as RayErrorGroup)).map((r) => r[0]);

/**
 * The patterns that read the tables' entries of `groups` through Ray's print templates:
 * "ray.exceptions.X" (any class; "RayTaskError(Y)" is user.ray_task_error's, which reads Y), a bare
 * class name where it is Ray's alone, "exit type: X", "error_type: X", and the death texts.
 */
export function rayVocabPatterns(groups: readonly RayErrorGroup[]): RegExp[] {
  const qualified = live(RAY_EXCEPTIONS, groups, 2);
  const bare = RAY_EXCEPTIONS.filter((r) => groups.includes(r[2]) && r[3] === 'bare').map((r) => r[0]);
  const exits = live(RAY_WORKER_EXIT_TYPES, groups, 1);
  const errorTypes = live(RAY_ERROR_TYPES, groups, 1);
  const texts = RAY_DEATH_TEXTS.filter((r) => groups.includes(r[2])).map((r) => r[1]);
  const out: RegExp[] = [];
  if (qualified.length) out.push(new RegExp(`\\bray\\.exceptions\\.(${literalAlternation(qualified)})\\b(?!\\()`));
  if (bare.length) out.push(new RegExp(`\\b(${literalAlternation(bare)})\\b(?!\\()`));
  if (exits.length) out.push(new RegExp(`\\b(?:[Ee]xit type: |exit_type\\W{1,4})(${literalAlternation(exits)})\\b`));
  if (errorTypes.length) out.push(new RegExp(`\\berror_type\\W{1,5}(${literalAlternation(errorTypes)})\\b`));
  if (texts.length) out.push(new RegExp(`(${literalAlternation(texts)})`));
  return out;
}

const BY_TOKEN = new Map<string, RayErrorGroup>([
  ...RAY_EXCEPTIONS.map((r) => [r[0], r[2]] as const),
  ...RAY_WORKER_EXIT_TYPES.map((r) => [r[0], r[1]] as const),
  ...RAY_ERROR_TYPES.map((r) => [r[0], r[1]] as const),
  ...RAY_DEATH_TEXTS.map((r) => [r[1], r[2]] as const),
]);

/** The group of a class name, exit type, error type or death text as a pattern above captured it. */
export function rayGroupOf(token: string): RayErrorGroup | undefined {
  return BY_TOKEN.get(token);
}
