// The coding-agent CLIs' and agent frameworks' whole error vocabulary (agent-cli-vocab.ts, sources there),
// read through the producers' print templates: one rule per class, so each pattern key is its class's
// word for the vocabulary fallback (the outcome rules give none). Below the narrower rules on every
// wording they read (agent.exec_failed 60, gateway.anthropic_error 66, gateway.context_length 67,
// sandbox.openhands_runtime 70, outcome.agent_budget_exhausted 12), so those keep their rule and class;
// these decide the CLIs' start refusals, login failures, API texts and budget exits nothing else knows.
import type { FailureClass } from '../taxonomy.js';
import { defineRules, type Extracted, type Rule, type Section } from '../rule.js';
import { AGENT_CLI_ERRORS, type AgentCliGroup, agentCliEntryOf, agentCliPatterns, agentCliStatusOf } from './agent-cli-vocab.js';
import { GRPC_CODES } from './node-go-grpc-vocab.js';

type Deciding = Exclude<AgentCliGroup, 'skip' | 'echo' | 'status'>;

/**
 * Each deciding group's class, strength and hint. `weak` is the strength of an entry marked weak (a tag or a
 * line that sits beside a text saying more, AgentCliEntry.weak): only the groups that hold such entries
 * have one, and the table is checked for it at load.
 */
const VERDICT: Record<Deciding, { cls: FailureClass; strength: number; weak?: number; hint: string }> = {
  // Above the API's own refusal (56): "Not logged in" and the 401 that follows it are one failure, the missing login.
  auth: { cls: 'agent.setup_failure', strength: 58, hint: "The agent CLI had no usable credentials when it started (not logged in, no API key in its environment, a stored login it could not refresh, a login flow that needs a browser): pass the key the CLI reads (ANTHROPIC_API_KEY, OPENAI_API_KEY / CODEX_API_KEY, GEMINI_API_KEY, the provider's variable) into the sandbox, or a fresh auth file, then retry. No model call was made: the trial has no score." },
  start: { cls: 'agent.setup_failure', strength: 52, hint: "The agent CLI refused to start or could not: run as root with its permission bypass (Claude Code refuses --dangerously-skip-permissions as uid 0: run as a non-root user or set IS_SANDBOX=1), a Node/platform it does not support, flags the harness combined wrongly, its own sandbox tool or a companion binary missing, a session to resume that is not there. Fix the agent's invocation or image; the trial has no score." },
  // The SDK's "process exited with code N" says only that the CLI died: its stderr (or any failure beside it) says why.
  wrapper: { cls: 'agent.setup_failure', strength: 18, hint: "The agent SDK reports only that the agent CLI exited non-zero, before it returned a result: the CLI's own stderr holds the reason (capture it: the SDK's stderr callback, or run the printed command by hand). Usually a start refusal (root + permission bypass, no login, wrong flags)." },
  // Weak (46): Claude Code's stream-json error tag ("error": "rate_limit") rides on the assistant message
  // whose text names the refusal ("API Error: Rate limit reached", read at 56): the text names the line,
  // the tag only where no text is read.
  refused: { cls: 'gateway.4xx', strength: 56, weak: 46, hint: "The model API refused the agent's requests, as the agent CLI reports it: an invalid or revoked key, a plan without access, credit or usage limit, rate limit, or a content/size limit. Fix the key or plan, or lower concurrency; the trial has no score." },
  context: { cls: 'gateway.4xx', strength: 56, hint: "The agent's conversation outgrew the model's context window (the CLI or harness says so): enable history truncation/compaction, give the agent a model with a larger window, or lower what it reads into context." },
  // Weak (44): Claude Code's "error": "server_error" tag, as above, and SWE-agent's "Exit due to retry
  // error: …", whose quoted last exception the gateway rules read: the exit decides only alone.
  overload: { cls: 'gateway.5xx', strength: 54, weak: 44, hint: 'The model provider failed or was overloaded under the agent (5xx, 529, "high demand"), as the agent CLI reports it: retry later or fail over to another provider or model.' },
  timeout: { cls: 'api.timeout', strength: 48, hint: 'The model API did not answer the agent in time: check the provider or gateway latency, raise the client timeout for long generations.' },
  network: { cls: 'network.error', strength: 52, hint: "The agent CLI could not reach the model API or lost the stream mid-answer: check the sandbox's egress (proxy, DNS, TLS interception, firewall) to the provider." },
  sandbox: { cls: 'sandbox.failure', strength: 55, hint: 'The environment the agent acts in died or could not be provisioned under it (runtime disconnected, container gone, browser not started): retry the trial; check the runtime/container logs for why it went away.' },
  config: { cls: 'config.error', strength: 60, hint: "The harness rejected its own configuration of the agent's model (SWE-agent cannot price the model while cost limits are set): set the model's cost table or the limits to 0 for local models." },
  verifier: { cls: 'verifier.failure', strength: 45, hint: "The evaluation of the agent's result did not finish in time, so there is no score: raise the evaluation timeout or find the test that hangs." },
  killed: { cls: 'host.killed', strength: 30, hint: 'The evaluation platform restarted under the run: nothing in the agent failed; retry it.' },
  budget: { cls: 'outcome.agent_timeout', strength: 11, hint: 'The agent used its whole budget (steps, turns, cost, calls or time) and its harness stopped it, with no infrastructure failure in the bundle: a valid outcome. Raise the budget only if the task calls for it.' },
  // Weak (9): aider's "The LLM did not conform to the edit format." is one malformed answer sent back to the
  // model; the exit when its reflections ran out ("Only 3 reflections allowed, stopping.", 11) names the outcome.
  format: { cls: 'outcome.agent_timeout', strength: 11, weak: 9, hint: "The model kept answering in a shape the agent harness cannot parse (edit format, tool-call syntax) until the harness's retries for it ran out: the model's behaviour, a valid outcome, not an infrastructure failure. A stronger model or another edit format helps." },
  stuck: { cls: 'outcome.agent_timeout', strength: 11, hint: "The harness's loop detector stopped the agent because it repeated the same actions: the agent was stuck, a valid outcome, not an infrastructure failure." },
  gave_up: { cls: 'outcome.reward_zero', strength: 10, hint: 'The agent gave up, the model declined the task, or the result it returned is invalid: scored as it is, a valid outcome, not an infrastructure failure.' },
};

