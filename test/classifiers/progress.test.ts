// Structural checks on a log's loops (src/classifiers/progress.ts): an agent's step loop that stops with
// no end of its own, a test session that never printed its summary. The lines are authored in each
// producer's own format (read in its source: OpenHands core/logger.py + runtime/impl/local/local_runtime.py
// + controller/agent_controller.py, mini-swe-agent agents/interactive.py + config/mini.yaml + run/mini.py,
// Claude Code stream-json as Harbor's claude_code.py reads it, codex-rs exec_events.rs, pytest
// _pytest/terminal.py); which class they get is the behaviour under test.
import { describe, expect, it } from 'vitest';
import { createLogClassifier } from '../../src/classifiers/index.js';
import { classifyFiles, classifyText } from './helpers.js';

const SID = '90216671-b3af-4fbc-bab5-276d4a3adb0e-dfc598dad1a701e0';
/** OpenHands' console format ('%(asctime)s - %(name)s:%(levelname)s: %(filename)s:%(lineno)s - %(message)s', datefmt %H:%M:%S). */
const oh = (t: string, file: string, msg: string) => `${t} - openhands:INFO: ${file} - ${msg}`;
const served = (t: string, port: number) => oh(t, 'local_runtime.py:340', `[runtime ${SID}] Server: INFO:     127.0.0.1:${port} - "POST /execute_action HTTP/1.1" 200 OK`);
const OPENHANDS_WORKING = [
  oh('12:44:02', 'agent_controller.py:574', `[Agent Controller ${SID}] Setting agent(CodeActAgent) state from AgentState.LOADING to AgentState.RUNNING`),
  served('12:45:14', 38778),
  served('12:45:47', 60412),
  oh('12:46:51', 'agent_controller.py:902', `[Agent Controller ${SID}] Pending action active for 64.12s: CmdRunAction (id=41)`),
  served('12:47:28', 35720),
];
const OPENHANDS_FINISHED = [...OPENHANDS_WORKING, oh('12:47:40', 'agent_controller.py:574', `[Agent Controller ${SID}] Setting agent(CodeActAgent) state from AgentState.RUNNING to AgentState.FINISHED`)];

/** mini-swe-agent 1.x `mini` output as Harbor tees it to agent/mini-swe-agent.txt. */
const RULE = '─'.repeat(80);
const MINI_WORKING = [RULE, '', 'mini-swe-agent (step 7, $0.41):', 'THOUGHT: train for more episodes.', '', '```bash', 'python train.py --episodes 2000', '```', '', 'User:', '<returncode>0</returncode>', '<output>', 'episode 2000 reward 23.0', '</output>', RULE, ''];

const CC = (type: 'assistant' | 'user', i: number) =>
  type === 'assistant'
    ? `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_0${i}","name":"Bash","input":{"command":"make test"}}]},"session_id":"s-1"}`
    : `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_0${i}","content":"ok"}]},"session_id":"s-1"}`;
const CLAUDE_WORKING = ['{"type":"system","subtype":"init","cwd":"/app","session_id":"s-1","model":"claude-sonnet-4-5"}', CC('assistant', 1), CC('user', 1), CC('assistant', 2), CC('user', 2)];
const CLAUDE_RESULT = '{"type":"result","subtype":"success","is_error":false,"duration_ms":98211,"num_turns":2,"result":"Done.","session_id":"s-1","total_cost_usd":0.21}';

const CODEX_WORKING = ['{"type":"thread.started","thread_id":"th-1"}', '{"type":"turn.started"}', '{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"bash -lc make","aggregated_output":"","exit_code":null,"status":"in_progress"}}', '{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"bash -lc make","aggregated_output":"ok","exit_code":0,"status":"completed"}}'];

const PYTEST_STARTED = ['============================= test session starts ==============================', 'platform linux -- Python 3.12.3, pytest-8.4.2, pluggy-1.6.0', 'rootdir: /tests', 'collected 3 items', '', '../tests/test_outputs.py ..'];

const lines = (...l: string[]) => l.join('\n') + '\n';

