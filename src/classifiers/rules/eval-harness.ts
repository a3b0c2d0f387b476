// Evaluation harnesses that grade an agent's patch (SWE-bench and the harnesses built on it) failing to
// grade: the instance ends with no report, which SWE-bench itself counts under "Instances with errors", not
// as unresolved (swebench/harness/reporting.py make_run_report: no report.json, or an empty / invalid one →
// error_ids). The words are SWE-bench's (swebench/harness/constants/__init__.py APPLY_PATCH_FAIL ">>>>>
// Patch Apply Failed", RESET_FAILED, TESTS_ERROR, TESTS_TIMEOUT; utils.py EvaluationError "Error in
// evaluation for {id}: …"; run_evaluation.py "Error in evaluating model for {id}: …", "Timeout error: {t}
// seconds exceeded."), git's (apply.c: "error: patch failed: <file>:<line>", "error: <file>: patch does not
// apply", "error: while searching for:") and GNU patch's ("Hunk #N FAILED
// at M.", "N out of M hunks FAILED -- saving rejects to file …").
import { defineRules } from '../rule.js';
import { RUN_LOG_ONLY } from './sections.js';
import { FINAL_EXCEPTION_RE, NOT_A_RAISE } from './usercode.js';

/**
 * The grading code of evaluation harnesses, by source path (installed or a checkout): SWE-bench's harness
 * (swebench/harness/, a clone's harness/ beside it), BigCodeBench's evaluator (bigcodebench/evaluate.py,
 * bigcodebench/eval/), EvalPlus (evalplus/evaluate.py, evalplus/eval/), OpenAI human-eval
 * (human_eval/execution.py, evaluation.py), LiveCodeBench (lcb_runner/evaluation/), Terminal-Bench's
 * harness and parsers (terminal_bench/harness/, terminal_bench/parsers/), Harbor's verifier (harbor/verifier/).
 * An exception raised there is the grader failing: the instance gets no score, not a bug of the run's code.
 */
export const GRADER_FRAME = /^(?![\/\\]testbed[\/\\])(?:.*[\/\\])?(?:swebench[\/\\]harness|SWE-bench(?:-[\w.]+)?[\/\\](?:swebench[\/\\])?harness|bigcodebench[\/\\](?:evaluate\.py|eval[\/\\])|evalplus[\/\\](?:evaluate\.py|eval[\/\\])|human_eval[\/\\](?:execution|evaluation)\.py|lcb_runner[\/\\]evaluation|terminal_bench[\/\\](?:harness|parsers)|harbor[\/\\]verifier)(?:[\/\\.]|$)/;

export const isGraderFrame = (path: string): boolean => GRADER_FRAME.test(path);

