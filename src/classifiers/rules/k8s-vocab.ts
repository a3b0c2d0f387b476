// The reasons Kubernetes writes for a Pod or container that did not run, as data: every waiting and
// terminated reason the kubelet and the container runtime set, the Pod status reasons of admission,
// eviction, node shutdown and deadlines, and the event reasons of the kubelet, the scheduler and the
// controllers, each put in a group that says what it means for a run; beside them the message texts
// that decide between memory, disk and the rest. The rules `k8s.reason_*` in rules/k8s.ts read a line
// through this table; the narrower rules (k8s.image_pull, k8s.container_start, k8s.unschedulable,
// k8s.evicted, host.oom_killer, host.evicted_memory, disk.ephemeral_storage, …) keep the wordings they
// had: an entry one of them reads in every place the patterns below would carries `readBy` and builds no
// pattern, and where they read only some of those places (Evicted, DeadlineExceeded) they stay first
// (the vocabulary rules are weaker).
//
// Sources (kubernetes/kubernetes, read through the code index): pkg/kubelet/events/event.go at 819ecd4
// (container, pod, image, kubelet, image-manager, probe, pod-worker, config and lifecycle-hook event
// reasons; 00bdb3f for the v1.7 list with OutOfDisk, HostPortConflict, NodeSelectorMismatching,
// InsufficientFreeCPU/Memory, ImageGCFailed, UnfinishedPreStopHook); pkg/kubelet/images/types.go at
// 0a2f5b1; pkg/kubelet/container/sync_result.go at 008b365 (CrashLoopBackOff, RunContainerError,
// KillContainerError, CreatePodSandboxError, ConfigPodSandboxError, KillPodSandboxError,
// ResizePodInPlaceError, RemoveContainerError; FailedSync's "failed to %q for %q with %w: %q");
// pkg/kubelet/kuberuntime/kuberuntime_container.go (CreateContainerConfigError, PreCreateHookError,
// CreateContainerError, PreStartHookError, PostStartHookError; RegistryUnavailable and
// SignatureValidationFailed of the CRI pull); pkg/kubelet/lifecycle/predicate.go at 00991fb (admission
// reasons and messages: OutOf<resource>, UnexpectedAdmissionError, InvalidNodeInfo, PodOSNotSupported,
// PodOSSelectorNodeLabelDoesNotMatch, InitContainerRestartPolicyForbidden,
// SupplementalGroupsPolicyNotSupported, UnknownReason, UnexpectedPredicateFailureType, "Predicate %s
// failed"); pkg/kubelet/eviction/helpers.go (Reason "Evicted", nodeLowMessageFmt, nodeConditionMessageFmt,
// the ephemeral-storage and emptyDir messages); pkg/kubelet/nodeshutdown/nodeshutdown_manager*.go
// (Terminated / "Pod was terminated in response to imminent node shutdown.", v1.21 Shutdown / "Node is
// shutting, evicting pods", NodeShutdown / "Pod was rejected as the node is shutting down."). From the
// families' other files, by the constants already read for rules/k8s.ts and rules/facts.ts:
// pkg/kubelet/active_deadline.go (DeadlineExceeded), pkg/kubelet/preemption (Preempting),
// pkg/kubelet/nodestatus (NodeHas… events), pkg/kubelet/eviction/eviction_manager.go
// (EvictionThresholdMet "Attempting to reclaim %s"), pkg/scheduler (FailedScheduling, Preempted),
// pkg/controller/job (BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy), node lifecycle and
// taint eviction (NodeNotReady, TaintManagerEviction, NodeLost), core/v1 DisruptionTarget reasons,
// node-problem-detector's OOMKilling, the PersistentVolume controller's FailedBinding / ProvisioningFailed.
// How they reach a log: `kubectl describe` ("Reason:   OOMKilled", event rows "  Warning  FailedMount
// 30s  kubelet  …"), `kubectl get pods` (the STATUS column, "Init:" for init containers), `kubectl get
// events`, the kubelet's own log (`Error: ErrImagePull`, `failed to "StartContainer" for "x" with
// CrashLoopBackOff: …`, `container start failed: CreateContainerConfigError: …`, `"Event occurred" …
// reason="FailedScheduling"`), and API objects as JSON/YAML or a client's repr (`"reason": "Evicted"`,
// `'reason': 'OOMKilled'`).
import type { FailureClass } from '../taxonomy.js';
import { literalAlternation } from './regex-text.js';

