// Cause → symptom: the one table of "X explains Y". When the class that resolution picked is a row's
// symptom and the bundle also shows one of the row's causes (in the allowed order), the cause is the
// root cause and the symptom is named in the hint as its consequence. Rows apply in order, each once.
import type { Signal, SignalRuleId } from './rule.js';
import type { FailureClass } from './taxonomy.js';

export interface Explains {
  symptom: FailureClass;
  /** The symptom only counts as one when its signals say so (e.g. NCCL errors only about a peer that exited). */
  symptomIf?: (signals: Signal[]) => boolean;
  causes: FailureClass[];
  /** The cause class's strongest signal must be at least this strong… */
  minCauseStrength?: number;
  /** …and not from one of these rules (a bare SIGKILL follows a hang as often as it causes one). */
  notFromRules?: SignalRuleId[];
  /** Which of the cause's signals count at all (the others are ignored for this relation). */
  causeSignal?: (s: Signal) => boolean;
  /**
   * 'not-after': the cause's first signal is not later than the symptom's (unknown order counts);
   * 'before': it is earlier, and with stamps that do not compare, earlier in the same file;
   * 'any': anywhere in the bundle (evidence about the symptom, printed before or after it).
   */
  order: 'not-after' | 'before' | 'any';
  /** Appended to the cause's hint. */
  consequence: string;
}

/** Failures that take a rank's process down, so the other ranks wait in their next collective until the watchdog fires. */
export const RANK_KILLERS: FailureClass[] = ['user.code_error', 'config.error', 'host.oom', 'network.error'];

/**
 * A Ray worker or actor that died without saying why (the raylet's "connection error code 2. End of
 * file", "Worker exits unexpectedly", an actor or node death): Ray cannot see a SIGKILL, so the reason is
 * whatever else the bundle shows. Ray's own fatal checks and native crashes are a cause of their own.
 */
export const RAY_DEATH_RULES: ReadonlySet<SignalRuleId> = new Set<SignalRuleId>(['ray.actor_died', 'ray.node_or_raylet_died', 'ray.worker_crash_summary']);
const RAY_OWN_CRASH_RE = /Check failed|\*\*\* SIG[A-Z]+ received|RaySystemError|~RayLog|\bray::\w+::|Segmentation fault/;
export const rayDeathWithoutCause = (s: Signal): boolean => RAY_DEATH_RULES.has(s.rule.id) && !RAY_OWN_CRASH_RE.test(s.text);

export const EXPLAINS: Explains[] = [
  {
    // Ray's docs: a worker killed by the Linux OOM killer shows up as exactly such a death. With memory
    // evidence anywhere in the bundle (an OOM-killer line, a cgroup count, the memory monitor, host memory
    // nearly full) the OOM is the cause; without any it stays ray.crash.
    symptom: 'ray.crash',
    symptomIf: (signals) => signals.every(rayDeathWithoutCause),
    causes: ['host.oom'],
    order: 'any',
    consequence: "The Ray worker/actor deaths are its consequence: a process killed for memory vanishes without telling Ray why (Ray reports a connection error / unexpected exit).",
  },
  {
    symptom: 'nccl.timeout',
    causes: RANK_KILLERS,
    minCauseStrength: 20,
    notFromRules: ['host.sigkill_worker'],
    order: 'not-after',
    consequence: 'The NCCL watchdog timeouts on the other ranks are a consequence: they waited on the rank that failed.',
  },
  {
    symptom: 'nccl.error',
    symptomIf: (signals) => signals.every((s) => s.extracted.remote === true),
    causes: RANK_KILLERS,
    minCauseStrength: 20,
    notFromRules: ['host.sigkill_worker'],
    order: 'not-after',
    consequence: 'The NCCL errors about a remote peer that exited are a consequence: they waited on the rank that failed.',
  },
  {
    // A run that hung until the collective timed out is then often stopped from outside (an outer
    // `timeout`, an operator, the scheduler): that later kill is the reaction, the timeout the failure.
    // Only when the timeout came first; a kill before the peers' timeouts is the other story above.
    symptom: 'host.killed',
    causes: ['nccl.timeout'],
    order: 'before',
    consequence: 'The run was stopped from outside after the collective had already timed out: the kill was the reaction to the hang, not its cause.',
  },
  {
    // A proxy or wrapper service that calls an upstream model API answers its own client 500/502 when
    // that upstream request times out; a gateway's own 504 with no client timeout stays gateway.5xx.
    symptom: 'gateway.5xx',
    causes: ['api.timeout'],
    causeSignal: (s) => s.strength > 15 && s.extracted.bareTimeout !== true,
    order: 'before',
    consequence: 'The 5xx answer that follows is the proxy or service reporting its own upstream request timing out, not a separate server failure.',
  },
];
