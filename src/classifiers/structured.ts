// Structured bundle evidence: exceptions.json, k8s/pods.json (containers and init containers),
// torchelastic error files, the NCCL flight recorder (per-rank progress and the cross-rank op summary),
// gpu/oom-ranks.json, kernel/dmesg.txt (read with the run's PIDs and exit status), config/env.json,
// harbor/result.json and the manifest's exit status. Each reader turns its file into typed signals
// (signals.ts says how a new source adds its own); absent, malformed or oddly shaped input gives none.
import { innermostFrame, logTimeOf, type LogTime } from '../logline.js';
import { finiteRewards, primaryReward, readHarborResult } from './harbor-result.js';
import { isValidationSite } from './rules/validation.js';
import type { StructuredSignal } from './signals.js';
import type { BundleInput } from './types.js';

/** Paths read here rather than line by line (their text is JSON/YAML, not log lines). */
export function isStructuredPath(path: string): boolean {
  return (
    path === 'manifest.json' ||
    path === 'exceptions.json' ||
    path === 'k8s/pods.json' ||
    path === 'nccl/flight-recorder.json' ||
    path === 'harbor/result.json' ||
    path === 'harbor/config.json' ||
    // The capture agent's own records of the run (PIDs, command lines, exit): data, not log lines.
    path === 'run.json' ||
    path === 'processes.json' ||
    // Host-wide kernel lines: read with the run's exit status and PIDs at hand (readKernelLog).
    path === 'kernel/dmesg.txt' ||
    // Live-process records of a stall bundle (read by hang.ts): stack frames are not log lines.
    path.startsWith('stacks/') ||
    path === 'nccl/dump-requests.json' ||
    /(?:^|\/)verifier\/reward\.(?:txt|json)$/.test(path) ||
    path.startsWith('config/') ||
    // gpu/*.json (memory snapshots) are data; gpu/nvidia-smi-*.txt is read as a log ("GPU is lost", Xid).
    (path.startsWith('gpu/') && path.endsWith('.json')) ||
    (path.startsWith('torchelastic/') && path.endsWith('.json'))
  );
}

type Json = unknown;

/** A structured file larger than this is no evidence (not parsed). */
const MAX_JSON = 64 * 1024 * 1024;

function parse(text: string | undefined): Json {
  if (text === undefined || text.length > MAX_JSON) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const isObj = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: Json): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
// A string of digits too long for a double is Infinity once converted: no number.
const finite = (n: number): number | undefined => (Number.isFinite(n) ? n : undefined);
const num = (v: Json): number | undefined => (typeof v === 'number' ? finite(v) : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? finite(Number(v)) : undefined);

/** 1-based line of the first occurrence of `needle` in `text`, or 1. */
function lineOf(text: string | undefined, needle: string | undefined): number {
  if (!text || !needle) return 1;
  const probe = needle.slice(0, 80);
  let idx = text.indexOf(probe);
  if (idx < 0) idx = text.indexOf(JSON.stringify(probe).slice(1, -1));
  if (idx < 0) return 1;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < idx; i = text.indexOf('\n', i + 1)) n += 1;
  return n;
}

const timeOf = (v: Json): LogTime | undefined => logTimeOf(v);

/** A file's text, only when it is one (a hostile BundleInput may map a path to anything). */
function textOf(files: Map<string, string>, path: string): string | undefined {
  const t = files.get(path);
  return typeof t === 'string' ? t : undefined;
}

type Reader = (input: BundleInput, files: Map<string, string>) => StructuredSignal[];

/** Every structured source, in the order its signals arrive (arrival order breaks the last ties). */
export const STRUCTURED_READERS: Reader[] = [readEnv, readExceptions, readPods, readTorchelastic, readFlightRecorder, readHarborResultFile, readRewardFiles, readExit, readKernelLog, readOomRanks];

/** All typed signals of a bundle's structured files and manifest. */
export function structuredSignals(input: BundleInput): StructuredSignal[] {
  const files = input.files instanceof Map ? input.files : new Map<string, string>();
  return STRUCTURED_READERS.flatMap((read) => read(input, files));
}