describe("an agent's step loop that stops with no end of its own", () => {
  it('OpenHands: actions still being served when the log stops is the agent running out of time', () => {
    const d = classifyText(lines(...OPENHANDS_WORKING), 'logs/agent.log');
    expect(d.class).toBe('outcome.agent_timeout');
    expect(d.category).toBe('outcome');
    expect(d.evidence[0]).toMatchObject({ rule: 'agent.loop_cut', line: 5 });
  });
  it('OpenHands: the controller reaching one of its end states is no timeout', () => {
    expect(classifyText(lines(...OPENHANDS_FINISHED), 'logs/agent.log').class).toBe('unknown');
    const error = OPENHANDS_WORKING.concat(oh('12:47:40', 'agent_controller.py:574', `[Agent Controller ${SID}] Setting agent(CodeActAgent) state from AgentState.RUNNING to AgentState.ERROR`));
    expect(classifyText(lines(...error)).class).not.toBe('outcome.agent_timeout');
  });
  it('an end followed by more steps (a resumed loop) that stop again is cut', () => {
    expect(classifyText(lines(...OPENHANDS_FINISHED, served('12:48:00', 40000))).class).toBe('outcome.agent_timeout');
  });
  it('mini-swe-agent: an observation with no "Saved trajectory" after it is cut; the saved trajectory ends the run', () => {
    expect(classifyText(lines(...MINI_WORKING), 'harbor/agent/mini-swe-agent.txt').class).toBe('outcome.agent_timeout');
    expect(classifyText(lines(...MINI_WORKING, "Saved trajectory to '/logs/agent/mini-swe-agent.trajectory.json'"), 'harbor/agent/mini-swe-agent.txt').class).toBe('unknown');
  });
  it('Claude Code stream-json: no final result event is cut; the result event ends it', () => {
    expect(classifyText(lines(...CLAUDE_WORKING), 'agent/claude-code.txt').class).toBe('outcome.agent_timeout');
    expect(classifyText(lines(...CLAUDE_WORKING, CLAUDE_RESULT), 'agent/claude-code.txt').class).toBe('unknown');
  });
  it('codex exec --json: items with no turn.completed/turn.failed are cut', () => {
    expect(classifyText(lines(...CODEX_WORKING), 'agent/codex.txt').class).toBe('outcome.agent_timeout');
    expect(classifyText(lines(...CODEX_WORKING, '{"type":"turn.completed","usage":{"input_tokens":1200,"cached_input_tokens":0,"output_tokens":80}}'), 'agent/codex.txt').class).toBe('unknown');
  });
  it('any infrastructure failure in the log outranks the cut loop (the agent was waiting on it)', () => {
    const gw = oh('12:47:30', 'retry_mixin.py:99', 'litellm.ServiceUnavailableError: litellm.ServiceUnavailableError: OpenAIException - Error code: 503 - Service Unavailable');
    const d = classifyText(lines(...OPENHANDS_WORKING, gw));
    expect(d.class).toBe('gateway.5xx');
    expect(d.category).toBe('infra');
  });
  it('a traceback after the last step is a crash, not a timeout', () => {
    const crash = ['Traceback (most recent call last):', '  File "/app/.venv/lib/python3.12/site-packages/openhands/core/main.py", line 240, in run_controller', 'RuntimeError: event stream closed'];
    expect(classifyText(lines(...OPENHANDS_WORKING, ...crash)).class).not.toBe('outcome.agent_timeout');
  });
  it('steps followed by a long stretch of other output are not where the log stops', () => {
    const other = Array.from({ length: 250 }, (_, i) => `building wheel ${i}`);
    expect(classifyText(lines(...OPENHANDS_WORKING, ...other)).class).toBe('unknown');
  });
  it('a harness that recorded the trial as finished (Terminal-Bench failure_mode unset) wins over the cut loop', () => {
    const log = lines('==> results.json <==', '    "is_resolved": false,', '    "failure_mode": "unset",', '==> sessions/agent.log <==', ...OPENHANDS_WORKING);
    expect(classifyText(log).class).toBe('outcome.reward_zero');
  });
  it('Harbor semantics: the verifier still runs after the timeout, so failing tests do not hide it', () => {
    const log = lines('==> sessions/agent.log <==', ...OPENHANDS_WORKING, '==> panes/post-test.txt <==', ...PYTEST_STARTED.slice(0, 4), '../tests/test_outputs.py F..', 'FAILED ../tests/test_outputs.py::test_model - AssertionError', '========================= 1 failed, 2 passed in 4.73s ==========================');
    expect(classifyText(log).class).toBe('outcome.agent_timeout');
  });
  it('is the same verdict streamed in small chunks as in memory', () => {
    const text = lines('==> sessions/agent.log <==', ...OPENHANDS_WORKING);
    const c = createLogClassifier();
    for (let i = 0; i < text.length; i += 7) c.feed('logs/paste.log', text.slice(i, i + 7));
    const streamed = c.finish();
    const whole = classifyText(text, 'logs/paste.log');
    expect(streamed.class).toBe('outcome.agent_timeout');
    expect(streamed.evidence).toEqual(whole.evidence);
  });
});