/**
 * What a reason says about the run:
 * - image: the image could not be pulled or inspected (a pull is the sandbox failing to start, TAXONOMY
 *   sandbox.failure; image.build_failure is a build's);
 * - start: the runtime could not create, configure or start the container or its sandbox (volumes,
 *   network, hooks, the device plugin): sandbox.failure. CreateContainerConfigError stays here although
 *   its message is often the Pod spec (a Secret or ConfigMap not found): it is also how the kubelet
 *   reports a GPU device plugin that failed (shared corpus cl-013), and k8s.container_start says so;
 * - admission: the kubelet refused to run the Pod on its node (resources, affinity, the device plugin,
 *   a node shutting down) or the scheduler found no node: sandbox.failure;
 * - spec: the Pod asks for what no node of this kind can give (another OS, a policy the node lacks):
 *   config.error;
 * - config: the API refused what the harness created (a ResourceQuota, a static Pod that fails
 *   validation): config.error;
 * - evicted: the kubelet evicted the Pod; the message decides (memory: oom, disk or inodes: disk):
 *   sandbox.failure otherwise (pids);
 * - oom: a container or the node ran out of memory: host.oom;
 * - disk: ephemeral storage, the node filesystem, inodes, an emptyDir or the image filesystem full:
 *   disk.full;
 * - killed: the Pod was taken away from outside (preemption, node shutdown or reboot, a lost node, a
 *   drain, a deadline): host.killed;
 * - node: the node itself is unhealthy (NotReady, PID pressure, GC failing): sandbox.failure, weak;
 * - probe: the kubelet's probes failed: sandbox.failure, weak (k8s.probe_failed reads the message);
 * - restart: the container is restarted with back-off or its Job gave up: the container's own failure
 *   repeated, echo (k8s.crashloop reads it and relations.ts makes it give way);
 * - skip: ordinary progress (Created, Pulled, Scheduled, NodeReady, …), a generic word whose message
 *   decides (Failed, Error, FailedSync, Killing), or teardown trouble after the run (KillContainerError,
 *   FailedPreStopHook).
 */
export type K8sReasonGroup = 'image' | 'start' | 'admission' | 'spec' | 'config' | 'evicted' | 'oom' | 'disk' | 'killed' | 'node' | 'probe' | 'restart' | 'skip';

/**
 * An entry a narrower rule already reads in every place these patterns would (rules/pkg-vocab.ts's
 * `readBy` convention): that rule and the class it gives. No line pattern is built from it, so a line has
 * one rule for it; its group stays, for the reason as a structured bundle records it (k8s/pods.json,
 * rules/facts.ts), where the narrower rule's facts do not cover every kind of record.
 */
export interface K8sReadBy {
  rule: string;
  class: FailureClass;
}

