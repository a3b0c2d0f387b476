// Hangs: a bundle taken while the run still ran (manifest trigger `stall` or `snapshot`) is decided from
// what the capture agent recorded about the live processes, not from log wording (TAXONOMY "rules of
// thumb"): the flight recorder's per-rank collective progress (nccl/flight-recorder.json), each
// process's Python stack or thread states (stacks/stacks.json), GPU utilization over a few seconds
// (gpu/samples.json), the NCCL transport named in the run's NCCL INFO lines, the GPU topology and
// NCCL_P2P_DISABLE. Every rank waiting in the same collective over P2P with the GPUs busy is the P2P
// deadlock; ranks at different collectives is a timeout with the lagging rank named; otherwise the
// run stalled, and the stack of the first rank says where it waits.
import { isLibraryPath } from '../logline.js';
import { P2P_TRANSPORT_RE, P2P_DISABLED_RE } from './rules/nccl.js';
import { waitChainAt, WHERE_HINTS, WHERE_WORDS, type WaitKind } from './rules/stall.js';
import { categoryOf, type FailureClass } from './taxonomy.js';
import { RULESET_VERSION } from './version.js';
import type { BundleInput, Diagnosis, Evidence } from './types.js';

type Json = unknown;
const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: Json): Json[] => (Array.isArray(v) ? v : []);
const num = (v: Json): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: Json): string | null => (typeof v === 'string' ? v : null);

