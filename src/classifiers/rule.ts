// The shape of a rule and of the signals rules produce. Rules are data: the engine owns all control
// flow, so a rule family file is a list of literals that can be read (and reviewed) as a table.
import type { LogTime } from '../logline.js';
import type { RuleId } from './rules/index.js';
import type { FailureClass } from './taxonomy.js';

/** Where in a bundle or pasted multi-file log a line sits; some evidence only counts in some places. */
export type Section = 'log' | 'agent' | 'verifier' | 'result';

/**
 * Whose code a traceback's innermost frame is in: the run's own, a library's, or either; or what kind of
 * code: a validation site (rules/validation.ts VALIDATION_SITE, own or library); or 'not-own': anything but
 * the run's own code, a line with no traceback frames before it included (a pasted exception line);
 * 'grader': an evaluation harness's grading code (rules/eval-harness.ts GRADER_FRAME).
 */
export type RaisedIn = 'own' | 'library' | 'any' | 'validation-site' | 'not-own' | 'grader';

/** Values a rule pulls out of its line; all optional, all small. */
export interface Extracted {
  rank?: number;
  seq?: number;
  op?: string;
  httpStatus?: number;
  bytes?: number;
  /** A rule may re-target its own class from the matched text (e.g. "Cuda failure 'out of memory'"). */
  classOverride?: FailureClass | null;
  [key: string]: string | number | boolean | null | undefined;
}

export interface Rule<Id extends string = string> {
  id: Id;
  class: FailureClass;
  /**
   * Ignored, and gone from the rows: the prefilter keys are derived from `patterns` (keys.ts). Optional
   * only so that a row still written with hand-kept keys compiles.
   * @deprecated
   */
  keys?: readonly string[];
  /** Any of these matching the (already cut, ANSI-free) line fires the rule. Linear-time patterns only. */
  patterns: readonly RegExp[];
  /** A line matching any of these does not fire the rule (hedges, hint text, benign variants). */
  unless?: readonly RegExp[];
  /**
   * How specific the signal is for its class, 1..100. Root-cause resolution: causes (≥ 80) compete by time
   * and rank; below that the most specific signal wins. Symptoms that another failure explains
   * (watchdog timeouts, actor deaths, generic tracebacks) sit low so the cause beats them.
   */
  strength: number;
  /**
   * Only on the line that ends a Python traceback (the exception line right after its frames), and only
   * when its innermost frame is the run's own code ('own'), installed or standard-library code
   * ('library', logline.isLibraryPath), or either ('any'), or a validation site ('validation-site'); 'not-own'
   * also counts a line that ends no traceback. Structured exception records say it too.
   */
  raisedIn?: RaisedIn;
  /**
   * The rule only says that a traceback ended in an exception no rule knows. It places a line without
   * judging it (its words stay the vocabulary fallback's to read), and when only such rules decided a
   * bundle, a clear infra vocabulary in the failure lines is the better guess (engine.ts).
   */
  catchAll?: true;
  /** Sections where the rule counts; default: everywhere except a verifier's output. */
  sections?: readonly Section[];
  extract?: (line: string, m: RegExpExecArray) => Extracted;
  why: string;
  hint: string;
}

/**
 * A rule family's rows, with their ids kept as literal types so that RuleId (rules/index.ts) is the
 * union of every id and a reference to a rule that does not exist fails to compile.
 */
export function defineRules<const Id extends string>(rows: readonly Rule<Id>[]): readonly Rule<Id>[] {
  return rows;
}

/** Rules a signal can come from: the rows of RULES, and the ones resolution adds itself (resolve.ts: the NCCL analysis, torchelastic's Root Cause entry). */
export type SignalRuleId = RuleId | 'nccl.tests_hang_first_collective' | 'torchelastic.root_cause_exit' | 'nccl.p2p_test_hang' | 'stall.after_nccl_init';

export interface Signal {
  rule: Rule<SignalRuleId>;
  class: FailureClass;
  strength: number;
  file: string;
  line: number;
  text: string;
  section: Section;
  /** When the line (or structured record) says it happened; compare with compareLogTimes. */
  time?: LogTime;
  rank?: number;
  extracted: Extracted;
  /** Global arrival order, the last tie-breaker. */
  order: number;
  /** From a structured file that names this failure as the root cause (exceptions.json[0], torchelastic). */
  rootHint?: boolean;
}
