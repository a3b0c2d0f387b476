// The k8s collector against a local HTTPS server that answers with Kubernetes API JSON
// (fixtures/k8s, see SOURCE.md), reached through @kubernetes/client-node's own kubeconfig, TLS
// (CA from the kubeconfig) and bearer-token path.
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createK8sCollector, type PodsFile } from '../../../src/capture/collectors/k8s.js';
import type { CaptureContext, CaptureOptions } from '../../../src/capture/collector.js';
import { captureContext } from '../../helpers/capture-context.js';

const FIX = 'fixtures/k8s';
const fixture = (n: string) => JSON.parse(readFileSync(join(FIX, n), 'utf8'));
const TOKEN = 'fdiag-test-token-6f1c';

type Mode = 'ok' | 'slow' | 'forbidden' | 'events-fail';
let mode: Mode = 'ok';
let requests: Array<{ path: string; auth: string | undefined }> = [];
let server: Server;
let dir: string;
let kubeconfig: string;

function podList() {
  return {
    kind: 'PodList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '1044107' },
    items: ['pod-oomkilled.json', 'pod-oomkilled-failed.json', 'pod-imagepullbackoff.json', 'pod-evicted.json', 'pod-unschedulable.json', 'pod-running.json', 'pod-init-error.json'].map(fixture),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fdiag-k8s-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const cert = readFileSync(join(dir, 'cert.pem'));
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    requests.push({ path: req.url ?? '', auth: req.headers.authorization });
    const send = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    const url = new URL(req.url ?? '/', 'https://x');
    if (mode === 'slow') {
      const t = setTimeout(() => send(200, podList()), 5_000);
      req.on('close', () => clearTimeout(t));
      return;
    }
    if (/^\/api\/v1\/namespaces\/[^/]+\/pods$/.test(url.pathname)) {
      if (mode === 'forbidden') return send(403, fixture('status-403.json'));
      return send(200, podList());
    }
    if (/^\/api\/v1\/namespaces\/[^/]+\/events$/.test(url.pathname)) {
      if (mode === 'events-fail') return send(500, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: request timed out', reason: 'InternalError', code: 500 });
      return send(200, fixture('events.json'));
    }
    send(404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: test',
      '  cluster:',
      `    server: https://127.0.0.1:${port}`,
      `    certificate-authority-data: ${cert.toString('base64')}`,
      'users:',
      '- name: fdiag',
      '  user:',
      `    token: ${TOKEN}`,
      'contexts:',
      '- name: test',
      '  context: {cluster: test, user: fdiag, namespace: ml-runs}',
      'current-context: test',
      '',
    ].join('\n'),
  );
});

afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  mode = 'ok';
  requests = [];
});

function ctx(opts: Partial<CaptureOptions>, env: NodeJS.ProcessEnv = { KUBECONFIG: kubeconfig }): CaptureContext {
  return captureContext({ options: opts, env, startedAt: new Date('2024-11-20T07:00:00Z'), endedAt: new Date('2024-11-20T09:13:30Z') });
}

async function collectPods(c: CaptureContext): Promise<PodsFile> {
  const r = await createK8sCollector().collect(c, new AbortController().signal);
  if ('skipped' in r) throw new Error(`skipped: ${r.skipped}`);
  expect(r.files.map((f) => f.path)).toEqual(['k8s/pods.json']);
  return JSON.parse(String(r.files[0].data));
}

