// kube-scheduler's reasons for not placing a Pod, as its FailedScheduling event message quotes them (a
// sandbox or training Pod that stays Pending). Read in kubernetes pkg/scheduler/framework/plugins: fit.go
// (noderesources: "Insufficient %v", "Too many pods"), tainttoleration ("node(s) had untolerated taint
// {%s: %s}", before v1.24 "node(s) had taint {%s: %s}, that the pod didn't tolerate"), nodeaffinity
// (ErrReasonPod "node(s) didn't match Pod's node affinity/selector", errReasonEnforced), nodename,
// nodeports ("node(s) didn't have free ports for the requested pod ports"), nodeunschedulable ("node(s)
// were unschedulable"), volumebinding ("node(s) had volume node affinity conflict", "node(s) didn't find
// available persistent volumes to bind"), interpodaffinity, podtopologyspread; and the pre-framework FitError
// (pkg/scheduler/core, ≤ v1.11: "No nodes are available that match all of the following predicates::
// Insufficient cpu (3), PodToleratesNodeTaints (1)"). "0/N nodes are available" and the event reason itself
// are k8s.unschedulable's (rules/k8s.ts). The cluster autoscaler's NotTriggerScaleUp ("pod didn't trigger
// scale-up") is the same Pod left Pending.
import { defineRules } from '../rule.js';

export const kubeSchedulerRules = defineRules([
  {
    id: 'k8s.scheduler_reason',
    class: 'sandbox.failure',
    patterns: [
      /\bNo nodes are available that match all of the (?:following )?predicates\b/,
      /\bnode\(s\) (?:didn't match (?:Pod's node affinity|node selector|pod affinity|pod anti-affinity|pod topology spread|the requested node name|scheduler-enforced node affinity)|had untolerated taint|had taints? \{|had volume node affinity conflict|didn't have free ports for the requested pod ports|didn't find available persistent volumes to bind|were unschedulable|didn't satisfy existing pods anti-affinity rules|exceed max volume count)/,
      /\b\d+ Insufficient (?:cpu|memory|ephemeral-storage|pods|hugepages-\w{1,10}|[\w.-]{1,63}\/[\w.-]{1,63})\b/,
      /\bInsufficient (?:cpu|memory|ephemeral-storage|pods|[\w.-]{1,63}\/[\w.-]{1,63}) \(\d+\)/,
      /\b(?:PodToleratesNodeTaints|MatchNodeSelector|PodFitsHostPorts|PodFitsResources|NoVolumeZoneConflict|NoDiskConflict|NodeUnderDiskPressure|NodeUnderMemoryPressure|CheckNodeCondition|MaxVolumeCount) \(\d+\)/,
      /\bNotTriggerScaleUp\b|\bpod didn't trigger scale-up\b/,
    ],
    strength: 74,
    why: 'the scheduler found no node for the Pod (the reasons it gives per node)',
    hint: "No node can take the Pod, for the reasons the scheduler lists: Insufficient X means its requests (cpu, memory, ephemeral-storage, nvidia.com/gpu) exceed every node's free allocatable; an untolerated taint or a node affinity/selector mismatch means the Pod is not allowed on the nodes that have room. Lower the requests, add the toleration/label, or add nodes, then retry.",
  },
]);
