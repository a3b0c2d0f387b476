// kube-scheduler's per-node reasons in FailedScheduling messages, current and pre-framework wordings.
import { describe, expect, it } from 'vitest';
import { classifyText } from '../helpers.js';

function top(text: string): [string, string | undefined] {
  const d = classifyText(text);
  return [d.class, d.evidence[0]?.rule];
}

describe('kube-scheduler reasons', () => {
  it('a reason quoted without the event (the plugins\' own strings)', () => {
    expect(top("pod stays Pending: 2 Insufficient ephemeral-storage, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }")).toEqual(['sandbox.failure', 'k8s.scheduler_reason']);
    expect(top("the sandbox never started: 3 node(s) didn't match Pod's node affinity/selector")).toEqual(['sandbox.failure', 'k8s.scheduler_reason']);
  });
  it('the pre-framework FitError with predicate counts', () => {
    expect(top('No nodes are available that match all of the following predicates:: Insufficient memory (2), PodToleratesNodeTaints (1).')).toEqual(['sandbox.failure', 'k8s.scheduler_reason']);
  });
  it("the cluster autoscaler's NotTriggerScaleUp", () => {
    expect(top("  Normal   NotTriggerScaleUp  2m  cluster-autoscaler  pod didn't trigger scale-up: 1 Insufficient nvidia.com/gpu")[0]).toBe('sandbox.failure');
  });
});
