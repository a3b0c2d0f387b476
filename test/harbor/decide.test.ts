// decideHarborTrial called directly, with constructed engine verdicts (weak, infra, misleading),
// on result.json variants of a real fixture trial.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyBundle, type Diagnosis } from '../../src/classifiers/index.js';
import { decideHarborTrial, decideHarborTrialWithoutResult, scanHarborSignals } from '../../src/classifiers/harbor-trial.js';
import { readHarborResult } from '../../src/classifiers/harbor-result.js';
import { INFRA, WEAK, exc, variant } from './helpers.js';

// A completed trial with reward 1.0 and no exception (Harbor 0.13 shape).
const BASE = join(INFRA, 'hello-world__Xk3pQ9a');

const GW503 = "litellm.exceptions.ServiceUnavailableError: litellm.ServiceUnavailableError: OpenAIException - Error code: 503 - {'error': {'message': 'no healthy upstream'}}";
const RATE429 = "litellm.exceptions.RateLimitError: litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - {'error': {'code': 'rate_limit_exceeded'}}";

function engine(cls: Diagnosis['class'], category: Diagnosis['category'], file: string, text: string, rule = 'gateway.http_5xx'): Diagnosis {
  return { class: cls, category, confidence: 0.8, evidence: [{ file, line: 3, text, rule }], hint: '', rulesetVersion: 'test' };
}

const timeoutWithReward = (reward: number | null) => (r: Record<string, any>) => {
  r.exception_info = exc('AgentTimeoutError', 'Agent execution timed out after 900.0 seconds');
  r.verifier_result = reward === null ? null : { rewards: { reward } };
};

describe('decideHarborTrial: outcomes', () => {
  it('reward > 0 with no infra signal is outcome.scored', () => {
    const d = decideHarborTrial(variant(BASE, () => {}), WEAK);
    expect(d.class).toBe('outcome.scored');
    expect(d.category).toBe('outcome');
    expect(d.evidence.some((e) => e.file === 'harbor/result.json' && e.rule === 'harbor.reward' && /"reward": 1/.test(e.text))).toBe(true);
  });

  it('reward 0 with no exception is outcome.reward_zero, even when the verifier output has tracebacks', () => {
    const input = variant(BASE, (r) => (r.verifier_result = { rewards: { reward: 0 } }), {
      'harbor/verifier/test-stdout.txt': 'E       AssertionError: File /app/output.txt does not exist\nConnection refused\n',
    });
    const misleading = engine('user.code_error', 'user', 'harbor/verifier/test-stdout.txt', 'AssertionError', 'usercode.assertion');
    expect(decideHarborTrial(input, misleading).class).toBe('outcome.reward_zero');
  });

  it('AgentTimeoutError with a healthy API is outcome.agent_timeout', () => {
    const input = variant(BASE, timeoutWithReward(0), { 'harbor/agent/mini-swe-agent.txt': 'Step 1 ($0.004)\nTHOUGHT: list files\n' });
    expect(decideHarborTrial(input, WEAK).class).toBe('outcome.agent_timeout');
  });

  it("a bare asyncio TimeoutError in the timeout's own traceback is not an API timeout", () => {
    const input = variant(BASE, timeoutWithReward(0), { 'harbor/exception.txt': 'Traceback (most recent call last):\nTimeoutError\n\nharbor.trial.errors.AgentTimeoutError: Agent execution timed out\n' });
    const eng = engine('api.timeout', 'infra', 'harbor/exception.txt', 'TimeoutError', 'api.request_timeout');
    expect(decideHarborTrial(input, eng).class).toBe('outcome.agent_timeout');
  });

  it('multi-key rewards use "reward", else the first key', () => {
    expect(readHarborResult(JSON.stringify({ verifier_result: { rewards: { accuracy: 0.25, reward: 1 } } })).reward).toBe(1);
    expect(readHarborResult(JSON.stringify({ verifier_result: { rewards: { accuracy: 0.25, style: 1 } } })).reward).toBe(0.25);
  });
});