function parse(text: string | undefined): Json {
  if (text === undefined || text.length > 32 * 1024 * 1024) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Classes a live bundle is decided by this module; any other class the logs show is a cause and wins. */
const HANG_CLASSES = new Set<FailureClass>(['unknown', 'nccl.timeout', 'nccl.p2p_deadlock', 'job.stall']);

export function triggerOf(input: BundleInput): string | null {
  const m = input.manifest as Record<string, unknown> | undefined;
  const t = str(m?.trigger);
  if (t) return t;
  const fromFile = parse(input.files.get('manifest.json'));
  return isObj(fromFile) ? str(fromFile.trigger) : null;
}

export function isLiveBundle(input: BundleInput): boolean {
  const t = triggerOf(input);
  return t === 'stall' || t === 'snapshot';
}

interface Frame {
  name: string;
  file: string;
  line: number | null;
}
interface Thread {
  name: string | null;
  active: boolean | null;
  frames: Frame[];
}
interface Proc {
  pid: number;
  rank: number | null;
  cmdline: string;
  file: string;
  state: string;
  threads: Thread[];
  procThreads: Array<{ tid: number; name: string; state: string; wchan: string | null }>;
}

function readStacks(files: Map<string, string>): { procs: Proc[]; note: string | null } {
  const j = parse(files.get('stacks/stacks.json'));
  if (!isObj(j)) return { procs: [], note: null };
  const procs: Proc[] = [];
  for (const p of arr(j.processes).slice(0, 512)) {
    if (!isObj(p) || num(p.pid) === null) continue;
    procs.push({
      pid: num(p.pid)!,
      rank: num(p.rank),
      cmdline: str(p.cmdline) ?? '',
      file: str(p.file) ?? 'stacks/stacks.json',
      state: str(p.state) ?? '?',
      threads: arr(p.threads)
        .filter(isObj)
        .map((t) => ({
          name: str(t.name),
          active: typeof t.active === 'boolean' ? t.active : null,
          frames: arr(t.frames)
            .filter(isObj)
            .map((f) => ({ name: str(f.name) ?? '?', file: str(f.file) ?? '?', line: num(f.line) })),
        })),
      procThreads: arr(p.procThreads)
        .filter(isObj)
        .map((t) => ({ tid: num(t.tid) ?? 0, name: str(t.name) ?? '', state: str(t.state) ?? '?', wchan: str(t.wchan) })),
    });
  }
  return { procs, note: str(j.note) };
}

interface FrRank {
  rank: number;
  pgs: Array<{ pg: string; desc: string | null; lastEnqueued: number | null; lastCompleted: number | null }>;
  lastEntries: Array<{ seq: number | null; op: string | null; pg: string | null; state: string | null; isP2p: boolean | null }>;
}
interface FrSummary {
  pg: string;
  desc: string | null;
  maxEnqueued: number | null;
  behind: Array<{ rank: number; lastEnqueued: number | null }>;
  opsAtMax: Record<string, string | null>;
}

function readFlightRecorder(files: Map<string, string>): { ranks: FrRank[]; summary: FrSummary[] } | null {
  const j = parse(files.get('nccl/flight-recorder.json'));
  if (!isObj(j)) return null;
  const ranks: FrRank[] = arr(j.ranks)
    .filter(isObj)
    .filter((r) => num(r.rank) !== null && !str(r.error))
    .map((r) => ({
      rank: num(r.rank)!,
      pgs: arr(r.pgs)
        .filter(isObj)
        .map((p) => ({ pg: String(p.pg), desc: str(p.desc), lastEnqueued: num(p.lastEnqueued), lastCompleted: num(p.lastCompleted) })),
      lastEntries: arr(r.lastEntries)
        .filter(isObj)
        .map((e) => ({ seq: num(e.seq), op: str(e.op), pg: e.pg === null || e.pg === undefined ? null : String(e.pg), state: str(e.state), isP2p: typeof e.isP2p === 'boolean' ? e.isP2p : null })),
    }));
  const summary: FrSummary[] = arr(j.summary)
    .filter(isObj)
    .map((s) => ({
      pg: String(s.pg),
      desc: str(s.desc),
      maxEnqueued: num(s.maxEnqueued),
      behind: arr(s.behind)
        .filter(isObj)
        .filter((b) => num(b.rank) !== null)
        .map((b) => ({ rank: num(b.rank)!, lastEnqueued: num(b.lastEnqueued) })),
      opsAtMax: isObj(s.opsAtMax) ? Object.fromEntries(Object.entries(s.opsAtMax).map(([k, v]) => [k, str(v)])) : {},
    }));
  return ranks.length ? { ranks, summary } : null;
}

interface GpuBusy {
  /** Mean utilization of the GPUs the run's processes are on (all GPUs when that is unknown). */
  meanUtil: number | null;
  gpus: Array<{ index: number; util: number | null }>;
}

function readGpuSamples(files: Map<string, string>): GpuBusy | null {
  const j = parse(files.get('gpu/samples.json'));
  if (!isObj(j)) return null;
  const summary = arr(j.summary)
    .filter(isObj)
    .map((g) => ({ index: num(g.index) ?? -1, uuid: str(g.uuid), util: num(g.utilGpuMean) }));
  if (!summary.length) return null;
  const runGpus = new Set(
    arr(j.processes)
      .filter(isObj)
      .filter((p) => p.ofRun === true)
      .map((p) => str(p.gpuUuid)),
  );
  const mine = runGpus.size ? summary.filter((g) => runGpus.has(g.uuid)) : summary;
  const u = mine.map((g) => g.util).filter((v): v is number => v !== null);
  return { meanUtil: u.length ? u.reduce((a, b) => a + b, 0) / u.length : null, gpus: mine.map((g) => ({ index: g.index, util: g.util })) };
}

const BUSY_UTIL = 90;

/** A line of `text` that contains `needle`, 1-based; 1 when absent. */
function lineOf(text: string | undefined, needle: string): number {
  if (!text) return 1;
  const i = text.indexOf(needle);
  if (i < 0) return 1;
  let n = 1;
  for (let k = text.indexOf('\n'); k >= 0 && k < i; k = text.indexOf('\n', k + 1)) n += 1;
  return n;
}

function frameText(f: Frame): string {
  return `${f.name} (${f.file}${f.line !== null ? `:${f.line}` : ''})`;
}

function shortFrame(f: Frame): string {
  const base = f.file.split('/').slice(-2).join('/');
  return `${f.name} (${base}${f.line !== null ? `:${f.line}` : ''})`;
}


interface WaitSite {
  kind: WaitKind;
  proc: Proc;
  frame?: Frame;
  /** The user-code frame that led there (the outermost frame below the library frames). */
  caller?: Frame;
  detail: string;
}

function isLibrary(f: Frame): boolean {
  return isLibraryPath(f.file);
}

function mainThread(p: Proc): Thread | undefined {
  return p.threads.find((t) => t.name === 'MainThread') ?? p.threads[0];
}

/** Where one process waits, from its main thread's Python stack, or from /proc wait channels. */
function waitSiteOf(p: Proc, busy: GpuBusy | null): WaitSite {
  const t = mainThread(p);
  if (t && t.frames.length) {
    const caller = t.frames.find((f) => !isLibrary(f));
    // The innermost frame that waits, in the one wait vocabulary of plain-log stacks too (rules/stall.ts):
    // the outermost frame of its chain is the call the run made (queue.get, not the threading wait under
    // it; urlopen, not the socket read).
    const frames = t.frames.map((f) => ({ path: f.file, fn: f.name }));
    for (let i = 0; i < frames.length; i++) {
      const wait = waitChainAt(frames, i);
      if (!wait) continue;
      const at = t.frames[wait.api]!;
      return { kind: wait.kind, proc: p, frame: at, caller, detail: frameText(at) };
    }
    const top = t.frames[0]!;
    // Spinning on the CPU in user code with the GPU busy: a host loop polling a kernel that never ends
    // (tensor.item() or .cpu() on a result are C calls: py-spy shows the Python line that made them).
    if (t.active && busy?.meanUtil !== null && busy?.meanUtil !== undefined && busy.meanUtil >= BUSY_UTIL) {
      return { kind: 'gpu-kernel', proc: p, frame: top, caller, detail: frameText(top) };
    }
    return { kind: 'python', proc: p, frame: top, caller, detail: `${frameText(top)}${t.active === false ? ', idle' : ''}` };
  }
  const main = p.procThreads[0];
  if (main) {
    const w = main.wchan ?? '';
    if (/futex/.test(w)) return { kind: 'queue-lock', proc: p, detail: `thread ${main.tid} sleeps on a futex (${w}): a lock, condition or queue` };
    if (/poll|select|epoll|sk_wait|inet_|tcp_|unix_stream|sock/.test(w)) return { kind: 'os-wait', proc: p, detail: `thread ${main.tid} waits for I/O (${w}): a socket or pipe` };
    if (/pipe/.test(w)) return { kind: 'os-wait', proc: p, detail: `thread ${main.tid} waits on a pipe (${w})` };
    if (/nanosleep|hrtimer/.test(w)) return { kind: 'os-wait', proc: p, detail: `thread ${main.tid} sleeps (${w}) in a polling loop` };
    if (main.state === 'R') return { kind: busy?.meanUtil !== null && busy?.meanUtil !== undefined && busy.meanUtil >= BUSY_UTIL ? 'gpu-kernel' : 'os-wait', proc: p, detail: `thread ${main.tid} is running on a CPU` };
    if (main.state === 'D') return { kind: 'os-wait', proc: p, detail: `thread ${main.tid} is in uninterruptible sleep (${w || 'no wait channel'}): a driver or file-system call` };
    return { kind: 'unknown', proc: p, detail: `thread ${main.tid} state ${main.state}${w ? `, wait channel ${w}` : ''}` };
  }
  return { kind: 'unknown', proc: p, detail: 'no stack and no thread state' };
}

/** The process that is the job's own worker: ranked processes first, then Python ones, not launchers. */
function workers(procs: Proc[]): Proc[] {
  const ranked = procs.filter((p) => p.rank !== null);
  if (ranked.length) return ranked.sort((a, b) => a.rank! - b.rank!);
  // Without ranks: the Python processes below any shell or launcher, root-most first (helpers it
  // started, such as DataLoader workers, come after it).
  const py = procs.filter((p) => p.threads.length && !/torchrun|torch\.distributed\.run/.test(p.cmdline));
  return py.length ? py : procs.slice(0, 1);
}

function stackEvidence(files: Map<string, string>, site: WaitSite, rule: string): Evidence[] {
  const text = files.get(site.proc.file);
  const out: Evidence[] = [];
  if (site.frame) {
    const t = `    ${frameText(site.frame)}`;
    out.push({ file: site.proc.file, line: lineOf(text, t), text: t.trim(), rule });
    if (site.caller && site.caller !== site.frame) {
      const c = `    ${frameText(site.caller)}`;
      out.push({ file: site.proc.file, line: lineOf(text, c), text: c.trim(), rule });
    }
  } else {
    out.push({ file: site.proc.file, line: 1, text: (text?.split('\n')[0] ?? site.detail).slice(0, 300), rule });
  }
  return out;
}

function transportLine(files: Map<string, string>): Evidence | null {
  for (const [path, text] of files) {
    if (!path.startsWith('logs/') || typeof text !== 'string') continue;
    const m = P2P_TRANSPORT_RE.exec(text);
    if (!m) continue;
    const start = text.lastIndexOf('\n', m.index) + 1;
    const end = text.indexOf('\n', m.index);
    const line = text.slice(start, end < 0 ? undefined : end);
    return { file: path, line: text.slice(0, start).split('\n').length, text: line.slice(0, 300), rule: 'hang.p2p_transport' };
  }
  return null;
}

function p2pDisabled(files: Map<string, string>): boolean {
  const j = parse(files.get('config/env.json'));
  const env = isObj(j) ? (isObj(j.env) ? j.env : j) : {};
  const v = str((env as Record<string, Json>).NCCL_P2P_DISABLE);
  if (v && /^(1|true|yes)$/i.test(v.trim())) return true;
  for (const [path, text] of files) if (path.startsWith('logs/') && typeof text === 'string' && P2P_DISABLED_RE.test(text)) return true;
  return false;
}

/** true: the GPUs are joined by NVLink; false: PCIe/host paths; null: no topology. */
function nvlinkTopology(files: Map<string, string>): boolean | null {
  const j = parse(files.get('gpu/topology.json'));
  if (!isObj(j)) return null;
  const links = arr(j.links).map((r) => arr(r).map((c) => str(c) ?? ''));
  const cells = links.flatMap((r) => r.filter((c) => c && c !== 'X'));
  if (!cells.length) return null;
  return cells.every((c) => /^NV\d+$/.test(c));
}

function diag(cls: FailureClass, confidence: number, evidence: Evidence[], hint: string, secondary?: FailureClass[]): Diagnosis {
  return {
    class: cls,
    category: categoryOf(cls),
    confidence,
    evidence: evidence.slice(0, 8),
    hint,
    rulesetVersion: RULESET_VERSION,
    ...(secondary?.length ? { secondary } : {}),
  };
}

function frEvidence(files: Map<string, string>, needle: string, text: string): Evidence {
  return { file: 'nccl/flight-recorder.json', line: lineOf(files.get('nccl/flight-recorder.json'), needle), text, rule: 'hang.flight_recorder' };
}

function stallWindow(input: BundleInput): string {
  const m = (input.manifest ?? (parse(input.files.get('manifest.json')) as Record<string, unknown> | undefined)) as Record<string, unknown> | undefined;
  const s = isObj(m?.stall) ? (m!.stall as Record<string, Json>) : null;
  const ms = s ? num(s.afterMs) : null;
  return ms !== null ? ` for ${ms >= 60_000 ? `${Math.round(ms / 600) / 100} min` : `${Math.round(ms / 100) / 10} s`}` : '';
}

/**
 * The verdict on a live bundle. `fromLogs` is what the run's logs say; a specific cause there (a CUDA
 * OOM on one rank while the others wait, a gateway error) is the root cause and is kept.
 */
export function decideHang(input: BundleInput, fromLogs: Diagnosis): Diagnosis {
  if (!HANG_CLASSES.has(fromLogs.class)) {
    return { ...fromLogs, hint: `${fromLogs.hint} (The bundle was taken while the run had stopped making progress; this failure explains the stall.)` };
  }
  const files = input.files;
  const { procs, note } = readStacks(files);
  const fr = readFlightRecorder(files);
  const busy = readGpuSamples(files);
  const window = stallWindow(input);
  const trigger = triggerOf(input);
  const stalled = trigger === 'stall' ? `The run made no progress${window}` : 'Snapshot of the running job';
  const byRank = new Map(procs.filter((p) => p.rank !== null).map((p) => [p.rank!, p]));
  const busyText = busy && busy.meanUtil !== null ? `GPU${busy.gpus.length > 1 ? 's' : ''} ${busy.gpus.map((g) => `${g.index} ${g.util ?? '?'}%`).join(', ')}` : null;
  const gpuEvidence: Evidence[] = busyText ? [{ file: 'gpu/samples.json', line: lineOf(files.get('gpu/samples.json'), '"summary"'), text: `utilization over the samples: ${busyText}`, rule: 'hang.gpu_samples' }] : [];

  // 1. The flight recorder: a rank behind, ranks in different ops, or all in the same pending collective.
  if (fr) {
    // How many ranks the run has, as far as its processes' RANK variables tell.
    const expected = Math.max(0, ...procs.map((p) => (p.rank ?? -1) + 1));
    for (const s of fr.summary) {
      if (s.behind.length && s.maxEnqueued !== null) {
        const lag = s.behind[0]!;
        const ahead = fr.ranks.filter((r) => !s.behind.some((b) => b.rank === r.rank)).map((r) => r.rank);
        const op = Object.values(s.opsAtMax).find((v) => v) ?? 'a collective';
        const proc = byRank.get(lag.rank);
        const site = proc ? waitSiteOf(proc, busy) : null;
        const ev = [
          frEvidence(files, `"rank": ${lag.rank}`, `rank ${lag.rank} last enqueued collective ${lag.lastEnqueued ?? 'none'} of process group ${s.desc ?? s.pg}; rank${ahead.length > 1 ? 's' : ''} ${ahead.join(', ')} at ${s.maxEnqueued} (${op})`),
          ...(site ? stackEvidence(files, site, 'hang.lagging_rank_stack') : []),
          ...gpuEvidence,
        ];
        const where = site ? ` Rank ${lag.rank} is not in the collective: it waits in ${WHERE_WORDS[site.kind]} at ${site.frame ? shortFrame(site.frame) : site.detail}.` : ' Its stack is not in the bundle.';
        return diag(
          'nccl.timeout',
          0.8,
          ev,
          `${stalled}: rank ${lag.rank} is behind (collective ${lag.lastEnqueued ?? 'none'} vs ${s.maxEnqueued} ${op} on rank${ahead.length > 1 ? 's' : ''} ${ahead.join(', ')}), so the others wait for it.${where} A desync or a straggler: find why rank ${lag.rank} did not reach collective ${s.maxEnqueued} (a skipped or extra collective in a branch, an exception caught on that rank, slow input).`,
        );
      }
      const ops = Object.entries(s.opsAtMax).filter(([, v]) => v);
      const distinct = [...new Set(ops.map(([, v]) => v))];
      if (distinct.length > 1 && s.maxEnqueued !== null) {
        const list = ops.map(([r, v]) => `rank ${r} ${v}`).join(', ');
        return diag('nccl.timeout', 0.8, [frEvidence(files, `"opsAtMax"`, `collective ${s.maxEnqueued} of process group ${s.desc ?? s.pg}: ${list}`), ...gpuEvidence], `${stalled}: the ranks are desynchronized — at collective ${s.maxEnqueued} they called different operations (${list}). One rank took a different code path; make every rank issue the same collectives in the same order (TORCH_DISTRIBUTED_DEBUG=DETAIL checks it).`);
      }
    }
    // A rank the run should have (by the ranks of its processes) that left no dump at all.
    const dumped = new Set(fr.ranks.map((r) => r.rank));
    const missing = [...Array(expected).keys()].filter((r) => !dumped.has(r));
    if (missing.length && dumped.size) {
      const r = missing[0]!;
      const proc = byRank.get(r);
      const site = proc ? waitSiteOf(proc, busy) : null;
      return diag(
        'nccl.timeout',
        0.65,
        [frEvidence(files, '"ranks"', `flight-recorder dumps from rank${dumped.size > 1 ? 's' : ''} ${[...dumped].join(', ')}; none from rank ${r}`), ...(site ? stackEvidence(files, site, 'hang.lagging_rank_stack') : [])],
        `${stalled}: rank ${r} gave no flight-recorder dump, so it never set up its NCCL process group or is stuck before it${site ? `; it waits in ${WHERE_WORDS[site.kind]} at ${site.frame ? shortFrame(site.frame) : site.detail}` : ''}. The other ranks wait for it.`,
      );
    }
    // Everyone at the same collective, and it has not completed anywhere.
    const pending = fr.summary.filter((s) => {
      if (s.maxEnqueued === null) return false;
      const rows = fr.ranks.map((r) => r.pgs.find((p) => p.pg === s.pg)).filter((p) => p);
      return rows.length > 0 && rows.every((p) => p!.lastEnqueued === s.maxEnqueued && (p!.lastCompleted ?? -1) < s.maxEnqueued!);
    });
    if (pending.length) {
      const s = pending[0]!;
      const op = Object.values(s.opsAtMax).find((v) => v) ?? 'a collective';
      const nRanks = fr.ranks.length;
      const transport = transportLine(files);
      const disabled = p2pDisabled(files);
      const nvlink = nvlinkTopology(files);
      const gpusBusy = busy?.meanUtil !== null && busy?.meanUtil !== undefined && busy.meanUtil >= BUSY_UTIL;
      const frEv = frEvidence(files, `"maxEnqueued": ${s.maxEnqueued}`, `all ${nRanks} rank${nRanks > 1 ? 's' : ''} enqueued collective ${s.maxEnqueued} (${op}) of process group ${s.desc ?? s.pg}; none completed it`);
      const stacksEv = workers(procs)
        .slice(0, 2)
        .flatMap((p) => stackEvidence(files, waitSiteOf(p, busy), 'hang.rank_stack').slice(0, 1));
      if (nRanks > 1 && transport && !disabled && nvlink !== true && gpusBusy) {
        return diag(
          'nccl.p2p_deadlock',
          0.8,
          [frEv, transport, ...gpuEvidence, ...stacksEv],
          `${stalled}: every rank waits in collective ${s.maxEnqueued} (${op}) with the GPUs busy and NCCL using direct P2P between GPUs on PCIe paths — the GPU peer-to-peer deadlock. Re-run with NCCL_P2P_DISABLE=1 to confirm (it should then pass); \`fdiag preflight\` runs a timed NCCL probe with and without it. For good: disable PCIe ACS or set the IOMMU to pass-through (iommu=pt), or update the driver.`,
        );
      }
      const why = [
        nRanks === 1 ? 'one rank only' : null,
        !transport ? 'no P2P transport in the NCCL INFO lines' : null,
        disabled ? 'NCCL_P2P_DISABLE is set' : null,
        nvlink === true ? 'the GPUs are joined by NVLink' : null,
        !gpusBusy ? (busy ? 'the GPUs are idle' : 'no GPU samples') : null,
      ].filter(Boolean);
      // The ranks' own stacks say whether the host waits for the GPU (the collective queued behind a kernel).
      const kernel = workers(procs)
        .map((p) => waitSiteOf(p, busy))
        .find((x) => x.kind === 'gpu-kernel');
      const behindKernel = kernel && gpusBusy ? ` The GPU is busy (${busyText}) and ${kernel.proc.rank !== null ? `rank ${kernel.proc.rank}` : `pid ${kernel.proc.pid}`} waits for it at ${kernel.frame ? shortFrame(kernel.frame) : kernel.detail}: the collective is queued behind a GPU kernel that does not finish. ${WHERE_HINTS['gpu-kernel']}` : ` ${WHERE_HINTS.collective}`;
      return diag('job.stall', 0.7, [frEv, ...stacksEv, ...gpuEvidence], `${stalled}: every rank waits in collective ${s.maxEnqueued} (${op}), none behind; not the P2P deadlock (${why.join(', ')}).${behindKernel}`);
    }
  }

  // 2. No collective pending: where the run's worker waits, from its stack.
  const ws = workers(procs);
  if (ws.length) {
    const sites = ws.map((p) => waitSiteOf(p, busy));
    const site = sites.find((s) => s.kind !== 'python' && s.kind !== 'unknown') ?? sites[0]!;
    const who = site.proc.rank !== null ? `rank ${site.proc.rank}` : `pid ${site.proc.pid}`;
    const at = site.frame ? shortFrame(site.frame) : site.detail;
    const caller = site.caller && site.caller !== site.frame ? `, called from ${shortFrame(site.caller)}` : '';
    const gpu = site.kind === 'gpu-kernel' && busyText ? ` with ${busyText}` : '';
    const frNote = fr ? ' The flight recorder shows no collective pending.' : '';
    const ev = [...stackEvidence(files, site, `hang.wait_${site.kind.replace('-', '_')}`), ...gpuEvidence];
    const conf = site.kind === 'unknown' ? 0.45 : site.kind === 'python' || site.kind === 'os-wait' ? 0.6 : 0.75;
    return diag('job.stall', conf, ev, `${stalled}: ${who} waits in ${WHERE_WORDS[site.kind]} at ${at}${caller}${gpu}.${frNote} ${WHERE_HINTS[site.kind]}${note && !site.frame ? ` (${note})` : ''}`);
  }

  // 3. Nothing about the processes (they were gone, or /proc was unreadable).
  const ev: Evidence[] = [{ file: 'manifest.json', line: lineOf(files.get('manifest.json'), '"trigger"'), text: `trigger: ${trigger}`, rule: 'hang.trigger' }, ...gpuEvidence];
  return diag('job.stall', 0.4, ev, `${stalled}, and the bundle has no stack of its processes. ${WHERE_HINTS.unknown}`, fromLogs.class !== 'unknown' ? [fromLogs.class] : undefined);
}