function readEnv(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const j = parse(textOf(files, 'config/env.json'));
  if (!isObj(j)) return [];
  const env = isObj(j.env) ? j.env : j;
  const v = str(env.NCCL_P2P_DISABLE);
  return v === undefined ? [] : [{ kind: 'env', name: 'NCCL_P2P_DISABLE', value: v, at: { file: 'config/env.json', line: 1 } }];
}

function readExceptions(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const text = textOf(files, 'exceptions.json');
  const j = parse(text);
  const list: Json[] = Array.isArray(j) ? j : isObj(j) && Array.isArray(j.exceptions) ? j.exceptions : [];
  const out: StructuredSignal[] = [];
  list.slice(0, 50).forEach((e: Json, i: number) => {
    if (!isObj(e)) return;
    const type = str(e.type) ?? '';
    const message = str(e.message) ?? '';
    if (!type && !message) return;
    // Point the evidence at the log line the exception came from when the collector recorded it.
    const src = isObj(e.source) ? e.source : undefined;
    const srcFile = src ? str(src.file) : undefined;
    const srcLine = src ? num(src.line) : undefined;
    const at = srcFile && srcLine && srcLine >= 1 ? { file: srcFile, line: Math.floor(srcLine) } : { file: 'exceptions.json', line: lineOf(text, message || type) };
    // "Type: message" is how Python itself prints the exception: the producer's wording.
    const tb = str(e.traceback);
    const frame = tb ? innermostFrame(tb) : null;
    const raisedIn = frame ? (frame.library ? ('library' as const) : ('own' as const)) : undefined;
    out.push({ kind: 'text', text: `${type}: ${message}`, at, rank: num(e.rank), time: timeOf(e.time), rootHint: i === 0, ...(frame ? { raisedIn, validationSite: isValidationSite(frame.path, frame.fn) } : {}) });
  });
  return out;
}

function readPods(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const file = 'k8s/pods.json';
  const text = textOf(files, file);
  const j = parse(text);
  const pods: Json[] = isObj(j) && Array.isArray(j.pods) ? j.pods : Array.isArray(j) ? j : isObj(j) && Array.isArray(j.items) ? j.items : [];
  const out: StructuredSignal[] = [];
  const at = (needle: string) => ({ file, line: lineOf(text, needle) });
  const message = (m: string) => {
    if (m) out.push({ kind: 'text', text: m, at: at(m) });
  };
  for (const pod of pods.slice(0, 500)) {
    if (!isObj(pod)) continue;
    const name = str(pod.name) ?? (isObj(pod.metadata) ? str(pod.metadata.name) : undefined) ?? 'pod';
    const status = isObj(pod.status) ? pod.status : pod;
    const reason = str(status.reason) ?? '';
    const msg = str(status.message) ?? '';
    if (reason) out.push({ kind: 'pod', pod: name, reason, message: msg, at: at(reason) });
    message(msg);
    out.push(...containerSignals(name, Array.isArray(pod.initContainers) ? pod.initContainers : [], true, at, message));
    out.push(...containerSignals(name, Array.isArray(pod.containers) ? pod.containers : [], false, at, message));
    const events = Array.isArray(pod.events) ? pod.events : [];
    for (const ev of events.slice(0, 200)) {
      if (!isObj(ev)) continue;
      const r = str(ev.reason) ?? '';
      const m = str(ev.message) ?? '';
      if (r) out.push({ kind: 'k8s-event', pod: name, type: str(ev.type) ?? '', reason: r, message: m, at: at(m || r) });
      message(m);
    }
  }
  return out;
}

/**
 * Container states, current and last. Init containers run before the main ones: one that cannot pull
 * its image, or exits non-zero, keeps the Pod in Init:… and the run never starts. One that completed
 * (exit 0) says nothing, even if an earlier attempt failed.
 */
