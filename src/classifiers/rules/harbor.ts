// Agent-evaluation harnesses: Harbor exception types, Terminal-Bench trial results, verifier output.
// Outcome rules are the weakest of all: any infrastructure signal in the trial outranks a score.
import { defineRules, type Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';

/** Terminal-Bench `failure_mode` values and what each says about the trial. */
const TB_FAILURE_MODE: Record<string, { class: FailureClass; strength: number; harnessNoFailure?: true } | undefined> = {
  // FailureMode.UNSET / NONE (terminal_bench/harness_models.py): nothing failed, is_resolved scores the trial.
  // Weakest of all; it tells the engine the agent was not cut off by the harness.
  unset: { class: 'outcome.reward_zero', strength: 1, harnessNoFailure: true },
  none: { class: 'outcome.reward_zero', strength: 1, harnessNoFailure: true },
  agent_timeout: { class: 'outcome.agent_timeout', strength: 12 },
  agent_installation_failed: { class: 'agent.setup_failure', strength: 46 },
  test_timeout: { class: 'verifier.failure', strength: 46 },
  parse_error: { class: 'verifier.failure', strength: 46 },
  context_length_exceeded: { class: 'gateway.4xx', strength: 60 },
};

/**
 * The graded lines of a pytest session (_pytest/terminal.py short_test_summary "FAILED path::test - msg",
 * "ERROR path - msg"; summary_stats "== 1 failed, 2 passed in 0.12s =="). Not its "short test summary
 * info" separator: with -rA it heads PASSED lines too, so it says nothing about the score.
 */
const PYTEST_SUMMARY = [/^FAILED \S{1,300}::/, /=+ (?:\d+ failed|\d+ passed|\d+ errors?)(?:, \d+ \w+)* in [\d.]+s/, /^ERROR \S{1,300}\.py - /, /^ERROR \S{1,300}\.py::\S{1,200} - /];

export const harborRules = defineRules([
  // Harbor's environments (0.13–0.22): the messages its GKE/Docker environments and trial loop write
  // (FORMATS §1.7; gke.py 0.21+: "Container not ready for exec…", "Pod … returned 500 error during upload").
  {
    id: 'harbor.sandbox',
    class: 'sandbox.failure',
    keys: ['EnvironmentStartTimeoutError', 'HealthcheckError', 'Healthcheck failed after', 'Pod failed to start', 'Pod not ready after', 'Failed to create pod', 'Kubernetes API error', 'terminal phase', 'Cannot exec into dead container', 'not found (404)', 'Container not ready for exec', 'error during upload', 'GKEExecStreamClosedError', 'Failed to pull image', 'Runtime action', 'Docker compose command failed'],
    patterns: [
      /\b(?:EnvironmentStartTimeoutError|HealthcheckError|GKEExecStreamClosedError)\b|\bHealthcheck failed after \d+ consecutive retries/,
      /\bPod failed to start\b|\bPod not ready after \d+|\bFailed to create pod\b|\bKubernetes API error: \d{3}/,
      /is in terminal phase '|Cannot exec into dead container|Container not ready for exec after|\bPod \S+ not found \(404\)|\bPod \S+ returned 500 error during upload/,
      /\bFailed to pull image\b/,
      // computer-1's in-sandbox runtime (agents/computer_1/runtime.py) when the sandbox exec itself failed.
      /Runtime action '[^']{1,60}' failed \((?:0|5\d\d)\): (?:environment\.exec failed|exec failed)/,
      // environments/docker/docker.py
      /Docker compose command failed for environment /,
    ],
    strength: 60,
    why: "Harbor's sandbox (Pod or container) did not start, failed its healthcheck or went away",
    hint: 'The sandbox did not start, failed its healthcheck or died: retry the trial; check the Pod events (image, scheduling, node).',
  },
  {
    id: 'harbor.image_build',
    class: 'image.build_failure',
    keys: ['SandboxBuildFailedError', 'Image build failed'],
    patterns: [/\bSandboxBuildFailedError\b|\bImage build failed\b/],
    strength: 70,
    why: "the task's sandbox image did not build",
    hint: "The task image did not build: read the build output (Dockerfile, base image, registry), fix it, then retry.",
  },
  {
    id: 'harbor.memory_limit',
    class: 'host.oom',
    keys: ['MemoryLimitExceededError'],
    patterns: [/\bMemoryLimitExceededError\b/],
    strength: 75,
    why: "the sandbox went over its memory limit (Harbor's singularity environment)",
    hint: 'The sandbox ran out of memory: raise the memory limit (override_memory_mb) or retry on a larger node.',
  },
  {
    id: 'harbor.agent_setup',
    class: 'agent.setup_failure',
    patterns: [
      /\bAgentSetupTimeoutError\b|\bAgentInstallationError\b/,
      // Harbor's installed agents (agents/installed/base.py, the ACP agents): the install script's template
      // missing from the package ("Install agent template file not found: …/install-claude-code.sh.j2") and
      // the ACP launcher finding no node/agent binaries in the sandbox ("Could not locate node/claude-code-acp
      // binaries for ACP mode (got '…')").
      /\bInstall agent template file not found: /,
      /\bCould not locate node\/[\w.-]{1,60} binaries for ACP mode\b/,
    ],
    strength: 70,
    why: 'the harness could not install or start the agent inside the sandbox',
    hint: 'The agent never started: read the agent install log (harbor/agent/setup or install output) for the failing step; pin the agent version and make its install independent of the task image.',
  },
  {
    id: 'agent.install_failed',
    class: 'agent.setup_failure',
    patterns: [/[Ff]ailed to install (?:the )?agent|[Aa]gent (?:install(?:ation)?|setup) (?:failed|error)|[Ee]rror (?:installing|setting up) (?:the )?agent/],
    strength: 60,
    sections: ['log', 'agent', 'result'],
    why: 'the agent install step failed in the sandbox',
    hint: 'The agent install step failed: its output names the failing command (package index unreachable, wrong Python, missing build tools); pin the agent version.',
  },
  {
    id: 'harbor.verifier',
    class: 'verifier.failure',
    patterns: [
      /\b(?:RewardFileNotFoundError|RewardFileEmptyError|VerifierOutputParseError|VerifierTimeoutError|AddTestsDirError|DownloadVerifierDirError)\b/,
      // The reward file missing where a harness reads it itself (RewardFileNotFoundError is Harbor's
      // FileNotFoundError of the same thing; a harness of its own raises the builtin on the same path):
      // "FileNotFoundError: [Errno 2] No such file or directory: '/logs/verifier/reward.txt'".
      /(?:FileNotFoundError|No such file or directory|ENOENT)\b[^\n]{0,200}\/logs\/verifier\/reward\.(?:txt|json)\b/,
    ],
    strength: 70,
    sections: ['log', 'agent', 'verifier', 'result'],
    why: 'the verifier ran but produced no reward',
    hint: 'The verifier produced no reward: check the task tests write reward.txt/reward.json, that the test run fits its timeout, and the verifier output format.',
  },
  {
    // The harnesses' own words for a test run that gave no result, as weak as Terminal-Bench's FailureMode
    // for the same events (tb.failure_mode: test_timeout, parse_error at 46) so that any infrastructure
    // cause behind them (the model API, the sandbox) decides: Harbor's verifier before the rename
    // (sandboxes/verifier/verifier.py TestCommandError "Test command failed with return code N"),
    // Terminal-Bench's harness (terminal_bench/harness.py: the tests ran out of time; their output had no
    // pytest summary to parse).
    id: 'verifier.harness_text',
    class: 'verifier.failure',
    patterns: [
      /\bTestCommandError: Test command failed with return code \d+/,
      /\bTest command timed out after [\d.]+s for task \S/,
      /\bError parsing results for task \S{1,200}: No short test summary info found\b/,
    ],
    strength: 46,
    sections: ['log', 'agent', 'verifier', 'result'],
    why: 'the harness says the test run gave no result (it failed to run, timed out, or printed no summary)',
    hint: 'The tests gave no result (not a 0): the test command failed to run, ran past its timeout, or printed no pytest summary. Check the verifier output for the failing step (a missing test runner, installs that do not fit the timeout) and retry the trial.',
  },
  {
    id: 'harbor.agent_timeout',
    class: 'outcome.agent_timeout',
    // trial/errors.py: the type, and its message "Agent execution timed out after {s} seconds" (trial.py
    // `_run_agent_phase`), which a log may print without the type.
    patterns: [/\bAgentTimeoutError\b/, /\bAgent execution timed out after \d+(?:\.\d+)? seconds\b/],
    strength: 12,
    sections: ['log', 'agent', 'result'],
    why: 'the agent used its whole time budget',
    hint: 'The agent ran out of time with no infrastructure failure behind it: a valid outcome. Raise the timeout only if the task calls for it.',
  },
  {
    id: 'tb.failure_mode',
    class: 'outcome.agent_timeout',
    patterns: [/"failure_mode":\s*"(\w+)"/],
    strength: 12,
    sections: ['log', 'result'],
    extract: (_l, m): Extracted => {
      const mode = TB_FAILURE_MODE[m[1] ?? ''];
      return mode ? { failureMode: m[1], classOverride: mode.class, strength: mode.strength, ...(mode.harnessNoFailure ? { harnessNoFailure: true } : {}) } : { failureMode: m[1], classOverride: null };
    },
    why: 'the harness recorded how the trial failed',
    hint: 'The harness recorded a failure mode for this trial.',
  },
  {
    id: 'agent.command_not_found',
    class: 'agent.setup_failure',
    patterns: [/^(?:bash|sh|zsh|\/bin\/sh)(?::\s*line \d+)?:\s*([\w.-]{1,60}): command not found/, /executable file not found in \$PATH/],
    strength: 44,
    sections: ['agent'],
    extract: (_l, m): Extracted => ({ command: m[1] }),
    why: "the agent's own command was not found in the sandbox (it was never installed)",
    hint: 'The agent binary is not installed in the sandbox: the install step failed or installed it off PATH; check the agent install output.',
  },
  {
    id: 'outcome.tests_failed',
    class: 'outcome.reward_zero',
    patterns: [/"rewards?":\s*(-?\d+(?:\.\d+)?)\b/, ...PYTEST_SUMMARY, /"is_resolved":\s*false/, /"is_resolved":\s*true/],
    strength: 10,
    sections: ['verifier', 'result'],
    extract: (line): Extracted => {
      const reward = /"rewards?":\s*(-?\d+(?:\.\d+)?)\b/.exec(line);
      if (reward) return Number(reward[1]) > 0 ? { classOverride: 'outcome.scored', reward: Number(reward[1]) } : { reward: Number(reward[1]) };
      if (/"is_resolved":\s*true/.test(line)) return { classOverride: 'outcome.scored', resolved: true };
      if (/"is_resolved":\s*false/.test(line)) return { resolved: false };
      const passedOnly = /=+ \d+ passed(?: in|,(?! \d+ failed))/.test(line) && !/failed|error/.test(line);
      return passedOnly ? { classOverride: 'outcome.scored' } : {};
    },
    why: 'the verifier ran the tests and scored the trial',
    hint: 'The trial ran to completion and the verifier scored it: a valid outcome, not an infrastructure failure.',
  },
  {
    id: 'outcome.pytest_summary',
    class: 'outcome.reward_zero',
    patterns: PYTEST_SUMMARY,
    // A pytest session summary is graded test output even in a pasted verifier pane without its header.
    // (Numbers such as "reward": 0 in a run's own log are training metrics, so they stay result-only.)
    strength: 10,
    sections: ['log'],
    extract: (line): Extracted => (/=+ \d+ passed(?: in|,(?! \d+ failed))/.test(line) && !/failed|error/.test(line) ? { classOverride: 'outcome.scored' } : {}),
    why: 'a pytest session graded the work and reported failures',
    hint: 'The tests ran and failed: a scored outcome, not an infrastructure failure.',
  },
]);

/** Context lines from harness results that gate other rules (tokens used tells whether an agent ran). */
export const TOKENS_RE = /"(?:total_)?(?:input_tokens|n_input_tokens)":\s*(\d+|null)/;