export const evalHarnessRules = defineRules([
  {
    // A traceback whose innermost frame is a grader's own code (GRADER_FRAME): the evaluator crashed on the
    // instance (BigCodeBench's evaluate parsing its own arguments, SWE-bench's harness setting up its
    // testbed), so no reward exists. Above the bare exception (20): the same line, read by where it was raised.
    id: 'harness.grader_exception',
    class: 'verifier.failure',
    patterns: [FINAL_EXCEPTION_RE],
    unless: [...NOT_A_RAISE, /not found in dataset|Missing problems|not attempted|must be (?:provided|\.json)|Each prediction must|No such file or directory|None of the provided task IDs|Invalid type for|has no tasks in split/],
    raisedIn: 'grader',
    sections: RUN_LOG_ONLY,
    strength: 24,
    why: "an exception raised in the evaluation harness's own grading code: the grader crashed, so the instance has no score",
    hint: "The evaluation harness itself raised (its innermost frame is the grader's code, not the agent's or the run's): the instance was never graded, so it has no reward, not a reward of 0. Check the harness version and its arguments against the instance, fix or pin the harness, and re-run the evaluation of the affected instances.",
  },
  {
    id: 'harness.swebench_ungraded',
    class: 'verifier.failure',
    patterns: [
      // Not APPLY_PATCH_FAIL on its own (rules/outcome.ts reads it as graded unresolved, as evalscope scores it;
      // SWE-bench's run_instance raises EvaluationError and counts the instance under errors): git's own
      // words below, when the log has them, say the checkout and the patch disagree.
      /^(?:\S.{0,120}[:\]-] )?>>>>> (?:Reset Failed|Tests Errored|Tests Timed Out)\b/,
      /\bError in evaluation for \S{1,200}: /,
      /\bError in evaluating model for \S{1,200}: /,
      /\bTimeout error: \d+ seconds exceeded\b/,
    ],
    strength: 50,
    why: 'the evaluation harness could not grade the instance (patch not applied, reset failed, tests errored or timed out): no report, no score',
    hint: "The harness could not grade this instance, so it has no score (SWE-bench counts it under 'Instances with errors', not as unresolved): read the instance's run_instance.log for the step that failed (the patch not applying to the image's checkout, the eval script erroring, the test timeout). Fix the environment or the instance and re-run its evaluation.",
  },
  {
    // SWE-bench looks up the image an instance runs in before it starts it: run_evaluation.py "Image {image}
    // not found for {instance_id}" (docker_build.py before it: "Environment image {image} not found for
    // {instance_id}", a BuildImageError): the image was never built or pulled (an arm64 host asks for
    // sweb.env.arm64.* that nobody built), so the instance cannot run.
    id: 'harness.swebench_image_missing',
    class: 'image.build_failure',
    patterns: [/\b(?:Environment |Base )?[Ii]mage \S{1,200} not found for \S{1,200}/],
    strength: 60,
    why: "the evaluation harness found no image for the instance: it was never built (or pulled) for this host",
    hint: "SWE-bench found no image for the instance: build the environment/instance images first (--cache_level, prepare_images) for this host's architecture (arm64 hosts need --namespace '' and local builds), or pull the published x86_64 images, then re-run.",
  },
  {
    // The patch and the checkout disagree (a hunk's context is not there). Not git's "corrupt patch" / patch's
    // "malformed patch": a patch that is itself garbage is the agent's output, which harnesses score.
    // Only in the run's logs and a verifier's output: an agent applying patches in its own session is its work.
    id: 'harness.patch_not_applied',
    class: 'verifier.failure',
    patterns: [
      // `(?:\\n|\b)`: harnesses often log git's output as a Python bytes repr (b'Checking patch …\\nerror: …').
      /(?:\\n|\b)error: patch failed: \S{1,300}:\d+/,
      /(?:\\n|\b)error: \S{1,300}: patch does not apply\b/,
      /(?:\\n|\b)error: while searching for:/,
      /\bHunk #\d+ FAILED at \d+/,
      /\b\d+ out of \d+ hunks? FAILED\b/,
    ],
    strength: 45,
    sections: ['log', 'verifier', 'result'],
    why: 'the patch to grade did not apply to the checkout the tests run on, so the tests never ran on it',
    hint: "The patch did not apply (git apply / patch rejected a hunk): the checkout the verifier starts from is not the one the patch was written against (wrong base commit, files changed in the image, CRLF). If it is the reference (gold) patch, the instance's environment is broken; re-build it. The instance has no score.",
  },
  {
    // A traceback through SWE-bench's own grading/reporting code (reporting.py make_run_report reading an
    // empty report.json: JSONDecodeError; grading.py get_eval_report / get_logs_eval): the harness failed to
    // produce the report, whatever exception it was.
    id: 'harness.swebench_report_failed',
    class: 'verifier.failure',
    patterns: [/File "[^"]{0,300}\/swebench\/harness\/(?:reporting|grading)\.py", line \d+, in \w+/],
    strength: 30,
    why: "SWE-bench's grading or reporting code raised: the run's report (the scores) was not produced",
    hint: "SWE-bench crashed while grading or writing the run report (an instance's report.json is empty or invalid, typically after that instance's evaluation was cut off): find the instance with the empty report under logs/run_evaluation/, re-run it, then re-make the report.",
  },
  {
    // Reward functions run under a time limit inside RL trainers (AReaL areal/reward/*: "Computing reward
    // timeout after {s}s. Set reward to 0."; later "…(attempt i/n). Returning 0."): the 0 is no score but the
    // verifier not finishing.
    id: 'harness.reward_timeout',
    class: 'verifier.failure',
    patterns: [/\bComputing reward timeout after \d+(?:\.\d+)?s\b/],
    strength: 45,
    why: 'the reward function timed out and the trainer recorded 0 instead of a score',
    hint: "The reward computation timed out and was recorded as 0: those zeros are not scores. Raise the reward timeout, give the reward workers more CPU (process pool size), or find the sample that hangs the scorer.",
  },
]);
