// The one reader of a Harbor trial's result.json (shared/FORMATS.md §1.3, §1.4b). Every consumer
// (the trial decision, the archive's indexed reward, fdiag harbor audit/canary/import, and through the
// archive the API, CLI and page) reads rewards, exception and timings here, so a multi-step trial
// has one reward everywhere. It lives among the classifiers because they are the lowest layer that
// needs it; it is pure (text in, facts out).
//
// Objects are loose: Harbor and its forks add fields, and a reader that refused them would drop
// trials. Rewards follow Harbor itself: the trial's verifier_result when set; for a multi-step trial
// without one, the per-key mean over the steps that have a verifier result, a missing key counting 0
// (trial/multi_step.py `_aggregate_step_rewards`, 0.13 – 0.22).
import { z } from 'zod';

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO date');
const nullableDate = isoDate.nullable().optional();

export const TimingInfo = z.looseObject({ started_at: nullableDate, finished_at: nullableDate });
export type TimingInfo = z.infer<typeof TimingInfo>;

export const ExceptionInfo = z.looseObject({
  exception_type: z.string(),
  exception_message: z.string(),
  exception_traceback: z.string().optional(),
  occurred_at: z.string().nullable().optional(),
});
export type ExceptionInfo = z.infer<typeof ExceptionInfo>;

const Rewards = z.record(z.string(), z.number());
export const VerifierResult = z.looseObject({ rewards: Rewards.nullable().optional() });

export const ModelInfo = z.looseObject({
  name: z.string(),
  // Required in 0.3, optional from 0.13 on.
  provider: z.string().nullable().optional(),
});

export const AgentInfo = z.looseObject({ name: z.string(), version: z.string(), model_info: ModelInfo.nullable().optional() });

export const AgentContext = z.looseObject({
  n_input_tokens: z.number().nullable().optional(),
  n_cache_tokens: z.number().nullable().optional(),
  n_output_tokens: z.number().nullable().optional(),
  cost_usd: z.number().nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const StepResult = z.looseObject({
  step_name: z.string(),
  agent_result: AgentContext.nullable().optional(),
  verifier_result: VerifierResult.nullable().optional(),
  exception_info: ExceptionInfo.nullable().optional(),
  agent_execution: TimingInfo.nullable().optional(),
  verifier: TimingInfo.nullable().optional(),
});

export const TrialResult = z.looseObject({
  id: z.string().optional(),
  task_name: z.string(),
  trial_name: z.string(),
  trial_uri: z.string().optional(),
  task_id: z.unknown().optional(),
  source: z.string().nullable().optional(),
  task_checksum: z.string().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  agent_info: AgentInfo.optional(),
  agent_result: AgentContext.nullable().optional(),
  verifier_result: VerifierResult.nullable().optional(),
  /** 0.21+: 'shared' | 'separate' (null on multi-step trials). */
  verifier_environment_mode: z.string().nullable().optional(),
  exception_info: ExceptionInfo.nullable().optional(),
  started_at: nullableDate,
  finished_at: nullableDate,
  environment_setup: TimingInfo.nullable().optional(),
  agent_setup: TimingInfo.nullable().optional(),
  agent_execution: TimingInfo.nullable().optional(),
  verifier: TimingInfo.nullable().optional(),
  step_results: z.array(StepResult).nullable().optional(),
});
export type TrialResult = z.infer<typeof TrialResult>;

/** Which Harbor wrote a result.json, judged by its shape (the job's lock.json names the exact version). */
export type HarborShape = '0.3' | '0.13' | '0.21' | 'unknown';

export interface HarborException {
  type: string;
  message: string;
  occurredAt: string | null;
  /** The step that recorded it, for a multi-step trial whose trial-level exception is empty. */
  step: string | null;
}

export interface HarborStep {
  name: string;
  rewards: Record<string, number> | null;
  reward: number | null;
  exception: HarborException | null;
}

export interface HarborTimings {
  environmentSetupSec: number | null;
  agentSetupSec: number | null;
  agentExecutionSec: number | null;
  /** agent setup + agent execution (the canary's "agent" figure). */
  agentSec: number | null;
  verifierSec: number | null;
  totalSec: number | null;
}

/**
 * The trial phases in the order Harbor runs them (trial.py: `_setup_environment` sets environment_setup,
 * `_setup_agent` agent_setup, `_run_agent_phase` agent_execution, `_run_verifier` verifier; each block's
 * started_at is set when the phase begins, finished_at in its `finally`).
 */
export type HarborPhase = 'environment_setup' | 'agent_setup' | 'agent_execution' | 'verifier';

export interface HarborTrialRecord {
  /** ok: a TrialResult; invalid: JSON but not a TrialResult (facts read leniently); garbled: not JSON. */
  status: 'ok' | 'invalid' | 'garbled';
  problem: string | null;
  result: TrialResult | null;
  rewards: Record<string, number> | null;
  /** The reward Harbor recorded: rewards.reward, else the first key (rLLM's rule); null when none. */
  reward: number | null;
  /** The first exception Harbor kept: the trial's, else the first step's. */
  exception: HarborException | null;
  /** Every exception recorded (trial and steps), for counting infra events. */
  exceptions: HarborException[];
  steps: HarborStep[];
  /** The agent's input tokens (agent_result.n_input_tokens; some forks write input_tokens), when a finite number. */
  inputTokens: number | null;
  timings: HarborTimings;
  /**
   * The last phase that started (its TimingInfo has a started_at; a multi-step trial's steps count for
   * agent_execution and verifier). Harbor stops a trial at its first exception outside the agent phase,
   * so for such an exception this is the phase it happened in. Null when no phase started.
   */
  lastPhase: HarborPhase | null;
  shape: HarborShape;
  startedAt: string | null;
  finishedAt: string | null;
}

export function primaryReward(rewards: Record<string, number> | null): number | null {
  if (!rewards) return null;
  if (typeof rewards.reward === 'number') return rewards.reward;
  const first = Object.values(rewards).find((v) => typeof v === 'number');
  return first ?? null;
}

const finiteNumber = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The finite numbers of a {name: reward} map (Harbor's rewards, a verifier's reward.json); null when none. */
export function finiteRewards(v: unknown): Record<string, number> | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const out: Record<string, number> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'number' && Number.isFinite(x)) out[k] = x;
  return Object.keys(out).length ? out : null;
}

