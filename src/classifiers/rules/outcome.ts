// Outcomes from the harnesses' own result templates, in plain logs: an agent that used up the step, cost or
// time budget its harness gave it, and evaluation harnesses printing their scores. Each pattern is the
// producer's own template (source files named per row, docs/rules.md). All are the weakest signals there
// are, and the resolver's outcome guard (resolve.ts `guardOutcome`) lets any infra or user signal in the
// bundle — and any failure line that speaks an infra vocabulary — win over them: an infrastructure
// failure is never recorded as an outcome.
import { defineRules, type Extracted } from '../rule.js';

/**
 * lm-evaluation-harness `make_table` (lm_eval/utils.py; 0.3 `evaluator.make_table`) prints one markdown
 * row per metric through pytablewriter: `|task|version|filter|n-shot|metric|↑  |value|±  |stderr|` (0.4.3+,
 * the arrow column from HIGHER_IS_BETTER_SYMBOLS), `|task|version|filter|n-shot|metric|value|±  |stderr|`
 * (0.4.0–0.4.2), `|task|version|metric|value|±  |stderr|` (0.3). In every one the Value is the cell right
 * before the `±` cell, which pytablewriter pads to three characters. (A paste may indent the table.)
 */
const LM_EVAL_ZERO_ROW = /^\s{0,8}\|.{0,400}\|\s{0,12}-?0(?:\.0{1,8})?\s{0,4}\|±  \|/;
const LM_EVAL_SCORED_ROW = /^\s{0,8}\|.{0,400}\|\s{0,12}-?[0.]{0,12}[1-9][\d.]{0,20}(?:e-?\d{1,3})?\s{0,4}\|±  \|/;
/** A lower-is-better metric (perplexity, bits per byte): its 0 is no failed score. */
const LOWER_IS_BETTER_ZERO = /\|\s{0,2}↓\s{0,4}\|\s{0,12}-?0(?:\.0{1,8})?\s{0,4}\|±  \|/;

/**
 * bigcode-evaluation-harness main.py dumps `json.dumps(results, indent=2)`: `{"humaneval": {"pass@1": 0.0,
 * "pass@10": 0.0}, "config": {…}}` (bigcode_eval/tasks/custom_metrics/code_eval.py `f"pass@{k}"`, also
 * `<difficulty>_pass@k` in beyond_eval.py; lm-eval's code tasks key it "pass@1,create_test"). The JSON has no line of its own for a zero, so both rows read
 * the same key and the number decides.
 */
const PASS_AT_K_ZERO = /"(?:\w{1,30}_)?pass@\d{1,4}(?:,[\w-]{1,40})?":\s*0(?:\.0{1,12})?(?:e[+-]?\d{1,3})?\s*(?:,|\}|$)/;
const PASS_AT_K_SCORED = /"(?:\w{1,30}_)?pass@\d{1,4}(?:,[\w-]{1,40})?":\s*(?:0\.0{0,12}[1-9]|[1-9]|\d{1,3}\.\d{0,12}[1-9])/;

/**
 * EvalPlus evaluate.py and BigCodeBench evaluate.py print each pass@k on a line of its own after the
 * dataset's name: `cprint(f"{k}:\t{v:.3f}")`, i.e. "pass@1:\t0.000".
 */
const PASS_AT_K_LINE_ZERO = /^\s{0,8}pass@\d{1,3}:\s+0\.000\s*$/;
const PASS_AT_K_LINE_SCORED = /^\s{0,8}pass@\d{1,3}:\s+(?:0\.\d{0,2}[1-9]\d{0,2}|1\.000)\s*$/;

/**
 * lm-evaluation-harness results JSON (evaluator.py `results[task]`, written by --output_path and pasted as
 * is): metric keys are "<metric>,<filter>" ("exact_match,strict-match", "acc,none"); their stderr keys
 * ("acc_stderr,none") are no score.
 */
const LM_EVAL_METRIC_KEY = '"(?:acc|acc_norm|exact_match|f1|em|mc1|mc2|bleu|rouge1|rougeL|accuracy),[\\w-]{1,40}":\\s*';
const LM_EVAL_JSON_ZERO = new RegExp(`${LM_EVAL_METRIC_KEY}0(?:\\.0{1,16})?\\s*(?:,|\\}|$)`);
const LM_EVAL_JSON_SCORED = new RegExp(`${LM_EVAL_METRIC_KEY}(?:0\\.0{0,15}[1-9]|[1-9])`);

