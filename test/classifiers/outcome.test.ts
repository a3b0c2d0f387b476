// Outcomes from the harnesses' own templates in plain logs (rules/outcome.ts), and the outcome guard
// (resolve.ts guardOutcome): an infrastructure or user failure anywhere in the bundle is the verdict,
// never the outcome beside it, whatever the strengths.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/classifiers/engine.js';
import { categoryOf, isFailureClass, type FailureClass } from '../../src/classifiers/taxonomy.js';
import { classifyFiles, classifyText, coverageRows } from './helpers.js';

// Each producer's own template, worded as its source formats it (rules/outcome.ts names the files).
const BUDGETS: Record<string, string> = {
  'OpenHands V0 IterationControlFlag': '18:47:12 - openhands:ERROR: loop.py:24 - RuntimeError: Agent reached maximum iteration. Current iteration: 500, max iteration: 500',
  'OpenHands V0 headless (before #9012)': '12:01:33 - openhands:ERROR: agent_controller.py:229 - Agent reached maximum iteration in headless mode. Current iteration: 30, max iteration: 30',
  'OpenHands V0 BudgetControlFlag': '09:12:01 - openhands:ERROR: agent_controller.py:312 - RuntimeError: Agent reached maximum budget for conversation.Current budget: 2.01, max budget: 2.00',
  'OpenHands SDK local conversation': '2026-01-20 21:56:40,853 - ERROR - openhands.sdk.conversation.impl.local_conversation - Agent reached maximum iterations limit (100).',
  'OpenHands SDK budget limit': 'Agent reached maximum budget limit ($5.0000); accumulated cost $5.0132.',
  'OpenHands SDK remote conversation': 'Conversation run failed for id=1bc5f1b8-c88f-46b6-8ec5-401f5ec0758f: Run timed out after 1800.0 seconds. The conversation may still be running on the server.',
  connectonion: 'Task incomplete: Maximum iterations (15) reached.',
  'SWE-agent exit_cost': 'INFO     Exit due to cost limit',
  'SWE-agent exit status': '🏃 Exit status: submitted (exit_cost)',
  'mini-swe-agent exit status': '  "info": {"exit_status": "LimitsExceeded", "submission": ""},',
  smolagents: 'smolagents.utils.AgentMaxStepsError: Reached max steps.',
  'openai-agents': 'agents.exceptions.MaxTurnsExceeded: Max turns (10) exceeded',
  'LangChain AgentExecutor': "{'input': 'summarise the repo', 'output': 'Agent stopped due to iteration limit or time limit.'}",
  'Claude Code stream-json result': '{"type":"result","subtype":"error_max_turns","is_error":true,"duration_ms":912000,"num_turns":31,"result":"","session_id":"4c1e"}',
  'Claude Code text mode': 'Error: Reached max turns (30)',
  'LangGraph GraphRecursionError': 'langgraph.errors.GraphRecursionError: Recursion limit of 25 reached without hitting a stop condition. You can increase the limit by setting the `recursion_limit` config key.',
  SuperAGI: 'superagi-celery-1           | [2023-06-11 08:56:56,082: WARNING/ForkPoolWorker-7] ITERATION_LIMIT_CROSSED',
  'inspect-ai message limit': 'Message limit reached. count: 50; limit: 50',
  'inspect-ai token limit': 'Token limit exceeded. value: 1,000,312; limit: 1,000,000',
  'inspect-ai working time': 'Working time limit exceeded. limit: 1800 seconds',
  'Harbor AgentTimeoutError message': 'Agent execution timed out after 900.0 seconds',
};

// lm-evaluation-harness make_table (0.4.3+ shape: arrow column; 0.4.0 shape: none), the way the CLI prints it.
const LM_EVAL_HEAD = '|           Tasks            |Version|Filter|n-shot|  Metric   |   |Value|   |Stderr|\n|----------------------------|------:|------|-----:|-----------|---|----:|---|-----:|';
const lmRow = (task: string, value: string, arrow = '↑') => `|${task.padEnd(28)}|      2|none  |     0|exact_match|${arrow}  |${value.padStart(6)}|±  |0.0000|`;
const LM_EVAL_040 = '|  Tasks  |Version|Filter|n-shot| Metric |Value |   |Stderr|\n|---------|------:|------|-----:|--------|-----:|---|-----:|\n|hellaswag|      1|none  |     0|acc     |0.0000|±  |0.0000|\n|         |       |none  |     0|acc_norm|0.0000|±  |0.0000|';

