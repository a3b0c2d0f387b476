// Harnesses that cannot grade an instance: SWE-bench's markers and exceptions, git apply / patch rejects.
import { describe, expect, it } from 'vitest';
import { classifyText } from '../helpers.js';

function top(text: string, path?: string): [string, string | undefined] {
  const d = classifyText(text, path);
  return [d.class, d.evidence[0]?.rule];
}

describe('SWE-bench harness', () => {
  it('a test run that timed out or errored leaves the instance ungraded', () => {
    expect(top('2025-01-10 10:02:11,532 - INFO - >>>>> Tests Timed Out\nTimeout error: 1800 seconds exceeded.')).toEqual(['verifier.failure', 'harness.swebench_ungraded']);
  });
  it("EvaluationError's message", () => {
    expect(top('Error in evaluation for django__django-11099: >>>>> Reset Failed\nCheck (logs/run_evaluation/r1/gold/django__django-11099/run_instance.log) for more information.')).toEqual(['verifier.failure', 'harness.swebench_ungraded']);
  });
  it('a crash inside its reporting code (an empty report.json)', () => {
    const log = 'Traceback (most recent call last):\n  File "/usr/local/lib/python3.11/site-packages/swebench/harness/reporting.py", line 68, in make_run_report\n    report = json.loads(report_file.read_text())\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)';
    expect(top(log)).toEqual(['verifier.failure', 'harness.swebench_report_failed']);
  });
});

describe('patches that do not apply', () => {
  it("git apply's context mismatch, also inside a bytes repr", () => {
    expect(top('error: patch failed: src/app/models.py:120\nerror: src/app/models.py: patch does not apply')).toEqual(['verifier.failure', 'harness.patch_not_applied']);
    expect(top("INFO - b'Checking patch go.sum...\\nerror: while searching for:\\ngolang.org/x/net v0.21.0 h1:abc=\\n'")).toEqual(['verifier.failure', 'harness.patch_not_applied']);
  });
  it("GNU patch's rejected hunks", () => {
    expect(top('patching file lib/core.py\nHunk #2 FAILED at 88.\n1 out of 2 hunks FAILED -- saving rejects to file lib/core.py.rej')[0]).toBe('verifier.failure');
  });
  it("a patch the agent applies in its own session is the agent's work", () => {
    expect(top('==> agent/claude-code.txt <==\nerror: patch failed: src/app/models.py:120\nerror: src/app/models.py: patch does not apply')[0]).not.toBe('verifier.failure');
  });
  it("a malformed patch (the model's own output) is not called a verifier failure", () => {
    expect(top(">>>>> Patch Apply Failed:\npatching file astropy/io/fits/card.py\npatch: **** malformed patch at line 14: diff --git a/x b/x")[0]).not.toBe('verifier.failure');
  });
});

describe('reward functions under a time limit', () => {
  it("AReaL's timeout that records 0", () => {
    expect(top('WARNING 2025-06-01 10:00:00 Reward API: Computing reward timeout after 15s. Set reward to 0.')).toEqual(['verifier.failure', 'harness.reward_timeout']);
  });
});

describe("an exception raised in a grader's own code (GRADER_FRAME)", () => {
  const tb = (...frames: string[]) => (exc: string) => ['Traceback (most recent call last):', ...frames, exc].join('\n');
  // BigCodeBench's evaluate() parsing its own pass_k argument (bigcodebench/evaluate.py), installed.
  const bigcode = tb('  File "/usr/local/lib/python3.10/site-packages/bigcodebench/evaluate.py", line 209, in evaluate', '    passk = [int(k) for k in pass_k.split(",")]');
  // SWE-bench's older harness run from a clone (harness/utils.py get_conda_env_names).
  const swebenchClone = tb(
    '  File "/home/me/SWE-bench/harness/context_manager.py", line 227, in __enter__',
    '    env_list = get_conda_env_names(exec_cmd, shellenv)',
    '  File "/home/me/SWE-bench/harness/utils.py", line 56, in get_conda_env_names',
    '    env_names.append(env_name)',
  );

  it('is the grader failing, no score: verifier.failure, installed or from a clone', () => {
    expect(top(bigcode("AttributeError: 'tuple' object has no attribute 'split'"))).toEqual(['verifier.failure', 'harness.grader_exception']);
    expect(top(swebenchClone("UnboundLocalError: local variable 'env_name' referenced before assignment"))).toEqual(['verifier.failure', 'harness.grader_exception']);
  });

  it("the same exception in the run's own code, or in the task repo the agent edits, stays the code's", () => {
    const own = tb('  File "/work/eval.py", line 41, in <module>', "    score = metrics['accuracy']");
    expect(top(own("KeyError: 'accuracy'"))[0]).toBe('user.code_error');
    // A SWE-bench instance's repository checked out at /testbed: the code under test, not the harness.
    const testbed = tb('  File "/testbed/astropy/io/fits/card.py", line 120, in _check', '    raise ValueError(msg)');
    expect(top(testbed('ValueError: Card keyword is invalid'))[1]).not.toBe('harness.grader_exception');
  });

  it('a grader frame higher up the stack does not make a library error below it the grader\'s', () => {
    const below = tb('  File "/usr/local/lib/python3.10/site-packages/bigcodebench/evaluate.py", line 150, in evaluate', '    results = json.load(f)', '  File "/usr/lib/python3.10/json/__init__.py", line 293, in load', '    return loads(fp.read(),');
    expect(top(below('json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)'))[1]).not.toBe('harness.grader_exception');
  });
});