describe('a test session that never printed its summary', () => {
  it('pytest started (collecting, or mid-file) and stopped: no reward, a verifier failure', () => {
    const d = classifyText(lines(...PYTEST_STARTED));
    expect(d.class).toBe('verifier.failure');
    expect(d.evidence[0]).toMatchObject({ rule: 'verifier.no_test_summary', line: 1 });
    expect(classifyText(lines(...PYTEST_STARTED.slice(0, 3), 'collecting ... ')).class).toBe('verifier.failure');
  });
  it("pytest's own endings are a finished session: the summary line (also -q and past a minute), no tests ran, the short summary", () => {
    expect(classifyText(lines(...PYTEST_STARTED, '========================= 1 failed, 2 passed in 4.73s ==========================')).class).toBe('outcome.reward_zero');
    expect(classifyText(lines(...PYTEST_STARTED, '3 passed in 75.02s (0:01:15)')).class).not.toBe('verifier.failure');
    expect(classifyText(lines(...PYTEST_STARTED, '============================ no tests ran in 0.01s =============================')).class).not.toBe('verifier.failure');
    expect(classifyText(lines(...PYTEST_STARTED, '=========================== short test summary info ============================', 'FAILED ../tests/test_outputs.py::test_move_correct - AssertionError: File is wrong')).class).toBe('outcome.reward_zero');
  });
  it('only the last session counts: a finished run followed by one that stopped is a verifier failure', () => {
    expect(classifyText(lines(...PYTEST_STARTED, '============================== 3 passed in 0.12s ===============================', ...PYTEST_STARTED)).class).toBe('verifier.failure');
  });
  it("a verifier pane that stops during its own setup (apt, uv) has no test result at all", () => {
    const pane = ['root@2e5c80e82842:/app# bash /tests/run-tests.sh; tmux wait -S done', 'Reading package lists... Done', 'Setting up curl (8.5.0-2ubuntu10.6) ...', 'downloading uv 0.8.15 x86_64-unknown-linux-gnu'];
    const d = classifyText(lines('==> panes/post-test.txt <==', ...pane));
    expect(d.class).toBe('verifier.failure');
    expect(d.evidence[0]?.rule).toBe('verifier.no_test_summary');
    // The same setup output in a run's own log says nothing about a verifier.
    expect(classifyText(lines(...pane)).class).toBe('unknown');
  });
  it('a reward in the bundle means the verifier did finish (Harbor reward.txt beside a cut test-stdout.txt)', () => {
    const files = { 'harbor/verifier/test-stdout.txt': lines(...PYTEST_STARTED), 'harbor/verifier/reward.txt': '0.0' };
    expect(classifyFiles(files).class).toBe('outcome.reward_zero');
    expect(classifyFiles({ 'harbor/verifier/test-stdout.txt': lines(...PYTEST_STARTED) }).class).toBe('verifier.failure');
  });
  it("pytest the agent ran in its own session is the agent's work, not the verifier", () => {
    expect(classifyText(lines(...PYTEST_STARTED), 'agent/terminus.log').class).not.toBe('verifier.failure');
  });
  it('an agent cut off and then a verifier that never finished: no reward, so the verifier failure decides (as Harbor decides it)', () => {
    const log = lines('==> sessions/agent.log <==', ...OPENHANDS_WORKING, '==> panes/post-test.txt <==', ...PYTEST_STARTED);
    expect(classifyText(log).class).toBe('verifier.failure');
  });
});

describe("an agent's install step failing (agent.install_step_failed)", () => {
  const pip = 'ERROR: Could not find a version that satisfies the requirement openhands-ai==0.99.0 (from versions: 0.1.0, 0.2.0)\nERROR: No matching distribution found for openhands-ai==0.99.0\n';
  it('is agent.setup_failure in the agent setup output', () => {
    expect(classifyText(pip, 'harbor/agent/setup/stdout.txt').class).toBe('agent.setup_failure');
  });
  it("is the agent's own task work once it talked to a model, and the run's own setup in a run's log", () => {
    const session = `{"type":"assistant","message":{"role":"assistant","content":[]},"usage":{"input_tokens":18234,"output_tokens":512}}\n${pip}${CLAUDE_RESULT}\n`;
    expect(classifyText(session, 'agent/claude-code.txt').class).not.toBe('agent.setup_failure');
    // In a run's own log a pinned version pip cannot find is the run's requirements (pkg.unresolved), no agent install.
    const run = classifyText(pip, 'logs/stdout.log');
    expect(run.class).toBe('config.error');
    expect(run.evidence[0]!.rule).toBe('pkg.unresolved');
  });
});
