// Kubernetes' reason vocabulary (rules/k8s-vocab.ts, rules k8s.reason_*): every container, Pod and event
// reason reaches its class through the places kubectl, the kubelet and API clients print a reason, every
// message text through its line, the skip entries decide nothing, a reason that is an ordinary word counts
// only in a reason's place, and a restart or a node's trouble gives way to the cause in the same bundle.
import { describe, expect, it } from 'vitest';
import { K8S_MESSAGES, K8S_REASONS, type K8sReasonGroup, k8sReasonPatterns } from '../../../src/classifiers/rules/k8s-vocab.js';
import { classifyFiles, classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const mine = (text: string) => classifyText(text).evidence.map((e) => e.rule).filter((r) => r.startsWith('k8s.reason_'));

// TAXONOMY.md's reading of each group: a Pod or container that could not be placed, pulled, started or
// kept is sandbox.failure; OOMKilled and memory pressure host.oom; storage, inodes, emptyDir disk.full;
// a Pod taken away from outside host.killed; a spec no node can run or a request refused by policy config.error.
const CLASS: Record<Exclude<K8sReasonGroup, 'skip' | 'restart'>, string> = {
  image: 'sandbox.failure',
  start: 'sandbox.failure',
  admission: 'sandbox.failure',
  evicted: 'sandbox.failure',
  node: 'sandbox.failure',
  probe: 'sandbox.failure',
  oom: 'host.oom',
  disk: 'disk.full',
  killed: 'host.killed',
  spec: 'config.error',
  config: 'config.error',
};

// Event reasons (the kubelet's, the scheduler's, the controllers'): the ones `kubectl describe` lists as event rows.
const isEvent = (source: string): boolean => /events|scheduler|controller|nodestatus|eviction_manager|node-problem|prober|lifecycle hooks|image manager|pod workers|kubelet config|taint/.test(source);

describe('every reason constant, where kubectl and the API print a reason', () => {
  const live = K8S_REASONS.filter(([, , , g]) => g !== 'skip' && g !== 'restart');
  it.each(live.map(([reason, source, , group]) => [reason, source, group] as const))('%s (%s)', (reason, source, group) => {
    const want = CLASS[group as Exclude<K8sReasonGroup, 'skip' | 'restart'>];
    // kubectl describe (container state, Pod status), the object as JSON, and a Python client's repr.
    expect(cls(`    Reason:       ${reason}`)).toBe(want);
    expect(cls(`      "reason": "${reason}",`)).toBe(want);
    expect(cls(`{'exit_code': None, 'message': None, 'reason': '${reason}'}`)).toBe(want);
    // An event row of kubectl describe, and the kubelet's "Event occurred" log line for it.
    if (isEvent(source)) {
      expect(cls(`  Warning  ${reason}  12s (x3 over 50s)  kubelet  see the Pod's events`)).toBe(want);
      expect(cls(`I1201 10:00:00.000000    4711 event.go:389] "Event occurred" object="eval/sandbox-7" fieldPath="" kind="Pod" apiVersion="v1" type="Warning" reason="${reason}" message="see the Pod's events"`)).toBe(want);
    } else {
      // The STATUS column of kubectl get pods.
      expect(cls(`sandbox-7   0/1     ${reason}   0          40s`)).toBe(want);
    }
  });

  it.each(K8S_REASONS.filter(([, , , g]) => g === 'skip' || g === 'restart').map(([reason]) => [reason] as const))('%s decides nothing here', (reason) => {
    expect(mine(`    Reason:       ${reason}`)).toEqual([]);
    expect(mine(`  Normal  ${reason}  12s  kubelet  see the Pod's events`)).toEqual([]);
  });

  it("reads an ordinary word only in a reason's place", () => {
    expect(mine('The sandbox was Terminated by the harness after the trial and its Pod Evicted from the cache.')).toEqual([]);
    expect(mine('rpc error: code = DeadlineExceeded desc = context deadline exceeded')).toEqual([]);
    expect(cls('  Status:   Failed\n  Reason:   Terminated\n  Message:  Pod was terminated in response to imminent node shutdown.')).toBe('host.killed');
  });

  it('reads the kubelet\'s own error strings (Error: X, FailedSync\'s "with X: ", Init:X)', () => {
    expect(cls('E1201 10:00:00.000000    4711 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"main\\" with CreatePodSandboxError: \\"sandbox setup failed\\""')).toBe('sandbox.failure');
    expect(cls('  Warning  Failed  3s  kubelet  Error: SignatureValidationFailed')).toBe('sandbox.failure');
    expect(cls('sandbox-7   0/1     Init:ConfigPodSandboxError   0          40s')).toBe('sandbox.failure');
  });
});

describe('the entries a narrower rule reads (readBy)', () => {
  // One wording, one rule: no k8s.reason_* pattern reads them, the named rule does, with the class the entry records.
  const ALL_PATTERNS = k8sReasonPatterns(Object.keys(CLASS) as K8sReasonGroup[]);
  const rows = [
    ...K8S_REASONS.filter((r) => r[4]).flatMap(([reason, source, , , by]) => [
      [reason, `    Reason:       ${reason}`, by!] as const,
      [reason, `      "reason": "${reason}",`, by!] as const,
      ...(isEvent(source) ? [[reason, `  Warning  ${reason}  12s (x3 over 50s)  kubelet  see the Pod's events`, by!] as const] : []),
    ]),
    ...K8S_MESSAGES.filter((r) => r[3]).map(([, text, , by]) => [text, `  Message:  ${text}. Threshold quantity: 5%, available: 1%.`, by!] as const),
  ];
  it('marks the scheduler\'s FailedScheduling as k8s.unschedulable\'s', () => {
    expect(K8S_REASONS.find(([r]) => r === 'FailedScheduling')?.[4]?.rule).toBe('k8s.unschedulable');
  });
  it.each(rows)('%s: %s', (_n, line, by) => {
    const d = classifyText(line);
    expect(d.class).toBe(by.class);
    expect(d.evidence[0]?.rule).toBe(by.rule);
    // The evidence keeps one rule per line, so the vocabulary's own patterns are what must not match.
    expect(ALL_PATTERNS.filter((re) => re.test(line))).toEqual([]);
  });
});

describe('the message texts that decide what a reason meant', () => {
  it.each(K8S_MESSAGES.map(([source, text, group]) => [source, text, group] as const))('%s: %s', (_source, text, group) => {
    const want = CLASS[group as Exclude<K8sReasonGroup, 'skip' | 'restart'>];
    expect(cls(`  Message:  ${text}${text.endsWith(' ') ? 'pods, requested: 1, used: 4, limited: 4' : ''}`)).toBe(want);
  });

  it('an eviction for inodes is the disk filling up, one for pids is not', () => {
    const evicted = (resource: string) => `  Status:   Failed\n  Reason:   Evicted\n  Message:  The node was low on resource: ${resource}. Threshold quantity: 5%, available: 1%.`;
    expect(cls(evicted('inodes'))).toBe('disk.full');
    expect(cls(evicted('pids'))).toBe('sandbox.failure');
  });
});

describe('in a bundle with its cause', () => {
  it("a restart with back-off is the container's own exception", () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "/app/serve.py", line 12, in <module>',
      '    per_replica = cfg["max_batch"] / replicas',
      "TypeError: unsupported operand type(s) for /: 'str' and 'int'",
      'E1201 10:00:00.000000    4711 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"main\\" with CrashLoopBackOff: \\"back-off 5m0s restarting failed container=main pod=serve-0_eval(4b1c)\\""',
    ].join('\n');
    expect(cls(log)).toBe('user.code_error');
  });

  it("a NotReady node beside a container the kernel OOM-killed is the memory", () => {
    const log = [
      '  Normal   NodeNotReady  2m  node-controller  Node gpu-node-07 status is now: NodeNotReady',
      '    Last State:     Terminated',
      '      Reason:       OOMKilled',
      '      Exit Code:    137',
    ].join('\n');
    expect(cls(log)).toBe('host.oom');
  });

  it("a Pod Pending on an unbound claim is the claim's spec when the PersistentVolume controller says no volume or class fits", () => {
    const events = [
      '  Warning  FailedScheduling  2m  default-scheduler  0/4 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    ];
    // The scheduler's event alone is the sandbox that never started.
    expect(cls(events.join('\n'))).toBe('sandbox.failure');
    events.push('  Normal   FailedBinding  12s (x9 over 2m)  persistentvolume-controller  no persistent volumes available for this claim and no storage class is set');
    expect(cls(events.join('\n'))).toBe('config.error');
  });

  it('a node shutting down while the run trained is the run taken away, not the run failing', () => {
    const log = [
      '[rank0]: step 1200 loss 1.83',
      '  Warning  Shutdown  1m  kubelet  Node is shutting, evicting pods',
    ].join('\n');
    expect(cls(log)).toBe('host.killed');
  });
});

