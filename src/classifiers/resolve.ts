// Root-cause resolution: from all signals, pick the one failure that explains the others.
//  1. Causes (strength ≥ CAUSE_TIER) beat symptoms; among several causes the one named by structured
//     evidence (torchelastic root-cause rank, exceptions.json[0]) wins, then the earliest in time.
//  2. Without a cause, the most specific symptom wins (HTTP status over the client's KeyError…).
//  3. A NCCL watchdog timeout that nothing explains is examined: P2P transport deadlock, desync, or plain.
import { clockValue, commonClock, compareLogTimes, type LogTime } from '../logline.js';
import { EXPLAINS, explainSymptoms, rayDeathWithoutCause, type Explains } from './relations.js';
import { RULESET_VERSION } from './version.js';
import type { Rule, Signal, SignalRuleId } from './rule.js';
import { categoryOf, type FailureClass } from './taxonomy.js';
import type { Diagnosis, Evidence } from './types.js';


const CAUSE_TIER = 80;
const MAX_EVIDENCE = 6;

interface Where {
  file: string;
  line: number;
  text: string;
}

export interface RankProgress extends Where {
  rank: number | undefined;
  enqueued: number;
  completed: number | undefined;
  pg?: string;
}

export interface EngineContext {
  p2pTransport: Where | undefined;
  p2pDisabled: boolean;
  /** Last enqueued/completed collective per rank (and process group), from logs or the flight recorder. */
  progress: Map<string, RankProgress>;
  rootRank: number | undefined;
  /** torchelastic's Root Cause (first observed failure) entry: the rank, its exit code and when. */
  rootFailure: (Where & { rank: number; exitCode: number; time: LogTime | undefined }) | undefined;
  maxInputTokens: number | undefined;
  agentFinished: boolean;
  ncclTests: { header: Where | undefined; results: boolean; hosts: Set<string> };
  /** CUDA samples p2pBandwidthLatencyTest: its banner, and whether it printed its closing note. */
  p2pTest: { header: Where | undefined; done: boolean };
  ncclInfoSeen: boolean;
  /** Hosts named by NCCL INFO line prefixes (host:pid:tid [dev]). */
  ncclHosts: Set<string>;
  /** Last NCCL INFO line of a log that ends right after it (the run stopped in NCCL set-up). */
  ncclStall: Where | undefined;
  /** NCCL INFO showed channels over the network (inter-node), so a first-collective hang is not P2P. */
  netTransport: boolean;
  tracebackSeen: boolean;
  ruleCounts: Map<string, number>;
  /** gpu/oom-ranks.json: which rank/GPU reported the CUDA OOM and how full the GPU was. */
  oomRanks: OomRankReport[];
  /** Flight recorder: ranks at the same collective sequence number of one group but in different ops. */
  collectiveMismatch: CollectiveMismatch | undefined;
  /**
   * kernel/dmesg.txt OOM-killer lines are host-wide: whether the run itself was SIGKILLed (exit 137, a
   * worker's -9) or the killed PID is one of the run's, known only once all evidence is in.
   */
  kernelOom: { runKilled: boolean; runPids: Set<number> } | undefined;
  /** The first line of each file where a server announced its start (rules/server-start.ts). */
  serverStarts: Map<string, number>;
}

export interface OomRankReport {
  rank: number | null;
  gpuIndex: number | null;
  triedMiB: number | null;
  totalMiB: number | null;
  freeMiB: number | null;
  inUseMiB: number | null;
  otherProcesses: { pid?: number; usedMiB?: number; cmdline?: string }[];
  /** The failing rank's own PID as the process table saw it, when the capture knew it. */
  selfPid?: number;
  where?: Where;
}

/**
 * PyTorch's allocator lists every process NVML reports on the GPU ("Process N has X memory in use") and
 * leaves out only its own getpid(); inside a container NVML reports host PIDs, so the failing process
 * itself appears in that list under another PID. An entry is the reporting process when its PID is the
 * rank's own, or when it holds exactly what "this process has X memory in use" says.
 */
export function othersThanSelf(r: OomRankReport): OomRankReport['otherProcesses'] {
  return r.otherProcesses.filter((o) => {
    if (o.pid !== undefined && r.selfPid !== undefined && o.pid === r.selfPid) return false;
    if (o.usedMiB !== undefined && r.inUseMiB !== null && Math.abs(o.usedMiB - r.inUseMiB) <= Math.max(1, r.inUseMiB * 0.001)) return false;
    return true;
  });
}

export interface CollectiveMismatch {
  pg: string;
  desc?: string;
  seq: number | null;
  ops: Record<string, string>;
  where: Where;
}

interface ClassBest {
  cls: FailureClass;
  best: Signal;
  signals: Signal[];
}

/**
 * What the outcome guard may read beyond the signals: the log's failure lines (failure-lines.ts) as the
 * vocabulary fallback scores them, leaving out the given lines (`file:line`, the outcome templates' own).
 * Supplied by the engine where the logs alone decide (not for a Harbor trial, whose records decide).
 */
export interface OutcomeGuardInput {
  failureVocabulary?: (exclude: ReadonlySet<string>) => Diagnosis | null;
}