describe('outcome templates in plain logs', () => {
  it.each(Object.entries(BUDGETS))('%s: the agent used its budget → outcome.agent_timeout', (_name, line) => {
    const d = classifyText(`${line}\n`);
    expect(d.class).toBe('outcome.agent_timeout');
    expect(d.evidence[0]!.rule).toBe(line.startsWith('Agent execution timed out') ? 'harbor.agent_timeout' : 'outcome.agent_budget_exhausted');
  });

  it("OpenHands' RuntimeError ending a traceback is the budget, not a code error", () => {
    const tb = [
      'Traceback (most recent call last):',
      '  File "/app/openhands/controller/agent_controller.py", line 866, in _step',
      '    self.state.iteration_flag.step()',
      '  File "/app/openhands/controller/state/control_flags.py", line 58, in step',
      '    raise RuntimeError(',
      'RuntimeError: Agent reached maximum iteration. Current iteration: 100, max iteration: 100',
    ].join('\n');
    expect(classifyText(tb).class).toBe('outcome.agent_timeout');
  });

  it('lm-eval: every metric 0 is a scored 0; one metric above 0 makes the table scored', () => {
    const zero = `${LM_EVAL_HEAD}\n${lmRow('formal_logic', '0')}\n${lmRow('jurisprudence', '0')}\n${lmRow('world_religions', '0')}\n`;
    const d = classifyText(zero);
    expect(d.class).toBe('outcome.reward_zero');
    expect(d.evidence[0]!.rule).toBe('outcome.eval_scored_zero');
    expect(classifyText(LM_EVAL_040).class).toBe('outcome.reward_zero');
    // Many zero rows (more than the engine keeps per rule) and one scored row in the middle.
    const rows = Array.from({ length: 40 }, (_, i) => lmRow(`task_${i}`, i === 20 ? '0.2500' : '0.0000'));
    expect(classifyText(`${LM_EVAL_HEAD}\n${rows.join('\n')}\n`).class).toBe('outcome.scored');
  });

  it('lm-eval: a lower-is-better metric at 0 is no zero score', () => {
    const ppl = `${LM_EVAL_HEAD}\n${lmRow('wikitext', '0', '↓')}\n`;
    expect(classifyText(ppl).class).toBe('unknown');
  });

  it('bigcode-evaluation-harness result JSON: pass@k 0.0 → reward 0, above 0 → scored', () => {
    const json = (p1: string, p10: string) => `{\n  "humaneval": {\n    "pass@1": ${p1},\n    "pass@10": ${p10}\n  },\n  "config": {\n    "model": "huggyllama/llama-7b"\n  }\n}\n`;
    expect(classifyText(json('0.0', '0.0')).class).toBe('outcome.reward_zero');
    expect(classifyText(json('0.0', '0.0125')).class).toBe('outcome.scored');
  });

  it('lm-eval results JSON: "<metric>,<filter>" keys 0 → reward 0 (stderr keys are no score); above 0 → scored', () => {
    const json = (v: string) => `{\n  "results": {\n    "gsm8k": {\n      "alias": "gsm8k",\n      "exact_match,strict-match": ${v},\n      "exact_match_stderr,strict-match": 0.0123,\n      "exact_match,flexible-extract": 0.0,\n      "exact_match_stderr,flexible-extract": 0.0\n    }\n  }\n}\n`;
    expect(classifyText(json('0.0')).class).toBe('outcome.reward_zero');
    expect(classifyText(json('0.2568')).class).toBe('outcome.scored');
  });

  it('EvalPlus / BigCodeBench "pass@k:\\t0.000" lines', () => {
    expect(classifyText('humaneval (base tests)\npass@1:\t0.000\nhumaneval+ (base + extra tests)\npass@1:\t0.000\n').class).toBe('outcome.reward_zero');
    expect(classifyText('BigCodeBench-full\npass@1:\t0.000\npass@5:\t0.012\n').class).toBe('outcome.scored');
  });

  it('SWE-bench run report: resolved 0 → reward 0; resolved above 0 → scored; a patch that did not apply → reward 0', () => {
    const report = (resolved: number) => `Total instances: 500\nInstances submitted: 20\nInstances completed: 20\nInstances incomplete: 480\nInstances resolved: ${resolved}\nInstances unresolved: ${20 - resolved}\nInstances with empty patches: 0\nInstances with errors: 0\n`;
    expect(classifyText(report(0)).class).toBe('outcome.reward_zero');
    expect(classifyText(report(7)).class).toBe('outcome.scored');
    expect(classifyText('{\n    "total_instances": 500,\n    "resolved_instances": 0,\n    "unresolved_instances": 20,\n').class).toBe('outcome.reward_zero');
    expect(classifyText('2026-05-22 14:35:38 - evalscope - INFO: >>>>> Patch Apply Failed:\npatch: **** malformed patch at line 12\n').class).toBe('outcome.reward_zero');
  });

  it("SWE-bench's own infrastructure count is no outcome", () => {
    const report = 'Instances resolved: 0\nInstances unresolved: 20\nInstances with likely infrastructure failures: 6\nInstances with ambiguous failures: 0\n';
    expect(classifyText(report)).toMatchObject({ class: 'sandbox.failure', evidence: [expect.objectContaining({ rule: 'swebench.infra_failures_reported' }), expect.anything()] });
  });

  it("pytest: the short-summary header says nothing of the score; FAILED/ERROR lines and the counts line do", () => {
    // -rA lists PASSED tests under the header too: a session whose summary shows only passes is no 0.
    const passes = '============================= test session starts ==============================\ncollected 30 items\n\nsklearn/linear_model/tests/test_ridge.py ..........x...................  [100%]\n\n==================================== PASSES ====================================\n=========================== short test summary info ============================\nPASSED sklearn/linear_model/tests/test_ridge.py::test_ridge\n';
    expect(categoryOf(classifyText(passes).class)).not.toBe('outcome');
    const collectionError = '=========================== short test summary info ============================\nERROR ../tests/test_outputs.py - AssertionError: Expected the greeting in post-agent.txt\n!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!\n============================== 1 error in 0.51s ===============================\n';
    expect(classifyText(collectionError).class).toBe('outcome.reward_zero');
    expect(classifyText('========================= 3 passed, 1 error in 2.01s =========================\n').class).toBe('outcome.reward_zero');
    expect(classifyText('============================== 3 passed in 2.01s ===============================\n').class).toBe('outcome.scored');
  });

  it("a verifier's output is not where an agent's budget is read", () => {
    expect(classifyText('Task incomplete: Maximum iterations (15) reached.\n', 'verifier/test-stdout.txt').class).not.toBe('outcome.agent_timeout');
  });
});