function containerSignals(pod: string, list: Json[], init: boolean, at: (n: string) => { file: string; line: number }, message: (m: string) => void): StructuredSignal[] {
  const out: StructuredSignal[] = [];
  for (const c of list.slice(0, 50)) {
    if (!isObj(c)) continue;
    const name = str(c.name) ?? '';
    const cur = isObj(c.state) ? c.state : undefined;
    if (init && cur && isObj(cur.terminated) && num(cur.terminated.exitCode) === 0) continue;
    for (const key of ['state', 'lastState']) {
      const st = c[key];
      if (!isObj(st)) continue;
      for (const state of ['waiting', 'terminated'] as const) {
        const s = st[state];
        if (!isObj(s)) continue;
        const reason = str(s.reason) ?? '';
        const m = str(s.message) ?? '';
        const exitCode = state === 'terminated' ? (num(s.exitCode) ?? null) : null;
        if (init && exitCode === 0) continue;
        out.push({ kind: 'container', pod, container: name, init, state, reason, exitCode, message: m, at: at(reason === 'OOMKilled' ? reason : reason || m) });
        // A waiting init container's message restates its reason (the fact says it); a termination
        // message is the program's own output and is read as such.
        if (!(init && state === 'waiting')) message(m);
      }
    }
  }
  return out;
}

/**
 * kernel/dmesg.txt holds the host's Xid / ECC / OOM-killer lines since shortly before the run. Its lines
 * go through the same rules as any log; whether an OOM kill was of this run (exit 137, a SIGKILLed
 * worker, one of the run's PIDs) is settled in resolution, once every piece of evidence is in.
 */
function readKernelLog(input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const file = 'kernel/dmesg.txt';
  const text = textOf(files, file);
  if (!text) return [];
  const pids = new Set<number>();
  const run = parse(textOf(files, 'run.json'));
  if (isObj(run)) for (const k of ['pid', 'parentPid']) if (num(run[k]) !== undefined) pids.add(num(run[k])!);
  const procs = parse(textOf(files, 'processes.json'));
  if (Array.isArray(procs)) for (const p of procs.slice(0, 5000)) if (isObj(p) && num(p.pid) !== undefined) pids.add(num(p.pid)!);
  const mem = parse(textOf(files, 'gpu/memory.json'));
  if (isObj(mem) && Array.isArray(mem.processes)) for (const p of mem.processes.slice(0, 5000)) if (isObj(p) && num(p.pid) !== undefined) pids.add(num(p.pid)!);
  const exit = input.manifest?.exit;
  const runKilled = !!exit && (exit.code === 137 || /^(SIGKILL|9|KILL)$/i.test(exit.signal ?? ''));
  const out: StructuredSignal[] = [{ kind: 'kernel-scope', runKilled, runPids: [...pids], at: { file, line: 1 } }];
  const lines = text.split('\n');
  // The collector keeps the last 500 lines; a hand-made file may be longer.
  for (let i = Math.max(0, lines.length - 5000); i < lines.length; i++) if (lines[i]!.trim()) out.push({ kind: 'text', text: lines[i]!, at: { file, line: i + 1 } });
  return out;
}

/** gpu/oom-ranks.json: the capture agent's join of CUDA OOM messages with the GPU process table. */
function readOomRanks(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const j = parse(textOf(files, 'gpu/oom-ranks.json'));
  if (!isObj(j) || !Array.isArray(j.reports)) return [];
  const out: StructuredSignal[] = [];
  for (const r of j.reports.slice(0, 256)) {
    if (!isObj(r)) continue;
    const src = isObj(r.source) ? r.source : undefined;
    const others = Array.isArray(r.otherProcesses) ? r.otherProcesses : [];
    const where = src && str(src.file) ? { file: str(src.file)!, line: Math.max(1, Math.floor(num(src.line) ?? 1)), text: (str(r.text) ?? '').slice(0, 500) } : undefined;
    out.push({
      kind: 'oom-rank',
      at: where ?? { file: 'gpu/oom-ranks.json', line: 1 },
      report: {
        rank: num(r.rank) ?? null,
        gpuIndex: num(r.gpuIndex) ?? num(r.deviceIndex) ?? null,
        triedMiB: num(r.triedToAllocateMiB) ?? null,
        totalMiB: num(r.totalCapacityMiB) ?? null,
        freeMiB: num(r.freeMiB) ?? null,
        inUseMiB: num(r.processInUseMiB) ?? null,
        otherProcesses: others
          .slice(0, 16)
          .filter(isObj)
          .map((o) => ({ pid: num(o.pid), usedMiB: num(o.usedMiB), cmdline: str(o.cmdline)?.slice(0, 120) })),
        selfPid: isObj(r.atCapture) ? num(r.atCapture.pid) : undefined,
        where,
      },
    });
  }
  return out;
}