const STATUS_HINT: Record<string, string> = {
  'gateway.4xx': 'The model API refused the agent\'s request with the status shown (4xx: key, quota, rate limit, request), as the agent CLI reports it.',
  'gateway.5xx': 'The model provider failed the agent\'s request with the status shown (5xx), as the agent CLI reports it: retry later or fail over.',
  'api.timeout': 'The model API gave up on the agent\'s request (DEADLINE_EXCEEDED): check the provider latency.',
};

const STATUS_STRENGTH = 44;

/**
 * Gemini CLI's "[API Error: {message} (Status: …)]" quotes @google/genai's ApiError, "got status: UNAVAILABLE.
 * {…}", which netlib.* reads (node-go-grpc.ts GENAI_STATUS) by its gRPC code or HTTP status: such a line is
 * netlib's. Left here: a code netlib reads as nothing (CANCELLED, UNKNOWN), and Gemini's own messages.
 */
const NETLIB_GENAI = new RegExp(String.raw`\bgot status: (?:${GRPC_CODES.filter((c) => c[3] !== 'echo' && c[3] !== 'skip' && c[2].length >= 4).map((c) => c[2]).join('|')}|[45]\d\d)\b`);

/** Source lines of a traceback (`raise AgentStuckInLoopError(…)`, `except FatalTurnLimitedError:`), comments, class definitions. */
const SOURCE_LINES = [/\bexcept\b|\braise\b|^\s*#|isinstance\(|^\s*class \w+\(/];

function extract(groups: readonly AgentCliGroup[]) {
  return (line: string): Extracted => {
    const x = agentCliEntryOf(line);
    if (!x || !groups.includes(x.group) || x.group === 'skip' || x.group === 'echo') return { classOverride: null };
    const tag = { agentCli: `${x.producer} ${x.name}`.slice(0, 80) };
    if (x.group === 'status') {
      const s = agentCliStatusOf(line);
      if (!s) return { classOverride: null };
      const cls: FailureClass = s.rpc === 'DEADLINE_EXCEEDED' ? 'api.timeout' : s.status < 500 ? 'gateway.4xx' : 'gateway.5xx';
      return { ...tag, classOverride: cls, httpStatus: s.status, strength: STATUS_STRENGTH, hint: STATUS_HINT[cls]! };
    }
    const v = VERDICT[x.group];
    return { ...tag, classOverride: v.cls, strength: x.weak ? v.weak! : v.strength, hint: v.hint };
  };
}

// A weak entry in a group with no weak strength would read at undefined strength: refuse to load.
for (const x of AGENT_CLI_ERRORS) {
  if (x.weak && (x.group === 'skip' || x.group === 'echo' || x.group === 'status' || VERDICT[x.group].weak === undefined)) throw new Error(`agent-cli-vocab: ${x.producer} ${x.name} is weak, but group ${x.group} has no weak strength in agent-cli.ts VERDICT`);
}

const OUTCOME_SECTIONS: readonly Section[] = ['log', 'agent', 'result'];

function vocabRule<const Id extends string>(id: Id, cls: FailureClass, groups: readonly Exclude<AgentCliGroup, 'skip'>[], why: string, othersRead: readonly RegExp[] = []): Rule<Id> {
  const deciding = groups.filter((g): g is Deciding => g in VERDICT);
  const strength = groups.includes('status') ? STATUS_STRENGTH : Math.max(...deciding.map((g) => VERDICT[g].strength), 1);
  const outcome = cls.startsWith('outcome.');
  return {
    id,
    class: cls,
    patterns: agentCliPatterns(groups),
    unless: [...SOURCE_LINES, ...othersRead],
    strength,
    ...(outcome ? { sections: OUTCOME_SECTIONS } : {}),
    extract: extract(groups),
    why,
    hint: deciding.length ? VERDICT[deciding[0]!].hint : STATUS_HINT['gateway.5xx']!,
  };
}

export const agentCliRules = defineRules([
  vocabRule('agent.vocab_setup', 'agent.setup_failure', ['auth', 'start', 'wrapper'], 'the agent CLI refused to start, had no usable credentials, or its SDK saw it exit before any result'),
  vocabRule('agent.vocab_refused', 'gateway.4xx', ['refused', 'context'], "the agent CLI reports the model API refusing its requests (key, plan, quota, rate, content, context window)"),
  vocabRule('agent.vocab_overloaded', 'gateway.5xx', ['overload'], 'the agent CLI reports the model provider failing or overloaded'),
  vocabRule('agent.vocab_status', 'gateway.5xx', ['status'], 'the agent CLI reports an HTTP or google.rpc status from the model API', [NETLIB_GENAI]),
  vocabRule('agent.vocab_timeout', 'api.timeout', ['timeout'], 'the agent CLI reports the model API timing out'),
  vocabRule('agent.vocab_network', 'network.error', ['network'], 'the agent CLI could not reach the model API or lost its stream'),
  vocabRule('agent.vocab_sandbox', 'sandbox.failure', ['sandbox'], "the agent's environment (runtime, container, browser) died or was not provisioned"),
  vocabRule('agent.vocab_config', 'config.error', ['config'], "the agent harness rejected its configuration of the model"),
  vocabRule('agent.vocab_verifier', 'verifier.failure', ['verifier'], "the evaluation of the agent's result timed out"),
  vocabRule('agent.vocab_killed', 'host.killed', ['killed'], 'the evaluation platform restarted under the run'),
  vocabRule('agent.vocab_budget', 'outcome.agent_timeout', ['budget', 'format', 'stuck'], "the agent's harness stopped it at its step, turn, cost, time or format-retry budget, or its loop detector did"),
  vocabRule('agent.vocab_gave_up', 'outcome.reward_zero', ['gave_up'], 'the agent forfeited, the model declined, or its result was invalid'),
  // Notes and consequences (a retry about to be made, one malformed answer sent back to the model, a kill
  // whose cause is elsewhere): read, so the line is no failure line of its own, and never a verdict. An
  // outcome class, so its keys are no class's vocabulary.
  vocabRule('agent.vocab_echo', 'outcome.agent_timeout', ['echo'], 'a note or consequence an agent CLI prints (a retry, a malformed answer sent back), no failure of its own'),
]);
