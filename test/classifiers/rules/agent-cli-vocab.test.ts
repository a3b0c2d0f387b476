// The agent CLIs' and agent frameworks' error vocabularies (rules/agent-cli-vocab.ts, rules agent.vocab_* of
// rules/agent-cli.ts): every entry reaches its class through the ways its producer prints it, notes and
// wrappers decide nothing of their own, and in a whole log a symptom (an SDK's exit wrapper, a budget exit)
// gives way to the cause beside it.
import { describe, expect, it } from 'vitest';
import { AGENT_CLI_ERRORS, type AgentCliEntry, type AgentCliGroup, agentCliEntries, agentCliEntryOf, type NameForm } from '../../../src/classifiers/rules/agent-cli-vocab.js';
import { agentCliRules } from '../../../src/classifiers/rules/agent-cli.js';
import { classifyText } from '../helpers.js';

const cls = (text: string, path?: string) => classifyText(text, path).class;
const rules = (text: string, path?: string) => classifyText(text, path).evidence.map((e) => e.rule);
const vocabRules = (text: string) => rules(text).filter((r) => r.startsWith('agent.vocab_'));

// TAXONOMY.md's reading of each group: a CLI that cannot start or has no login is the agent's setup; the
// model API's answers keep the gateway/timeout/network classes; budget, format-retry and loop-detector exits
// are the agent's outcome; context exhaustion is gateway.4xx as TAXONOMY lists "context length exceeded".
const CLASS: Record<Exclude<AgentCliGroup, 'status' | 'echo' | 'skip'>, string> = {
  start: 'agent.setup_failure',
  auth: 'agent.setup_failure',
  wrapper: 'agent.setup_failure',
  refused: 'gateway.4xx',
  context: 'gateway.4xx',
  overload: 'gateway.5xx',
  timeout: 'api.timeout',
  network: 'network.error',
  sandbox: 'sandbox.failure',
  config: 'config.error',
  verifier: 'verifier.failure',
  killed: 'host.killed',
  budget: 'outcome.agent_timeout',
  format: 'outcome.agent_timeout',
  stuck: 'outcome.agent_timeout',
  gave_up: 'outcome.reward_zero',
};

/** A message with sample values where the producer fills one in. */
const filled = (message: string): string =>
  message
    .replace(/unexpected status \{…\}: \{…\}/, 'unexpected status 503 Service Unavailable: upstream connect error')
    .replace(/last status: \{…\}/, 'last status: 503 Service Unavailable')
    .replace(/\(Status: \{…\}\)/, '(Status: UNAVAILABLE)')
    .replace(/\(\{…\}\)/g, '(3)')
    .replace(/\{…\}/g, 'claude-sonnet-4');

/** How each producer's text reaches a log: as printed, and in the wrappers its harnesses and SDKs add. */
const TEXT_FORMS: Record<AgentCliEntry['producer'], (m: string) => string[]> = {
  // stderr, and the stream-json result that carries the text (--print --output-format stream-json).
  'claude-code': (m) => [m, `{"type":"result","subtype":"success","is_error":true,"duration_ms":1204,"num_turns":1,"result":${JSON.stringify(m)},"session_id":"5f0c"}`],
  'claude-agent-sdk': (m) => [m, `  [claude-code] ${m}`],
  // codex exec's human output ("ERROR: …") and its --json event.
  codex: (m) => [`ERROR: ${m}`, `{"type":"error","message":${JSON.stringify(m)}}`],
  'gemini-cli': (m) => [m, `{"session_id":"8d1e","error":{"type":"Error","message":${JSON.stringify(m)},"code":1}}`],
  aider: (m) => [m],
  // OpenHands' controller log (last_error "<Class>: <message>" on an ERROR line).
  openhands: (m) => [m, `12:40:02 - openhands:ERROR: agent_controller.py:271 - [Agent Controller 9a1c] ${m}`],
  'swe-agent': (m) => [m, `2025-06-02 10:41:07,114 - WARNING - swea-agent-django__django-11099 - ${m}`],
  'mini-swe-agent': (m) => [m],
  opencode: (m) => [m],
  goose: (m) => [`error: ${m}`],
  ridges: (m) => [`"evaluation_run_error_message": ${JSON.stringify(`${m}: x`)}`],
};