/**
 * SWE-bench harness/reporting.py `make_run_report`: "Instances resolved: N" printed, "resolved_instances": N
 * in the report JSON; grading.py's per-instance report `"patch_successfully_applied": false` and the log
 * constant APPLY_PATCH_FAIL ">>>>> Patch Apply Failed" (harness/constants): the instance was graded
 * unresolved.
 */
const SWEBENCH_RESOLVED_ZERO = [/^\s{0,8}Instances resolved: 0\s*$/, /"resolved_instances":\s*0\s*(?:,|$)/];
const SWEBENCH_RESOLVED_SOME = [/^\s{0,8}Instances resolved: [1-9]\d{0,6}\s*$/, /"resolved_instances":\s*[1-9]\d{0,6}\s*(?:,|$)/];
const SWEBENCH_UNRESOLVED = [/"patch_successfully_applied":\s*false\b/, />>>>> Patch Apply Failed/];

export const outcomeRules = defineRules([
  {
    // The agent's harness stopped it at the budget it was given (steps, cost, turns, tokens, wall time): the
    // agent was still working, nothing failed under it. The templates, each from its source:
    //  - OpenHands V0 controller/state/control_flags.py: RuntimeError "Agent reached maximum iteration.
    //    Current iteration: N, max iteration: M", "Agent reached maximum budget for conversation.Current
    //    budget: …"; OpenHands SDK (software-agent-sdk) conversation/impl/local_conversation.py "Agent
    //    reached maximum iterations limit (N).", "Agent reached maximum budget limit ($X); …"
    //  - OpenHands SDK conversation/impl/remote_conversation.py: "Run timed out after {timeout} seconds. The
    //    conversation may still be running on the server." (the run's own wait budget)
    //  - connectonion core/agent.py: "Task incomplete: Maximum iterations (N) reached."
    //  - SWE-agent sweagent/agent/agents.py: exit_cost "Exit due to cost limit", exit_total_execution_time
    //    "Exit due to total execution time exceeded"
    //  - mini-swe-agent agents/default.py: exit_status "LimitsExceeded" (step_limit / cost_limit),
    //    "TimeExceeded" (wall_time_limit_seconds)
    //  - smolagents agents.py: AgentMaxStepsError("Reached max steps.")
    //  - openai-agents-python run.py: MaxTurnsExceeded(f"Max turns ({max_turns}) exceeded")
    //  - LangChain AgentExecutor / CrewAI (early_stopping_method "force"): "Agent stopped due to iteration
    //    limit or time limit." (older: "Agent stopped due to max iterations.")
    //  - Claude Code (claude -p, the Agent SDK): result subtype "error_max_turns" / "error_max_budget_usd",
    //    printed in text mode as "Error: Reached max turns (N)" / "Error: Exceeded USD budget"
    //  - LangGraph GraphRecursionError: "Recursion limit of N reached without hitting a stop condition." (the
    //    graph's super-step budget, recursion_limit)
    //  - SuperAGI jobs/agent_executor.py: logs and returns "ITERATION_LIMIT_CROSSED", execution status
    //    "ITERATION_LIMIT_EXCEEDED", event "run_iteration_limit_crossed" (max_iterations <= num_of_calls)
    //  - inspect-ai util/_limit.py sample limits: "Message limit reached. count: N; limit: M", "Token limit
    //    exceeded. value: …; limit: …", "Turn limit exceeded.", "Cost limit exceeded.", "Time limit
    //    exceeded. limit: N seconds", "Working time limit exceeded. limit: N seconds"
    // (Harbor's AgentTimeoutError and its message are Harbor's words: rules/harbor.ts harbor.agent_timeout.)
    id: 'outcome.agent_budget_exhausted',
    class: 'outcome.agent_timeout',
    patterns: [
      /\bAgent reached maximum (?:iteration|budget)(?: in headless mode)?\. Current (?:iteration|budget): [\d.]+/,
      /\bAgent reached maximum (?:iterations limit \(\d+\)|budget for conversation\b|budget limit \(\$)/,
      /\bRun timed out after \d+(?:\.\d+)? seconds\. The conversation may still be running on the server\b/,
      /\bTask incomplete: Maximum iterations \(\d+\) reached\b/,
      /\bExit due to (?:cost limit|total execution time exceeded)\b/,
      /\bexit_(?:cost|total_execution_time)\b/,
      /"exit_status":\s*"(?:LimitsExceeded|TimeExceeded)"|\bminisweagent\.exceptions\.LimitsExceeded\b/,
      /\bAgentMaxStepsError\b|\bReached max steps\./,
      /\bMaxTurnsExceeded\b|\bMax turns \(\d+\) exceeded\b/,
      /\bAgent stopped due to (?:iteration limit or time limit|max iterations)\b/,
      /\b(?:Message|Turn) limit (?:reached|exceeded)\. count: [\d,]+; limit: [\d,]+/,
      /\b(?:Output token|Token|Cost) limit exceeded(?: \(\w{1,20}\))?\. value: \$?[\d,.]+; limit: \$?[\d,.]+/,
      /\b(?:Working time|Time) limit exceeded\. limit: [\d.]+ seconds/,
      /"subtype":\s*"error_max_(?:turns|budget_usd)"|\bError: (?:Reached max turns\b|Exceeded USD budget\b)/,
      /\bRecursion limit of \d+ reached without hitting a stop condition\b/,
      /\bITERATION_LIMIT_(?:CROSSED|EXCEEDED)\b|\brun_iteration_limit_crossed\b/,
    ],
    strength: 12,
    // An agent's own session log or the run's log; never a verifier's output (a task's tests may print limits).
    sections: ['log', 'agent', 'result'],
    why: 'the agent used its whole step, cost, turn or time budget (its harness says so in its own words)',
    hint: 'The agent used its whole budget (steps, cost, turns or time) and was stopped by its own harness, with no infrastructure failure in the bundle: a valid outcome, not a failure. Raise the budget only if the task calls for it; a loop that repeats one action means the agent was stuck, not slow.',
  },
  {
    // An evaluation harness's result with every score 0: the run completed and was scored 0.
    id: 'outcome.eval_scored_zero',
    class: 'outcome.reward_zero',
    patterns: [LM_EVAL_ZERO_ROW, LM_EVAL_JSON_ZERO, PASS_AT_K_ZERO, PASS_AT_K_LINE_ZERO, ...SWEBENCH_RESOLVED_ZERO, ...SWEBENCH_UNRESOLVED],
    strength: 10,
    sections: ['log', 'result'],
    extract: (line): Extracted => (LOWER_IS_BETTER_ZERO.test(line) ? { classOverride: null } : { score: 0 }),
    why: "the evaluation harness scored the run and the score is 0 (its own result table or report)",
    hint: "The evaluation ran to completion and scored 0: a valid outcome, not an infrastructure failure. A 0 on every task usually means the answers were not extracted or the generations are broken (wrong chat template or stop tokens, a filter that matches nothing): read a few logged samples (lm-eval --log_samples, bigcode --save_generations).",
  },
  {
    // Some score above 0 in the same templates: the run completed and scored. Slightly stronger than a
    // zero row of the same table, so one scored task makes the table scored.
    id: 'outcome.eval_scored',
    class: 'outcome.scored',
    patterns: [LM_EVAL_SCORED_ROW, LM_EVAL_JSON_SCORED, PASS_AT_K_SCORED, PASS_AT_K_LINE_SCORED, ...SWEBENCH_RESOLVED_SOME],
    strength: 11,
    sections: ['log', 'result'],
    why: 'the evaluation harness scored the run above 0',
    hint: 'The evaluation completed and scored above 0: not a failure.',
  },
  {
    // SWE-bench's own post-hoc infra classification (harness/infra_failure.py, #586), reported by
    // reporting.py: "Instances with likely infrastructure failures: N" and "infra_failure_instances": N;
    // grading.py's per-instance "infra_failure": true. The harness itself says the environment broke for
    // those instances (browser, display, memory, Docker daemon, DNS), so their score is no outcome.
    id: 'swebench.infra_failures_reported',
    class: 'sandbox.failure',
    patterns: [/^\s{0,8}Instances with likely infrastructure failures: [1-9]\d{0,6}\s*$/, /"infra_failure_instances":\s*[1-9]\d{0,6}\b/, /"infra_failure":\s*true\b/],
    strength: 20,
    sections: ['log', 'result'],
    why: "SWE-bench's harness classified some instances as infrastructure failures (environment tier)",
    hint: "SWE-bench's own report says the environment broke for some instances (browser or display missing, out of memory, Docker daemon unreachable, DNS): their unresolved status is not the model's score. Read failure_reasons in the report, fix the image or host, and re-run those instances.",
  },
]);