describe('k8s collector', () => {
  it('lists the selected Pods with their states and events through kubeconfig + TLS + bearer token', async () => {
    const out = await collectPods(ctx({ k8sNamespace: 'ml-runs', k8sSelector: 'fdiag.dev/run-id=r1' }));
    const podsReq = requests.find((r) => r.path.startsWith('/api/v1/namespaces/ml-runs/pods'))!;
    expect(new URL(podsReq.path, 'https://x').searchParams.get('labelSelector')).toBe('fdiag.dev/run-id=r1');
    expect(podsReq.auth).toBe(`Bearer ${TOKEN}`);
    const evReq = requests.find((r) => r.path.startsWith('/api/v1/namespaces/ml-runs/events'))!;
    expect(new URL(evReq.path, 'https://x').searchParams.get('fieldSelector')).toBe('involvedObject.kind=Pod');
    expect(out.namespace).toBe('ml-runs');
    expect(out.selector).toBe('fdiag.dev/run-id=r1');
    expect(out.pods).toHaveLength(7);
    const pod = (name: string) => out.pods.find((p) => p.name === name)!;

    // OOMKilled in lastState of a restarting container (the GRPO trainer, an indexed Job with
    // restartPolicy OnFailure), with the kubelet's restart BackOff event.
    const oom = pod('grpo-r1-trainer-0-8qg7q');
    expect(oom.node).toBe('gpu-h200-07');
    expect(oom.containers[0]).toMatchObject({ name: 'trainer', ready: false, restartCount: 9, state: { running: { startedAt: '2024-11-20T09:08:14.000Z' } } });
    expect(oom.containers[0].lastState).toMatchObject({ terminated: { reason: 'OOMKilled', exitCode: 137, startedAt: '2024-11-20T08:52:47.000Z', finishedAt: '2024-11-20T09:03:13.000Z' } });
    expect(oom.events).toEqual([
      expect.objectContaining({ type: 'Warning', reason: 'BackOff', count: 57, source: 'kubelet', lastTimestamp: '2024-11-20T09:08:03.000Z' }),
    ]);
    expect(oom.events[0].message).toBe('Back-off restarting failed container trainer in pod grpo-r1-trainer-0-8qg7q_ml-runs(4be4c902-a444-4c36-8f1a-47bda60bd407)');
    expect(oom.conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });

    // OOMKilled as the final state, exit 137, Pod Failed.
    const failed = pod('test');
    expect(failed.phase).toBe('Failed');
    expect(failed.containers[0].state).toMatchObject({ terminated: { reason: 'OOMKilled', exitCode: 137 } });
    expect(failed.leftover).toBe(false);

    // A Harbor sandbox whose task image does not exist: the kubelet's whole pull/back-off sequence.
    const image = 'registry.ml.internal/harbor-tasks/fix-flaky-ci:20241119';
    const pull = pod('sb-fix-flaky-ci-qm4tz7w');
    expect(pull).toMatchObject({ namespace: 'harbor-sandboxes', phase: 'Pending', leftover: true });
    expect(pull.containers[0].state).toEqual({ waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } });
    expect(pull.events.map((e) => e.reason)).toEqual(['Pulling', 'Failed', 'Failed', 'BackOff', 'Failed']);
    expect(pull.events[1].message).toContain(`failed to resolve reference "${image}": ${image}: not found`);
    expect(pull.events.map((e) => e.message).slice(2)).toEqual(['Error: ErrImagePull', `Back-off pulling image "${image}"`, 'Error: ImagePullBackOff']);

    // A vLLM rollout replica evicted by the kubelet under node memory pressure.
    const ev = pod('vllm-rollout-7c9d5f6b8d-7cpkh');
    expect(ev).toMatchObject({ phase: 'Failed', reason: 'Evicted', node: 'gpu-h200-03', leftover: false });
    expect(ev.message).toMatch(/^The node was low on resource: memory\. Threshold quantity: 100Mi, available: 90112Ki\. Container vllm was using 121634816Ki, request is 64Gi, has larger consumption of memory\. $/);
    expect(ev.conditions[0]).toMatchObject({ type: 'DisruptionTarget', status: 'True', reason: 'TerminationByKubelet', message: ev.message });
    expect(ev.events.map((e) => [e.reason, e.type, e.count])).toEqual([
      ['Evicted', 'Warning', 1],
      ['Killing', 'Normal', 1],
    ]);

    // Scheduler events come through events.k8s.io: no first/lastTimestamp, only eventTime.
    const unsched = pod('memory-demo-3');
    expect(unsched.phase).toBe('Pending');
    expect(unsched.conditions[0]).toMatchObject({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' });
    expect(unsched.events).toEqual([
      expect.objectContaining({ reason: 'FailedScheduling', type: 'Warning', source: 'default-scheduler', firstTimestamp: '2024-11-20T08:02:11.403318Z', lastTimestamp: '2024-11-20T08:02:11.403318Z', count: null }),
    ]);
    expect(unsched.events[0].message).toContain('Insufficient memory');

    // Init containers are reported apart, with their own terminated state and restarts.
    const init = pod('rm-server-5b7c9d6f4-wq52p');
    expect(init.containers[0]).toMatchObject({ name: 'rm-server', state: { waiting: { reason: 'PodInitializing' } } });
    expect(init.initContainers).toEqual([
      expect.objectContaining({ name: 'fetch-weights', init: true, restartCount: 1, state: expect.objectContaining({ terminated: expect.objectContaining({ reason: 'Error', exitCode: 1 }) }) }),
    ]);
    expect(init.conditions.map((c) => c.type)).toEqual(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled']);
    expect(init.conditions[1]).toMatchObject({ type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [fetch-weights]' });

    // Pods that still run or wait after the run ended are leftovers (here a Harbor sandbox nobody deleted).
    expect(pod('sb-repair-tokenizer-wd8pk2c')).toMatchObject({ namespace: 'harbor-sandboxes', phase: 'Running', leftover: true, events: [] });
    expect(pod('sb-repair-tokenizer-wd8pk2c').containers[0]).toMatchObject({ name: 'main', ready: true, restartCount: 0 });
    expect(unsched.leftover).toBe(true);
    expect(oom.leftover).toBe(true);
    // The event of a Pod that is not listed (an earlier sandbox of the same task) is not attached anywhere.
    expect(JSON.stringify(out.pods)).not.toContain('sb-repair-tokenizer-hx5bn2d');
  });

  it('takes the namespace from the kubeconfig context when only a selector is given', async () => {
    const out = await collectPods(ctx({ k8sSelector: 'app=trainer' }));
    expect(out.namespace).toBe('ml-runs');
    expect(requests[0].path).toMatch(/^\/api\/v1\/namespaces\/ml-runs\/pods\?/);
  });

  it('does not count the Pod the capture runs in as a leftover', async () => {
    const c = createK8sCollector({ selfPodName: 'sb-repair-tokenizer-wd8pk2c' });
    const r = await c.collect(ctx({ k8sNamespace: 'harbor-sandboxes' }), new AbortController().signal);
    if ('skipped' in r) throw new Error('skipped');
    const self = (JSON.parse(String(r.files[0].data)) as PodsFile).pods.find((p) => p.name === 'sb-repair-tokenizer-wd8pk2c')!;
    expect(self).toMatchObject({ leftover: false, self: true });
  });

  it('gives up on a slow API server within its request deadline and says so', async () => {
    mode = 'slow';
    const t0 = Date.now();
    await expect(createK8sCollector().collect(ctx({ k8sNamespace: 'ml-runs', k8sSelector: 'a=b', collectorTimeoutMs: 1_000 }), new AbortController().signal)).rejects.toThrow(
      /Kubernetes API list pods: no answer from https:\/\/127\.0\.0\.1:\d+ within 250 ms/,
    );
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('stops when the capture runner aborts it', async () => {
    mode = 'slow';
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = Date.now();
    await expect(createK8sCollector({ requestTimeoutMs: 10_000 }).collect(ctx({ k8sNamespace: 'ml-runs' }), ac.signal)).rejects.toThrow(/no answer/);
    expect(Date.now() - t0).toBeLessThan(3_000);
  });

  it('records a 403 with the Status reason and message', async () => {
    mode = 'forbidden';
    await expect(createK8sCollector().collect(ctx({ k8sNamespace: 'ml-runs', k8sSelector: 'a=b' }), new AbortController().signal)).rejects.toThrow(
      'Kubernetes API list pods: HTTP 403 Forbidden: pods is forbidden: User "system:serviceaccount:ml-runs:fdiag" cannot list resource "pods" in API group "" in the namespace "ml-runs"',
    );
  });

  it('keeps the Pods when only the events call fails', async () => {
    mode = 'events-fail';
    const out = await collectPods(ctx({ k8sNamespace: 'ml-runs', k8sSelector: 'a=b' }));
    expect(out.pods).toHaveLength(7);
    expect(out.eventsError).toMatch(/HTTP 500 InternalError: etcdserver: request timed out/);
    expect(out.pods.every((p) => p.events.length === 0)).toBe(true);
  });

  it('reports an unreachable API server', async () => {
    const cfg = join(dir, 'kubeconfig-closed');
    writeFileSync(cfg, readFileSync(kubeconfig, 'utf8').replace(/server: https:\/\/127\.0\.0\.1:\d+/, 'server: https://127.0.0.1:1'));
    await expect(createK8sCollector().collect(ctx({ k8sNamespace: 'ml-runs' }, { KUBECONFIG: cfg }), new AbortController().signal)).rejects.toThrow(/Kubernetes API list pods: .*ECONNREFUSED/);
  });

  it('is skipped without a namespace or selector', async () => {
    expect(await createK8sCollector().collect(ctx({}), new AbortController().signal)).toEqual({ skipped: 'no --k8s-namespace or --k8s-selector given' });
    expect(requests).toHaveLength(0);
  });
});