/** How each NameForm prints a name (the producers' own output shapes). */
const NAME_FORMS: Record<NameForm, (n: string, x: AgentCliEntry) => string[]> = {
  bare: (n, x) => [x.producer === 'openhands' && n.startsWith('STATUS$') ? `{"status_update": true, "type": "error", "id": "${n}", "message": "x"}` : `${n}: x`],
  'json-type': (n) => [`{"session_id":"8d1e","error":{"type":"${n}","message":"x","code":41}}`],
  'json-name': (n) => [`{"type":"session.error","properties":{"sessionID":"ses_1","error":{"name":"${n}","data":{"providerID":"anthropic","message":"x"}}}}`],
  subtype: (n) => [`{"type":"result","subtype":"${n}","is_error":true,"duration_ms":98211,"num_turns":31,"session_id":"4c1e"}`],
  'error-tag': (n) => [`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"x"}]},"session_id":"4c1e","error":"${n}"}`],
  'exit-status': (n) => [`  "info": {"exit_status": "${n}", "submission": ""},`, `${n}: 12`, `minisweagent.exceptions.${n}`],
};

const deciding = AGENT_CLI_ERRORS.filter((x) => x.group !== 'echo' && x.group !== 'skip' && !x.readBy && !(x.generic && !x.by));

/**
 * The deciding entries whose text is too common to read alone: the narrower rules read what such a line
 * carries, and must read it as the entry's group means (a sample as the producer prints it).
 */
const GENERIC_SAMPLES: Record<string, string> = {
  'codex ConnectionFailed': 'ERROR: Connection failed: error sending request for url (https://api.openai.com/v1/responses): client error (Connect): tcp connect error: Connection refused (os error 111)',
};

describe('every entry through the templates that print it', () => {
  it.each(deciding.map((x) => [x.producer, x.name, x] as const))('%s %s', (_p, _n, x) => {
    const want = x.group === 'status' ? 'gateway.5xx' : CLASS[x.group as keyof typeof CLASS];
    const lines = [...(x.message && !x.generic ? TEXT_FORMS[x.producer](filled(x.message)) : []), ...(x.by ? NAME_FORMS[x.by](x.name, x) : [])];
    expect(lines.length, 'an entry with no template is never read').toBeGreaterThan(0);
    for (const line of lines) expect(cls(line), line).toBe(want);
  });

  // Codex's model-API errors: this table holds their texts, netlib.* reads them (node-go-grpc-vocab.ts takes
  // them from here; its test checks each line's class): no agent.vocab_* rule may read them too.
  it.each(AGENT_CLI_ERRORS.filter((x) => x.readBy === 'netlib').map((x) => [`${x.producer} ${x.name}`, x] as const))('%s is netlib.*\'s', (_key, x) => {
    for (const line of TEXT_FORMS[x.producer](filled(x.message))) {
      expect(vocabRules(line), line).toEqual([]);
      expect(agentCliRules.some((r) => r.patterns.some((p) => p.test(line))), line).toBe(false);
    }
  });

  it("Claude Code's \"Request timed out\" is api.request_timeout's (the entry names it), not agent.vocab_timeout's", () => {
    expect(agentCliEntries('claude-code', 'api_timeout')[0]?.readBy).toBe('api.request_timeout');
    for (const line of ['  ⎿  Request timed out', '{"type":"result","subtype":"success","is_error":true,"duration_ms":600412,"num_turns":3,"result":"Request timed out","session_id":"5f0c"}']) {
      expect(vocabRules(line), line).toEqual([]);
      expect(rules(line)[0], line).toBe('api.request_timeout');
      expect(cls(line), line).toBe('api.timeout');
    }
  });

  it.each(AGENT_CLI_ERRORS.filter((x) => x.generic && !x.by && x.group !== 'skip' && x.group !== 'echo').map((x) => [`${x.producer} ${x.name}`, x] as const))('%s (left to the narrower rules)', (key, x) => {
    const line = GENERIC_SAMPLES[key];
    expect(line, 'each generic entry has a sample').toBeDefined();
    expect(vocabRules(line!)).toEqual([]);
    expect(cls(line!)).toBe(CLASS[x.group as keyof typeof CLASS]);
  });

  it('a text that starts like another is not taken for it (the more specific text is looked up first)', () => {
    expect(agentCliEntryOf('Invalid API key · Fix external API key')?.name).toBe('invalid_api_key-external');
    expect(agentCliEntryOf('API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"OAuth token has expired."}} · Please run /login')?.name).toBe('auth_error');
  });

  it("leaves to netlib.* the @google/genai status Gemini's \"[API Error: …]\" quotes; reads the codes netlib does not", () => {
    const status = agentCliRules.find((r) => r.id === 'agent.vocab_status')!;
    const reads = (line: string) => status.patterns.some((p) => p.test(line)) && !status.unless!.some((u) => u.test(line));
    const genai = '[API Error: got status: UNAVAILABLE. {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}} (Status: UNAVAILABLE)]';
    expect(reads(genai)).toBe(false);
    expect(rules(genai)[0]).toBe('netlib.status');
    expect(reads('[API Error: got status: 429. {"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}} (Status: RESOURCE_EXHAUSTED)]')).toBe(false);
    // UNKNOWN is whatever the server raised without a code: netlib reads nothing in it, the 500 Gemini names is this rule's.
    const unknown = '[API Error: got status: UNKNOWN. {"error":{"code":500,"message":"Internal error encountered.","status":"UNKNOWN"}} (Status: UNKNOWN)]';
    expect(reads(unknown)).toBe(true);
    expect(cls(unknown)).toBe('gateway.5xx');
  });

  it('reads the status the CLI quotes (Gemini google.rpc names; codex HTTP statuses through netlib)', () => {
    expect(cls('ERROR: exceeded retry limit, last status: 429 Too Many Requests, request id: 9c2e')).toBe('gateway.4xx');
    expect(cls('ERROR: unexpected status 401 Unauthorized: {"detail":"Unauthorized"}')).toBe('gateway.4xx');
    expect(vocabRules('ERROR: unexpected status 401 Unauthorized: {"detail":"Unauthorized"}')).toEqual([]);
    expect(cls('[API Error: got status: UNAVAILABLE. {"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}} (Status: UNAVAILABLE)]')).toBe('gateway.5xx');
    expect(cls('[API Error: Quota exceeded for quota metric (Status: RESOURCE_EXHAUSTED)]')).toBe('gateway.4xx');
    expect(rules('[API Error: Quota exceeded for quota metric (Status: RESOURCE_EXHAUSTED)]')[0]).toBe('agent.vocab_status');
    expect(cls('[API Error: Deadline expired before operation could complete. (Status: DEADLINE_EXCEEDED)]')).toBe('api.timeout');
  });
});

