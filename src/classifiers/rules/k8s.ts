// Pods and sandboxes that never start, get evicted or vanish (Kubernetes, Docker, OpenHands/Harbor
// sandboxes). Evictions for memory or disk belong to host.oom / disk.full, whose rules are stronger.
import { defineRules, type Extracted, type Rule } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import { type K8sReasonGroup, k8sGroupOf, k8sReasonPatterns } from './k8s-vocab.js';

/** An eviction whose message names memory or ephemeral storage belongs to host.oom / disk.full. */
export const EVICTED_FOR_RESOURCE = /ephemeral-storage|low on resource: memory/;

/**
 * A container restarted with back-off, or its Job given up: the kubelet's waiting reason CrashLoopBackOff
 * and event BackOff ("Back-off restarting failed container"); the Job controller giving up on a Job whose
 * Pods kept failing (pkg/controller/job: reason BackoffLimitExceeded, "Job has reached the specified
 * backoff limit"): the Pods' own failure is the cause. relations.ts (SYMPTOMS) makes it give way to that.
 */
export const RESTART_BACKOFF_WORDING: readonly RegExp[] = [
  /\bCrashLoopBackOff\b|Back-off restarting failed container/,
  /\bBackoffLimitExceeded\b|Job has reached the specified backoff limit/,
];

/**
 * The kube-apiserver's answer, by its metav1.Status reason (apimachinery pkg/apis/meta/v1/types.go
 * StatusReason) or HTTP code: the cluster platform failing (InternalError, ServiceUnavailable, Timeout,
 * ServerTimeout, TooManyRequests; 5xx, 429) is the sandbox's platform; a request it rejects
 * (Forbidden/Unauthorized: RBAC or credentials of the harness's service account; Invalid/BadRequest: a
 * Pod spec it will not take) is configuration. NotFound is k8s.pod_gone's when it is a Pod; others
 * (AlreadyExists, Conflict, NotFound of anything else) say nothing here.
 */
const K8S_PLATFORM_REASON = /^(?:InternalError|ServiceUnavailable|Timeout|ServerTimeout|TooManyRequests)$/;
const K8S_REJECTED_REASON = /^(?:Forbidden|Unauthorized|Invalid|BadRequest|RequestEntityTooLarge|MethodNotAllowed|UnsupportedMediaType|NotAcceptable)$/;
function k8sStatusExtract(_line: string, m: RegExpExecArray): Extracted {
  const reason = m[1];
  const code = m[2] !== undefined ? Number(m[2]) : undefined;
  if ((reason && K8S_PLATFORM_REASON.test(reason)) || (code !== undefined && (code >= 500 || code === 429))) return code !== undefined ? { httpStatus: code } : {};
  if ((reason && K8S_REJECTED_REASON.test(reason)) || (code !== undefined && [400, 401, 403, 405, 413, 415, 422].includes(code)))
    return { ...(code !== undefined ? { httpStatus: code } : {}), classOverride: 'config.error', hint: "The Kubernetes API rejected the harness's request: Forbidden/Unauthorized is RBAC or credentials (give the service account the Role it needs: `kubectl auth can-i create pods --as=system:serviceaccount:<ns>:<sa>`), Invalid/BadRequest a Pod spec the cluster will not take (the message names the field)." };
  return { classOverride: null };
}

/** An image build tool's own error line: registry answers there are that build failing (its base image). */
export const BUILD_ERROR_LINE = /failed to solve|failed to resolve source metadata for |^error building image: |While performing build|Unable to build from|building at STEP|creating build container: /;

