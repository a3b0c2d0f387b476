// Trial-level decision for Harbor trials (DESIGN §4, §5; TAXONOMY). classifyBundle calls
// decideHarborTrial when the bundle holds harbor/result.json, passing the diagnosis its log rules
// reached over all files. Harbor keeps only the first exception and, after AgentTimeoutError or
// NonZeroAgentExitCodeError (ApiRateLimitError), still runs the verifier, so a trial starved by a
// failing gateway comes back as "reward 0 + exception". This function makes sure such a trial is
// named for its infrastructure cause, never recorded as an outcome. Pure: no I/O.
import { categoryOf, type FailureClass } from './taxonomy.js';
import type { BundleInput, Diagnosis, Evidence } from './types.js';
import { Engine } from './engine.js';
import type { Signal } from './rule.js';
import { readHarborResult, type HarborPhase } from './harbor-result.js';
import { AGENT_PHASE as AGENT_PHASE_CAUSES, VERIFIER as STOPPED_VERIFIER_CAUSES, harborExceptionRow, type HarborInfraClass } from './rules/harbor-exceptions.js';

export type InfraClass = HarborInfraClass;

// Priority when two classes have the same number of lines: the specific cause first.
const PRIORITY: readonly InfraClass[] = [
  'image.build_failure',
  'disk.full',
  'host.oom',
  'cuda.oom',
  'sandbox.failure',
  'agent.setup_failure',
  'gateway.5xx',
  'gateway.4xx',
  'api.timeout',
  'network.error',
  'verifier.failure',
];


/**
 * Files whose text speaks for the trial's infrastructure: the trial log, the recorded exception,
 * the agent's own logs. Not the verifier's test output (a task's failing tests are the outcome)
 * and not ATIF trajectories (tool observations are the agent's shell output).
 */