// One upstream-worded line per failure family; each must win over every outcome template above.
const FAILURES: Record<string, { line: string; cls: string }> = {
  'gateway 5xx (openai InternalServerError)': { cls: 'gateway.5xx', line: "openai.InternalServerError: Error code: 500 - {'error': {'message': 'The server had an error while processing your request. Sorry about that!', 'type': 'server_error'}}" },
  'gateway 429 (openai RateLimitError)': { cls: 'gateway.4xx', line: "openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}" },
  'connection error (urllib3)': { cls: 'network.error', line: 'urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused' },
  'API timeout (openai APITimeoutError)': { cls: 'api.timeout', line: 'openai.APITimeoutError: Request timed out.' },
  'sandbox (docker manifest unknown)': { cls: 'sandbox.failure', line: 'Error response from daemon: manifest for ghcr.io/acme/task-env:latest not found: manifest unknown: manifest unknown' },
  'host OOM killer': { cls: 'host.oom', line: 'Memory cgroup out of memory: Killed process 4412 (python) total-vm:98119556kB, anon-rss:86538204kB, file-rss:80652kB, shmem-rss:0kB, UID:0 pgtables:172612kB oom_score_adj:0' },
  'CUDA OOM': { cls: 'cuda.oom', line: 'RuntimeError: CUDA error: out of memory' },
  'disk full': { cls: 'disk.full', line: "OSError: [Errno 28] No space left on device: '/workspace/out/step_100.pt'" },
  'agent not installed (Harbor exit 127)': { cls: 'agent.setup_failure', line: 'harbor.agents.installed.base.NonZeroAgentExitCodeError: Command failed (exit 127): mini-swe-agent --yolo --model=openai/gpt-4o' },
  'verifier runner missing': { cls: 'verifier.failure', line: '/usr/local/bin/python3: No module named pytest' },
  'CUDA fault': { cls: 'cuda.error', line: 'torch.AcceleratorError: CUDA error: an illegal memory access was encountered' },
  'hung task': { cls: 'job.stall', line: '[ 9012.5] INFO: task python:4711 blocked for more than 122 seconds.' },
};

const OUTCOMES: Record<string, string> = {
  'agent budget': BUDGETS['OpenHands SDK remote conversation']!,
  'lm-eval zero table': `${LM_EVAL_HEAD}\n${lmRow('formal_logic', '0')}`,
  'SWE-bench resolved 0': 'Instances resolved: 0',
  'SWE-bench resolved 3': 'Instances resolved: 3',
};