export const k8sRules = defineRules([
  {
    // Who answered: the kube-apiserver, as kubectl renders its Status (kubectl/pkg/cmd/util helpers.go
    // StandardErrorMessage: "Error from server (<Reason>): <message>") and as the Python client raises it
    // (kubernetes/client/exceptions.py ApiException.__str__: "(<status>)\nReason: <phrase>", then the
    // Status body {"kind":"Status","apiVersion":"v1",…,"code":N}). Classed by the reason (above), not as an
    // LLM gateway's status.
    id: 'k8s.api_status',
    class: 'sandbox.failure',
    patterns: [
      /Error from server \((\w{3,40})\): /,
      /\bkubernetes(?:_asyncio)?\.client\.(?:exceptions|rest)\.ApiException: \(()(\d{3})\)/,
      /"kind":\s?"Status",\s?"apiVersion":\s?"v1".{0,2000}?"reason":\s?"(\w{3,40})"/,
      /"kind":\s?"Status",\s?"apiVersion":\s?"v1".{0,2000}?()"code":\s?(\d{3})\b/,
    ],
    // A Pod that is not found is k8s.pod_gone's (stronger), the kubelet unreachable is answerer.ts's.
    unless: [/Error from server \(NotFound\): pods /, /error dialing backend/],
    strength: 62,
    extract: k8sStatusExtract,
    why: 'the Kubernetes API server answered an error: the cluster platform failing, or a request it rejected',
    hint: "The Kubernetes API server failed the harness's request (internal error, unavailable, timed out, throttled): the cluster's control plane or an admission webhook is failing, so no sandbox Pod could be created or reached. `kubectl get --raw /readyz?verbose` and the apiserver/webhook logs say which.",
  },
  {
    id: 'k8s.image_pull',
    class: 'sandbox.failure',
    patterns: [
      /\b(?:ImagePullBackOff|ErrImagePull|ErrImageNeverPull|InvalidImageName|ImageInspectError|RegistryUnavailable|SignatureValidationFailed)\b/,
      /Back-off pulling image|Failed to pull image/,
      // The registry's own answers (docker/distribution errcode: MANIFEST_UNKNOWN "manifest unknown", DENIED;
      // Docker Hub's pull rate limit "toomanyrequests: You have reached your pull rate limit").
      /pull access denied|manifest unknown/,
      // dockerd's own pull failure, old and new (moby distribution/pull.go "Error pulling image (%s) from %s,
      // %v"; the legacy "Error while pulling image: …"), the registry's error after it.
      /\bError (?:while )?pulling image\b/,
      /\btoomanyrequests: You have reached your pull rate limit|\bTOOMANYREQUESTS: /,
      // podman/buildah/skopeo (containers/image docker/docker_image_src.go): reading the image's manifest
      // from its registry failed ("Error: initializing source docker://quay.io/x: toomanyrequests: …",
      // "… reading manifest latest in docker.io/library/x: errors:" then the registry's "denied: …").
      /\binitializing source docker:\/\/\S{1,300}: /,
    ],
    unless: [BUILD_ERROR_LINE],
    strength: 76,
    why: 'the container image could not be pulled',
    hint: 'The image could not be pulled: check the image name and tag, that it exists in that registry, and the imagePullSecrets / registry credentials.',
  },
  {
    id: 'k8s.unschedulable',
    class: 'sandbox.failure',
    patterns: [/\bFailedScheduling\b/, /0\/\d+ nodes are available/, /\bUnschedulable\b/, /unbound immediate PersistentVolumeClaims/],
    strength: 74,
    why: 'the scheduler found no node for the Pod',
    hint: 'No node can take the Pod: compare its requests (GPU, CPU, memory) with what nodes have allocatable, and check node selectors, taints and whether the GPU device plugin advertises nvidia.com/gpu.',
  },
  {
    id: 'k8s.container_start',
    class: 'sandbox.failure',
    patterns: [
      /\b(?:CreateContainerConfigError|CreateContainerError|RunContainerError|FailedCreatePodSandBox|ContainerCannotRun|StartError|FailedMount|FailedAttachVolume)\b/,
      // kubelet's other container/sandbox error reasons (pkg/kubelet/container sync results, kuberuntime,
      // lifecycle admission): hooks, sandbox setup, admission of a Pod the node cannot run.
      /\b(?:CreatePodSandboxError|ConfigPodSandboxError|PreCreateHookError|PreStartHookError|PostStartHookError|FailedPostStartHook|UnexpectedAdmissionError|NetworkNotReady|HostPortConflict|KubeletSetupFailed)\b/,
      // The CRI call that creates the Pod's sandbox failing, as containerd ("RunPodSandbox for
      // &PodSandboxMetadata{…} failed, error") and the kubelet (remote_runtime.go "RunPodSandbox from
      // runtime service failed") log it: the Pod never got its sandbox (runtime handler, CNI, cgroups).
      /\bRunPodSandbox (?:for &?PodSandboxMetadata\{.{0,400}?\} failed|from runtime service failed)/,
      /\bReason\W{0,5}OutOf(?:cpu|memory|pods|ephemeral-storage|nvidia\.com\/gpu|amd\.com\/gpu)\b|Pod was rejected: Node didn't have enough resource/, /OCI runtime (?:create|exec) failed/, /[Ff]ailed to create pod sandbox/],
    strength: 74,
    why: 'the container runtime could not create or start the container',
    hint: 'The container could not be created: check referenced ConfigMaps/Secrets/volumes, the entrypoint, and the runtime (GPU device plugin, CNI) on that node.',
  },
  {
    id: 'k8s.evicted',
    class: 'sandbox.failure',
    patterns: [/(?:Reason|reason|Status)\W{0,5}Evicted\b|\bEvicted\b.{0,40}(?:pod|Pod)|\bThe node was low on resource/, /pod .{0,100}was evicted|Pod was evicted/i, /\s\d+\/\d+\s+Evicted\s/],
    unless: [EVICTED_FOR_RESOURCE],
    strength: 70,
    why: 'the Pod was evicted from its node',
    hint: 'The Pod was evicted: the message names the resource under pressure; set requests that match real usage or move to nodes with room.',
  },
  {
    id: 'sandbox.start',
    class: 'sandbox.failure',
    patterns: [
      /Sandbox failed to start/,
      /\bEnvironmentStartTimeoutError\b|\bHealthcheckError\b/,
      /No such file or directory: '(?:docker|podman|kubectl)'/,
      /Cannot connect to the Docker daemon/,
      /Error response from daemon/,
      // docker-compose v1 (compose/service.py "Cannot create container for service %s: %s"), with the daemon's
      // name conflict of old releases ("Conflict. The name \"/mail\" is already in use by container …").
      /Cannot create container for service \S{1,200}: /,
      /Conflict\. The (?:container )?name "[^"]{1,200}" is already in use by container/,
      /Sandbox (?:creation|startup) (?:failed|timed out)|[Ff]ailed to (?:create|start) (?:the )?sandbox/,
      // A code-execution sandbox whose start marker never appeared ("Sandbox did not start in time: …/started still does not exist").
      /\bSandbox did not start (?:in time|within \d)/,
      // Runtime containers of agent harnesses (OpenHands "Instance … FAILED to start container!",
      // docker/containerd "failed to start container"): the sandbox never came up, and the read
      // timeouts on the runtime's socket that follow are its echo, not the cause.
      /\b[Ff](?:AILED|ailed) to start (?:the )?(?:runtime )?container\b/,
      /\[FATAL tini \(\d+\)\] exec .{0,200} failed/,
      // A container that started but never answered: "container started but not ready for exec",
      // agent-server sandboxes "entered error state" / "Sandbox server not running".
      /not ready for exec|Sandbox entered error state|Sandbox server not running/,
      // E2B's SDKs turn the 502 of a sandbox that is not running into TimeoutError (formatSandboxTimeoutError),
      // and a sandbox that is gone into SandboxNotFoundError / a stream reset.
      /This error is likely due to sandbox timeout|Sandbox is probably not running anymore|The sandbox was killed or reached its end of life/,
      // Singularity/Apptainer failing to set up the container (not the image build).
      /FATAL:\s+container creation failed: /,
    ],
    strength: 75,
    // Harbor's SandboxBuildFailedError, and Daytona's wait ending in state build_failed, quote the sandbox
    // start they interrupted ("Failed to create sandbox: … failed to start with state: build_failed"): the
    // image build failed.
    extract: (line): Extracted => (/\bSandboxBuildFailedError\b|\bwith state: build_failed\b/.test(line) ? { classOverride: 'image.build_failure' } : {}),
    why: 'the sandbox (container) for the run could not be created or did not come up',
    hint: 'The sandbox never started: check that the container runtime is reachable from the harness (docker CLI/socket, kube context), the image entrypoint, and the start-up timeout.',
  },
  {
    // Init containers run before the run's own: one that fails (its image, a non-zero exit) leaves the
    // Pod in Init:… and the run never starts. kubectl's STATUS column says "Init:Error",
    // "Init:CrashLoopBackOff", "Init:ImagePullBackOff"; pods.json init containers are read as
    // "init container NAME terminated: Error exit code 1" (structured.ts).
    id: 'k8s.init_container_failed',
    class: 'sandbox.failure',
    patterns: [
      /\bInit:(?:Error|CrashLoopBackOff|ImagePullBackOff|ErrImagePull|ErrImageNeverPull|InvalidImageName|CreateContainerConfigError|CreateContainerError|RunContainerError|StartError|ContainerCannotRun)\b/,
      /\binit container \S{1,120} terminated: \w{0,40} ?exit code [1-9]\d*/,
    ],
    strength: 72,
    why: 'an init container failed, so the Pod never got to start the run',
    hint: "An init container failed and the Pod never started: read its log (kubectl logs POD -c INIT_CONTAINER) for the failing step (weights download, permissions, a wrong image), and check the image/credentials if it could not be pulled.",
  },
  {
    id: 'k8s.crashloop',
    class: 'sandbox.failure',
    patterns: RESTART_BACKOFF_WORDING,
    strength: 30,
    why: 'a container keeps crashing and is being restarted (or its Job gave up after its retries)',
    hint: "The container keeps crashing: its own previous log (kubectl logs --previous) has the cause.",
  },
  {
    // A Pod that went away under the run: the scheduler preempted it for a higher-priority Pod
    // (pkg/scheduler/framework/preemption: event reason Preempted, "Preempted by pod <uid> on node <node>"), or
    // the taint-eviction controller deleted it from a node that got a NoExecute taint (not ready, unreachable:
    // pkg/controller/tainteviction, event TaintManagerEviction "Marking for deletion Pod <ns/name>"), or the
    // kubelet evicted it to admit a critical Pod (pkg/kubelet/preemption: reason Preempting, "Preempted in
    // order to admit critical pod").
    id: 'k8s.preempted',
    class: 'host.killed',
    patterns: [/\bPreempted by pod \S{1,64} on node \S{1,253}/, /\bMarking for deletion Pod \S{1,253}/, /\bPreempted in order to admit critical pod\b/],
    strength: 80,
    why: 'Kubernetes took the Pod away from outside: preempted for a higher-priority Pod, or deleted from a node that went NotReady',
    hint: "The Pod was stopped by Kubernetes, not by the run: a higher-priority Pod preempted it (give the job a PriorityClass or a reserved node pool) or its node became NotReady/unreachable and the Pod was evicted from it (check the node's conditions and events). Retry the run; nothing in it failed.",
  },
  {
    // The Job controller's own time limit (pkg/controller/job: activeDeadlineSeconds, condition reason
    // DeadlineExceeded, "Job was active longer than specified deadline"): its Pods were terminated for time.
    id: 'k8s.job_deadline',
    class: 'host.killed',
    patterns: [/\bJob was active longer than specified deadline\b/],
    strength: 80,
    why: "the Job ran past its activeDeadlineSeconds and Kubernetes terminated its Pods",
    hint: "Kubernetes stopped the Job at its activeDeadlineSeconds: the run needed longer than the Job allows (raise the deadline, or checkpoint and resume), or it hung; the Pods' last log lines say which.",
  },
  {
    // A sandbox that vanished while a harness talked to it: kubectl/kube API answering NotFound for the
    // Pod, or an exec into a container that is gone (client-go remotecommand "unable to upgrade connection").
    id: 'k8s.pod_gone',
    class: 'sandbox.failure',
    patterns: [/Error from server \(NotFound\): pods "[^"]{1,253}" not found/, /unable to upgrade connection: (?:container not found|pod does not exist)/],
    strength: 66,
    why: 'the sandbox Pod or its container was gone when the harness tried to use it',
    hint: 'The sandbox Pod was deleted or its container went away mid-run (eviction, node loss, a cleanup that ran too early): read the Pod events for who deleted it, then retry the trial.',
  },
  {
    // The kubelet's probe events (reason Unhealthy): a failing liveness probe gets the container killed and
    // restarted; a readiness probe that never passes keeps a sandbox from ever serving. A symptom level
    // signal: the container's own log usually says why it stopped answering.
    id: 'k8s.probe_failed',
    class: 'sandbox.failure',
    // The probe's own event (prober "Liveness probe failed: …"), and the kubelet's Killing event once it
    // gives up on it (kuberuntime "Container %s failed %s probe, will be restarted").
    patterns: [/\b(?:Liveness|Readiness|Startup) probe failed: /, /\bContainer \S{1,253} failed (?:liveness|startup) probe, will be restarted/],
    strength: 40,
    why: "the kubelet's health probe of the container kept failing",
    hint: 'The container failed its health probe (Unhealthy): the server inside did not answer in time (still loading, hung, or crashed); raise initialDelaySeconds/failureThreshold for slow starts, and read the container log for a crash.',
  },
]);