describe('notes, wrappers and non-failures decide nothing of their own', () => {
  it('a note or consequence is read (no failure line) and names no class', () => {
    for (const x of AGENT_CLI_ERRORS.filter((y) => y.group === 'echo')) {
      const lines = [...(x.message && !x.generic ? [filled(x.message)] : []), ...(x.by ? NAME_FORMS[x.by](x.name, x) : [])];
      for (const line of lines) {
        expect(vocabRules(line).filter((r) => r !== 'agent.vocab_echo'), line).toEqual([]);
        expect(cls(line), line).toBe('unknown');
      }
    }
  });

  it("a retry note is the note, not the error it quotes (codex retries the stream, then fails for good)", () => {
    const retry = 'stream error: stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses); retrying 1/5 in 203ms…';
    expect(cls(retry)).toBe('unknown');
    const d = classifyText([retry, retry.replace('1/5 in 203ms', '2/5 in 417ms'), 'ERROR: stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)'].join('\n'));
    expect(d.class).toBe('network.error');
    expect(d.evidence[0]?.text).toMatch(/^ERROR: stream disconnected/);
  });

  it('a skip entry is in no pattern: its line is left to the other rules', () => {
    for (const x of AGENT_CLI_ERRORS.filter((y) => y.group === 'skip')) {
      const lines = [...(x.message && !x.generic ? [filled(x.message)] : []), ...(x.by ? NAME_FORMS[x.by](x.name, x) : [])];
      for (const line of lines) expect(vocabRules(line), line).toEqual([]);
    }
    // ResultError quotes the CLI's result: the quoted text decides.
    expect(cls('claude_agent_sdk._errors.ResultError: Claude Code returned an error result: Repeated 529 Overloaded errors')).toBe('gateway.5xx');
  });

  it('a traceback source line that names a class is no failure', () => {
    expect(vocabRules("    raise AgentStuckInLoopError('Agent got stuck in a loop')")).toEqual([]);
    expect(vocabRules('    except FatalTurnLimitedError as e:')).toEqual([]);
  });

  it('keeps the producers apart where a name has several texts', () => {
    expect(agentCliEntries('claude-code', 'rate_limit').map((x) => x.by ?? 'text').sort()).toEqual(['error-tag', 'text']);
  });
});