export function resolveDiagnosis(all: Signal[], ctx: EngineContext, guardInput: OutcomeGuardInput = {}): Diagnosis {
  const signals = gate(all, ctx);
  addNcclTestsHang(signals, ctx);
  addRootCauseExit(signals, ctx);
  if (signals.length === 0) return unknown();

  // Symptoms by mechanism (relations.ts SYMPTOMS) that a cause in the bundle explains never compete.
  const explained = explainSymptoms(signals, undefined, { serverStarts: ctx.serverStarts });
  const explainedSignals = new Set(explained.map((e) => e.symptom));
  const pool = signals.filter((s) => !explainedSignals.has(s));
  const allClasses = groupByClass(signals);
  const byClass = guardOutcome(groupByClass(pool.length ? pool : signals), signals);
  const classes = [...byClass.values()];
  const top = Math.max(...classes.map((c) => c.best.strength));
  let winner: ClassBest;
  let contested = false;
  if (top >= CAUSE_TIER) {
    const causes = classes.filter((c) => c.best.strength >= CAUSE_TIER);
    contested = causes.length > 1;
    winner = pickAmongCauses(causes, ctx);
  } else {
    winner = classes.reduce((a, b) => (b.best.strength > a.best.strength || (b.best.strength === a.best.strength && b.best.order < a.best.order) ? b : a));
  }

  let cls = winner.cls;
  let hint = hintOf(winner.best);
  let confidence = confidenceOf(winner, contested);
  const support: Where[] = [];

  // Cause → symptom (relations.ts): a symptom that a cause in the bundle explains gives way to it.
  for (const rel of EXPLAINS) {
    if (cls !== rel.symptom || (rel.symptomIf && !rel.symptomIf(winner.signals))) continue;
    const cause = explainedBy(rel, winner, classes);
    if (!cause) continue;
    winner = cause;
    cls = cause.cls;
    hint = `${hintOf(cause.best)} ${rel.consequence}`;
    confidence = confidenceOf(cause, false);
  }
  if (cls === 'nccl.timeout' || cls === 'nccl.p2p_deadlock') {
    const n = analyseNccl(winner, ctx);
    cls = n.cls;
    hint = n.hint;
    confidence = n.confidence ?? confidence;
    support.push(...n.support);
  }
  // After the NCCL analysis: a stall in a collective is read from the stack, not from watchdog lines.
  if (cls === 'job.stall') {
    const p = stalledCollectiveOverP2p(winner, ctx);
    if (p) {
      cls = 'nccl.p2p_deadlock';
      hint = p.hint;
      confidence = p.confidence ?? confidence;
      support.push(...p.support);
    }
  }
  if (cls === 'cuda.oom' && ctx.oomRanks.length > 0) {
    const r = oomRanksDetail(ctx.oomRanks);
    hint = `${r.text} ${hint.replace(/^GPU memory ran out\. /, '')}`;
    support.push(...r.support);
  }
  if (cls === 'host.killed') {
    // A kill with memory evidence in the same bundle (an OOM-killer line of another host, a MemoryError,
    // host memory nearly full just before) is the OOM killer; without any it stays a kill of unknown origin.
    const memory = byClass.get('host.oom');
    if (memory) {
      cls = 'host.oom';
      hint = `${hintOf(memory.best)} The process was SIGKILLed with this memory evidence in the bundle, which is the OOM killer's signature.`;
      support.push({ file: memory.best.file, line: memory.best.line, text: memory.best.text });
    }
    confidence = Math.min(confidence, 0.5);
  }

  // The symptoms the winner explains, named in its hint as its consequence (once each, at most two).
  const consequences = [...new Set(explained.filter((e) => e.causes.some((c) => c.class === cls)).map((e) => e.mechanism.consequence))];
  for (const c of consequences.slice(0, 2)) if (!hint.includes(c)) hint = `${hint} ${c}`;

  // The guard's second half: only outcome signals are left, but the log's failure lines (other than the
  // outcome templates' own) speak an infra or user vocabulary that no rule knows. Then that is the verdict.
  if (categoryOf(cls) === 'outcome') {
    const overruled = outcomeOverruledByFailureLines(signals, guardInput);
    if (overruled) return overruled;
  }

  const evidence = buildEvidence(winner, support, [...allClasses.values()]);
  const secondary = [...allClasses.values()]
    .filter((c) => c.cls !== cls)
    .sort((a, b) => b.best.strength - a.best.strength)
    .map((c) => c.cls);
  return {
    class: cls,
    category: categoryOf(cls),
    confidence: round2(confidence),
    evidence,
    hint,
    rulesetVersion: RULESET_VERSION,
    ...(secondary.length ? { secondary } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------
// The outcome guard: the project's first rule, in this one place. An outcome (reward 0, an agent timeout,
// a score) is the verdict only when the bundle holds no failure signal at all: an outcome signal is the
// weakest evidence there is, whatever its strength, so any infra or user signal wins over it (an agent
// timeout whose agent log shows 429s, 503s or connection errors is that API failure; a table of 0 scores
// after a CUDA error is the CUDA error), and so do failure lines that speak an infra or user vocabulary
// (outcomeOverruledByFailureLines). Rules, facts and harness templates only say what they saw.

/** Rules that only say "a traceback ended here": on an outcome template's own line they are that template (OpenHands raises its RuntimeError "Agent reached maximum iteration…"). */
const ENDS_OF_TRACEBACK = new Set<SignalRuleId>(['user.traceback_generic', 'user.traceback_other', 'user.traceback_exception']);

const isOutcome = (cls: FailureClass): boolean => categoryOf(cls) === 'outcome';
const lineKey = (s: { file: string; line: number }): string => `${s.file}:${s.line}`;

/**
 * The classes that compete for the root cause: without the outcome classes whenever a failure class is
 * there (a traceback's end on an outcome template's own line is no failure of its own).
 */
function guardOutcome(byClass: Map<FailureClass, ClassBest>, signals: Signal[]): Map<FailureClass, ClassBest> {
  const outcomeLines = new Set(signals.filter((s) => isOutcome(s.class)).map(lineKey));
  if (outcomeLines.size === 0) return byClass;
  const failures = new Map<FailureClass, ClassBest>();
  for (const [cls, c] of byClass) {
    if (isOutcome(cls)) continue;
    const own = c.signals.filter((s) => !(ENDS_OF_TRACEBACK.has(s.rule.id) && outcomeLines.has(lineKey(s))));
    if (own.length === 0) continue;
    failures.set(cls, own.length === c.signals.length ? c : groupByClass(own).get(cls)!);
  }
  if (failures.size) return failures;
  const outcomes = onlyOutcomes(byClass);
  return outcomes.size ? outcomes : byClass;
}

const onlyOutcomes = (byClass: Map<FailureClass, ClassBest>): Map<FailureClass, ClassBest> => new Map([...byClass].filter(([cls]) => isOutcome(cls)));

function outcomeOverruledByFailureLines(signals: Signal[], guardInput: OutcomeGuardInput): Diagnosis | null {
  if (!guardInput.failureVocabulary) return null;
  const outcomeLines = new Set(signals.filter((s) => isOutcome(s.class)).map(lineKey));
  const guess = guardInput.failureVocabulary(outcomeLines);
  if (!guess || guess.class === 'unknown' || isOutcome(guess.class)) return null;
  return {
    ...guess,
    hint: `${guess.hint} An outcome was also reported (${[...outcomeLines][0]}), but a run whose failure lines name a failure is never recorded as an outcome.`,
  };
}

function groupByClass(signals: Signal[]): Map<FailureClass, ClassBest> {
  const byClass = new Map<FailureClass, ClassBest>();
  for (const s of signals) {
    const cur = byClass.get(s.class);
    if (!cur) byClass.set(s.class, { cls: s.class, best: s, signals: [s] });
    else {
      cur.signals.push(s);
      if (s.strength > cur.best.strength || (s.strength === cur.best.strength && s.order < cur.best.order)) cur.best = s;
    }
  }
  return byClass;
}

/**
 * torchelastic's Root Cause entry names the first worker to fail. Killed by a signal (a negative exit
 * code), the kill line there is that root cause, never the echo of another rank's failure. Exited with
 * a code of its own and with no line of that rank in the bundle, the entry is the only word on it:
 * an exception or sys.exit in the worker, whose traceback went to that rank's own stderr.
 */
function addRootCauseExit(signals: Signal[], ctx: EngineContext): void {
  const rf = ctx.rootFailure;
  if (!rf) return;
  if (rf.exitCode < 0) {
    for (let i = 0; i < signals.length; i++) if (signals[i]!.file === rf.file && signals[i]!.line === rf.line) signals[i] = { ...signals[i]!, rootHint: true };
    return;
  }
  if (rf.exitCode === 0 || signals.some((s) => s.rank === rf.rank)) return;
  signals.push({
    rule: ROOT_EXIT_RULE,
    class: 'user.code_error',
    strength: ROOT_EXIT_RULE.strength,
    file: rf.file,
    line: rf.line,
    text: rf.text,
    section: 'log',
    rank: rf.rank,
    ...(rf.time ? { time: rf.time } : {}),
    rootHint: true,
    extracted: {
      hint: `Rank ${rf.rank} was the first worker to fail (torchelastic's Root Cause, first observed failure): it exited with code ${rf.exitCode}, an uncaught exception or sys.exit in its own code. Its traceback went to rank ${rf.rank}'s own stderr: capture every rank (torchrun --tee 3 or --log-dir) or decorate the entrypoint with @record so the report carries it.`,
    },
    order: signals.reduce((m, s) => Math.max(m, s.order), 0) + 1,
  });
}

const ROOT_EXIT_RULE: Rule<SignalRuleId> = {
  id: 'torchelastic.root_cause_exit',
  class: 'user.code_error',
  patterns: [],
  strength: 20,
  why: "torchelastic's Root Cause entry names a worker that exited with a non-zero code of its own, and the bundle holds no line of that rank",
  hint: "The first worker to fail exited with a non-zero code of its own (torchelastic's Root Cause): its traceback is in that rank's stderr.",
};

const AGENT_INSTALL_RULES = new Set(['agent.npm_install_error', 'agent.node_too_old', 'agent.binary_not_found', 'agent.install_step_failed', 'pkg.agent_install']);
const HARNESS_TIMEOUT_RULES = new Set<SignalRuleId>(['harbor.agent_timeout', 'harbor.agent_setup', 'harbor.verifier', 'sandbox.start']);

/** Drop signals whose meaning depends on facts only known at the end. */
function gate(all: Signal[], ctx: EngineContext): Signal[] {
  const harnessTimeoutFiles = new Set(all.filter((s) => HARNESS_TIMEOUT_RULES.has(s.rule.id) && /Timeout/.test(s.text)).map((s) => s.file));
  // A kill or a Ray worker death that names no cause: memory evidence then says what it was.
  const killed = all.some((s) => s.class === 'host.killed' || (s.class === 'ray.crash' && rayDeathWithoutCause(s)));
  const rewarded = all.some((s) => s.extracted.reward !== undefined || s.extracted.resolved !== undefined);
  const harnessSawNoFailure = all.some((s) => s.extracted.harnessNoFailure === true);
  return all.filter((s) => {
    // A test session without its summary means no reward only where the bundle holds none and the harness
    // did not record the trial as finished (Terminal-Bench failure_mode unset: its parser read the tests).
    if (s.rule.id === 'verifier.no_test_summary') return !rewarded && !harnessSawNoFailure;
    // An agent log that stops mid-step is a timeout only where the harness did not record the trial as finished.
    if (s.rule.id === 'agent.loop_cut') return !harnessSawNoFailure;
    // The asyncio TimeoutError inside a harness timeout's traceback is that timeout, not a request timing out.
    if (s.extracted.bareTimeout === true && harnessTimeoutFiles.has(s.file)) return false;
    // "command not found" only means the agent was never installed when the agent never talked to a model.
    if (s.rule.id === 'agent.command_not_found') return (ctx.maxInputTokens ?? 0) === 0 && !ctx.agentFinished;
    // In an agent's own log, npm/Node install errors are the agent's install only if it never got to work;
    // once it talked to a model they are output of commands it ran for its task.
    if (s.section === 'agent' && AGENT_INSTALL_RULES.has(s.rule.id)) return (ctx.maxInputTokens ?? 0) === 0 && !ctx.agentFinished;
    // A bare RuntimeError/Exception line only means something at the end of a Python traceback.
    if (s.rule.id === 'user.traceback_generic') return ctx.tracebackSeen;
    // Host memory nearly full is evidence about a kill, never a failure of its own.
    if (s.rule.id === 'host.memory_pressure') return killed;
    // An unfinished weights-loading bar is evidence only for a kill on its own line or just after it.
    if (s.rule.id === 'host.killed_loading_weights') return all.some((k) => k.class === 'host.killed' && k.file === s.file && k.line >= s.line && k.line - s.line <= LOADING_KILL_LINES);
    return true;
  }).map((s) => (s.file === KERNEL_LOG && s.class === 'host.oom' ? kernelOomOfRun(s, all, ctx) : s));
}

const KERNEL_LOG = 'kernel/dmesg.txt';
/** A kill this many lines after a weights-loading bar still interrupted that load (other ranks' lines between). */
const LOADING_KILL_LINES = 5;

/**
 * The kernel log is the whole host's: an OOM kill there is this run's failure when the run (or one of
 * its workers) was SIGKILLed or the victim is one of its PIDs; otherwise it may be another tenant's
 * process, so it stays a weak hint that any failure of the run's own outranks.
 */
function kernelOomOfRun(s: Signal, all: Signal[], ctx: EngineContext): Signal {
  const k = ctx.kernelOom;
  const pid = typeof s.extracted.pid === 'number' ? s.extracted.pid : undefined;
  // A Ray worker that died without a cause vanished the way a SIGKILLed one does.
  const killed = k?.runKilled || all.some((x) => x.file !== KERNEL_LOG && (x.rule.id === 'host.sigkill_worker' || (x.class === 'ray.crash' && rayDeathWithoutCause(x))));
  if (killed || (pid !== undefined && k?.runPids.has(pid))) return s;
  return {
    ...s,
    strength: Math.min(s.strength, 35),
    extracted: { ...s.extracted, hint: `${typeof s.extracted.hint === 'string' ? s.extracted.hint : s.rule.hint} The run itself was not SIGKILLed and the victim is not one of its processes, so this may be another workload on the host running it out of memory.` },
  };
}

/**
 * A run on one host that set NCCL up and then printed nothing more, with no failure anywhere, hung in its
 * first collective: nccl-tests that never printed a result row, or a log that ends in NCCL INFO chatter
 * after P2P channels were set up.
 */
function addNcclTestsHang(signals: Signal[], ctx: EngineContext): void {
  // A stack of the stalled run (stacks.ts) says where it waits; resolution reads it (stalledCollectiveOverP2p).
  // A kill after the silence (an outer timeout, an operator) is the reaction to the hang (relations.ts).
  const blocked = signals.some((s) => (s.strength >= 30 && s.class !== 'host.killed') || s.extracted.wait !== undefined);
  // The CUDA samples' P2P bandwidth test that never printed its closing note hung in a P2P copy.
  const p = ctx.p2pTest;
  if (p.header && !p.done && !blocked && !ctx.p2pDisabled) signals.push(hangSignal(P2P_TEST_HANG_RULE, p.header));
  if (!ctx.ncclInfoSeen || ctx.p2pDisabled || blocked) return;
  const t = ctx.ncclTests;
  const oneHost = t.hosts.size <= 1 && ctx.ncclHosts.size <= 1 && !ctx.netTransport;
  if (!oneHost) return;
  let where: Where | undefined;
  if (t.header && !t.results) where = t.header;
  else if (!t.header && ctx.ncclStall && ctx.p2pTransport) where = ctx.ncclStall;
  else if (!t.header && ctx.ncclStall) {
    // Silence right after NCCL set-up with no P2P channel in the lines: stuck in the first collective or
    // just after, but nothing names the transport.
    signals.push(hangSignal(NCCL_INIT_SILENCE_RULE, ctx.ncclStall));
    return;
  }
  if (!where) return;
  signals.push(hangSignal(NCCL_TESTS_HANG_RULE, where));
}

function hangSignal(rule: Rule<SignalRuleId>, where: Where): Signal {
  return { rule, class: rule.class, strength: rule.strength, file: where.file, line: where.line, text: where.text, section: 'log', extracted: {}, order: -1 };
}

const P2P_TEST_HANG_RULE: Rule<SignalRuleId> = {
  id: 'nccl.p2p_test_hang',
  class: 'nccl.p2p_deadlock',
  patterns: [],
  strength: 34,
  why: "CUDA's p2pBandwidthLatencyTest started and never printed its closing note: a peer-to-peer copy between GPUs hung",
  hint: "The CUDA samples' P2P bandwidth test hung in a peer-to-peer copy between GPUs: GPU P2P is broken on this host (PCIe ACS redirecting P2P through the root complex, or the IOMMU translating it). Disable ACS on the PCIe switches/root ports or boot with iommu=pt (intel_iommu=off / amd_iommu=off); until then NCCL_P2P_DISABLE=1 avoids it.",
};

const NCCL_INIT_SILENCE_RULE: Rule<SignalRuleId> = {
  id: 'stall.after_nccl_init',
  class: 'job.stall',
  patterns: [],
  strength: 22,
  why: 'the log ends right after NCCL set up its communicators on one host: the run stopped in or just before its first collective',
  hint: 'The run stopped right after NCCL set up its communicators and printed nothing more: it waits in (or just before) its first collective. The NCCL INFO lines name no P2P channel, so the GPU peer-to-peer deadlock is not shown; still, NCCL_P2P_DISABLE=1 (and for vLLM --disable-custom-all-reduce, whose all-reduce uses P2P itself) is the first thing to try. py-spy dump --pid PID of each rank shows where each waits.',
};

/** A stack this close after the log's last NCCL INFO line came while NCCL had just been set up. */
const NCCL_INIT_TAIL_LINES = 60;

/**
 * A main thread stuck in a collective (stacks.ts) right after NCCL set up P2P channels between the GPUs
 * of one host, with nothing else printed in between: the run never got past its first collective over
 * P2P, TAXONOMY's P2P deadlock. Later in a run, or with NCCL_P2P_DISABLE, or across hosts, it stays a stall.
 */
function stalledCollectiveOverP2p(w: ClassBest, ctx: EngineContext): NcclVerdict | undefined {
  const s = w.signals.find((x) => x.extracted.wait === 'collective' && typeof x.extracted.afterNcclInfo === 'number' && x.extracted.afterNcclInfo <= NCCL_INIT_TAIL_LINES);
  if (!s || !ctx.p2pTransport || ctx.p2pDisabled || ctx.ncclHosts.size > 1) return undefined;
  return {
    cls: 'nccl.p2p_deadlock',
    hint: `The run stopped in its first collective right after NCCL set up P2P channels between the GPUs of this host (${String(s.extracted.waitAt ?? 'a collective')} is where the main thread waits): the GPU peer-to-peer transport deadlock. Re-run with NCCL_P2P_DISABLE=1 to confirm (it should then pass); for good, disable PCIe ACS or set the IOMMU to pass-through (iommu=pt, intel_iommu=off), or update the driver.`,
    confidence: 0.7,
    support: [ctx.p2pTransport],
  };
}

const NCCL_TESTS_HANG_RULE: Rule<SignalRuleId> = {
  id: 'nccl.tests_hang_first_collective',
  class: 'nccl.p2p_deadlock' as const,
  patterns: [],
  strength: 34,
  why: 'NCCL was set up on one host (nccl-tests, or P2P channels) and the run printed nothing after it: it never completed its first collective',
  hint: 'The first collective between GPUs of one host never completed: a GPU peer-to-peer (P2P/IPC) transport hang. Confirm with NCCL_P2P_DISABLE=1 (it should then pass); fix for good by disabling PCIe ACS / setting the IOMMU to pass-through (iommu=pt, intel_iommu=off) or updating the driver.',
};

function pickAmongCauses(causes: ClassBest[], ctx: EngineContext): ClassBest {
  if (causes.length === 1) return causes[0]!;
  const rooted = causes.filter((c) => c.signals.some((s) => s.rootHint || (ctx.rootRank !== undefined && s.rank === ctx.rootRank)));
  const pool = rooted.length > 0 ? rooted : causes;
  if (pool.length === 1) return pool[0]!;
  const earliest = (c: ClassBest): Signal => c.signals.reduce((a, b) => (b.order < a.order ? b : a));
  const firsts = pool.map((c) => ({ c, s: firstInTime(c.signals) ?? earliest(c) }));
  const clock = firsts.every((f) => f.s.time !== undefined) ? commonClock(firsts.map((f) => f.s.time!)) : undefined;
  if (clock) {
    const at = (s: Signal) => clockValue(s.time!, clock);
    const sorted = [...firsts].sort((a, b) => at(a.s) - at(b.s) || b.c.best.strength - a.c.best.strength || a.s.order - b.s.order);
    return sorted[0]!.c;
  }
  return [...pool].sort((a, b) => b.best.strength - a.best.strength || earliest(a).order - earliest(b).order)[0]!;
}

function hintOf(s: Signal): string {
  return typeof s.extracted.hint === 'string' ? s.extracted.hint : s.rule.hint;
}

/** The earliest of a class's signals on the clock they share, or the first stamped one when they share none. */
function firstInTime(signals: Signal[]): Signal | undefined {
  const stamped = signals.filter((s) => s.time !== undefined);
  if (stamped.length === 0) return undefined;
  const clock = commonClock(stamped.map((s) => s.time!));
  if (!clock) return stamped[0];
  return stamped.reduce((best, s) => (clockValue(s.time!, clock) < clockValue(best.time!, clock) ? s : best));
}

/** a is no later than b, when their stamps compare; undefined when they do not. */
function notAfter(a: Signal, b: Signal): boolean | undefined {
  if (a.time === undefined || b.time === undefined) return undefined;
  const c = compareLogTimes(a.time, b.time);
  return c === undefined ? undefined : c <= 0;
}

function confidenceOf(w: ClassBest, contested: boolean): number {
  const extra = Math.min(3, w.signals.length - 1) * 0.04;
  const c = 0.35 + w.best.strength / 200 + extra - (contested ? 0.1 : 0);
  return Math.max(0.05, Math.min(0.97, c));
}

const earliestInOrder = (signals: Signal[]): Signal => signals.reduce((a, b) => (b.order < a.order ? b : a));
const firstOf = (signals: Signal[]): Signal => firstInTime(signals) ?? earliestInOrder(signals);

/** The strongest cause of `rel` present in the bundle that explains `symptom`, in the order the relation needs. */
function explainedBy(rel: Explains, symptom: ClassBest, classes: ClassBest[]): ClassBest | undefined {
  const firstSymptom = firstOf(symptom.signals);
  const found: ClassBest[] = [];
  for (const c of classes) {
    if (!rel.causes.includes(c.cls) || c === symptom) continue;
    const signals = rel.causeSignal ? c.signals.filter(rel.causeSignal) : c.signals;
    if (signals.length === 0) continue;
    const best = rel.causeSignal ? signals.reduce((a, b) => (b.strength > a.strength ? b : a)) : c.best;
    if (best.strength < (rel.minCauseStrength ?? 0) || rel.notFromRules?.includes(best.rule.id)) continue;
    const first = firstOf(signals);
    const inOrder =
      rel.order === 'any' ? true : rel.order === 'not-after' ? (notAfter(first, firstSymptom) ?? true) : (notAfter(first, firstSymptom) ?? (first.file === firstSymptom.file && first.order < firstSymptom.order));
    if (inOrder) found.push({ cls: c.cls, best, signals });
  }
  return found.sort((a, b) => b.best.strength - a.best.strength || a.best.order - b.best.order)[0];
}

const gib = (mib: number): string => `${(mib / 1024).toFixed(mib >= 10240 ? 0 : 1)} GiB`;

/** Name the rank (and GPU) that ran out, and whether another process shared its GPU, from gpu/oom-ranks.json. */
function oomRanksDetail(reports: OomRankReport[]): { text: string; support: Where[] } {
  const parts: string[] = [];
  const support: Where[] = [];
  const ranks = [...new Set(reports.map((r) => r.rank).filter((r): r is number => r !== null))].sort((a, b) => a - b);
  const first = reports[0]!;
  const who = ranks.length === 1 ? `Rank ${ranks[0]}` : ranks.length > 1 ? `Ranks ${ranks.join(', ')}` : 'A process';
  const gpu = first.gpuIndex !== null ? ` on GPU ${first.gpuIndex}` : '';
  const sizes = [
    first.triedMiB !== null ? `tried to allocate ${gib(first.triedMiB)}` : '',
    first.inUseMiB !== null && first.totalMiB !== null ? `with ${gib(first.inUseMiB)} of ${gib(first.totalMiB)} in use by the process` : '',
  ].filter(Boolean);
  parts.push(`${who} ran out of GPU memory${ranks.length > 1 ? '' : gpu}${sizes.length ? ` (${sizes.join(' ')})` : ''}.`);
  // Once per PID (each rank's report lists the same neighbour), and never a process that is itself one
  // of the failing ranks (another report's own PID): "other" means outside the ranks named above.
  const failing = new Set(reports.map((r) => r.selfPid).filter((p): p is number => p !== undefined));
  const seen = new Set<number>();
  const others = reports
    .flatMap(othersThanSelf)
    .filter((o) => (o.usedMiB ?? 0) > 0 && (o.pid === undefined || (!failing.has(o.pid) && !seen.has(o.pid) && seen.add(o.pid))));
  if (others.length) {
    const used = others.reduce((a, o) => a + (o.usedMiB ?? 0), 0);
    parts.push(`${others.length} other process${others.length > 1 ? 'es' : ''} held ${gib(used)} on the same GPU${others[0]!.pid !== undefined ? ` (pid ${others[0]!.pid}${others[0]!.cmdline ? `: ${others[0]!.cmdline}` : ''})` : ''}: free the GPU or lower that process's share first.`);
  }
  for (const r of reports.slice(0, 2)) if (r.where) support.push(r.where);
  return { text: parts.join(' '), support };
}

interface NcclVerdict {
  cls: FailureClass;
  hint: string;
  confidence?: number;
  support: Where[];
}

/** Transport deadlock vs desync vs a plain timeout, from watchdog lines, progress lines and the flight recorder. */
function analyseNccl(w: ClassBest, ctx: EngineContext): NcclVerdict {
  const timeouts = w.signals.filter((s) => s.rule.id === 'nccl.watchdog_timeout');
  // Sequence numbers only compare within one process group (TP and DP groups count separately).
  const seqByRank = new Map<string, { seq: number; op?: string; pg: string }>();
  for (const s of timeouts) {
    const pg = typeof s.extracted.pg === 'string' ? s.extracted.pg : '';
    if (typeof s.extracted.seq === 'number') seqByRank.set(`${pg}:${s.rank ?? s.order}`, { seq: s.extracted.seq, op: s.extracted.op as string | undefined, pg });
  }
  const seqGroups = new Map<string, { seq: number; op?: string }[]>();
  for (const v of seqByRank.values()) seqGroups.set(v.pg, [...(seqGroups.get(v.pg) ?? []), v]);
  const progress = [...ctx.progress.values()];
  const byPg = new Map<string, RankProgress[]>();
  for (const p of progress) {
    const k = p.pg ?? '';
    const list = byPg.get(k) ?? [];
    list.push(p);
    byPg.set(k, list);
  }
  let desync: { lagging: RankProgress; ahead: RankProgress } | undefined;
  for (const list of byPg.values()) {
    const ranked = list.filter((p) => p.rank !== undefined);
    if (ranked.length < 2) continue;
    const min = ranked.reduce((a, b) => (b.enqueued < a.enqueued ? b : a));
    const max = ranked.reduce((a, b) => (b.enqueued > a.enqueued ? b : a));
    if (min.enqueued !== max.enqueued) {
      desync = { lagging: min, ahead: max };
      break;
    }
  }
  const seqs = new Set([...seqByRank.values()].map((v) => v.seq));
  const groupSeqs = [...seqGroups.values()].map((g) => new Set(g.map((v) => v.seq)));
  const groupOps = [...seqGroups.values()].map((g) => new Set(g.map((v) => v.op).filter(Boolean)));
  const seqDesync = groupSeqs.some((g) => g.size > 1);
  const mismatched = groupOps.find((g, i) => g.size > 1 && groupSeqs[i]!.size === 1);
  const opMismatch = !seqDesync && mismatched !== undefined;
  const ops = mismatched ?? new Set<string>();

  const support: Where[] = [];
  const fr = ctx.collectiveMismatch;
  if (fr) {
    const list = Object.entries(fr.ops).map(([r, op]) => `rank ${r} in ${op}`).join(', ');
    support.push(fr.where);
    return {
      cls: 'nccl.timeout',
      hint: `Desync (mismatched collective), not a transport hang: the flight recorder shows the ranks at the same collective ${fr.seq ?? ''} of process group ${fr.pg}${fr.desc ? ` (${fr.desc})` : ''} but in different operations (${list}), so they wait in collectives that can never match. Make every rank issue the same collectives in the same order (a rank-dependent branch or a data-dependent number of calls is the usual cause); TORCH_DISTRIBUTED_DEBUG=DETAIL reports the mismatch at the call.`,
      confidence: 0.9,
      support,
    };
  }
  // PyTorch's desync report / the flight-recorder analyser name the ranks that never joined.
  const report = w.signals.find((s) => s.rule.id === 'nccl.desync_report' && typeof s.extracted.laggingRanks === 'string');
  if (report) {
    const ranks = String(report.extracted.laggingRanks).split(',');
    // fr_trace prints the collective ("Not all ranks joining collective 5 …") a line above its missing ranks.
    const n = [report, ...w.signals.filter((s) => s.rule.id === 'nccl.desync_report')].find((s) => typeof s.extracted.seq === 'number')?.extracted.seq;
    const seq = n !== undefined ? ` (collective #${n})` : '';
    return {
      cls: 'nccl.timeout',
      hint: `Desync, not a transport hang: the desync report names rank${ranks.length > 1 ? 's' : ''} ${ranks.join(', ')} as lagging${seq}: ${ranks.length > 1 ? 'they' : 'it'} never joined the collective the other ranks wait in. Find why ${ranks.length > 1 ? 'those ranks' : `rank ${ranks[0]}`} took a different path or stopped before the call (a rank-dependent branch, an exception caught on that rank, uneven data, a hang of its own — its stack shows where: py-spy dump --pid PID).`,
      confidence: 0.9,
      support: [{ file: report.file, line: report.line, text: report.text }],
    };
  }
  if (desync || seqDesync) {
    let detail: string;
    if (desync) {
      detail = `rank ${desync.lagging.rank} last enqueued collective ${desync.lagging.enqueued} while rank ${desync.ahead.rank} enqueued ${desync.ahead.enqueued}`;
      support.push(desync.ahead, desync.lagging);
    } else {
      const g = groupSeqs.find((x) => x.size > 1) ?? seqs;
      detail = `ranks of one process group timed out at different sequence numbers (${[...g].sort((a, b) => a - b).join(', ')})`;
    }
    return {
      cls: 'nccl.timeout',
      hint: `Desync, not a transport hang: ${detail}, so one rank never joined the collective the others are waiting in. Find why the lagging rank took a different path (data-dependent branch, an exception swallowed on that rank, uneven batches, a rank stuck before the call); the flight recorder (TORCH_NCCL_TRACE_BUFFER_SIZE, torchfrtrace) shows the mismatching collective.`,
      confidence: 0.85,
      support,
    };
  }
  if (opMismatch) {
    return {
      cls: 'nccl.timeout',
      hint: `Ranks are at the same sequence number but in different collectives (${[...ops].join(' vs ')}): a desync in the order of collectives across ranks. Make every rank issue the same collectives in the same order; TORCH_DISTRIBUTED_DEBUG=DETAIL reports the mismatch.`,
      confidence: 0.8,
      support,
    };
  }

  if (w.cls === 'nccl.p2p_deadlock') {
    return { cls: 'nccl.p2p_deadlock', hint: w.best.rule.hint, confidence: w.best.rule.id === 'nccl.iommu_p2p' ? 0.6 : 0.55, support: ctx.p2pTransport ? [ctx.p2pTransport] : [] };
  }

  // The heartbeat monitor killed the process while no collective was pending (workMetaList_.size()=0, or
  // every rank's last enqueued work completed or none enqueued, -1): no collective hung, the process
  // itself was frozen (a blocked CUDA call or file system, a thread holding the GIL).
  const stuck = w.signals.filter((s) => s.rule.id === 'nccl.watchdog_stuck');
  const nothingPending =
    stuck.some((s) => s.extracted.pendingWork === 0) || (progress.length > 0 && progress.every((p) => p.enqueued < 0 || (p.completed !== undefined && p.completed >= p.enqueued)));
  if (timeouts.length === 0 && stuck.length > 0 && nothingPending) {
    return {
      cls: 'job.stall',
      hint: 'The NCCL heartbeat monitor ended the process because its watchdog thread stopped, while no collective was pending (none enqueued, or every enqueued one completed): the process itself froze, not a collective. Usual causes: a CUDA call that blocks (a hung kernel, a driver fault), a file system that stopped answering (NFS/Lustre), or a thread holding the GIL in a C call. A py-spy dump (py-spy dump --native --pid PID) during the freeze shows where; TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC gives a transient freeze more time.',
      confidence: 0.6,
      support: progress.slice(0, 2),
    };
  }
  // Sequence numbers count from 1; the last completed is 0 (older releases) or -1 (none) before the first completes.
  const firstCollective =
    (seqs.size > 0 && [...seqs].every((s) => s <= 1)) ||
    (progress.length > 0 && progress.every((p) => (p.completed ?? 0) <= 0 && p.enqueued <= 1 && p.enqueued >= 0));
  if (ctx.p2pTransport) support.push(ctx.p2pTransport);
  // Channels over the network and none over P2P: a multi-node first-collective hang is a network problem.
  const interNodeOnly = ctx.netTransport && !ctx.p2pTransport;
  if (firstCollective && !ctx.p2pDisabled && !interNodeOnly) {
    return {
      cls: 'nccl.p2p_deadlock',
      hint: `Every rank is stuck in the first collective (same sequence number, none completed)${ctx.p2pTransport ? ' over the P2P transport' : ''}: a GPU peer-to-peer transport deadlock. Set NCCL_P2P_DISABLE=1 to confirm and unblock; the lasting fix is disabling PCIe ACS / IOMMU pass-through (iommu=pt) or a driver that reports P2P correctly.`,
      confidence: ctx.p2pTransport ? 0.85 : 0.65,
      support,
    };
  }
  let hint = w.best.rule.hint;
  if (seqs.size === 1 && seqByRank.size > 1 && seqGroups.size === 1) hint += ` All ${seqByRank.size} ranks that reported were in the same collective (SeqNum ${[...seqs][0]}), so no rank was left behind: suspect a slow or failed link or GPU, not a desync.`;
  if (ctx.p2pTransport && !ctx.p2pDisabled) hint += ' NCCL used the P2P transport; if the hang repeats, try NCCL_P2P_DISABLE=1.';
  return { cls: 'nccl.timeout', hint, support };
}

function buildEvidence(w: ClassBest, support: Where[], classes: ClassBest[]): Evidence[] {
  const out: Evidence[] = [];
  const seen = new Set<string>();
  const push = (e: Evidence) => {
    const k = `${e.file}:${e.line}`;
    if (seen.has(k) || out.length >= MAX_EVIDENCE) return;
    seen.add(k);
    out.push({ ...e, text: e.text.trim().slice(0, 500) });
  };
  // The line that decided the class first, then the class's other lines in the order they were seen.
  const own = [...w.signals].sort((a, b) => b.strength - a.strength || a.order - b.order);
  // With supporting context (desync progress lines, the P2P transport line) two of the class's own lines are enough.
  const head = [own[0]!, ...own.slice(1, support.length ? 2 : 3).sort((a, b) => a.order - b.order)];
  for (const s of head) push({ file: s.file, line: s.line, text: s.text, rule: s.rule.id });
  for (const s of support) push({ file: s.file, line: s.line, text: s.text, rule: 'context' });
  const others = classes.filter((c) => c.cls !== w.cls).sort((a, b) => b.best.strength - a.best.strength);
  for (const c of others.slice(0, 2)) push({ file: c.best.file, line: c.best.line, text: c.best.text, rule: c.best.rule.id });
  return out;
}

function unknown(): Diagnosis {
  return {
    class: 'unknown',
    category: categoryOf('unknown'),
    confidence: 0,
    evidence: [],
    hint: 'No rule matched: the logs hold no recognised failure signal. Capture the full stderr of every rank/process and the exit status.',
    rulesetVersion: RULESET_VERSION,
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