describe('decideHarborTrial: infra failures are never a reward 0', () => {
  it('AgentTimeoutError + gateway 503s in the agent log + reward 0 is gateway.5xx (own scan, weak engine)', () => {
    const input = variant(BASE, timeoutWithReward(0), { 'harbor/agent/mini-swe-agent.txt': `${GW503}\n${GW503}\n${GW503}\n` });
    const d = decideHarborTrial(input, WEAK);
    expect(d.class).toBe('gateway.5xx');
    expect(d.category).toBe('infra');
    expect(d.evidence.map((e) => e.file)).toEqual(expect.arrayContaining(['harbor/result.json', 'harbor/agent/mini-swe-agent.txt']));
    expect(d.evidence.find((e) => e.rule === 'harbor.exception_type')?.text).toContain('AgentTimeoutError');
    expect(d.hint).toMatch(/not a real score/);
  });

  it('prefers the engine verdict when it is an infra class resting on the logs', () => {
    const input = variant(BASE, timeoutWithReward(0), { 'harbor/trial.log': 'x\nx\nconnect ECONNREFUSED 10.0.0.7:443 (litellm)\n' });
    const eng = engine('network.error', 'infra', 'harbor/trial.log', 'connect ECONNREFUSED 10.0.0.7:443 (litellm)', 'network.refused');
    const d = decideHarborTrial(input, eng);
    expect(d.class).toBe('network.error');
    expect(d.evidence.some((e) => e.rule === 'network.refused')).toBe(true);
  });

  it('ignores an engine infra verdict that rests only on verifier output or trajectories', () => {
    const input = variant(BASE, timeoutWithReward(0), {});
    const eng = engine('network.error', 'infra', 'harbor/verifier/test-stdout.txt', 'Connection refused', 'network.refused');
    expect(decideHarborTrial(input, eng).class).toBe('outcome.agent_timeout');
    const eng2 = engine('gateway.5xx', 'infra', 'harbor/agent/trajectory.json', 'HTTP 503', 'gateway.http_5xx');
    expect(decideHarborTrial(input, eng2).class).toBe('outcome.agent_timeout');
  });

  it('AgentTimeoutError + API timeouts is api.timeout', () => {
    const input = variant(BASE, timeoutWithReward(0), { 'harbor/trial.log': 'LLM call failed: litellm.Timeout: APITimeoutError - Request timed out.\n'.repeat(3) });
    expect(decideHarborTrial(input, WEAK).class).toBe('api.timeout');
  });

  it('ApiRateLimitError is gateway.4xx even with no log, and even though a reward 0 was recorded', () => {
    const input = variant(BASE, (r) => {
      r.exception_info = exc('ApiRateLimitError', 'Command failed (exit 1): mini-swe-agent --yolo\nstdout: \nstderr: ');
      r.verifier_result = { rewards: { reward: 0 } };
    });
    const d = decideHarborTrial(input, WEAK);
    expect(d.class).toBe('gateway.4xx');
    expect(d.category).toBe('infra');
  });

  it('NonZeroAgentExitCodeError whose message carries a 429 is gateway.4xx', () => {
    const input = variant(BASE, (r) => {
      r.exception_info = exc('NonZeroAgentExitCodeError', `Command failed (exit 1): claude --print\nstdout: ${RATE429}\nstderr: `);
      r.verifier_result = { rewards: { reward: 0 } };
    });
    expect(decideHarborTrial(input, WEAK).class).toBe('gateway.4xx');
  });

  it('NonZeroAgentExitCodeError with no infra signal keeps the verifier score', () => {
    const input = variant(BASE, (r) => {
      r.exception_info = exc('NonZeroAgentExitCodeError', 'Command failed (exit 2): codex exec\nstdout: error: max turns reached\nstderr: ');
      r.verifier_result = { rewards: { reward: 0 } };
    });
    expect(decideHarborTrial(input, WEAK).class).toBe('outcome.reward_zero');
  });

  it('ContextLengthExceededError is gateway.4xx (a config issue)', () => {
    const d = decideHarborTrial(variant(BASE, (r) => ((r.exception_info = exc('ContextLengthExceededError', '')), (r.verifier_result = { rewards: { reward: 0 } }))), WEAK);
    expect(d.class).toBe('gateway.4xx');
    expect(d.hint).toMatch(/context/);
  });

  it.each([
    ['EnvironmentStartTimeoutError', 'Environment start timed out after 600.0 seconds', 'sandbox.failure'],
    ['HealthcheckError', 'Healthcheck failed after 5 consecutive retries: curl -f localhost:8080', 'sandbox.failure'],
    ['RuntimeError', 'Failed to pull image: Back-off pulling image "registry/x:1": ImagePullBackOff', 'sandbox.failure'],
    ['RuntimeError', 'Pod failed to start: Reason: Unschedulable Message: 0/12 nodes are available', 'sandbox.failure'],
    ['RuntimeError', "Container 'main' in pod tb-1 has terminated (reason='OOMKilled', exit_code=137). Cannot exec into dead container.", 'host.oom'],
    ['RuntimeError', 'Image build failed: step 4/9 RUN pip install -r requirements.txt', 'image.build_failure'],
    ['SandboxBuildFailedError', 'Snapshot build failed', 'image.build_failure'],
    ['AgentSetupTimeoutError', 'Agent setup timed out after 360.0 seconds', 'agent.setup_failure'],
    ['VerifierTimeoutError', 'Verifier execution timed out after 900.0 seconds', 'verifier.failure'],
    ['RewardFileNotFoundError', 'No reward file found at /logs/verifier/reward.txt or /logs/verifier/reward.json', 'verifier.failure'],
    ['RewardFileEmptyError', 'Reward file is empty at /logs/verifier/reward.txt', 'verifier.failure'],
    ['VerifierOutputParseError', 'Failed to parse rewards from text file /logs/verifier/reward.txt', 'verifier.failure'],
  ])('%s (%s) with no reward is %s', (type, message, cls) => {
    const input = variant(BASE, (r) => {
      r.exception_info = exc(type, message);
      r.verifier_result = null;
    });
    const d = decideHarborTrial(input, WEAK);
    expect(d.class).toBe(cls);
    expect(d.evidence[0]).toMatchObject({ file: 'harbor/result.json', rule: 'harbor.exception_type' });
  });

  it('a sandbox start failure whose logs show a failed image build is image.build_failure', () => {
    const input = variant(BASE, (r) => ((r.exception_info = exc('EnvironmentStartTimeoutError', 'Environment start timed out after 600.0 seconds')), (r.verifier_result = null)), {
      'harbor/trial.log': 'ERROR: failed to solve: process "/bin/sh -c apt-get install -y gcc" did not complete successfully: exit code: 100\n',
    });
    expect(decideHarborTrial(input, WEAK).class).toBe('image.build_failure');
  });

  it('no exception and no reward is verifier.failure; with a sandbox signal it is that cause', () => {
    expect(decideHarborTrial(variant(BASE, (r) => (r.verifier_result = null)), WEAK).class).toBe('verifier.failure');
    const input = variant(BASE, (r) => (r.verifier_result = null), { 'harbor/trial.log': 'Warning: Pod tb-1 not found (404).\n' });
    expect(decideHarborTrial(input, WEAK).class).toBe('sandbox.failure');
  });

  it('AgentTimeoutError and then no reward is verifier.failure (the verifier ran and scored nothing)', () => {
    expect(decideHarborTrial(variant(BASE, timeoutWithReward(null)), WEAK).class).toBe('verifier.failure');
  });

  it('a reward 0 with no exception but an agent that never acted and gateway errors is infra', () => {
    const traj = JSON.stringify({ schema_version: 'ATIF-v1.7', agent: { name: 'claude-code', version: '2.0.1' }, steps: [{ step_id: 1, source: 'user', message: 'do it' }] });
    const input = variant(BASE, (r) => (r.verifier_result = { rewards: { reward: 0 } }), { 'harbor/agent/trajectory.json': traj, 'harbor/agent/claude-code.txt': `API Error: 503 Service Unavailable\n${GW503}\n` });
    expect(decideHarborTrial(input, WEAK).class).toBe('gateway.5xx');
  });

  it('Harbor 0.13 multi-step: a step exception and the step rewards (their mean, as Harbor aggregates) are read when the trial-level ones are empty', () => {
    const input = variant(BASE, (r) => {
      r.verifier_result = null;
      r.step_results = [
        { step_name: 'build', agent_result: null, verifier_result: { rewards: { reward: 1.0 } }, exception_info: null, agent_execution: null, verifier: null },
        { step_name: 'deploy', agent_result: null, verifier_result: { rewards: { reward: 0.0 } }, exception_info: exc('ApiRateLimitError', 'Command failed (exit 1)'), agent_execution: null, verifier: null },
      ];
    });
    expect(readHarborResult(input.files.get('harbor/result.json')!).reward).toBe(0.5);
    const d = decideHarborTrial(input, WEAK);
    // Scored 0.5 despite the rate limit: outcome.scored, infra-affected, the infra class beside it.
    expect(d).toMatchObject({ class: 'outcome.scored', infraClass: 'gateway.4xx' });
    expect(d.hint).toContain('deploy');
  });

  it('CancelledError has no score and is not called an infra failure', () => {
    const d = decideHarborTrial(variant(BASE, (r) => ((r.exception_info = exc('CancelledError', '')), (r.verifier_result = null))), WEAK);
    expect(d.class).toBe('unknown');
    expect(d.hint).toMatch(/cancelled/);
  });
});