describe('k8s/pods.json: a reason of the vocabulary with no line around it', () => {
  const pods = (pod: object) => classifyFiles({ 'k8s/pods.json': JSON.stringify({ pods: [pod] }, null, 2) });

  it('a Pod the kubelet rejected at admission, or terminated for a node shutdown, decides by its reason', () => {
    const rejected = pods({ name: 'sandbox-7', phase: 'Failed', reason: 'NodeAffinity', message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector", containers: [], events: [] });
    expect(rejected.class).toBe('sandbox.failure');
    // With no message the reason alone decides.
    const bare = pods({ name: 'sandbox-7', phase: 'Failed', reason: 'OutOfcpu', message: '', containers: [], events: [] });
    expect(bare.class).toBe('sandbox.failure');
    expect(bare.evidence[0]).toMatchObject({ file: 'k8s/pods.json', rule: 'k8s.reason_sandbox' });
    expect(pods({ name: 'trainer-0', phase: 'Failed', reason: 'Terminated', message: 'Pod was terminated in response to imminent node shutdown.', containers: [], events: [] }).class).toBe('host.killed');
    expect(pods({ name: 'trainer-0', phase: 'Failed', reason: 'PodOSNotSupported', message: '', containers: [], events: [] }).class).toBe('config.error');
  });

  it('an event of the vocabulary decides, an ordinary one does not', () => {
    expect(pods({ name: 'w0', phase: 'Running', containers: [], events: [{ type: 'Warning', reason: 'Rebooted', message: 'Node gpu-node-07 has been rebooted, boot id: 4b1c9e2a' }] }).class).toBe('host.killed');
    expect(pods({ name: 'w0', phase: 'Running', containers: [], events: [{ type: 'Normal', reason: 'Pulled', message: 'Successfully pulled image "python:3.11"' }] }).class).toBe('unknown');
  });

  it('the reasons the narrower facts read keep their rule', () => {
    const d = pods({ name: 'w0', phase: 'Pending', containers: [{ name: 'main', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nginx:not-exist"' } } }], events: [] });
    expect(d.evidence[0]?.rule).toBe('k8s.image_pull');
  });
});
