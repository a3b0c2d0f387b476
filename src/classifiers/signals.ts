// Typed signals: how structured evidence enters the engine.
//
// A log line is text a producer printed, and the line rules (rules/*.ts) read it. Structured evidence
// (a Pod's container states, the manifest's exit status, torchelastic error files, kernel/dmesg.txt,
// gpu/oom-ranks.json, the NCCL flight recorder, harbor/result.json, …) is data with fields. It enters as
// a `StructuredSignal`: one variant per kind of fact, typed fields, and the place (`at`) it came from.
// Nothing renders a fact into a pseudo log line for some rule's regex to find again.
//
// How a new structured source adds signals:
//  1. Add a variant to `StructuredSignal` below: a new `kind` literal and the fields it carries (reuse
//     `at`, `rank`, `time`, `rootHint` from SignalBase).
//  2. Write a reader `(input: BundleInput) => StructuredSignal[]`: pure, bounded, defensive (malformed or
//     oddly shaped input gives [], never throws), list it in STRUCTURED_READERS (structured.ts), and make
//     isStructuredPath (structured.ts) claim its file so the line scan skips it.
//  3. Say what the variant means, as data:
//     - a field holding the producer's own wording (an exception message, a kubelet message, a kernel
//       line) is emitted as `{ kind: 'text' }`: the line rules run on it at `at`, with its rank/time/rootHint;
//     - an enumerated fact (a container reason, an exit code, a reward) gets a row in FACT_RULES
//       (rules/facts.ts): `{ rule: <rule id>, on: <kind>, when: (s) => boolean, text: (s) => string }`,
//       which fires that rule (class, strength, hint) at `at` with `text(s)` as the evidence line;
//     - a fact that only informs resolution (per-rank progress, OOM-rank reports, token counts, an env
//       var) updates the EngineContext in `applyContextSignal` (engine.ts).
//  4. Test it through classifyBundle with a fixture in the producer's real shape.
import type { LogTime } from '../logline.js';
import type { CollectiveMismatch, OomRankReport, RankProgress } from './resolve.js';
import type { WaitStack } from './stacks.js';

/** Where a signal's evidence lies: a bundle path and 1-based line. */
export interface SignalAt {
  file: string;
  line: number;
}

interface SignalBase {
  at: SignalAt;
  rank?: number;
  time?: LogTime;
  /** The source itself names this failure as the root cause (exceptions.json[0], a torchelastic error file). */
  rootHint?: boolean;
}

export type StructuredSignal =
  /** Producer wording (exception "Type: message", kubelet message, kernel line): read by the line rules. */
  /** `raisedIn`: the record's traceback shows whose code raised it (its innermost frame, logline.innermostFrame). */
  | (SignalBase & { kind: 'text'; text: string; raisedIn?: 'own' | 'library'; validationSite?: boolean })
  /** The run's exit status from the manifest. */
  | (SignalBase & { kind: 'exit'; code: number | null; signal: string | null })
  /** A container's waiting or terminated state (k8s/pods.json), init containers included. */
  | (SignalBase & { kind: 'container'; pod: string; container: string; init: boolean; state: 'waiting' | 'terminated'; reason: string; exitCode: number | null; message: string })
  /** A Pod's own status reason (Evicted, DeadlineExceeded, …). */
  | (SignalBase & { kind: 'pod'; pod: string; reason: string; message: string })
  /** A Kubernetes event about the Pod (FailedScheduling, BackOff, FailedMount, …). */
  | (SignalBase & { kind: 'k8s-event'; pod: string; type: string; reason: string; message: string })
  /** A torchelastic error file's exit code (-9: SIGKILL). */
  | (SignalBase & { kind: 'worker-exit'; errorCode: number })
  /** harbor/result.json or verifier/reward.*: the best reward the verifier gave. */
  | (SignalBase & { kind: 'reward'; value: number })
  /**
   * An agent's step loop in one log section (the engine's progress tracker, progress.ts): how many steps,
   * whether its own end followed the last one, a traceback after it, and how many lines came after it.
   */
  | (SignalBase & { kind: 'agent-loop'; agent: string; path: string; steps: number; ended: boolean; crashedAfter: boolean; linesAfter: number; text: string })
  /**
   * A test session in one log section (progress.ts): whether it printed its summary. `runner: null` is a
   * verifier's output that shows no session and no result at all.
   */
  | (SignalBase & { kind: 'test-run'; runner: string | null; path: string; section: 'log' | 'verifier'; started: boolean; summary: boolean; lines: number; text: string })
  /**
   * A main thread's stack printed in a log (stacks.ts): a Ctrl-C traceback, a faulthandler or py-spy
   * dump, and where it waits (`stack.wait`, null when it was busy in its own code).
   */
  | (SignalBase & { kind: 'wait-stack'; stack: WaitStack })
  /**
   * How a log of the run ends (tail.ts): a wait or poll (`awaits` names what for, `cls` when it is not a
   * stall), the same line repeating with only its time changing, an inference server's metrics with
   * `running` requests (`generating`: tokens still came), or a progress bar short of its total.
   */
  | (SignalBase & { kind: 'log-ending'; ending: 'waiting' | 'repeating' | 'serving' | 'mid-progress'; text: string; repeats: number; awaits?: string; producer?: string; cls?: 'sandbox.failure'; running?: number; generating?: boolean })
  /** Context for resolution only; never a signal of its own. */
  | (SignalBase & { kind: 'env'; name: string; value: string })
  | (SignalBase & { kind: 'agent-tokens'; inputTokens: number })
  | (SignalBase & { kind: 'oom-rank'; report: OomRankReport })
  | (SignalBase & { kind: 'nccl-progress'; key: string; progress: RankProgress })
  | (SignalBase & { kind: 'collective-mismatch'; mismatch: CollectiveMismatch })
  /** kernel/dmesg.txt is host-wide: whether the run was SIGKILLed and which PIDs are the run's. */
  | (SignalBase & { kind: 'kernel-scope'; runKilled: boolean; runPids: number[] });

export type SignalKind = StructuredSignal['kind'];
export type SignalOf<K extends SignalKind> = Extract<StructuredSignal, { kind: K }>;
