// A verifier whose test runner itself could not run: the tests never executed, so no reward exists (not a
// failed test, which is an outcome). Wordings of Python's runpy ("/path/python: No module named pytest"),
// the shell, and pytest's own usage errors (exit code 4: "ERROR: file or directory not found: …").
import { defineRules } from '../rule.js';

/**
 * A test runner's session as its output shows it: the line it prints when the session starts and the lines
 * it prints only once the session is over. pytest (_pytest/terminal.py): `pytest_sessionstart` writes the
 * "test session starts" separator; `summary_stats` ends every session with "<counts> in <s>s" (seconds from
 * `format_session_duration`, "(H:MM:SS)" past a minute), preceded by "short test summary info" under -r;
 * "no tests ran" when nothing ran; an interrupted session says "Interrupted: …" first. A session that
 * started and never printed its summary was stopped before it could write a result.
 */
export interface TestRunnerVocabulary {
  runner: string;
  source: string;
  start: readonly RegExp[];
  summary: readonly RegExp[];
}

export const TEST_RUNNERS: readonly TestRunnerVocabulary[] = [
  {
    runner: 'pytest',
    source: 'pytest-dev/pytest: src/_pytest/terminal.py (pytest_sessionstart, summary_stats, short_test_summary, format_session_duration)',
    start: [/^=+ test session starts =+\s*$/],
    summary: [
      / (?:passed|failed|errors?|skipped|deselected|xfailed|xpassed|warnings?|rerun) in \d+\.\d\ds\b/,
      /\bno tests ran in \d+\.\d\ds\b/,
      /^=+ short test summary info =+\s*$/,
      // The short summary's per-test lines (-rA / -rf): a pasted excerpt may keep them without the final line.
      /^(?:FAILED|PASSED|ERROR) \S{1,300}::/,
      /^!+ Interrupted: /,
    ],
  },
  {
    // unittest (Lib/unittest/runner.py TextTestRunner.run: "Ran N tests in X.XXXs", then "OK" / "FAILED (…)").
    runner: 'unittest',
    source: 'cpython: Lib/unittest/runner.py',
    start: [],
    summary: [/^Ran \d+ tests? in \d+\.\d{3}s$/, /^FAILED \((?:failures|errors)=\d+/],
  },
  {
    // go test (cmd/go/internal/test: "ok  \tpkg\t0.01s", "FAIL\tpkg\t0.01s"), cargo test ("test result: ok. N passed"), jest ("Tests:  N failed, M passed, K total").
    runner: 'go/cargo/jest',
    source: 'golang/go cmd/go/internal/test; rust-lang libtest; jest-cli SummaryReporter',
    start: [],
    summary: [/^(?:ok {2}\t|FAIL\t)\S{1,200}\t(?:\d+\.\d{2,3}s|\(cached\))/, /^test result: (?:ok|FAILED)\. \d+ passed/, /^Tests:\s+\d+ /],
  },
];

export const verifierRules = defineRules([
  {
    // Fired by the engine's progress tracker (progress.ts, a `test-run` fact), never by a line: a test
    // session that started and never printed its summary, or a verifier's output (Terminal-Bench
    // panes/post-test.txt, Harbor verifier/test-stdout.txt) that ends without any test result, and no reward
    // anywhere in the bundle. Stronger than a scored outcome (a reward that does not exist is not a 0).
    id: 'verifier.no_test_summary',
    class: 'verifier.failure',
    patterns: [],
    strength: 14,
    why: 'the test run never finished: no summary, so no reward was produced',
    hint: "The verifier's tests never finished (the session started, or the verifier's setup ran, but no summary and no reward followed): it was stopped by its time limit or died. The trial has no score (not a 0): retry it; if it repeats, the test setup (apt/uv installs, a hanging test) does not fit the verifier timeout.",
  },
  {
    id: 'verifier.runner_missing',
    class: 'verifier.failure',
    patterns: [/python[\d.]*: No module named pytest\b/, /\bpytest: (?:command )?not found/, /^ERROR: file or directory not found: /],
    strength: 45,
    // Not the agent's log: there pytest output is the agent testing its own work.
    sections: ['log', 'verifier'],
    why: "the verifier's test runner could not start, so the tests never ran",
    hint: "The tests never ran: pytest is missing from the interpreter that ran them (an agent's activated virtualenv shadows the verifier's, or the install step failed) or the test path does not exist. Run the verifier with an absolute interpreter that has pytest, outside any venv the agent left active.",
  },
]);