describe('in a whole log', () => {
  it("the Agent SDK's exit wrapper gives way to the CLI's own refusal beside it (run as root)", () => {
    const log = [
      '[agent-runner] spawning: node /app/node_modules/@anthropic-ai/claude-agent-sdk/cli.js --output-format stream-json --verbose --input-format stream-json --permission-mode bypassPermissions',
      '[agent-runner] stderr: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons',
      '[agent-runner] query failed: Error: Claude Code process exited with code 1',
      '    at ChildProcess.<anonymous> (file:///app/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs:6784:19)',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('agent.setup_failure');
    expect(d.evidence[0]?.text).toContain('cannot be used with root/sudo');
  });

  it('the exit wrapper alone says the CLI died before any result; beside an API failure the API failure is the cause', () => {
    expect(cls('Error: Claude Code process exited with code 1')).toBe('agent.setup_failure');
    const log = ['⎿  API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'Fatal error in message reader: Command failed with exit code 1 (exit code: 1)'].join('\n');
    expect(cls(log)).toBe('gateway.5xx');
  });

  it('a missing login in the agent log of a trial is the agent not starting, even in stream-json', () => {
    const session = [
      '{"type":"system","subtype":"init","cwd":"/app","session_id":"7b2f","tools":["Bash","Read"],"model":"claude-sonnet-4-5"}',
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Not logged in · Please run /login"}]},"session_id":"7b2f","error":"authentication_failed"}',
      '{"type":"result","subtype":"success","is_error":true,"duration_ms":312,"num_turns":1,"result":"Not logged in · Please run /login","session_id":"7b2f","total_cost_usd":0}',
    ].join('\n');
    expect(cls(session, 'agent/claude-code.txt')).toBe('agent.setup_failure');
  });

  it('a budget exit is the outcome only while nothing failed under it', () => {
    const budget = ['mini-swe-agent (step 250, $2.71):', '  "info": {"exit_status": "RepeatedFormatError", "submission": ""},'].join('\n');
    expect(cls(budget)).toBe('outcome.agent_timeout');
    const behindOverload = ["litellm.InternalServerError: AnthropicException - {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}", 'Exit due to repeated format/blocklist/bash syntax errors', '  "exit_status": "exit_format",'].join('\n');
    expect(cls(behindOverload)).toBe('gateway.5xx');
  });

  it("aider's reflections: malformed edits until the budget ran out are the model's outcome; an overloaded provider is not", () => {
    const log = ['The LLM did not conform to the edit format.', 'https://aider.chat/docs/troubleshooting/edit-errors.html', '# 1 SEARCH/REPLACE block failed to match!', 'The LLM did not conform to the edit format.', 'Only 3 reflections allowed, stopping.'].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('outcome.agent_timeout');
    expect(d.evidence[0]?.text).toBe('Only 3 reflections allowed, stopping.');
    expect(cls(['litellm.InternalServerError: AnthropicException - Overloaded', "The API provider's servers are down or overloaded.", 'Retrying in 0.5 seconds...'].join('\n'))).toBe('gateway.5xx');
  });

  it("OpenHands' stuck detector ending a traceback is the outcome, not the run's code", () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "/app/openhands/controller/agent_controller.py", line 899, in _step',
      "    await self._react_to_exception(AgentStuckInLoopError('Agent got stuck in a loop'))",
      'openhands.core.exceptions.AgentStuckInLoopError: Agent got stuck in a loop',
    ].join('\n');
    expect(cls(log)).toBe('outcome.agent_timeout');
  });

  it("SWE-agent's context exit is the context window (gateway.4xx), its cost exit the budget", () => {
    expect(cls(['WARNING - Input tokens 131072 exceed max tokens 128000', 'WARNING - Exit due to context window', '  "exit_status": "submitted (exit_context)",'].join('\n'))).toBe('gateway.4xx');
    expect(cls('  "exit_status": "submitted (exit_cost)",')).toBe('outcome.agent_timeout');
  });

  it("codex without its code-mode host (the value wrapped onto the next line) cannot run the agent's commands", () => {
    const log = ['⚠ Code Mode is unavailable because failed to spawn code-mode host', '  /home/coder/.local/bin/codex-code-mode-host: No such file or directory (os error 2)'].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('agent.setup_failure');
    expect(d.evidence[0]?.rule).toBe('agent.vocab_setup');
  });

  it('a stored codex login that cannot be refreshed is the agent not authenticating, not the model API', () => {
    const d = classifyText('ERROR: Your access token could not be refreshed because your refresh token was already used. Please log out and sign in again.');
    expect(d.class).toBe('agent.setup_failure');
    expect(d.evidence[0]?.rule).toBe('agent.vocab_setup');
  });
});