/** [reason constant as written, producer, the message it comes with ('%s' for a value; '' if none or varied), group, readBy]. */
export const K8S_REASONS: readonly (readonly [string, string, string, K8sReasonGroup, K8sReadBy?])[] = [
  // ── container waiting reasons: images (pkg/kubelet/images/types.go, kuberuntime CRI pull) ──
  ['ErrImagePull', 'kubelet images', 'Failed to pull image %q: %v', 'image', { rule: 'k8s.image_pull', class: 'sandbox.failure' }],
  ['ImagePullBackOff', 'kubelet images', 'Back-off pulling image %q', 'image', { rule: 'k8s.image_pull', class: 'sandbox.failure' }],
  ['ImageInspectError', 'kubelet images', 'Failed to inspect image %q: %v', 'image', { rule: 'k8s.image_pull', class: 'sandbox.failure' }],
  ['ErrImageNeverPull', 'kubelet images', 'Container image %q is not present with pull policy of Never', 'image', { rule: 'k8s.image_pull', class: 'sandbox.failure' }],
  ['RegistryUnavailable', 'kubelet images / kuberuntime', '', 'image', { rule: 'k8s.image_pull', class: 'sandbox.failure' }],
  ['InvalidImageName', 'kubelet images', 'Failed to apply default image tag %q: couldn\'t parse image name %q: %v', 'image', { rule: 'k8s.image_pull', class: 'sandbox.failure' }],
  ['SignatureValidationFailed', 'kuberuntime (CRI pull)', '', 'image', { rule: 'k8s.image_pull', class: 'sandbox.failure' }],
  // ── container waiting reasons: creating and starting (kuberuntime_container.go, container/sync_result.go) ──
  ['ContainerCreating', 'kuberuntime', '', 'skip'],
  ['PodInitializing', 'kuberuntime', '', 'skip'],
  ['CreateContainerConfigError', 'kuberuntime_container.go', 'Error: %v', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['PreCreateHookError', 'kuberuntime_container.go', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['CreateContainerError', 'kuberuntime_container.go', 'Error: %v', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['PreStartHookError', 'kuberuntime_container.go', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['PostStartHookError', 'kuberuntime_container.go', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['RunContainerError', 'container/sync_result.go', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['CreatePodSandboxError', 'container/sync_result.go', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['ConfigPodSandboxError', 'container/sync_result.go', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['CrashLoopBackOff', 'container/sync_result.go', 'back-off %s restarting failed container=%s pod=%s', 'restart'],
  ['KillContainerError', 'container/sync_result.go', '', 'skip'],
  ['KillPodSandboxError', 'container/sync_result.go', '', 'skip'],
  ['ResizePodInPlaceError', 'container/sync_result.go', '', 'skip'],
  ['RemoveContainerError', 'container/sync_result.go', '', 'skip'],
  // ── container terminated reasons (the runtime's: containerd/CRI-O/dockershim) ──
  ['OOMKilled', 'container runtime', '', 'oom', { rule: 'host.oom_killer', class: 'host.oom' }],
  ['Error', 'container runtime', '', 'skip'],
  ['Completed', 'container runtime', '', 'skip'],
  ['ContainerCannotRun', 'dockershim', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['StartError', 'containerd CRI', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['ContainerStatusUnknown', 'kubelet status', 'The container could not be located when the pod was terminated', 'skip'],
  // ── Pod status reasons ──
  ['Evicted', 'kubelet eviction/helpers.go', 'The node was low on resource: %v. ', 'evicted'],
  ['Preempting', 'kubelet preemption', 'Preempted in order to admit critical pod', 'killed'],
  ['DeadlineExceeded', 'kubelet active_deadline.go; job-controller', 'Pod was active on the node longer than the specified deadline', 'killed'],
  ['Terminated', 'kubelet nodeshutdown (≥ v1.22)', 'Pod was terminated in response to imminent node shutdown.', 'killed'],
  ['Shutdown', 'kubelet nodeshutdown (v1.21)', 'Node is shutting, evicting pods', 'killed'],
  ['NodeShutdown', 'kubelet nodeshutdown (admission)', 'Pod was rejected as the node is shutting down.', 'admission'],
  ['NodeLost', 'node lifecycle controller', 'Node %v which was running pod %v is unresponsive', 'killed'],
  ['UnexpectedAdmissionError', 'kubelet lifecycle/predicate.go', 'Update plugin resources failed due to %v, which is unexpected.', 'admission', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['InvalidNodeInfo', 'kubelet lifecycle/predicate.go', 'Kubelet cannot get node info.', 'admission'],
  ['UnknownReason', 'kubelet lifecycle/predicate.go', 'GeneralPredicates failed due to unknown reason, which is unexpected.', 'admission'],
  ['UnexpectedPredicateFailureType', 'kubelet lifecycle/predicate.go', 'GeneralPredicates failed due to %v, which is unexpected.', 'admission'],
  ['OutOfcpu', 'kubelet lifecycle/predicate.go', "Node didn't have enough resource: cpu, requested: %d, used: %d, capacity: %d", 'admission'],
  ['OutOfmemory', 'kubelet lifecycle/predicate.go', "Node didn't have enough resource: memory, requested: %d, used: %d, capacity: %d", 'admission'],
  ['OutOfephemeral-storage', 'kubelet lifecycle/predicate.go', "Node didn't have enough resource: ephemeral-storage, …", 'admission'],
  ['OutOfpods', 'kubelet lifecycle/predicate.go', "Node didn't have enough resource: pods, …", 'admission'],
  ['OutOfnvidia.com/gpu', 'kubelet lifecycle/predicate.go (OutOf + an extended resource)', "Node didn't have enough resource: nvidia.com/gpu, …", 'admission'],
  ['OutOfamd.com/gpu', 'kubelet lifecycle/predicate.go (OutOf + an extended resource)', "Node didn't have enough resource: amd.com/gpu, …", 'admission'],
  ['NodeAffinity', 'kubelet lifecycle/predicate.go (predicate name)', "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector", 'admission'],
  ['NodePorts', 'kubelet lifecycle/predicate.go (predicate name)', 'Predicate NodePorts failed: %s', 'admission'],
  ['NodeName', 'kubelet lifecycle/predicate.go (predicate name)', 'Predicate NodeName failed: %s', 'admission'],
  ['TaintToleration', 'kubelet lifecycle/predicate.go (predicate name)', 'Predicate TaintToleration failed: %s', 'admission'],
  ['PodOSSelectorNodeLabelDoesNotMatch', 'kubelet lifecycle/predicate.go', "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label", 'spec'],
  ['PodOSNotSupported', 'kubelet lifecycle/predicate.go', "Failed to admit pod as the OS field doesn't match node OS", 'spec'],
  ['InitContainerRestartPolicyForbidden', 'kubelet lifecycle/predicate.go', '', 'spec'],
  ['SupplementalGroupsPolicyNotSupported', 'kubelet lifecycle/predicate.go', 'SupplementalGroupsPolicy=%s is not supported in this node', 'spec'],
  // core/v1 DisruptionTarget condition reasons: who took the Pod away.
  ['PreemptionByScheduler', 'core/v1 DisruptionTarget', '', 'killed'],
  ['DeletionByTaintManager', 'core/v1 DisruptionTarget', '', 'killed'],
  ['EvictionByEvictionAPI', 'core/v1 DisruptionTarget', '', 'killed'],
  ['DeletionByPodGC', 'core/v1 DisruptionTarget', '', 'killed'],
  ['TerminationByKubelet', 'core/v1 DisruptionTarget', '', 'killed'],
  // ── kubelet event reasons (pkg/kubelet/events/event.go) ──
  ['Created', 'kubelet events', 'Created container %s', 'skip'],
  ['Started', 'kubelet events', 'Started container %s', 'skip'],
  ['Failed', 'kubelet events', 'Error: %v', 'skip'],
  ['Killing', 'kubelet events', 'Stopping container %s', 'skip'],
  ['BackOff', 'kubelet events', 'Back-off restarting failed container %s in pod %s', 'restart'],
  ['ExceededGracePeriod', 'kubelet events', '', 'skip'],
  ['FailedKillPod', 'kubelet events', '', 'skip'],
  ['FailedCreatePodContainer', 'kubelet events', 'unable to ensure pod container exists: %v', 'start'],
  ['NetworkNotReady', 'kubelet events', 'network is not ready: %v', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['Pulling', 'kubelet events', 'Pulling image %q', 'skip'],
  ['Pulled', 'kubelet events', 'Successfully pulled image %q', 'skip'],
  ['InspectFailed', 'kubelet events', 'Failed to apply default image tag %q: %v', 'image'],
  ['NodeReady', 'kubelet events', '', 'skip'],
  ['NodeNotReady', 'kubelet events; node lifecycle controller', 'Node %s status is now: NodeNotReady', 'node'],
  ['NodeSchedulable', 'kubelet events', '', 'skip'],
  ['NodeNotSchedulable', 'kubelet events', 'Node %s status is now: NodeNotSchedulable', 'node'],
  ['Starting', 'kubelet events', 'Starting kubelet.', 'skip'],
  ['KubeletSetupFailed', 'kubelet events', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['FailedAttachVolume', 'kubelet events', '', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['FailedMount', 'kubelet events', 'MountVolume.SetUp failed for volume %q : %v', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['VolumeResizeFailed', 'kubelet events', '', 'start'],
  ['FileSystemResizeFailed', 'kubelet events', '', 'start'],
  ['FailedMapVolume', 'kubelet events', '', 'start'],
  ['AlreadyMountedVolume', 'kubelet events', '', 'skip'],
  ['SuccessfulAttachVolume', 'kubelet events', '', 'skip'],
  ['SuccessfulMountVolume', 'kubelet events', '', 'skip'],
  ['Rebooted', 'kubelet events', 'Node %s has been rebooted, boot id: %s', 'killed'],
  ['ContainerGCFailed', 'kubelet events', '', 'node'],
  ['ImageGCFailed', 'kubelet events', '', 'disk'],
  ['FailedNodeAllocatableEnforcement', 'kubelet events', '', 'node'],
  ['NodeAllocatableEnforced', 'kubelet events', '', 'skip'],
  ['SandboxChanged', 'kubelet events', 'Pod sandbox changed, it will be killed and re-created.', 'skip'],
  ['FailedCreatePodSandBox', 'kubelet events', 'Failed to create pod sandbox: %v', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['FailedPodSandBoxStatus', 'kubelet events', '', 'start'],
  ['FailedMountOnFilesystemMismatch', 'kubelet events', '', 'start'],
  ['InvalidDiskCapacity', 'kubelet image manager', 'invalid capacity %d on image filesystem', 'node'],
  ['FreeDiskSpaceFailed', 'kubelet image manager', 'Failed to garbage collect required amount of images. …', 'disk', { rule: 'disk.ephemeral_storage', class: 'disk.full' }],
  ['Unhealthy', 'kubelet prober', '%s probe failed: %s', 'probe'],
  ['ProbeWarning', 'kubelet prober', '%s probe warning: %s', 'skip'],
  ['FailedSync', 'kubelet pod workers', 'error determining status: %v', 'skip'],
  ['FailedValidation', 'kubelet config', 'Error validating pod %s from %s, ignoring: %v', 'config'],
  ['FailedPostStartHook', 'kubelet lifecycle hooks', 'PostStartHook failed', 'start', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['FailedPreStopHook', 'kubelet lifecycle hooks', 'PreStopHook failed', 'skip'],
  ['UnfinishedPreStopHook', 'kubelet lifecycle hooks (v1.7)', '', 'skip'],
  ['HostPortConflict', 'kubelet events (v1.7)', '', 'admission', { rule: 'k8s.container_start', class: 'sandbox.failure' }],
  ['NodeSelectorMismatching', 'kubelet events (v1.7)', '', 'admission'],
  ['InsufficientFreeCPU', 'kubelet events (v1.7)', '', 'admission'],
  ['InsufficientFreeMemory', 'kubelet events (v1.7)', '', 'admission'],
  ['OutOfDisk', 'kubelet events (v1.7)', '', 'disk'],
  // ── kubelet node status events (pkg/kubelet/nodestatus) and the eviction manager ──
  ['NodeHasSufficientMemory', 'kubelet nodestatus', '', 'skip'],
  ['NodeHasInsufficientMemory', 'kubelet nodestatus', 'Node %s status is now: NodeHasInsufficientMemory', 'oom'],
  ['NodeHasNoDiskPressure', 'kubelet nodestatus', '', 'skip'],
  ['NodeHasDiskPressure', 'kubelet nodestatus', 'Node %s status is now: NodeHasDiskPressure', 'disk', { rule: 'disk.ephemeral_storage', class: 'disk.full' }],
  ['NodeHasSufficientPID', 'kubelet nodestatus', '', 'skip'],
  ['NodeHasInsufficientPID', 'kubelet nodestatus', 'Node %s status is now: NodeHasInsufficientPID', 'node'],
  ['EvictionThresholdMet', 'kubelet eviction_manager.go', 'Attempting to reclaim %s', 'node'],
  ['OOMKilling', 'node-problem-detector kernel monitor', 'Memory cgroup out of memory: Killed process %d (%s) …', 'oom'],
  // ── scheduler and controllers ──
  ['Scheduled', 'kube-scheduler', 'Successfully assigned %s to %s', 'skip'],
  ['FailedScheduling', 'kube-scheduler', '0/%d nodes are available: %s', 'admission', { rule: 'k8s.unschedulable', class: 'sandbox.failure' }],
  ['Preempted', 'kube-scheduler preemption', 'Preempted by pod %s on node %s', 'killed'],
  ['TaintManagerEviction', 'taint-eviction-controller', 'Marking for deletion Pod %s', 'killed'],
  ['BackoffLimitExceeded', 'job-controller', 'Job has reached the specified backoff limit', 'restart'],
  ['PodFailurePolicy', 'job-controller', 'Container %s for pod %s failed with exit code %d matching FailJob rule at index %d', 'skip'],
  ['SuccessfulCreate', 'replicaset/job controllers', 'Created pod: %s', 'skip'],
  ['SuccessfulDelete', 'replicaset/job controllers', 'Deleted pod: %s', 'skip'],
  ['FailedCreate', 'replicaset/job controllers', 'Error creating: %v', 'start'],
  // The PersistentVolume controller (pkg/controller/volume/persistentvolume pv_controller.go): a claim no
  // volume and no StorageClass can satisfy is the Pod spec's; a provisioner that failed is the platform's.
  ['FailedBinding', 'persistentvolume controller', 'no persistent volumes available for this claim and no storage class is set', 'config'],
  ['ProvisioningFailed', 'persistentvolume controller', 'failed to provision volume with StorageClass %q: %v', 'start'],
];

/**
 * Message texts that decide what a reason meant (matched anywhere on the line, they are the producers'
 * literal words): [producer, text, group].
 */
export const K8S_MESSAGES: readonly (readonly [string, string, K8sReasonGroup, K8sReadBy?])[] = [
  ['eviction/helpers.go nodeLowMessageFmt', 'The node was low on resource: memory', 'oom', { rule: 'host.evicted_memory', class: 'host.oom' }],
  ['eviction/helpers.go nodeLowMessageFmt', 'The node was low on resource: ephemeral-storage', 'disk', { rule: 'disk.ephemeral_storage', class: 'disk.full' }],
  ['eviction/helpers.go nodeLowMessageFmt (nodefs.inodesFree)', 'The node was low on resource: inodes', 'disk'],
  ['eviction/helpers.go nodeLowMessageFmt', 'The node was low on resource: pids', 'evicted', { rule: 'k8s.evicted', class: 'sandbox.failure' }],
  ['eviction/helpers.go nodeConditionMessageFmt', 'The node had condition: [MemoryPressure]', 'oom', { rule: 'host.evicted_memory', class: 'host.oom' }],
  ['eviction/helpers.go nodeConditionMessageFmt', 'The node had condition: [DiskPressure]', 'disk', { rule: 'disk.ephemeral_storage', class: 'disk.full' }],
  ['eviction/helpers.go nodeConditionMessageFmt', 'The node had condition: [PIDPressure]', 'evicted'],
  ['eviction/helpers.go containerEphemeralStorageMessageFmt', 'exceeded its local ephemeral storage limit', 'disk'],
  ['eviction/helpers.go podEphemeralStorageMessageFmt', 'Pod ephemeral local storage usage exceeds the total limit of containers', 'disk', { rule: 'disk.ephemeral_storage', class: 'disk.full' }],
  ['eviction/helpers.go emptyDirMessageFmt', 'Usage of EmptyDir volume', 'disk'],
  ['eviction_manager.go EvictionThresholdMet', 'Attempting to reclaim memory', 'oom'],
  ['eviction_manager.go EvictionThresholdMet', 'Attempting to reclaim ephemeral-storage', 'disk'],
  ['eviction_manager.go EvictionThresholdMet', 'Attempting to reclaim nodefs', 'disk'],
  ['eviction_manager.go EvictionThresholdMet', 'Attempting to reclaim imagefs', 'disk'],
  ['eviction_manager.go EvictionThresholdMet', 'Attempting to reclaim pids', 'node'],
  ['lifecycle/predicate.go InsufficientResourceError', "Node didn't have enough resource: ", 'admission'],
  ['lifecycle/predicate.go', 'Kubelet cannot get node info.', 'admission'],
  ['lifecycle/predicate.go', 'GeneralPredicates failed due to', 'admission'],
  ['lifecycle/predicate.go', "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label", 'spec'],
  ['lifecycle/predicate.go', "Failed to admit pod as the OS field doesn't match node OS", 'spec'],
  ['nodeshutdown (≥ v1.22)', 'Pod was terminated in response to imminent node shutdown.', 'killed', { rule: 'host.scheduler_kill', class: 'host.killed' }],
  ['nodeshutdown (v1.21)', 'Node is shutting, evicting pods', 'killed'],
  ['nodeshutdown (admission)', 'Pod was rejected as the node is shutting down.', 'admission'],
  ['active_deadline.go', 'Pod was active on the node longer than the specified deadline', 'killed', { rule: 'host.scheduler_kill', class: 'host.killed' }],
  ['images', 'is not present with pull policy of Never', 'image'],
  // images/image_manager.go EnsureImageExists: "image pull failed for %s because the registry is unavailable".
  ['images/image_manager.go', 'because the registry is unavailable', 'image'],
  // kuberuntime_container.go / security_context_others.go verifyRunAsNonRoot (CreateContainerConfigError's message).
  ['kuberuntime verifyRunAsNonRoot', 'container has runAsNonRoot and image will run as root', 'start'],
  ['kuberuntime verifyRunAsNonRoot', 'container has runAsNonRoot and image has non-numeric user', 'start'],
  // kubectl exec (pkg/cmd/exec/exec.go): "cannot exec into a container in a completed pod; current phase is %s".
  ['kubectl exec', 'cannot exec into a container in a completed pod', 'start'],
  ['images', "couldn't parse image name", 'image'],
  ['apiserver ResourceQuota admission (FailedCreate)', 'exceeded quota: ', 'config'],
  ['pv_controller.go (FailedBinding)', 'no persistent volumes available for this claim and no storage class is set', 'config'],
];


/**
 * The patterns that read the reasons of `groups` through the print templates above: a reason field
 * (`Reason:`, `reason:`, `"reason": "…"`, `reason="…"`), an event row (`Warning|Normal  <Reason>`), the
 * STATUS column of `kubectl get pods`, the kubelet's `Error: X` / `with X: ` (FailedSync) / `failed: X: ` /
 * `Init:X`; and the message texts of `groups` anywhere. A reason that is an ordinary word (Evicted,
 * Terminated, Rebooted) counts only there.
 */
export function k8sReasonPatterns(groups: readonly K8sReasonGroup[]): RegExp[] {
  const names = literalAlternation(K8S_REASONS.filter((r) => groups.includes(r[3]) && !r[4]).map((r) => r[0]));
  const texts = K8S_MESSAGES.filter((r) => groups.includes(r[2]) && !r[3]).map((r) => r[1]);
  const out: RegExp[] = [];
  if (names) {
    out.push(new RegExp(`\\b[Rr]eason\\W{1,40}(${names})(?![\\w/.-])`));
    out.push(new RegExp(`(?:^|\\s)(?:Warning|Normal)\\s{1,40}(${names})\\s`));
    out.push(new RegExp(`^\\s*\\S{1,253}\\s+\\d+\\/\\d+\\s+(?:Init:)?(${names})\\s+\\d+`));
    out.push(new RegExp(`(?:\\bError: |\\bfailed: |\\bInit:)(${names})(?![\\w/.-])`));
    out.push(new RegExp(`\\bwith (${names}): `));
  }
  if (texts.length) out.push(new RegExp(`(${literalAlternation(texts)})`));
  return out;
}

const BY_TOKEN = new Map<string, K8sReasonGroup>([...K8S_REASONS.map((r) => [r[0], r[3]] as const), ...K8S_MESSAGES.map((r) => [r[1], r[2]] as const)]);

/** The group of a reason or message text as a pattern above captured it. */
export function k8sGroupOf(token: string): K8sReasonGroup | undefined {
  return BY_TOKEN.get(token);
}