// ---------------------------------------------------------------------------------------------------
// The whole reason vocabulary (k8s-vocab.ts, sources there), one rule per class so that each pattern
// key is its class's word for the vocabulary fallback. Weaker than every rule above, so a wording those
// already read keeps its rule and class; these decide the reasons and messages nothing above knows.

const K8S_REASON_VERDICT: Record<Exclude<K8sReasonGroup, 'skip' | 'restart'>, { strength: number; hint: string }> = {
  image: { strength: 68, hint: 'The kubelet could not pull or inspect the image: check the image name and tag, that it exists in that registry, the imagePullSecrets, and (SignatureValidationFailed) the image signature policy.' },
  start: { strength: 66, hint: "The kubelet or the container runtime could not create or start the container (its config, volumes, network, hooks or the GPU device plugin): the event's message names which; check the referenced Secrets/ConfigMaps/volumes and the node's runtime, CNI and device plugin." },
  admission: { strength: 66, hint: 'The Pod was refused a node: the scheduler found none that fits, or the kubelet rejected it at admission (resources already allocated, node affinity, the device plugin, the node shutting down). Compare the requests with allocatable and the node labels/taints; retry on another node.' },
  evicted: { strength: 64, hint: 'The kubelet evicted the Pod: the message names the resource under pressure; set requests that match real usage or move to nodes with room.' },
  node: { strength: 40, hint: "The node under the Pod was unhealthy (NotReady, cordoned, PID pressure, GC failing): the Pod's failure follows from the node; check the node's conditions and kubelet log, and retry elsewhere." },
  probe: { strength: 38, hint: 'The kubelet\'s health probe of the container kept failing: the server inside did not answer in time (still loading, hung, or crashed); read the container log.' },
  oom: { strength: 86, hint: 'A container or the node ran out of memory (OOMKilled, memory pressure): raise the memory limit/request to the real usage or lower the workload\'s memory.' },
  disk: { strength: 86, hint: "The node's ephemeral storage, filesystem, inodes or an emptyDir filled up: set ephemeral-storage requests/limits, write large files to a PVC, and clean images/logs on the node." },
  killed: { strength: 60, hint: 'Kubernetes took the Pod away from outside (preemption, a node shutdown, reboot or loss, a drain, an active deadline): nothing in the run failed; retry it, and give it a PriorityClass or a reserved node pool if it keeps happening.' },
  spec: { strength: 67, hint: "The Pod asks for something this node cannot give by design (another OS, a security policy the node does not support): fix the Pod spec or its node selector." },
  config: { strength: 67, hint: 'The API refused what the harness created (a ResourceQuota exceeded, a Pod that fails validation): raise the quota or lower the requests, or fix the spec the message names.' },
};

