// Harbor trials whose logs carry the structure of what happened: the agent's stream stopping mid-step
// beside Harbor's AgentTimeoutError, a trial killed mid-run (never an outcome), and the agent's command
// exiting 127 under `set -o pipefail` (agents/installed/base.py): the agent was never installed, so its
// trial is an infrastructure failure whatever reward Harbor wrote.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyBundle } from '../../src/classifiers/index.js';
import { exc, FIX, variant } from './helpers.js';

const H22 = join(FIX, 'h22-exceptions');
const read = (trial: string, path: string) => readFileSync(join(H22, trial, path), 'utf8');

describe("the agent's own log beside Harbor's record", () => {
  const trial = 'agent-timeout-healthy__UTmkJ9A';
  it('AgentTimeoutError with a Claude Code stream that has no result event: a timeout, shown from both sides', () => {
    const b = variant(join(H22, trial), () => {}, { 'harbor/agent/claude-code.txt': read(trial, 'agent/claude-code.txt') });
    const d = classifyBundle(b);
    expect(d.class).toBe('outcome.agent_timeout');
    expect(d.evidence.map((e) => e.rule)).toEqual(expect.arrayContaining(['harbor.exception_type', 'agent.loop_cut']));
    expect(d.evidence.find((e) => e.rule === 'agent.loop_cut')?.file).toBe('harbor/agent/claude-code.txt');
  });
  it('a trial killed mid-run (no result.json) whose agent stream stops is no outcome: it has no score', () => {
    const killed = 'killed-mid-run__5PTvCtx';
    const d = classifyBundle({ files: new Map([['harbor/config.json', read(killed, 'config.json')], ['harbor/trial.log', read(killed, 'trial.log')], ['harbor/agent/claude-code.txt', read(killed, 'agent/claude-code.txt')]]) });
    expect(d.category).not.toBe('outcome');
    expect(d.class).toBe('unknown');
  });
});

describe("the agent's command exiting 127 (not installed)", () => {
  // _classify_exec_error's message for `set -o pipefail; mini-swe-agent … | tee …` when the binary is missing.
  const cmd = 'mini-swe-agent --yolo --model=openai/gpt-4o --task=\'Fix the failing test\' --output=/logs/agent/mini-swe-agent.trajectory.json --exit-immediately 2>&1 </dev/null | tee /logs/agent/mini-swe-agent.txt';
  const message = `Command failed (exit 127): ${cmd}\nstdout: bash: line 1: mini-swe-agent: command not found\n\nstderr: `;
  it('is agent.setup_failure, never the reward 0 Harbor recorded', () => {
    const b = variant(join(H22, 'agent-nonzero-exit__LLjddGF'), (r) => {
      r.exception_info = exc('NonZeroAgentExitCodeError', message);
      r.verifier_result = { rewards: { reward: 0.0 } };
    });
    const d = classifyBundle(b);
    expect(d.class).toBe('agent.setup_failure');
    expect(d.category).toBe('infra');
  });
  it('another non-zero exit of a working agent keeps its reward (by_reward)', () => {
    const b = variant(join(H22, 'agent-nonzero-exit__LLjddGF'), (r) => {
      r.exception_info = exc('NonZeroAgentExitCodeError', message.replace('exit 127', 'exit 1').replace('mini-swe-agent: command not found', 'Traceback: tool exited 2'));
      r.verifier_result = { rewards: { reward: 0.0 } };
    });
    expect(classifyBundle(b).class).toBe('outcome.reward_zero');
  });
});

describe('the phase a cause-less exception stopped the trial in (result.json timings)', () => {
  // claude_code.py `install`: exec_as_agent of the bootstrap script; a failure there is _classify_exec_error's
  // NonZeroAgentExitCodeError, recorded by Trial.run before any agent_execution block exists.
  const install = 'set -euo pipefail; if command -v apk &> /dev/null; then  npm install -g @anthropic-ai/claude-code; else  curl -fsSL https://downloads.claude.ai/claude-code-releases/bootstrap.sh | bash -s --; fi && claude --version';
  const setupMessage = `Command failed (exit 22): ${install}\nstdout: \nstderr: curl: (22) The requested URL returned error: 403`;
  it('a NonZeroAgentExitCodeError while agent_setup ran (agent_execution never started) is the agent setup, not a verifier failure', () => {
    const b = variant(join(H22, 'agent-setup-timeout__Maorj26'), (r) => {
      r.exception_info = exc('NonZeroAgentExitCodeError', setupMessage);
    });
    const d = classifyBundle(b);
    expect(d.class).toBe('agent.setup_failure');
    expect(d.hint).toContain('during agent setup');
  });
  it('a RuntimeError that names nothing while the environment started is the sandbox', () => {
    const b = variant(join(H22, 'env-start-timeout__RPuS25F'), (r) => {
      r.exception_info = exc('RuntimeError', 'Unexpected response from the environment API');
    });
    expect(classifyBundle(b).class).toBe('sandbox.failure');
  });
  it('the same exception once the agent ran and the verifier scored it keeps the score', () => {
    const b = variant(join(H22, 'agent-nonzero-exit__LLjddGF'), (r) => {
      r.exception_info = exc('NonZeroAgentExitCodeError', setupMessage.replace('exit 22', 'exit 1'));
      r.verifier_result = { rewards: { reward: 1.0 } };
    });
    expect(classifyBundle(b).class).toBe('outcome.scored');
  });
});