function readTorchelastic(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const out: StructuredSignal[] = [];
  for (const [path, text] of files) {
    if (!(path.startsWith('torchelastic/') && path.endsWith('.json')) || typeof text !== 'string') continue;
    const j = parse(text);
    if (!isObj(j)) continue;
    const msg = j.message;
    let message: string | undefined;
    let callstack: string | undefined;
    let ts: Json;
    if (isObj(msg)) {
      message = str(msg.message);
      const extra = isObj(msg.extraInfo) ? msg.extraInfo : undefined;
      callstack = extra ? str(extra.py_callstack) : undefined;
      ts = extra?.timestamp;
    } else {
      message = str(msg);
      ts = j.timestamp;
    }
    const time = timeOf(ts);
    const rank = num(j.rank);
    if (message) out.push({ kind: 'text', text: message, at: { file: path, line: lineOf(text, message) }, time, rank, rootHint: true });
    if (callstack) {
      const lines = callstack.trim().split('\n');
      const last = lines[lines.length - 1];
      if (last && last !== message) out.push({ kind: 'text', text: last, at: { file: path, line: lineOf(text, last) }, time, rank, rootHint: true });
    }
    const code = num(j.errorCode) ?? (isObj(msg) ? num(msg.errorCode) : undefined);
    if (code !== undefined) out.push({ kind: 'worker-exit', errorCode: code, at: { file: path, line: 1 }, time, rank });
  }
  return out;
}

function readFlightRecorder(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const file = 'nccl/flight-recorder.json';
  const text = textOf(files, file);
  const j = parse(text);
  if (!isObj(j) || !Array.isArray(j.ranks)) return [];
  const out: StructuredSignal[] = [];
  for (const r of j.ranks.slice(0, 4096)) {
    if (!isObj(r)) continue;
    const rank = num(r.rank);
    if (rank === undefined || !Array.isArray(r.pgs)) continue;
    for (const pg of r.pgs.slice(0, 64)) {
      if (!isObj(pg)) continue;
      const enq = num(pg.lastEnqueued);
      if (enq === undefined) continue;
      const pgName = str(pg.pg) ?? '0';
      const line = lineOf(text, `"rank": ${rank}`);
      out.push({
        kind: 'nccl-progress',
        key: `fr:${rank}:${pgName}`,
        at: { file, line },
        rank,
        progress: {
          rank,
          pg: `fr:${pgName}`,
          enqueued: enq,
          completed: num(pg.lastCompleted),
          file,
          line,
          text: `rank ${rank} pg ${pgName}: last enqueued ${enq}, last started ${num(pg.lastStarted) ?? '?'}, last completed ${num(pg.lastCompleted) ?? '?'}`,
        },
      });
    }
  }
  // Ranks at the same sequence number of one group in different collectives: a mismatched collective
  // (desync in the order of calls), which the per-rank progress alone cannot show. The agent's
  // cross-rank `summary.opsAtMax` says it directly; older files only have each rank's last entries.
  const summary = Array.isArray(j.summary) ? j.summary : derivedSummary(j.ranks);
  for (const pg of summary.slice(0, 64)) {
    if (!isObj(pg) || !isObj(pg.opsAtMax)) continue;
    const ops: Record<string, string> = {};
    for (const [rank, op] of Object.entries(pg.opsAtMax)) if (typeof op === 'string' && op) ops[rank] = op;
    if (new Set(Object.values(ops)).size < 2) continue;
    const pgName = str(pg.pg) ?? '0';
    const seq = num(pg.maxEnqueued) ?? null;
    const desc = str(pg.desc);
    const list = Object.entries(ops).map(([r, op]) => `rank ${r} ${op}`).join(', ');
    const line = lineOf(text, '"opsAtMax"');
    out.push({
      kind: 'collective-mismatch',
      at: { file, line },
      mismatch: { pg: pgName, desc, seq, ops, where: { file, line, text: `flight recorder: process group ${pgName}${desc ? ` (${desc})` : ''} collective ${seq ?? '?'}: ${list}` } },
    });
  }
  return out;
}