function k8sReasonExtract(patterns: readonly RegExp[]) {
  const global = patterns.map((re) => new RegExp(re.source, `${re.flags}g`));
  return (line: string): Extracted => {
    let best: { group: Exclude<K8sReasonGroup, 'skip' | 'restart'>; token: string } | undefined;
    for (const re of global)
      for (const m of line.matchAll(re)) {
        const g = k8sGroupOf(m[1] ?? '');
        if (!g || g === 'skip' || g === 'restart') continue;
        if (!best || K8S_REASON_VERDICT[g].strength > K8S_REASON_VERDICT[best.group].strength) best = { group: g, token: m[1]! };
      }
    if (!best) return { classOverride: null };
    return { strength: K8S_REASON_VERDICT[best.group].strength, hint: K8S_REASON_VERDICT[best.group].hint, k8sReason: best.token.slice(0, 80), k8sGroup: best.group };
  };
}

function k8sReasonRule<const Id extends string>(id: Id, cls: FailureClass, groups: readonly Exclude<K8sReasonGroup, 'skip' | 'restart'>[], why: string): Rule<Id> {
  const patterns = k8sReasonPatterns(groups);
  const strongest = Math.max(...groups.map((g) => K8S_REASON_VERDICT[g].strength));
  return { id, class: cls, patterns, strength: strongest, extract: k8sReasonExtract(patterns), why, hint: K8S_REASON_VERDICT[groups[0]!].hint };
}

