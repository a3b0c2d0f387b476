// Structured evidence the capture agent writes, read from the real bundles recorded on a 2×H200 machine
// (fixtures/h200/README.md): nccl/flight-recorder.json's cross-rank summary, gpu/oom-ranks.json and
// kernel/dmesg.txt; k8s/pods.json init containers in the shape src/capture/k8s/pods.ts writes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractBundle, loadBundleTexts } from '../../src/bundle/reader.js';
import { classifyBundle, type BundleInput, type Diagnosis } from '../../src/classifiers/index.js';
import { classifyFiles } from './helpers.js';

const BUNDLES = resolve(__dirname, '../../fixtures/h200/bundles');
const NAMES = {
  desync: 'fdiag-h200-desync-20261130T051535Z.tar.gz',
  hang: 'fdiag-h200-hang-20261130T051402Z.tar.gz',
  // Taken by a trap-mode capture while the OOM job ran: no logs, the live process table and dmesg.
  live: 'fdiag-h200-oom-live-20261130T045842Z.tar.gz',
  oom: 'fdiag-h200-oom-20261130T045844Z.tar.gz',
  timeout: 'fdiag-h200-timeout-20261130T050345Z.tar.gz',
} as const;

const loaded = new Map<keyof typeof NAMES, BundleInput>();
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'fdiag-cls-bundles-'));
  for (const [k, name] of Object.entries(NAMES) as [keyof typeof NAMES, string][]) {
    const ex = await extractBundle(join(BUNDLES, name), join(tmp, k));
    const files = await loadBundleTexts(ex);
    loaded.set(k, { manifest: { exit: ex.manifest.exit, labels: ex.manifest.labels, command: ex.manifest.command }, files });
  }
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The real bundle with some files replaced or added (and optionally another exit status). */
function variant(k: keyof typeof NAMES, files: Record<string, string>, exit?: { code: number | null; signal: string | null }): Diagnosis {
  const b = loaded.get(k)!;
  const merged = new Map(b.files);
  for (const [p, t] of Object.entries(files)) merged.set(p, t);
  return classifyBundle({ ...b, files: merged, manifest: { ...b.manifest, ...(exit ? { exit } : {}) } });
}

describe('nccl/flight-recorder.json', () => {
  it('desync bundle: ranks at the same collective in different ops is a mismatched collective, said in the hint', () => {
    const d = classifyBundle(loaded.get('desync')!);
    expect(d.class).toBe('nccl.timeout');
    expect(d.hint).toMatch(/different operations/);
    expect(d.hint).toMatch(/rank 0 in nccl:all_reduce, rank 1 in nccl:_all_gather_base/);
    expect(d.evidence.some((e) => e.file === 'nccl/flight-recorder.json')).toBe(true);
  });
  it('timeout bundle (file written before the agent added `summary`): rank 1 never joined, a lagging-rank desync', () => {
    const d = classifyBundle(loaded.get('timeout')!);
    expect(d.class).toBe('nccl.timeout');
    expect(d.hint).toMatch(/rank 1 last enqueued collective 4 while rank 0 enqueued 5/);
    expect(d.hint).not.toMatch(/different operations/);
  });
  it('without a summary the op mismatch is derived from each rank\'s last entries', () => {
    const b = loaded.get('desync')!;
    const fr = JSON.parse(b.files.get('nccl/flight-recorder.json')!) as { summary?: unknown };
    delete fr.summary;
    const d = variant('desync', { 'nccl/flight-recorder.json': JSON.stringify(fr, null, 2) });
    expect(d.hint).toMatch(/rank 0 in nccl:all_reduce, rank 1 in nccl:_all_gather_base/);
  });
});