function derivedSummary(ranks: Json[]): Json[] {
  const byPg = new Map<string, { max: number }>();
  const rows = ranks.slice(0, 4096).filter(isObj);
  for (const r of rows) {
    if (!Array.isArray(r.pgs)) continue;
    for (const pg of r.pgs.slice(0, 64)) {
      if (!isObj(pg)) continue;
      const name = str(pg.pg) ?? '0';
      const enq = num(pg.lastEnqueued);
      const cur = byPg.get(name) ?? { max: -Infinity };
      if (enq !== undefined) cur.max = Math.max(cur.max, enq);
      byPg.set(name, cur);
    }
  }
  return [...byPg.entries()].map(([pg, { max }]) => {
    const opsAtMax: Record<string, string | null> = {};
    for (const r of rows) {
      const rank = num(r.rank);
      if (rank === undefined || !Array.isArray(r.lastEntries)) continue;
      const e = [...r.lastEntries].reverse().find((x) => isObj(x) && (str(x.pg) ?? '0') === pg && num(x.seq) === max && x.isP2p !== true);
      opsAtMax[String(rank)] = isObj(e) ? (str(e.op) ?? null) : null;
    }
    return { pg, maxEnqueued: Number.isFinite(max) ? max : null, opsAtMax };
  });
}

/** harbor/result.json through the one reader of a trial's result (harbor-result.ts): one reward everywhere. */
function readHarborResultFile(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const file = 'harbor/result.json';
  const text = textOf(files, file);
  if (text === undefined || text.length > MAX_JSON) return [];
  const r = readHarborResult(text);
  const out: StructuredSignal[] = [];
  const exc = r.exception;
  if (exc && (exc.type || exc.message)) out.push({ kind: 'text', text: `${exc.type}: ${exc.message}`, at: { file, line: lineOf(text, exc.type || exc.message) }, time: timeOf(exc.occurredAt) });
  if (r.reward !== null) out.push({ kind: 'reward', value: r.reward, at: { file, line: lineOf(text, '"rewards"') } });
  if (r.inputTokens !== null) out.push({ kind: 'agent-tokens', inputTokens: r.inputTokens, at: { file, line: lineOf(text, 'input_tokens') } });
  return out;
}

/** harbor/verifier/reward.txt holds a number; reward.json a {name: number} map, whose reward is Harbor's (primaryReward). */
function readRewardFiles(_input: BundleInput, files: Map<string, string>): StructuredSignal[] {
  const out: StructuredSignal[] = [];
  for (const [path, text] of files) {
    if (!/(?:^|\/)verifier\/reward\.(?:txt|json)$/.test(path) || typeof text !== 'string' || text.length > 4096) continue;
    let value: number | undefined;
    if (path.endsWith('.txt')) value = num(text.trim());
    else {
      const j = parse(text);
      value = num(j) ?? primaryReward(finiteRewards(j)) ?? undefined;
    }
    if (value !== undefined) out.push({ kind: 'reward', value, at: { file: path, line: 1 } });
  }
  return out;
}

function readExit(input: BundleInput): StructuredSignal[] {
  const exit = input.manifest?.exit;
  if (!isObj(exit)) return [];
  const code = num(exit.code) ?? null;
  const signal = str(exit.signal) ?? null;
  return [{ kind: 'exit', code, signal, at: { file: 'manifest.json', line: 1 } }];
}