/** The rule and verdict a reason constant of the table has on its own (a pods.json reason, no line around it); undefined for skip/restart. */
export function k8sReasonVerdict(reason: string): { rule: K8sReasonRuleId; strength: number; hint: string; k8sGroup: string } | undefined {
  const g = k8sGroupOf(reason);
  if (!g || g === 'skip' || g === 'restart') return undefined;
  const rule = k8sReasonRules.find((r) => (REASON_GROUPS[r.id] as readonly string[]).includes(g))!.id;
  return { rule, strength: K8S_REASON_VERDICT[g].strength, hint: K8S_REASON_VERDICT[g].hint, k8sGroup: g };
}

const REASON_GROUPS = {
  'k8s.reason_sandbox': ['image', 'start', 'admission', 'evicted', 'node', 'probe'],
  'k8s.reason_oom': ['oom'],
  'k8s.reason_disk': ['disk'],
  'k8s.reason_killed': ['killed'],
  'k8s.reason_config': ['spec', 'config'],
} as const satisfies Record<string, readonly Exclude<K8sReasonGroup, 'skip' | 'restart'>[]>;
type K8sReasonRuleId = keyof typeof REASON_GROUPS;

export const k8sReasonRules = defineRules([
  k8sReasonRule('k8s.reason_sandbox', 'sandbox.failure', REASON_GROUPS['k8s.reason_sandbox'], "a kubelet, scheduler or controller reason says the Pod or its container could not be placed, pulled, created or kept healthy"),
  k8sReasonRule('k8s.reason_oom', 'host.oom', REASON_GROUPS['k8s.reason_oom'], 'a Kubernetes reason or eviction message says a container or the node ran out of memory'),
  k8sReasonRule('k8s.reason_disk', 'disk.full', REASON_GROUPS['k8s.reason_disk'], "a Kubernetes reason or eviction message says the node's storage, inodes or an emptyDir filled up"),
  k8sReasonRule('k8s.reason_killed', 'host.killed', REASON_GROUPS['k8s.reason_killed'], 'a Kubernetes reason says the Pod was taken away from outside (preemption, node shutdown, reboot or loss, a deadline)'),
  k8sReasonRule('k8s.reason_config', 'config.error', REASON_GROUPS['k8s.reason_config'], 'a Kubernetes reason says the Pod spec or the request was refused by design (OS, policy, quota, validation)'),
]);