export function isTrustedSignalFile(path: string): boolean {
  if (!path.startsWith('harbor/')) return path.startsWith('k8s/') || path.startsWith('logs/');
  if (path.startsWith('harbor/verifier/') || /^harbor\/steps\/[^/]+\/verifier\//.test(path)) return false;
  if (/(^|\/)trajectory(\.cont-\d+|\.summarization-[^/]*)?\.json$/.test(path)) return false;
  if (/\.trajectory\.json$/.test(path)) return false;
  // Configs echo settings, and fdiag's own trial summary repeats the exception message.
  if (path === 'harbor/config.json' || path === 'harbor/job-config.json' || path === 'harbor/fdiag-trial.json') return false;
  if (/^harbor\/(steps\/[^/]+\/)?artifacts\//.test(path)) return false;
  return true;
}

export interface SignalScan {
  /** Evidence lines per class, in file order. */
  byClass: Map<InfraClass, Evidence[]>;
  /** The class with most lines (ties: the more specific cause), or null. */
  best: InfraClass | null;
}

/**
 * Infra signals in the trusted harbor texts (and result.json's exception message lines), found by
 * the rule engine's own rules: one pattern source for the trial decision, the canary and every log.
 */
export function scanHarborSignals(input: BundleInput): SignalScan {
  const byClass = new Map<InfraClass, Evidence[]>();
  const engine = new Engine();
  const result = input.files.get('harbor/result.json');
  const readable = result !== undefined && readHarborResult(result).status !== 'garbled';
  for (const path of [...input.files.keys()].sort()) {
    if (!isTrustedSignalFile(path)) continue;
    // The recorded exception is judged by its type: its traceback always chains a bare asyncio
    // TimeoutError, and exception.txt repeats it. Only when result.json is unreadable does it speak.
    if (path === 'harbor/exception.txt' && readable) continue;
    const text = input.files.get(path) ?? '';
    // A result.json's exception message is log text (line numbers kept); it is read as the log section.
    if (path === 'harbor/result.json') engine.feed(RESULT_MESSAGE, exceptionTextOfResult(text));
    else engine.feed(path, text.length > MAX_TEXT_SCANNED ? text.slice(0, MAX_TEXT_SCANNED) : text);
  }
  engine.finish(undefined, { fallback: false });
  const trusted: { sig: Signal; file: string; cls: InfraClass }[] = [];
  for (const sig of engine.signals()) {
    const file = sig.file === RESULT_MESSAGE ? 'harbor/result.json' : sig.file;
    if (!INFRA_SET.has(sig.class as InfraClass) || !isTrustedSignalFile(file)) continue;
    const cls = sig.class as InfraClass;
    // Setup output is where a missing agent binary shows; elsewhere "command not found" is the task's.
    // Exit 127/126 of the agent's own command (in the recorded exception's message) says the same wherever it is.
    if (cls === 'agent.setup_failure' && !/^harbor\/agent\/setup\//.test(file) && sig.rule.id !== 'agent.command_exit_127') continue;
    trusted.push({ sig, file, cls });
  }
  // One entry per line and class, as resolve.ts's evidence has: several rules may read one line (an SDK's
  // class name, the status it carries, a proxy's words it quotes); the strongest names it.
  const key = (t: (typeof trusted)[number]): string => `${t.cls} ${t.file}:${t.sig.line}`;
  const strongest = new Map<string, Signal>();
  for (const t of trusted) if ((strongest.get(key(t))?.strength ?? -1) < t.sig.strength) strongest.set(key(t), t.sig);
  for (const t of trusted) {
    if (strongest.get(key(t)) !== t.sig) continue;
    const list = byClass.get(t.cls) ?? [];
    list.push({ file: t.file, line: t.sig.line, text: trimLine(t.sig.text), rule: t.sig.rule.id });
    byClass.set(t.cls, list);
  }
  return { byClass, best: pickBest(byClass) };
}

const RESULT_MESSAGE = 'harbor/result.json#exception_message';
const INFRA_SET = new Set<InfraClass>(['gateway.4xx', 'gateway.5xx', 'api.timeout', 'network.error', 'sandbox.failure', 'image.build_failure', 'host.oom', 'cuda.oom', 'disk.full', 'agent.setup_failure', 'verifier.failure']);
/** Text read per trusted file (head), as the engine's own limits would cut it. */
const MAX_TEXT_SCANNED = 16 * 1024 * 1024;

function pickBest(byClass: Map<InfraClass, Evidence[]>, allowed?: readonly InfraClass[]): InfraClass | null {
  let best: InfraClass | null = null;
  let bestN = 0;
  for (const cls of PRIORITY) {
    if (allowed && !allowed.includes(cls)) continue;
    const n = uniqueLines(byClass.get(cls) ?? []);
    if (n > bestN) {
      best = cls;
      bestN = n;
    }
  }
  return best;
}

function uniqueLines(ev: Evidence[]): number {
  return new Set(ev.map((e) => `${e.file}:${e.line}`)).size;
}

/** A result.json reduced to its exception message/traceback lines (each JSON line's escaped \\n parts on it), other lines blank. */
function exceptionTextOfResult(text: string): string {
  return text
    .split('\n')
    .map((l) => (/^\s*"exception_message"\s*:/.test(l) ? l.split('\\n').join(' ').slice(0, 4000) : ''))
    .join('\n');
}

function trimLine(s: string): string {
  const t = s.trim();
  return t.length > 400 ? `${t.slice(0, 397)}...` : t;
}

// ------------------------------------------------------------------ result.json facts

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Agent steps and tool activity in the (first) ATIF trajectory; null when absent or unreadable. */
function atifActivity(text: string | undefined): { agentSteps: number; toolActivity: number } | null {
  if (!text) return null;
  try {
    const t = JSON.parse(text) as Json;
    if (!Array.isArray(t.steps)) return null;
    let agentSteps = 0;
    let toolActivity = 0;
    for (const s of t.steps as Json[]) {
      if (!isObj(s) || s.source !== 'agent') continue;
      agentSteps++;
      if (Array.isArray(s.tool_calls) && s.tool_calls.length) toolActivity++;
      else if (isObj(s.observation) && Array.isArray(s.observation.results) && s.observation.results.length) toolActivity++;
    }
    return { agentSteps, toolActivity };
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ the decision

const HINTS: Partial<Record<FailureClass, string>> = {
  'outcome.scored': 'The trial completed and scored above 0.',
  'outcome.reward_zero': 'The trial completed and the verifier scored it 0: a valid outcome.',
  'outcome.agent_timeout': 'The agent used up its time with healthy API calls: a valid 0, not an infrastructure failure.',
  'gateway.5xx': 'The LLM gateway answered 5xx while the agent ran: retry the trial; do not train on its reward.',
  'gateway.4xx': 'The LLM gateway refused requests (rate limit, bad request or context length): fix the quota/config and retry; do not train on its reward.',
  'api.timeout': 'Model API requests timed out while the agent ran: retry the trial; do not train on its reward.',
  'network.error': 'The agent could not reach the model API (connection/DNS/TLS): retry the trial; do not train on its reward.',
  'sandbox.failure': 'The sandbox did not start, failed its healthcheck or died: retry the trial; check the Pod events.',
  'image.build_failure': 'The task image did not build: fix the image or the registry, then retry.',
  'host.oom': 'The sandbox ran out of memory: raise the memory limit or retry on a larger node.',
  'cuda.oom': 'GPU memory ran out in the sandbox or server.',
  'disk.full': 'The sandbox or node ran out of disk: free space or raise the ephemeral-storage limit.',
  'agent.setup_failure': 'The agent was never installed or started in the sandbox: check agent/setup output; retry.',
  'verifier.failure': 'The verifier produced no reward: this trial has no score (not a 0); retry it.',
  unknown: 'No rule decided this Harbor trial.',
};

function diag(cls: FailureClass, confidence: number, evidence: Evidence[], fromLogs: Diagnosis, hintExtra?: string): Diagnosis {
  const hint = [HINTS[cls] ?? '', hintExtra ?? ''].filter(Boolean).join(' ');
  return { class: cls, category: categoryOf(cls), confidence, evidence: dedupe(evidence).slice(0, 12), hint, rulesetVersion: fromLogs.rulesetVersion };
}

function dedupe(ev: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return ev.filter((e) => {
    const k = `${e.file}:${e.line}:${e.rule}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function lineOf(text: string | undefined, re: RegExp): { line: number; text: string } | null {
  if (!text) return null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) return { line: i + 1, text: trimLine(lines[i]) };
  return null;
}

/**
 * The infra diagnosis the engine's log rules reached, when it rests on trusted files; a verdict
 * this function made earlier (rule ids "harbor.*") does not count, so calling it twice is stable.
 */
function infraFromLogs(fromLogs: Diagnosis): { cls: InfraClass; evidence: Evidence[] } | null {
  if (fromLogs.category !== 'infra') return null;
  // The recorded exception (exception.txt, result.json) is judged by its type below: a Harbor
  // timeout's traceback always chains a bare asyncio TimeoutError, which says nothing about the API.
  const ev = fromLogs.evidence.filter(
    (e) => !e.rule.startsWith('harbor.') && isTrustedSignalFile(e.file) && e.file !== 'harbor/exception.txt' && e.file !== 'harbor/result.json',
  );
  if (ev.length === 0) return null;
  return { cls: fromLogs.class as InfraClass, evidence: ev };
}

function cause(
  fromLogs: Diagnosis,
  scan: SignalScan,
  allowed: readonly InfraClass[],
): { cls: InfraClass; evidence: Evidence[]; source: 'engine' | 'scan' } | null {
  const eng = infraFromLogs(fromLogs);
  if (eng && allowed.includes(eng.cls)) return { ...eng, source: 'engine' };
  const best = pickBest(scan.byClass, allowed);
  if (!best) return null;
  return { cls: best, evidence: (scan.byClass.get(best) ?? []).slice(0, 6), source: 'scan' };
}

export function decideHarborTrial(input: BundleInput, fromLogs: Diagnosis): Diagnosis {
  const resultText = input.files.get('harbor/result.json') ?? '';
  const facts = readHarborResult(resultText);
  if (facts.status === 'garbled') return decideHarborTrialWithoutResult(input, fromLogs, facts.problem ?? undefined);
  const scan = scanHarborSignals(input);

  const ev: Evidence[] = [];
  const excLine = lineOf(resultText, /"exception_type"\s*:/);
  if (facts.exception && excLine) ev.push({ file: 'harbor/result.json', line: excLine.line, text: excLine.text, rule: 'harbor.exception_type' });
  const rewardLine = facts.rewards ? (lineOf(resultText, /^\s*"reward"\s*:\s*-?\d/) ?? lineOf(resultText, /^\s*"rewards"\s*:/)) : null;
  if (rewardLine) ev.push({ file: 'harbor/result.json', line: rewardLine.line, text: rewardLine.text, rule: 'harbor.reward' });
  const exc = facts.exception?.type ?? null;
  const msg = facts.exception?.message ?? '';
  const hasReward = facts.reward !== null;
  const stepNote = facts.exception?.step ? `Exception recorded in step "${facts.exception.step}".` : '';

  const outcomeByReward = (extra?: string): Diagnosis => {
    if (!hasReward) return diag('verifier.failure', 0.7, ev, fromLogs, [extra, stepNote].filter(Boolean).join(' '));
    return diag(facts.reward! > 0 ? 'outcome.scored' : 'outcome.reward_zero', 0.9, ev, fromLogs, [extra, stepNote].filter(Boolean).join(' '));
  };
  // An infra cause. A trial the verifier still scored above 0 stays scored, infra-affected (TAXONOMY).
  const infra = (cls: FailureClass, conf: number, more: Evidence[] = [], extra?: string): Diagnosis => {
    if (categoryOf(cls) === 'infra' && hasReward && facts.reward! > 0) {
      const d = diag('outcome.scored', 0.8, [...ev, ...more], fromLogs, `Scored ${facts.reward} although ${exc ?? 'an infrastructure error'} was recorded (${cls}): infra-affected; the canary still counts it. ${stepNote}`.trim());
      return { ...d, infraClass: cls };
    }
    const recorded = hasReward && categoryOf(cls) === 'infra' ? `Harbor recorded reward ${facts.reward} for it; that is not a real score.` : '';
    return diag(cls, conf, [...ev, ...more], fromLogs, [extra, recorded, stepNote].filter(Boolean).join(' '));
  };

  if (exc === null) {
    if (!hasReward) {
      const c = cause(fromLogs, scan, STOPPED_VERIFIER_CAUSES);
      return c ? infra(c.cls, 0.7, c.evidence) : diag('verifier.failure', 0.6, ev, fromLogs, 'No exception was recorded and no reward either.');
    }
    // Finished without an exception: the verifier's score stands, unless the agent never acted at
    // all and its logs show why (an agent that exits 0 after every model call failed).
    if (facts.reward === 0) {
      const act = atifActivity(input.files.get('harbor/agent/trajectory.json'));
      const c = cause(fromLogs, scan, AGENT_PHASE_CAUSES);
      if (c && act && act.agentSteps === 0) return infra(c.cls, 0.7, c.evidence, 'The agent took no step.');
      if (c) return outcomeByReward(`Infrastructure signals were seen (${c.cls}, ${c.evidence.length} lines) but the agent finished.`);
    }
    return outcomeByReward();
  }

  const row = harborExceptionRow(exc);
  if (row) {
    // A RuntimeError's own message names its cause before any log line does.
    const named = row.default === 'by_message' ? messageCause(scan) : undefined;
    const c = !named && row.overriddenBy.length ? cause(fromLogs, scan, row.overriddenBy) : null;
    if (c) return infra(c.cls, 0.85, c.evidence);
    let cls: FailureClass | 'by_reward' | 'by_message' = named ?? row.default;
    if (cls === 'by_message') cls = 'by_reward';
    if (cls === 'by_reward') {
      if (exc === 'AgentSafetyRefusalError') return outcomeByReward('AgentSafetyRefusalError: the model provider refused on policy grounds; the verifier\'s score stands.');
      const setup = !hasReward ? setupPhaseFailure(facts.lastPhase, exc, msg) : null;
      if (setup) return infra(setup.cls, 0.8, (scan.byClass.get(setup.cls) ?? []).slice(0, 6), setup.why);
      if (!hasReward) return diag('verifier.failure', 0.7, ev, fromLogs, `${exc}: ${msg.split('\n')[0].slice(0, 200)}; no reward was produced.`);
      return outcomeByReward(`${exc} with no infrastructure signal; the verifier's score stands.`);
    }
    if (cls === 'outcome.agent_timeout') {
      if (!hasReward) return diag('verifier.failure', 0.7, ev, fromLogs, `${exc} was recorded and the verifier then produced no reward.`);
      // The agent's own log stopping mid-step (no final state, result event or saved trajectory) is the
      // timeout seen from the agent's side: shown beside Harbor's record of it.
      const cut = fromLogs.evidence.filter((e) => e.rule === 'agent.loop_cut' && isTrustedSignalFile(e.file));
      return diag('outcome.agent_timeout', cut.length ? 0.9 : 0.85, [...ev, ...cut], fromLogs, [cut.length ? "The agent's log stops mid-step: it was still working when its time ran out." : '', stepNote].filter(Boolean).join(' '));
    }
    if (cls === 'unknown') {
      return diag('unknown', 0.5, ev, fromLogs, 'The trial was cancelled (the job was interrupted, or under rLLM its session timeout fired): it has no score and is not an infrastructure failure either.');
    }
    if (cls === 'config.error') return diag('config.error', 0.8, ev, fromLogs, `${exc}: ${msg.split('\n')[0].slice(0, 200)}. Fix the job or environment configuration.`);
    // Harbor's type is the cause; the trial's own lines of that class are its evidence.
    return infra(cls, 0.9, (scan.byClass.get(cls as InfraClass) ?? []).slice(0, 6));
  }
  const c = cause(fromLogs, scan, PRIORITY);
  if (c) return infra(c.cls, 0.7, c.evidence);
  if (hasReward) return outcomeByReward(`${exc} was recorded after the verifier scored the trial.`);
  const setup = setupPhaseFailure(facts.lastPhase, exc, msg);
  if (setup) return infra(setup.cls, 0.7, (scan.byClass.get(setup.cls) ?? []).slice(0, 6), setup.why);
  return diag('verifier.failure', 0.5, ev, fromLogs, `${exc}: ${msg.split('\n')[0].slice(0, 200)} stopped the trial before the verifier produced a reward.`);
}

/**
 * An exception that names no cause, recorded before the agent ever ran: the phase it stopped the trial in
 * says what failed. Harbor sets each phase's started_at as it begins (trial.py), so a trial whose last
 * started phase is agent_setup died installing the agent (the install command's NonZeroAgentExitCodeError:
 * exec_as_agent in agents/installed/*.py `install`), one still in environment_setup never got a sandbox.
 */
function setupPhaseFailure(phase: HarborPhase | null, exc: string, msg: string): { cls: InfraClass; why: string } | null {
  const first = msg.split('\n')[0]!.slice(0, 200);
  if (phase === 'agent_setup') return { cls: 'agent.setup_failure', why: `${exc} during agent setup (agent_execution never started): ${first}` };
  if (phase === 'environment_setup') return { cls: 'sandbox.failure', why: `${exc} while the environment started (agent_setup never started): ${first}` };
  return null;
}

/** The infra class the engine's rules found in the recorded exception message itself, if any. */
function messageCause(scan: SignalScan): InfraClass | undefined {
  const inMessage = new Map<InfraClass, Evidence[]>();
  for (const [cls, ev] of scan.byClass) {
    const own = ev.filter((e) => e.file === 'harbor/result.json');
    if (own.length) inMessage.set(cls, own);
  }
  return pickBest(inMessage) ?? undefined;
}

/**
 * A trial folder without a readable result.json (killed mid-run, or a garbled write): whatever
 * infrastructure cause its logs show, else unknown. Never a reward.
 */
export function decideHarborTrialWithoutResult(input: BundleInput, fromLogs: Diagnosis, why = 'no result.json: the trial was killed mid-run'): Diagnosis {
  const scan = scanHarborSignals(input);
  const c = cause(fromLogs, scan, PRIORITY);
  if (c) return diag(c.cls, 0.6, c.evidence, fromLogs, `${why}; its logs show this cause.`);
  return diag('unknown', 0.3, [], fromLogs, `${why}; nothing in its logs names a cause. It has no score.`);
}