describe('decideHarborTrial: unreadable results and stability', () => {
  it('a garbled result.json is never a reward: its logs decide, else unknown', () => {
    const garbled = { files: new Map([['harbor/result.json', '{\n    "id": "00000408-5c1e', ]]) };
    const d = decideHarborTrial(garbled, WEAK);
    expect(d.class).toBe('unknown');
    expect(d.hint).toMatch(/not valid JSON/);
    const withLog = { files: new Map([...garbled.files, ['harbor/trial.log', `${GW503}\n`]]) };
    expect(decideHarborTrial(withLog, WEAK).class).toBe('gateway.5xx');
  });

  it('a killed trial (no result.json) takes its cause from the logs, else unknown', () => {
    expect(decideHarborTrialWithoutResult({ files: new Map([['harbor/trial.log', 'Running agent\n']]) }, WEAK).class).toBe('unknown');
    expect(decideHarborTrialWithoutResult({ files: new Map([['harbor/trial.log', 'write /logs/agent/out.txt: No space left on device\n']]) }, WEAK).class).toBe('disk.full');
  });

  it('classifyBundle hands a killed trial (trial.log or config.json, no result.json) to the no-result decision', () => {
    const killed = classifyBundle({ files: new Map([['harbor/config.json', '{"trial_name": "t"}'], ['harbor/trial.log', 'Running agent\n']]) });
    expect(killed.class).toBe('unknown');
    expect(killed.hint).toMatch(/killed mid-run/);
    const cfgOnly = classifyBundle({ files: new Map([['harbor/config.json', '{"trial_name": "t"}'], ['harbor/agent/mini-swe-agent.txt', 'write /logs/agent/out.txt: No space left on device\n']]) });
    expect(cfgOnly.class).toBe('disk.full');
    expect(cfgOnly.hint).toMatch(/killed mid-run/);
    // Not a Harbor trial: the engine's verdict as it was.
    expect(classifyBundle({ files: new Map([['logs/run.log', 'Running agent\n']]) }).hint).not.toMatch(/killed mid-run/);
  });

  it('deciding twice gives the same verdict (the engine calls it, then classifyTrialDir may again)', () => {
    const input = variant(BASE, timeoutWithReward(0), { 'harbor/agent/mini-swe-agent.txt': `${GW503}\n` });
    const once = decideHarborTrial(input, WEAK);
    expect(decideHarborTrial(input, once)).toEqual(once);
    const healthy = variant(BASE, timeoutWithReward(0));
    const h1 = decideHarborTrial(healthy, WEAK);
    expect(decideHarborTrial(healthy, h1).class).toBe(h1.class);
  });

  it('classifyBundle hands harbor/result.json bundles to decideHarborTrial', () => {
    const input = variant(BASE, timeoutWithReward(0), { 'harbor/agent/mini-swe-agent.txt': `${GW503}\n${GW503}\n` });
    expect(classifyBundle(input).class).toBe('gateway.5xx');
    expect(classifyBundle(variant(BASE, timeoutWithReward(0))).class).toBe('outcome.agent_timeout');
  });

  it('the signal scan skips verifier output and trajectories', () => {
    const scan = scanHarborSignals({
      files: new Map([
        ['harbor/verifier/test-stdout.txt', `${GW503}\n`],
        ['harbor/agent/trajectory.json', `${GW503}\n`],
        ['harbor/agent/trajectory.cont-1.json', `${GW503}\n`],
        ['harbor/agent/codex.txt', `${GW503}\n`],
      ]),
    });
    expect(scan.best).toBe('gateway.5xx');
    // One entry for the one line, though several rules read it (the SDK's class, the status, the proxy's words it quotes).
    expect(scan.byClass.get('gateway.5xx')!.map((e) => e.file)).toEqual(['harbor/agent/codex.txt']);
  });
});