describe('gpu/oom-ranks.json', () => {
  it('oom bundle: the cuda.oom hint names the rank and GPU that ran out', () => {
    const d = classifyBundle(loaded.get('oom')!);
    expect(d.class).toBe('cuda.oom');
    expect(d.hint).toMatch(/^Rank 1 ran out of GPU memory on GPU 1 \(tried to allocate 20 GiB/);
    expect(d.evidence[0]).toMatchObject({ file: 'logs/stderr.log', line: 9, rule: 'cuda.oom.torch' });
  });
  it('another process holding memory on the same GPU is named', () => {
    const b = loaded.get('oom')!;
    const j = JSON.parse(b.files.get('gpu/oom-ranks.json')!) as { reports: Record<string, unknown>[] };
    j.reports[0]!.otherProcesses = [{ pid: 4242, usedMiB: 40960, cmdline: 'python -m vllm.entrypoints.openai.api_server' }];
    const d = variant('oom', { 'gpu/oom-ranks.json': JSON.stringify(j) });
    expect(d.hint).toMatch(/1 other process held 40 GiB on the same GPU \(pid 4242: python -m vllm/);
  });
  it("the failing rank itself, listed by NVML under its host PID, is not named as another process", () => {
    const b = loaded.get('oom')!;
    const j = JSON.parse(b.files.get('gpu/oom-ranks.json')!) as { reports: Record<string, unknown>[] };
    const inUse = j.reports[0]!.processInUseMiB as number;
    // Inside a container PyTorch cannot drop its own entry: NVML reports the host PID (2231), not getpid().
    j.reports[0]!.otherProcesses = [{ pid: 2231, usedMiB: inUse }];
    const alone = variant('oom', { 'gpu/oom-ranks.json': JSON.stringify(j) });
    expect(alone.class).toBe('cuda.oom');
    expect(alone.hint).not.toMatch(/other process|pid 2231/);
    // Known by PID from the process table, and beside a real neighbour: only the neighbour is named.
    j.reports[0]!.atCapture = { pid: 2231, usedMiB: 1000 };
    j.reports[0]!.otherProcesses = [{ pid: 2231, usedMiB: 1000 }, { pid: 4242, usedMiB: 40960, cmdline: 'python -m vllm.entrypoints.openai.api_server' }];
    const both = variant('oom', { 'gpu/oom-ranks.json': JSON.stringify(j) });
    expect(both.hint).toMatch(/1 other process held 40 GiB on the same GPU \(pid 4242: python -m vllm/);
    expect(both.hint).not.toMatch(/pid 2231/);
  });
  it('a neighbour listed in every report is counted once, and a process that is itself a failing rank is not "other"', () => {
    const b = loaded.get('oom')!;
    const j = JSON.parse(b.files.get('gpu/oom-ranks.json')!) as { reports: Record<string, unknown>[] };
    const first = j.reports[0]!;
    const vllm = { pid: 4242, usedMiB: 40960, cmdline: 'python -m vllm.entrypoints.openai.api_server' };
    // The same rank's OOM printed twice with other numbers (a re-raise), and a second rank on the same GPU
    // whose report lists the first rank's PID (2231): one neighbour holds memory, not two or three.
    j.reports = [
      { ...first, atCapture: { pid: 2231, usedMiB: 1000 }, otherProcesses: [vllm, { pid: 2232, usedMiB: 30000 }] },
      { ...first, freeMiB: 10, atCapture: { pid: 2231, usedMiB: 1000 }, otherProcesses: [vllm] },
      { ...first, rank: 0, atCapture: { pid: 2232, usedMiB: 30000 }, otherProcesses: [vllm, { pid: 2231, usedMiB: 1000 }] },
    ];
    const d = variant('oom', { 'gpu/oom-ranks.json': JSON.stringify(j) });
    expect(d.hint).toMatch(/1 other process held 40 GiB on the same GPU \(pid 4242: python -m vllm/);
    expect(d.hint).not.toMatch(/pid 223[12]/);
  });
});

describe('kernel/dmesg.txt', () => {
  it("the real bundles' driver boot lines (NVRM, FBHUB interrupt) are not a failure", () => {
    expect(classifyBundle(loaded.get('live')!).class).toBe('unknown');
    expect(loaded.get('live')!.files.get('kernel/dmesg.txt')).toMatch(/NVRM: gpuClearFbhubPoisonIntr/);
    // The hang bundle's diagnosis is its logs' (a rank that never joined), with nothing from dmesg.
    expect(classifyBundle(loaded.get('hang')!).evidence.some((e) => e.file === 'kernel/dmesg.txt')).toBe(false);
  });
  it('an Xid 79 line in the kernel log is a GPU fault', () => {
    const dmesg = `${loaded.get('live')!.files.get('kernel/dmesg.txt')}[ 1710.204411] NVRM: Xid (PCI:0000:19:00): 79, pid=698, name=pt_main_thread, GPU has fallen off the bus.\n`;
    const d = variant('live', { 'kernel/dmesg.txt': dmesg });
    expect(d.class).toBe('cuda.error');
    expect(d.evidence[0]).toMatchObject({ file: 'kernel/dmesg.txt', line: 6, rule: expect.stringMatching(/^cuda\.(?:xid|fault)$/) });
  });
  const oomKill = '[ 1702.33] Out of memory: Killed process 765 (pt_main_thread) total-vm:412119556kB, anon-rss:251538204kB, file-rss:80652kB, shmem-rss:16kB, UID:0 pgtables:513432kB oom_score_adj:0\n';
  it('the OOM killer with the run SIGKILLed (exit 137) is host.oom, naming the victim', () => {
    const d = variant('live', { 'kernel/dmesg.txt': oomKill }, { code: 137, signal: null });
    expect(d.class).toBe('host.oom');
    expect(d.confidence).toBeGreaterThan(0.8);
    expect(d.evidence[0]).toMatchObject({ file: 'kernel/dmesg.txt', line: 1, rule: 'host.oom_killer' });
    expect(d.hint).toMatch(/killed process 765 \(pt_main_thread\) holding 239\.9 GiB/);
  });
  it('the OOM killer taking one of the run\'s PIDs (processes.json) counts without exit 137 (torchrun exits 1 after its worker is killed)', () => {
    const d = variant('live', { 'kernel/dmesg.txt': oomKill.replace('765', '698') });
    expect(d.class).toBe('host.oom');
    expect(d.hint).not.toMatch(/another workload/);
    const other = variant('live', { 'kernel/dmesg.txt': oomKill.replace('765', '31337') });
    expect(other.hint).toMatch(/another workload/);
  });
  it("another process's OOM kill on the host does not outrank the run's own failure", () => {
    const other = oomKill.replace('765 (pt_main_thread)', '31337 (java)');
    const d = variant('oom', { 'kernel/dmesg.txt': other });
    expect(d.class).toBe('cuda.oom');
    expect(d.secondary).toContain('host.oom');
  });
});

describe('k8s/pods.json init containers', () => {
  const pod = (init: object, phase = 'Pending') => ({
    namespace: 'train',
    selector: 'job-name=ppo',
    collectedAt: '2026-11-30T05:00:00Z',
    pods: [
      {
        name: 'ppo-worker-0',
        namespace: 'train',
        phase,
        reason: null,
        message: null,
        node: 'gpu-node-3',
        labels: {},
        conditions: [],
        containers: [{ name: 'trainer', image: 'reg.example/ppo:1.4', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } }, lastState: null }],
        initContainers: [{ name: 'fetch-weights', image: 'reg.example/fetch:2', ready: false, restartCount: 3, ...init }],
        events: [],
        leftover: false,
      },
    ],
  });
  it('an init container that cannot pull its image keeps the Pod from starting: sandbox.failure', () => {
    const d = classifyFiles({ 'k8s/pods.json': JSON.stringify(pod({ state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "reg.example/fetch:2"' } }, lastState: null }), null, 2) });
    expect(d.class).toBe('sandbox.failure');
    expect(d.evidence[0]!.file).toBe('k8s/pods.json');
    expect(d.evidence[0]!.text).toMatch(/init container fetch-weights waiting: ImagePullBackOff/);
  });
  it('an init container that exits non-zero (Init:Error / Init:CrashLoopBackOff) is sandbox.failure; OOMKilled is host.oom', () => {
    const crash = pod({ state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=fetch-weights' } }, lastState: { terminated: { reason: 'Error', exitCode: 1 } } });
    expect(classifyFiles({ 'k8s/pods.json': JSON.stringify(crash, null, 2) }).class).toBe('sandbox.failure');
    const oom = pod({ state: { terminated: { reason: 'OOMKilled', exitCode: 137 } }, lastState: null });
    expect(classifyFiles({ 'k8s/pods.json': JSON.stringify(oom, null, 2) }).class).toBe('host.oom');
  });
  it('an init container that completed says nothing, even after a failed earlier attempt', () => {
    const ok = pod({ state: { terminated: { reason: 'Completed', exitCode: 0 } }, lastState: { terminated: { reason: 'Error', exitCode: 1 } } }, 'Running');
    expect(classifyFiles({ 'k8s/pods.json': JSON.stringify(ok, null, 2) }).class).toBe('unknown');
  });
  it("kubectl's Init: status column in a pasted log", () => {
    expect(classifyFiles({ 'logs/kubectl.txt': 'NAME            READY   STATUS                  RESTARTS   AGE\nppo-worker-0    0/1     Init:CrashLoopBackOff   5          6m' }).class).toBe('sandbox.failure');
    expect(classifyFiles({ 'logs/kubectl.txt': 'ppo-worker-0    0/1     Init:Error   1          1m' }).class).toBe('sandbox.failure');
  });
});