/** Harbor's `_aggregate_step_rewards`: per-key mean over steps with a verifier result, missing keys 0. */
export function meanStepRewards(steps: { verifier_result?: { rewards?: unknown } | null }[]): Record<string, number> | null {
  const valid = steps.filter((s) => s.verifier_result != null).map((s) => finiteRewards(s.verifier_result?.rewards) ?? {});
  if (valid.length === 0) return null;
  const keys = [...new Set(valid.flatMap((r) => Object.keys(r)))];
  if (keys.length === 0) return null;
  // Harbor's sum / count; when the sum of finite rewards overflows (a hostile 1e308 per step), the
  // mean is still finite, summed as parts.
  const mean = (k: string) => {
    const sum = valid.reduce((a, r) => a + (r[k] ?? 0), 0);
    return Number.isFinite(sum) ? sum / valid.length : valid.reduce((a, r) => a + (r[k] ?? 0) / valid.length, 0);
  };
  return Object.fromEntries(keys.map((k) => [k, mean(k)]));
}

function secs(t: { started_at?: unknown; finished_at?: unknown } | null | undefined): number | null {
  if (!t || typeof t.started_at !== 'string' || typeof t.finished_at !== 'string') return null;
  const d = (Date.parse(t.finished_at) - Date.parse(t.started_at)) / 1000;
  return Number.isFinite(d) && d >= 0 ? d : null;
}

export function harborTimings(r: Record<string, unknown> | null): HarborTimings {
  const get = (k: string) => (r && typeof r[k] === 'object' ? (r[k] as { started_at?: unknown; finished_at?: unknown }) : null);
  const env = secs(get('environment_setup'));
  const as = secs(get('agent_setup'));
  const ae = secs(get('agent_execution'));
  return {
    environmentSetupSec: env,
    agentSetupSec: as,
    agentExecutionSec: ae,
    agentSec: as === null && ae === null ? null : (as ?? 0) + (ae ?? 0),
    verifierSec: secs(get('verifier')),
    totalSec: r ? secs({ started_at: r.started_at, finished_at: r.finished_at }) : null,
  };
}