describe('outcome guard: any failure signal in the bundle wins over an outcome', () => {
  for (const [fname, f] of Object.entries(FAILURES)) {
    it.each(Object.entries(OUTCOMES))(`${fname} beats %s (before or after it, same file or another)`, (_o, outcome) => {
      for (const text of [`${f.line}\n${outcome}\n`, `${outcome}\n${f.line}\n`]) expect(classifyText(text).class).toBe(f.cls);
      expect(classifyFiles({ 'logs/stdout.log': `${outcome}\n`, 'logs/agent.log': `${f.line}\n` }).class).toBe(f.cls);
    });
  }

  it('an agent timeout whose agent log shows 429s and 503s is the gateway failure', () => {
    const agentLog = ['litellm.RateLimitError: RateLimitError: OpenAIException - Error code: 429 - Rate limit exceeded', 'openai.InternalServerError: Error code: 503 - {"error": {"message": "Service Unavailable"}}'].join('\n');
    const d = classifyFiles({ 'logs/run.log': `${BUDGETS['OpenHands SDK remote conversation']}\n`, 'agent/openhands.log': `${agentLog}\n` });
    expect(categoryOf(d.class)).toBe('infra');
    expect(d.class).toMatch(/^gateway\./);
  });

  it('wins whatever its strength: a traceback no rule knows beats a table of zeros', () => {
    const tb = 'Traceback (most recent call last):\n  File "/usr/lib/python3/site-packages/foo/bar.py", line 10, in x\n    y()\nfoo.errors.WeirdError: nope';
    expect(classifyText(`${tb}\n${OUTCOMES['lm-eval zero table']}\n`).class).toBe('user.code_error');
  });

  it('failure lines whose words are an infra vocabulary no rule knows also win (plain logs)', () => {
    // CPython's urllib URLError (an SSL EOF) as a run's own logger reports it: no rule, only the vocabulary fallback.
    const line = '2026-12-02 10:11:15,118 ERROR checkpoint.py:88 -- upload of step_4000 failed: urllib.error.URLError: <urlopen error EOF occurred in violation of protocol (_ssl.c:1006)>';
    const d = classifyText(`${line}\n${BUDGETS.connectonion}\n`);
    expect(d.class).toBe('network.error');
    expect(d.hint).toMatch(/never recorded as an outcome/);
    // The rules alone (no vocabulary) still see only the outcome: the guard's second half is what decides.
    const e = new Engine();
    e.feed('logs/stdout.log', `${line}\n${BUDGETS.connectonion}\n`);
    expect(e.finish(undefined, { fallback: false }).class).toBe('outcome.agent_timeout');
  });

  it("the outcome template's own failure line is not held against it", () => {
    // SWE-bench's evaluation logs its own templates as WARNING/ERROR lines: "failed … timed out" is the budget.
    const d = classifyText(`Instance django__django-12663 - 2026-01-20 21:56:40,853 - WARNING - [child] Instance django__django-12663 failed (attempt 2/3): ${BUDGETS['OpenHands SDK remote conversation']}\n`);
    expect(d.class).toBe('outcome.agent_timeout');
  });
});

describe('outcome guard over every failure wording of the coverage table', () => {
  // Every docs/rules.md row whose line is an infra or user failure, beside each outcome template, before and
  // after it: the verdict is never an outcome (the row's own class is checked by coverage.test.ts).
  const failures = coverageRows(readFileSync(resolve(__dirname, '../../docs/rules.md'), 'utf8')).filter((r) => isFailureClass(r.cls) && ['infra', 'user'].includes(categoryOf(r.cls as FailureClass) ?? ''));
  // A row whose wording counts only as the log's last line (a stall seen from the tail) says nothing once
  // the log goes on past it; with the outcome after it, that row is left out (it is tested before it).
  const endOnly = new Set(failures.filter((r) => classifyText(`${r.text}\nstep 1 done\n`).class !== r.cls).map((r) => r.upstream));
  it("has the table's failure rows, few of them meaningful only as the log's end", () => {
    expect(failures.length).toBeGreaterThan(300);
    expect(endOnly.size).toBeLessThan(failures.length / 10);
  });
  it.each(Object.entries(OUTCOMES))('no failure row is an outcome beside %s', (_o, outcome) => {
    const called: string[] = [];
    for (const r of failures) {
      for (const text of [...(endOnly.has(r.upstream) ? [] : [`${r.text}\n${outcome}\n`]), `${outcome}\n${r.text}\n`]) {
        const d = classifyText(text);
        if (d.category === 'outcome') called.push(`${r.upstream} → ${d.class}`);
      }
    }
    expect(called).toEqual([]);
  });
});