const PHASES: readonly HarborPhase[] = ['environment_setup', 'agent_setup', 'agent_execution', 'verifier'];

function lastPhaseOf(raw: Record<string, unknown>, steps: Record<string, unknown>[]): HarborPhase | null {
  const started = (v: unknown) => {
    const t = asObj(v);
    return !!t && typeof t.started_at === 'string' && !Number.isNaN(Date.parse(t.started_at));
  };
  let last: HarborPhase | null = null;
  for (const p of PHASES) if (started(raw[p]) || ((p === 'agent_execution' || p === 'verifier') && steps.some((s) => started(s[p])))) last = p;
  return last;
}

function shapeOf(raw: Record<string, unknown>): HarborShape {
  if ('verifier_environment_mode' in raw) return '0.21';
  if ('step_results' in raw) return '0.13';
  if ('trial_name' in raw && 'task_name' in raw) return '0.3';
  return 'unknown';
}

const asObj = (v: unknown): Record<string, unknown> | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

function exceptionOf(v: unknown, step: string | null): HarborException | null {
  const p = ExceptionInfo.safeParse(v);
  if (!p.success) return null;
  return { type: p.data.exception_type, message: p.data.exception_message, occurredAt: p.data.occurred_at ?? null, step };
}

const EMPTY_TIMINGS: HarborTimings = { environmentSetupSec: null, agentSetupSec: null, agentExecutionSec: null, agentSec: null, verifierSec: null, totalSec: null };

/** Read a result.json text. Never throws; a garbled or foreign document says why in `problem`. */
export function readHarborResult(text: string): HarborTrialRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return {
      status: 'garbled',
      problem: `result.json is not valid JSON (${(e as Error).message}): a truncated or garbled write`,
      result: null,
      rewards: null,
      reward: null,
      exception: null,
      exceptions: [],
      steps: [],
      inputTokens: null,
      timings: EMPTY_TIMINGS,
      lastPhase: null,
      shape: 'unknown',
      startedAt: null,
      finishedAt: null,
    };
  }
  const obj = asObj(raw) ?? {};
  const parsed = TrialResult.safeParse(raw);
  const problem = parsed.success
    ? null
    : `result.json is not a Harbor TrialResult (${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')})`;
  // Lenient from here on: an invalid document still tells its reward and exception when it has them.
  const rawSteps = Array.isArray(obj.step_results) ? obj.step_results.map(asObj).filter((s): s is Record<string, unknown> => s !== null) : [];
  const steps: HarborStep[] = rawSteps.map((s, i) => {
    const name = typeof s.step_name === 'string' ? s.step_name : `step ${i + 1}`;
    const rewards = finiteRewards(asObj(s.verifier_result)?.rewards);
    return { name, rewards, reward: primaryReward(rewards), exception: exceptionOf(s.exception_info, name) };
  });
  const trialRewards = finiteRewards(asObj(obj.verifier_result)?.rewards);
  const rewards = trialRewards ?? (rawSteps.length ? meanStepRewards(rawSteps.map((s) => ({ verifier_result: asObj(s.verifier_result) }))) : null);
  const trialExc = exceptionOf(obj.exception_info, null);
  const exceptions = [...(trialExc ? [trialExc] : []), ...steps.map((s) => s.exception).filter((e): e is HarborException => e !== null)];
  const str = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);
  return {
    status: parsed.success ? 'ok' : 'invalid',
    problem,
    result: parsed.success ? parsed.data : null,
    rewards,
    reward: primaryReward(rewards),
    exception: trialExc ?? exceptions[0] ?? null,
    exceptions,
    steps,
    inputTokens: finiteNumber(asObj(obj.agent_result)?.n_input_tokens) ?? finiteNumber(asObj(obj.agent_result)?.input_tokens),
    timings: harborTimings(obj),
    lastPhase: lastPhaseOf(obj, rawSteps),
    shape: shapeOf(obj),
    startedAt: str(obj.started_at),
    finishedAt: str(obj.finished_at),
  };
}
