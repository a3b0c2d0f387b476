import { escapeRegExp } from './regex-text.js';
// The coding-agent CLIs' and agent frameworks' own error vocabularies, as data: what each prints when it
// cannot start or authenticate, when the model API behind it refuses or fails (in the CLI's own words, not
// the SDK's), and when it stops the agent at a budget (steps, turns, cost, time, format retries, a loop
// detector). Each entry is the producer's name for it (class, enum member, constant, exit status), the
// text it prints (`{…}` where it fills something in) and a group that says what it means for a run. The
// rules of rules/agent-cli.ts (agent.vocab_*) read a line through this table; the narrower rules that
// already knew some of these wordings (agent.exec_failed, agent.binary_not_found, sandbox.openhands_runtime,
// gateway.anthropic_error, gateway.context_length, api.request_timeout, outcome.agent_budget_exhausted,
// harbor.*, tb.failure_mode) keep them: they are stronger.
//
// Sources (read in each producer's own code):
// - Claude Code: the CLI's bundled cli.js of @anthropic-ai/claude-code 2.0.76 (npm): the API-error texts
//   (`SV="API Error"`, "Invalid API key · Please run /login", "OAuth token revoked · Please run /login",
//   "Credit balance is too low", "Prompt is too long", "Repeated 529 Overloaded errors", …, and the function
//   that picks one per API error with its `error:` tag authentication_failed / billing_error / rate_limit /
//   invalid_request / unknown), the start refusals (console.error + process.exit(1): the root check of
//   --dangerously-skip-permissions, "Claude Code requires Node.js version 18 or higher.", the --print /
//   stream-json flag checks), the usage-limit texts ("Usage limit reached ∙ resets …"), and --print's
//   result subtypes (error_max_turns, error_max_budget_usd, error_max_structured_output_retries,
//   error_during_execution); the same strings in the cli.js bundled with @anthropic-ai/claude-agent-sdk
//   0.1.30. "Not logged in · Please run /login" is the 2.1.x wording (native builds; CHANGELOG.md of
//   anthropics/claude-code at 5cfc0a1 quotes it).
// - Claude Agent SDK: Python anthropics/claude-agent-sdk-python at e8bde60 (src/claude_agent_sdk/_errors.py,
//   _internal/transport/subprocess_cli.py, _internal/query.py); TypeScript sdk.mjs of
//   @anthropic-ai/claude-agent-sdk 0.1.30 ("Claude Code process exited with code ${code}", "… terminated by
//   signal ${signal}", "Claude Code executable not found at …").
// - OpenAI Codex CLI: openai/codex codex-rs/core/src/error.rs at 001cb8e (CodexErr, SandboxErr, the Display
//   of UnexpectedResponseError, RetryLimitReachedError, UsageLimitReachedError, EnvVarError),
//   codex-rs/core/src/auth.rs at 0151388 (REFRESH_TOKEN_*_MESSAGE, enforce_login_restrictions), and the
//   retry note of codex-rs/core/src/codex.rs ("stream error: {e}; retrying {retries}/{max_retries} in
//   {delay:?}…"), and the code-mode host client's ConnectionError::Spawn ("failed to spawn code-mode host
//   {host_program}: {error}", a codex-rs source file found in the code index). `codex exec` prints an error as "ERROR: {message}", with --json as {"type":"error",
//   "message":…} / {"type":"turn.failed","error":{"message":…}}.
// - Gemini CLI: google-gemini/gemini-cli at 5411f11: packages/core/src/utils/errors.ts (the Fatal*Error
//   classes and exit codes), packages/cli/src/config/auth.ts, validateNonInterActiveAuth.ts,
//   packages/core/src/code_assist/oauth2.ts, utils/authConsent.ts, packages/cli/src/config/sandboxConfig.ts,
//   nonInteractiveCli.ts / nonInteractiveCliAgentSession.ts ("Reached max session turns …", "Loop
//   detected, stopping execution"), ui/hooks/useGeminiStream.ts, core/src/utils/errorParsing.ts ("[API
//   Error: {message} (Status: {status})]"), core/src/utils/googleQuotaErrors.ts, output/json-formatter.ts
//   (JSON output {"error":{"type":"<class>","message":…,"code":N}}).
// - aider: Aider-AI/aider at 5dc9490: aider/coders/base_coder.py ("Only {n} reflections allowed,
//   stopping.", "The LLM did not conform to the edit format.", "Model {name} has hit a token limit!"),
//   aider/exceptions.py (the ExInfo description printed after each LiteLLM exception), aider/models.py
//   sanity_check_model, aider/onboarding.py, aider/main.py (git checks).
// - OpenHands: All-Hands-AI/OpenHands at 156d068: openhands/core/exceptions.py (every class),
//   openhands/controller/agent_controller.py (_react_to_exception: `last_error = f'{type(e).__name__}:
//   {e}'`, the stuck detector), openhands/runtime/runtime_status.py (RuntimeStatus).
// - SWE-agent: SWE-agent/SWE-agent at 3ea751c: sweagent/exceptions.py, sweagent/agent/agents.py (every
//   exit_* status and its "Exit due to …" message, autosubmission), sweagent/agent/models.py (cost, call and
//   context limits).
// - mini-swe-agent: SWE-agent/mini-swe-agent at a83fcae: src/minisweagent/exceptions.py,
//   agents/default.py (exit statuses), agents/interactive.py, run/benchmarks/utils/batch_progress.py
//   (print_report "{status}: {n}").
// - opencode: packages/opencode/src/session/message-v2.ts (NamedError names; fromError maps the AI SDK's
//   LoadAPIKeyError to ProviderAuthError), read in the fork 0717376/opencode at 3300cdf (sst/opencode is not
//   in the index); its session.error events carry {"name":"<Name>","data":{…}}.
// - goose: block/goose crates/goose-cli session builder ("No provider configured. Run 'goose configure'
//   first", "No model configured. …"), as found in the code index.
// - Ridges (an agent-evaluation platform): ridgesai/ridges at 9397a57 models/evaluation_run.py
//   (EvaluationRunErrorCode: code, message; 1xxx agent, 2xxx validator, 3xxx platform).

/**
 * What an entry says about a run (TAXONOMY.md):
 * - start: the agent CLI refused to start or could not (run as root with its permission bypass, a Node or
 *   platform it does not support, flags the harness combined wrongly, its own sandbox tool or companion
 *   binary missing, a session to resume that is not there): agent.setup_failure;
 * - auth: the CLI has no usable credentials before any model answered (not logged in, no key in the
 *   environment, a stored login that can no longer be refreshed, an OAuth flow that cannot run headless):
 *   agent.setup_failure. A key the model API itself rejected is `refused`;
 * - wrapper: an SDK saying the CLI process exited non-zero, nothing more (its stderr, in the same log when
 *   captured, says why): agent.setup_failure, weakest of the deciding groups, so any cause beside it wins;
 * - refused: the model API refused the request as the CLI reports it (401/403 key or plan, quota, credit,
 *   rate limit, content policy, an oversized attachment): gateway.4xx;
 * - context: the conversation outgrew the model's context window (TAXONOMY: context length exceeded is
 *   gateway.4xx, as Harbor's ContextWindowExceededError): gateway.4xx;
 * - overload: the provider failed or is overloaded (5xx, 529, "high demand"): gateway.5xx;
 * - status: the HTTP or google.rpc status the message carries decides (< 500 gateway.4xx, ≥ 500
 *   gateway.5xx, DEADLINE_EXCEEDED api.timeout);
 * - timeout: the model API did not answer in time: api.timeout;
 * - network: the connection to the model API could not be made or broke mid-stream: network.error;
 * - sandbox: the environment the agent acts in died or could not be provisioned: sandbox.failure;
 * - config: the harness's own configuration of the agent was rejected: config.error;
 * - verifier: the evaluation of the agent's result timed out: verifier.failure (as Harbor's
 *   VerifierTimeoutError);
 * - killed: the platform restarted under the run: host.killed (a kill from outside);
 * - budget: the harness stopped the agent at its step, turn, cost, call or time budget:
 *   outcome.agent_timeout;
 * - format: the agent's format-retry budget ran out (the model kept answering in a shape the harness cannot
 *   parse: aider's reflections, SWE-agent's exit_format, mini-swe-agent's RepeatedFormatError):
 *   outcome.agent_timeout, the model's own behaviour, not the infrastructure;
 * - stuck: the harness's loop detector stopped an agent that repeated itself: outcome.agent_timeout;
 * - gave_up: the agent forfeited, the policy refused, or its result is invalid (scored as failed):
 *   outcome.reward_zero;
 * - echo: a note or a consequence, no failure of its own (a retry the CLI is about to make, a single
 *   malformed answer sent back to the model, a wrapper around a result another entry reads, a kill whose
 *   cause is elsewhere);
 * - skip: not a failure (a success status, a cancel by the user), or a base class whose message decides.
 */
export type AgentCliGroup =
  | 'start'
  | 'auth'
  | 'wrapper'
  | 'refused'
  | 'context'
  | 'overload'
  | 'status'
  | 'timeout'
  | 'network'
  | 'sandbox'
  | 'config'
  | 'verifier'
  | 'killed'
  | 'budget'
  | 'format'
  | 'stuck'
  | 'gave_up'
  | 'echo'
  | 'skip';

export type AgentCliProducer = 'claude-code' | 'claude-agent-sdk' | 'codex' | 'gemini-cli' | 'aider' | 'openhands' | 'swe-agent' | 'mini-swe-agent' | 'opencode' | 'goose' | 'ridges';

/**
 * How a name is printed on a line, where the name alone identifies the entry (the print templates of
 * `NAME_TEMPLATES`):
 * - bare: the name as a token (a class or constant only this producer uses: AgentStuckInLoopError,
 *   STATUS$ERROR_LLM_AUTHENTICATION, exit_context, AGENT_TIMEOUT_RUNNING_AGENT);
 * - json-type: Gemini CLI's JSON error `"type": "<class>"`;
 * - json-name: opencode's NamedError object `"name": "<Name>"`;
 * - subtype: Claude Code's result event `"subtype": "<subtype>"`;
 * - error-tag: Claude Code's API-error message tag `"error": "<tag>"`;
 * - exit-status: mini-swe-agent's `"exit_status": "<status>"`, its report line `<status>: N` and the
 *   qualified exception `minisweagent.exceptions.<status>`.
 */
export type NameForm = 'bare' | 'json-type' | 'json-name' | 'subtype' | 'error-tag' | 'exit-status';

export interface AgentCliEntry {
  producer: AgentCliProducer;
  /** The producer's name: class, enum member, constant, exit status or (for a bare text) a short label. */
  name: string;
  /** The text as printed, `{…}` where the producer fills something in; empty where only the name is printed. */
  message: string;
  group: AgentCliGroup;
  /** The print template of the name, where the name alone identifies the entry. */
  by?: NameForm;
  /** The text is too common a wording to be read on its own (other programs print it too): only the name is read. */
  generic?: true;
  /** A tag that sits beside a more specific text (Claude Code's `"error": "rate_limit"`): below the deciding texts of its group. */
  weak?: true;
  /** A note that quotes the error it is about to retry or work around: it decides the line, not what it quotes. */
  note?: true;
  /**
   * Another rule reads this text already: netlib.* (rules/node-go-grpc-vocab.ts takes Codex's model-API
   * errors from this table), or api.request_timeout (gateway.ts) for Claude Code's "Request timed out".
   * Listed here for the whole vocabulary, in no pattern of agent.vocab_*, so the two never compete on a line.
   */
  readBy?: 'netlib' | 'api.request_timeout';
}

const e = (producer: AgentCliProducer, name: string, message: string, group: AgentCliGroup, opts: Pick<AgentCliEntry, 'by' | 'generic' | 'weak' | 'note' | 'readBy'> = {}): AgentCliEntry => ({ producer, name, message, group, ...opts });

const CLAUDE: AgentCliEntry[] = [
  // Start refusals (console.error then process.exit(1)).
  e('claude-code', 'root-bypass-refused', '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons', 'start'),
  e('claude-code', 'node-too-old', 'Claude Code requires Node.js version 18 or higher.', 'start'),
  e('claude-code', 'git-bash-missing', 'Claude Code on Windows requires git-bash', 'start'),
  e('claude-code', 'git-bash-path', 'Claude Code was unable to find CLAUDE_CODE_GIT_BASH_PATH path', 'start'),
  e('claude-code', 'print-without-input', 'Error: Input must be provided either through stdin or as a prompt argument when using --print', 'start'),
  e('claude-code', 'input-format-flags', 'Error: --input-format=stream-json requires output-format=stream-json.', 'start'),
  e('claude-code', 'sdk-url-flags', 'Error: --sdk-url requires both --input-format=stream-json and --output-format=stream-json.', 'start'),
  e('claude-code', 'replay-flags', 'Error: --replay-user-messages requires both --input-format=stream-json and --output-format=stream-json.', 'start'),
  e('claude-code', 'input-format-invalid', 'Error: Invalid input format "{…}".', 'start'),
  e('claude-code', 'continue-nothing', 'No conversation found to continue', 'start'),
  e('claude-code', 'resume-missing', 'No conversation found with session ID: {…}', 'start'),
  e('claude-code', 'mcp-start', 'Error: Failed to start MCP server:', 'start'),
  // The npm wrapper of the native builds (2.1.x): the platform binary its postinstall places is missing
  // (--ignore-scripts, --omit=optional, a platform without a build), quoted by many install scripts in the
  // code index.
  e('claude-code', 'native-binary-missing', 'claude native binary not installed', 'start'),
  // The native installer (`claude install`): a platform the release manifest has no build for.
  e('claude-code', 'native-platform-missing', 'Platform {…} not found in manifest for version', 'start'),
  // No credentials before any request (the 2.1.x "Not logged in", 2.0's status line "Missing API key").
  e('claude-code', 'not_logged_in', 'Not logged in · Please run /login', 'auth'),
  e('claude-code', 'missing-api-key', 'Missing API key · Run /login', 'auth'),
  e('claude-code', 'api-key-format', 'Invalid API key format. API key must contain only alphanumeric characters, dashes, and underscores.', 'auth'),
  e('claude-code', 'web-session-auth', 'Claude Code web sessions require authentication with a Claude.ai account.', 'auth'),
  // The API's answers, in the CLI's words.
  e('claude-code', 'invalid_api_key', 'Invalid API key · Please run /login', 'refused'),
  e('claude-code', 'invalid_api_key-external', 'Invalid API key · Fix external API key', 'refused'),
  e('claude-code', 'token_revoked', 'OAuth token revoked · Please run /login', 'refused'),
  e('claude-code', 'oauth_org_not_allowed', 'Your account does not have access to Claude Code. Please run /login.', 'refused'),
  e('claude-code', 'auth_error', 'API Error: {…} · Please run /login', 'refused'),
  e('claude-code', 'credit_balance_low', 'Credit balance is too low', 'refused'),
  e('claude-code', 'rate_limit', 'API Error: Rate limit reached', 'refused'),
  // 2.1.x's humanized 429 that is the service's load shedding, not the account's quota.
  e('claude-code', 'rate_limit-server', 'Server is temporarily limiting requests (not your usage limit)', 'refused'),
  e('claude-code', 'usage-limit', 'Usage limit reached', 'refused'),
  e('claude-code', 'session-limit', 'Session limit reached', 'refused'),
  e('claude-code', 'weekly-limit', 'Weekly limit reached', 'refused'),
  e('claude-code', 'opus-weekly-limit', 'Opus weekly limit reached', 'refused'),
  e('claude-code', 'opus-not-in-plan', 'Claude Opus is not available with the Claude Pro plan.', 'refused'),
  e('claude-code', 'pdf_too_large', 'PDF too large. Please double press esc to edit your message and try again.', 'refused'),
  e('claude-code', 'pdf_password_protected', 'PDF is password protected. Please double press esc to edit your message and try again.', 'refused'),
  e('claude-code', 'image_too_large', 'Image was too large. Double press esc to go back and try again with a smaller image.', 'refused'),
  e('claude-code', 'prompt_too_long', 'Prompt is too long', 'context'),
  e('claude-code', 'repeated_529', 'Repeated 529 Overloaded errors', 'overload'),
  e('claude-code', 'capacity_off_switch', 'Opus is experiencing high load, please use /model to switch to Sonnet', 'overload'),
  e('claude-code', 'opus-overload', 'Repeated server overload with Opus model', 'overload'),
  e('claude-code', 'ssl_cert_error', 'Unable to connect to API: {…}', 'network'),
  e('claude-code', 'connection_error', 'Unable to connect to API ({…})', 'network'),
  e('claude-code', 'connection_error-offline', 'Unable to connect to API. Check your internet connection', 'network'),
  // The CLI's own timeout text, a wording other programs print too: api.request_timeout reads it.
  e('claude-code', 'api_timeout', 'Request timed out', 'timeout', { readBy: 'api.request_timeout' }),
  // The stream watchdog of 2.1.x (CLAUDE_STREAM_IDLE_TIMEOUT_MS): the API stream went quiet mid-answer;
  // printed as "API Error: Stream idle timeout - partial response received" (quoted by many harnesses' retry
  // classifiers in the code index; not in the 2.0.76 bundle this table was first read from).
  e('claude-code', 'stream_idle_timeout', 'Stream idle timeout - partial response received', 'timeout'),
  // The model declined (the API's stop_reason "refusal"): the policy's own decision, scored as it is.
  e('claude-code', 'refusal', 'API Error: Claude Code is unable to respond to this request, which appears to violate our Usage Policy', 'gave_up'),
  // The API-error tag on the assistant message (stream-json): beside the text above, which says more.
  e('claude-code', 'authentication_failed', '', 'refused', { by: 'error-tag', weak: true }),
  e('claude-code', 'billing_error', '', 'refused', { by: 'error-tag', weak: true }),
  e('claude-code', 'rate_limit', '', 'refused', { by: 'error-tag', weak: true }),
  e('claude-code', 'invalid_request', '', 'refused', { by: 'error-tag', weak: true }),
  e('claude-code', 'server_error', '', 'overload', { by: 'error-tag', weak: true }),
  e('claude-code', 'unknown', '', 'skip', { by: 'error-tag' }),
  // --print's result subtypes and their text-mode lines (outcome.agent_budget_exhausted reads the first two).
  e('claude-code', 'error_max_turns', 'Error: Reached max turns ({…})', 'budget', { by: 'subtype' }),
  e('claude-code', 'error_max_budget_usd', 'Error: Exceeded USD budget ({…})', 'budget', { by: 'subtype' }),
  e('claude-code', 'error_max_structured_output_retries', '', 'format', { by: 'subtype' }),
  e('claude-code', 'error_during_execution', 'Execution error', 'skip', { by: 'subtype', generic: true }),
  e('claude-code', 'success', '', 'skip', { by: 'subtype' }),
];

const CLAUDE_SDK: AgentCliEntry[] = [
  e('claude-agent-sdk', 'CLINotFoundError', 'Claude Code not found. Install with:', 'start', { by: 'bare' }),
  e('claude-agent-sdk', 'CLINotFoundError-path', 'Claude Code not found at: {…}', 'start'),
  e('claude-agent-sdk', 'CLIConnectionError', 'Failed to start Claude Code: {…}', 'start', { by: 'bare' }),
  e('claude-agent-sdk', 'CLIConnectionError-cwd', 'Working directory does not exist: {…}', 'start'),
  e('claude-agent-sdk', 'CLIConnectionError-batch', 'Refusing to execute batch script {…}', 'start'),
  e('claude-agent-sdk', 'CLIConnectionError-terminated', 'Cannot write to terminated process (exit code: {…})', 'echo'),
  e('claude-agent-sdk', 'CLIConnectionError-exited', 'Cannot write to process that exited with error: {…}', 'skip'),
  // ProcessError appends " (exit code: N)" to its message: the doubled code is the SDK's own.
  e('claude-agent-sdk', 'ProcessError', 'Command failed with exit code {…} (exit code: {…})', 'wrapper'),
  // ResultError: the result it carries says why ("API Error: 529 …", "Reached max turns"), read by its own entry.
  e('claude-agent-sdk', 'ResultError', 'Claude Code returned an error result: {…}', 'skip'),
  e('claude-agent-sdk', 'CLIJSONDecodeError', 'Failed to decode JSON: {…}', 'skip', { generic: true }),
  e('claude-agent-sdk', 'MessageParseError', '', 'skip'),
  e('claude-agent-sdk', 'ClaudeSDKError', '', 'skip'),
  // sdk.mjs (TypeScript).
  e('claude-agent-sdk', 'process-exit', 'Claude Code process exited with code {…}', 'wrapper'),
  // A signal is a kill from outside: a harness timeout (an outcome) or the OOM killer (host.oom) look alike here.
  e('claude-agent-sdk', 'process-signal', 'Claude Code process terminated by signal {…}', 'echo'),
  e('claude-agent-sdk', 'executable-not-found', 'Claude Code executable not found at {…}', 'start'),
  e('claude-agent-sdk', 'process-aborted', 'Claude Code process aborted by user', 'skip'),
];

const CODEX: AgentCliEntry[] = [
  e('codex', 'TurnAborted', 'turn aborted. Something went wrong?', 'echo'),
  // The model API's failures (the SSE stream broken after the handshake, a status, quota, high demand, the
  // context window) are netlib.*'s to read (node-go-grpc-vocab.ts AGENT_CLIS), in the same classes.
  e('codex', 'Stream', 'stream disconnected before completion: {…}', 'network', { readBy: 'netlib' }),
  e('codex', 'ContextWindowExceeded', "Codex ran out of room in the model's context window.", 'context', { readBy: 'netlib' }),
  e('codex', 'PreviousResponseNotFound', 'previous response id not found - will retry with full history', 'echo'),
  e('codex', 'EncryptedContentInvalid', 'encrypted reasoning content could not be verified', 'refused'),
  e('codex', 'ConversationNotFound', 'no conversation with id: {…}', 'start'),
  e('codex', 'SessionConfiguredNotFirstEvent', 'session configured event was not the first event in the stream', 'skip'),
  // The commands the agent runs (a tool call timing out, a spawn, Ctrl-C): the agent at work.
  e('codex', 'Timeout', 'timeout waiting for child process to exit', 'skip'),
  e('codex', 'Spawn', 'spawn failed: child stdout/stderr not captured', 'skip'),
  e('codex', 'Interrupted', 'interrupted (Ctrl-C).', 'skip'),
  e('codex', 'UnexpectedStatus', 'unexpected status {…}: {…}', 'status', { readBy: 'netlib' }),
  e('codex', 'UnexpectedStatus-cloudflare', 'Access blocked by Cloudflare. This usually happens when connecting from a restricted region', 'refused'),
  e('codex', 'InvalidImageRequest', 'Image poisoning', 'skip', { generic: true }),
  e('codex', 'UsageLimitReached', "You've hit your usage limit.", 'refused', { readBy: 'netlib' }),
  e('codex', 'ResponseStreamFailed', 'Error while reading the server response: {…}', 'network', { readBy: 'netlib' }),
  // "Connection failed: {reqwest error}": the reqwest text behind it decides.
  e('codex', 'ConnectionFailed', 'Connection failed: {…}', 'network', { generic: true, readBy: 'netlib' }),
  e('codex', 'QuotaExceeded', 'Quota exceeded. Check your plan and billing details.', 'refused', { readBy: 'netlib' }),
  e('codex', 'UsageNotIncluded', 'To use Codex with your ChatGPT plan, upgrade to Plus', 'refused'),
  e('codex', 'InternalServerError', "We're currently experiencing high demand, which may cause temporary errors.", 'overload', { readBy: 'netlib' }),
  e('codex', 'RetryLimit', 'exceeded retry limit, last status: {…}', 'status', { readBy: 'netlib' }),
  e('codex', 'InternalAgentDied', 'internal error; agent loop died unexpectedly', 'skip'),
  // Codex's own sandbox denying a command the agent ran is the agent at work.
  e('codex', 'Sandbox', 'sandbox denied exec error, exit code: {…}', 'skip'),
  e('codex', 'LandlockSandboxExecutableNotProvided', 'codex-linux-sandbox was required but not provided', 'start'),
  e('codex', 'LandlockRestrict', 'Landlock was not able to fully enforce all sandbox rules', 'start'),
  e('codex', 'SeccompInstall', 'seccomp setup error', 'start'),
  // The code-mode host (a companion binary shipped as its own release asset, spawned from codex's own
  // directory) missing: codex cannot run any command for the agent.
  e('codex', 'ConnectionError::Spawn', 'failed to spawn code-mode host {…}', 'start'),
  e('codex', 'UnsupportedOperation', 'unsupported operation: {…}', 'skip', { generic: true }),
  e('codex', 'Fatal', 'Fatal error: {…}', 'skip', { generic: true }),
  // The provider's key variable (env_key) is not set.
  e('codex', 'EnvVar', 'Missing environment variable: `{…}`.', 'auth'),
  // auth.rs: a stored ChatGPT login that can no longer be refreshed, and forced-login restrictions.
  e('codex', 'REFRESH_TOKEN_EXPIRED_MESSAGE', 'Your access token could not be refreshed because your refresh token has expired. Please log out and sign in again.', 'auth'),
  e('codex', 'REFRESH_TOKEN_REUSED_MESSAGE', 'Your access token could not be refreshed because your refresh token was already used. Please log out and sign in again.', 'auth'),
  e('codex', 'REFRESH_TOKEN_INVALIDATED_MESSAGE', 'Your access token could not be refreshed because your refresh token was revoked. Please log out and sign in again.', 'auth'),
  e('codex', 'REFRESH_TOKEN_UNKNOWN_MESSAGE', 'Your access token could not be refreshed. Please log out and sign in again.', 'auth'),
  e('codex', 'token-data', 'Token data is not available.', 'auth'),
  e('codex', 'forced-login-api', 'API key login is required, but ChatGPT is currently being used. Logging out.', 'auth'),
  e('codex', 'forced-login-chatgpt', 'ChatGPT login is required, but an API key is currently being used. Logging out.', 'auth'),
  e('codex', 'forced-workspace', 'Login is restricted to workspace {…}', 'auth'),
  // codex.rs: the retry note before the turn is retried; only the last failure counts.
  e('codex', 'stream-retry', 'stream error: {…}; retrying {…}/{…} in', 'echo', { note: true }),
];

const GEMINI: AgentCliEntry[] = [
  // utils/errors.ts: the Fatal* classes (exit codes 41–55, 130), named in the JSON output's error.type.
  e('gemini-cli', 'FatalAuthenticationError', '', 'auth', { by: 'json-type' }),
  e('gemini-cli', 'FatalInputError', '', 'start', { by: 'json-type' }),
  e('gemini-cli', 'FatalSandboxError', '', 'start', { by: 'json-type' }),
  e('gemini-cli', 'FatalConfigError', '', 'start', { by: 'json-type' }),
  e('gemini-cli', 'FatalUntrustedWorkspaceError', '', 'start', { by: 'json-type' }),
  e('gemini-cli', 'FatalTurnLimitedError', 'Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.', 'budget', { by: 'json-type' }),
  // handleToolError: a tool's fatal error (NO_SPACE_LEFT …) exits with its message, which decides.
  e('gemini-cli', 'FatalToolExecutionError', '', 'skip', { by: 'json-type' }),
  e('gemini-cli', 'FatalCancellationError', 'Operation cancelled.', 'skip', { by: 'json-type', generic: true }),
  e('gemini-cli', 'FatalError', '', 'skip', { by: 'json-type' }),
  e('gemini-cli', 'max-session-turns-ui', 'The session has reached the maximum number of turns: {…}', 'budget'),
  e('gemini-cli', 'loop-detected', 'Loop detected, stopping execution', 'stuck'),
  e('gemini-cli', 'loop-detected-ui', 'A potential loop was detected. This can happen due to repetitive tool calls or other model behavior. The request has been halted.', 'stuck'),
  // config/auth.ts, validateNonInterActiveAuth.ts.
  e('gemini-cli', 'gemini-api-key', 'When using Gemini API, you must specify the GEMINI_API_KEY environment variable.', 'auth'),
  e('gemini-cli', 'vertex-env', 'When using Vertex AI, you must specify either:', 'auth'),
  e('gemini-cli', 'invalid-auth-method', 'Invalid auth method selected.', 'auth'),
  e('gemini-cli', 'no-auth-method', 'Please set an Auth method in your {…} or specify one of the following environment variables before running: GEMINI_API_KEY', 'auth'),
  e('gemini-cli', 'enforced-auth-mismatch', "The enforced authentication type is '{…}', but the current type is '{…}'. Please re-authenticate with the correct type.", 'auth'),
  e('gemini-cli', 'enforced-auth-missing', "The auth type '{…}' is enforced, but no authentication is configured.", 'auth'),
  // code_assist/oauth2.ts and utils/authConsent.ts: the login flow, which a headless run cannot complete.
  e('gemini-cli', 'oauth-non-interactive', 'Manual authorization is required but the current session is non-interactive.', 'auth'),
  e('gemini-cli', 'oauth-user-code', 'Failed to authenticate with user code.', 'auth'),
  e('gemini-cli', 'oauth-browser-timeout', 'Authentication timed out after 5 minutes.', 'auth'),
  e('gemini-cli', 'oauth-timeout', 'Authorization timed out after 5 minutes.', 'auth'),
  e('gemini-cli', 'oauth-callback', 'OAuth callback not received. Unexpected request: {…}', 'auth'),
  e('gemini-cli', 'oauth-error', 'Google OAuth error: {…}', 'auth'),
  e('gemini-cli', 'oauth-state', 'OAuth state mismatch. Possible CSRF attack or browser session issue.', 'auth'),
  e('gemini-cli', 'oauth-exchange', 'Failed to exchange authorization code for tokens: {…}', 'auth'),
  e('gemini-cli', 'oauth-no-code', 'No authorization code received from Google OAuth.', 'auth'),
  e('gemini-cli', 'oauth-unexpected', 'Unexpected error during OAuth authentication: {…}', 'auth'),
  e('gemini-cli', 'oauth-server', 'OAuth callback server error: {…}', 'auth'),
  e('gemini-cli', 'auth-consent', 'Authentication consent could not be obtained.', 'auth'),
  // config/sandboxConfig.ts: the CLI's own sandbox (docker, podman, runsc) is not there.
  e('gemini-cli', 'sandbox-command-invalid', "Invalid sandbox command '{…}'. Must be one of", 'start'),
  e('gemini-cli', 'sandbox-command-missing', "Missing sandbox command '{…}' (from GEMINI_SANDBOX)", 'start'),
  e('gemini-cli', 'sandbox-undetermined', 'GEMINI_SANDBOX is true but failed to determine command for sandbox', 'start'),
  e('gemini-cli', 'sandbox-runsc', 'runsc (gVisor) requires Docker.', 'start'),
  e('gemini-cli', 'confirmation-prompt', 'Exiting due to a confirmation prompt requested by the command.', 'start'),
  // errorParsing.ts: "[API Error: {message} (Status: {google.rpc status})]", the 429 advice after it.
  e('gemini-cli', 'api-error-status', '[API Error: {…} (Status: {…})]', 'status'),
  e('gemini-cli', 'rate-limit-ai-studio', 'To increase your limits, request a quota increase through AI Studio', 'refused'),
  e('gemini-cli', 'rate-limit-vertex', 'To increase your limits, request a quota increase through Vertex', 'refused'),
  e('gemini-cli', 'quota-fallback', 'Possible quota limitations in place or slow response times detected. Switching to the {…} model', 'echo', { note: true }),
  e('gemini-cli', 'TerminalQuotaError', '', 'refused', { by: 'bare' }),
  e('gemini-cli', 'RetryableQuotaError', '', 'refused', { by: 'bare' }),
];

const AIDER: AgentCliEntry[] = [
  e('aider', 'max_reflections', 'Only {…} reflections allowed, stopping.', 'format'),
  // One malformed reply, reflected back to the model; only the reflections running out ends the turn.
  e('aider', 'edit-format', 'The LLM did not conform to the edit format.', 'format', { weak: true }),
  e('aider', 'token-limit', 'Model {…} has hit a token limit!', 'context'),
  // exceptions.py ExInfo descriptions (printed after the LiteLLM exception they describe).
  e('aider', 'AuthenticationError', 'The API provider is not able to authenticate you. Check your API key.', 'refused'),
  e('aider', 'PermissionDeniedError', 'Permission was denied. Check your API key and/or credentials.', 'refused'),
  e('aider', 'RateLimitError', 'The API provider has rate limited you. Try again later or check your quotas.', 'refused'),
  e('aider', 'ContentPolicyViolationError', 'The API provider has refused the request due to a safety policy about the content.', 'refused'),
  e('aider', 'ImageFetchError', 'The API provider was unable to fetch one or more images.', 'refused'),
  e('aider', 'APIError-credits', 'Insufficient credits with the API provider. Please add credits.', 'refused'),
  e('aider', 'InternalServerError', "The API provider's servers are down or overloaded.", 'overload'),
  e('aider', 'APIConnectionError-openrouter', 'OpenRouter or the upstream API provider is down, overloaded or rate limiting your requests.', 'overload'),
  e('aider', 'Timeout', 'The API provider timed out without returning a response. They may be down or overloaded.', 'timeout'),
  e('aider', 'APIConnectionError-boto3', 'You need to: pip install boto3', 'start'),
  // models.py sanity_check_model, onboarding.py: no key for the model in the environment.
  e('aider', 'missing-keys', 'Warning: {…} expects these environment variables', 'auth'),
  e('aider', 'no-model-no-keys', 'No LLM model was specified and no API keys were provided.', 'auth'),
  // main.py: the workspace aider is started in.
  e('aider', 'git-corrupt', 'Unable to read git repository, it may be corrupt?', 'start'),
  e('aider', 'git-no-worktree', 'The git repo does not seem to have a working tree?', 'start'),
  e('aider', 'git-version', 'Aider only works with git repos with version number 1 or 2.', 'start'),
];

const OPENHANDS: AgentCliEntry[] = [
  e('openhands', 'AgentStuckInLoopError', 'Agent got stuck in a loop', 'stuck', { by: 'bare' }),
  e('openhands', 'LLMContextWindowExceedError', 'Conversation history longer than LLM context window limit.', 'context', { by: 'bare' }),
  // Sent back to the model as an observation; the loop goes on.
  e('openhands', 'LLMMalformedActionError', '', 'echo', { by: 'bare' }),
  e('openhands', 'LLMNoActionError', 'Agent must return an action', 'echo', { by: 'bare' }),
  e('openhands', 'LLMResponseError', 'Failed to retrieve action from LLM response', 'echo', { by: 'bare' }),
  e('openhands', 'LLMNoResponseError', 'LLM did not return a response. This is only seen in Gemini models so far.', 'echo', { by: 'bare' }),
  e('openhands', 'FunctionCallConversionError', '', 'echo', { by: 'bare' }),
  e('openhands', 'FunctionCallValidationError', '', 'echo', { by: 'bare' }),
  e('openhands', 'FunctionCallNotExistsError', '', 'echo', { by: 'bare' }),
  e('openhands', 'AgentNoInstructionError', '', 'start', { by: 'bare' }),
  e('openhands', 'AgentNotRegisteredError', "No agent class registered under '{…}'", 'start', { by: 'bare' }),
  e('openhands', 'AgentAlreadyRegisteredError', '', 'skip', { by: 'bare' }),
  e('openhands', 'AgentEventTypeError', '', 'skip', { by: 'bare' }),
  e('openhands', 'TaskInvalidStateError', '', 'skip', { by: 'bare' }),
  e('openhands', 'UserCancelledError', '', 'skip', { by: 'bare' }),
  e('openhands', 'OperationCancelled', '', 'skip', { by: 'bare' }),
  e('openhands', 'MicroagentValidationError', '', 'skip', { by: 'bare' }),
  // The browser lives in the runtime sandbox.
  e('openhands', 'BrowserInitException', 'Failed to initialize browser environment', 'sandbox', { by: 'bare' }),
  e('openhands', 'BrowserUnavailableException', 'Browser environment is not available, please check if has been initialized', 'sandbox', { by: 'bare' }),
  // The AgentRuntime* family: sandbox.openhands_runtime reads them (and their tenacity retry lines as waits).
  e('openhands', 'AgentRuntimeError', '', 'sandbox', { by: 'bare' }),
  e('openhands', 'AgentRuntimeTimeoutError', '', 'sandbox', { by: 'bare' }),
  e('openhands', 'AgentRuntimeUnavailableError', '', 'sandbox', { by: 'bare' }),
  e('openhands', 'AgentRuntimeDisconnectedError', '', 'sandbox', { by: 'bare' }),
  e('openhands', 'AgentRuntimeNotFoundError', '', 'sandbox', { by: 'bare' }),
  // runtime_status.py: the status the controller reports with the error state (_react_to_exception).
  e('openhands', 'STATUS$ERROR_LLM_AUTHENTICATION', '', 'refused', { by: 'bare' }),
  e('openhands', 'STATUS$ERROR_LLM_OUT_OF_CREDITS', '', 'refused', { by: 'bare' }),
  e('openhands', 'STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION', '', 'refused', { by: 'bare' }),
  e('openhands', 'CHAT_INTERFACE$AGENT_RATE_LIMITED_STOPPED_MESSAGE', '', 'refused', { by: 'bare' }),
  // Set for ServiceUnavailableError, APIConnectionError and APIError alike: OpenHands' own reading.
  e('openhands', 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE', '', 'overload', { by: 'bare' }),
  e('openhands', 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR', '', 'overload', { by: 'bare' }),
  e('openhands', 'STATUS$ERROR_RUNTIME_DISCONNECTED', '', 'sandbox', { by: 'bare' }),
  // The token for cloning the task's repository: the workspace cannot be set up.
  e('openhands', 'STATUS$GIT_PROVIDER_AUTHENTICATION_ERROR', '', 'start', { by: 'bare' }),
  e('openhands', 'STATUS$LLM_RETRY', '', 'echo', { by: 'bare', note: true }),
  // memory/memory.py: the agent's recall memory (microagents), not host memory.
  e('openhands', 'STATUS$ERROR_MEMORY', '', 'skip', { by: 'bare' }),
  e('openhands', 'STATUS$ERROR', '', 'skip', { by: 'bare' }),
  ...['STATUS$STOPPED', 'STATUS$BUILDING_RUNTIME', 'STATUS$STARTING_RUNTIME', 'STATUS$RUNTIME_STARTED', 'STATUS$SETTING_UP_WORKSPACE', 'STATUS$SETTING_UP_GIT_HOOKS', 'STATUS$READY'].map((n) => e('openhands', n, '', 'skip', { by: 'bare' })),
];

const SWE_AGENT: AgentCliEntry[] = [
  // agents.py: the exit statuses (trajectory info.exit_status, "submitted (exit_…)") and the warning before each.
  e('swe-agent', 'exit_cost', 'Exit due to cost limit', 'budget', { by: 'bare' }),
  e('swe-agent', 'exit_total_execution_time', 'Exit due to total execution time exceeded', 'budget', { by: 'bare' }),
  e('swe-agent', 'exit_command_timeout', 'Exit due to multiple consecutive command timeouts', 'budget', { by: 'bare' }),
  e('swe-agent', 'exit_context', 'Exit due to context window', 'context', { by: 'bare' }),
  e('swe-agent', 'exit_format', 'Exit due to repeated format/blocklist/bash syntax errors', 'format', { by: 'bare' }),
  e('swe-agent', 'exit_forfeit', 'Exiting due to forfeit', 'gave_up', { by: 'bare' }),
  // tenacity's RetryError names the last exception, which the gateway rules read; alone, the API kept failing.
  e('swe-agent', 'exit_api', 'Exit due to retry error: {…}', 'overload', { by: 'bare', weak: true }),
  e('swe-agent', 'exit_environment_error', 'Exit due to environment error: {…}', 'sandbox', { by: 'bare' }),
  e('swe-agent', 'exit_error', 'Exit due to runtime error: {…}', 'skip', { by: 'bare' }),
  e('swe-agent', 'exit_error-unknown', 'Exit due to unknown error: {…}', 'skip'),
  e('swe-agent', 'environment-died', 'Environment died unexpectedly. Exited (autosubmitted)', 'sandbox'),
  e('swe-agent', 'runtime-dead', 'Runtime is no longer alive', 'sandbox'),
  e('swe-agent', 'autosubmission', 'Attempting autosubmission after error', 'echo'),
  e('swe-agent', 'autosubmitted', 'Exiting with autosubmission', 'echo'),
  e('swe-agent', 'requery', 'Requerying model after {…} ({…}th requery)', 'echo', { note: true }),
  e('swe-agent', 'content-policy-resample', 'Content policy violation, trying to resample', 'echo', { note: true }),
  // models.py and exceptions.py.
  e('swe-agent', 'InstanceCostLimitExceededError', 'Instance cost limit exceeded', 'budget', { by: 'bare' }),
  e('swe-agent', 'TotalCostLimitExceededError', 'Total cost limit exceeded', 'budget', { by: 'bare' }),
  e('swe-agent', 'InstanceCallLimitExceededError', 'Per instance call limit exceeded', 'budget', { by: 'bare' }),
  e('swe-agent', 'CostLimitExceededError', '', 'budget', { by: 'bare' }),
  e('swe-agent', 'total-cost-autosubmit', 'Total instance cost exceeded cost limit.', 'budget'),
  // The agent's own count against the model's window, before any request ("Input tokens N exceed max tokens M").
  e('swe-agent', 'ContextWindowExceededError', 'Input tokens {…} exceed max tokens {…}', 'context'),
  e('swe-agent', 'ModelConfigurationError', 'Error calculating cost: {…} for your model {…}', 'config', { by: 'bare' }),
  e('swe-agent', 'FunctionCallingFormatError', '', 'echo', { by: 'bare' }),
  e('swe-agent', 'submitted', '', 'skip'),
  e('swe-agent', 'exit_command', '', 'skip'),
];

const MINI_SWE_AGENT: AgentCliEntry[] = [
  e('mini-swe-agent', 'LimitsExceeded', 'Limits exceeded. Limits: {…} steps, ${…}.', 'budget', { by: 'exit-status' }),
  e('mini-swe-agent', 'TimeExceeded', '', 'budget', { by: 'exit-status' }),
  e('mini-swe-agent', 'RepeatedFormatError', '', 'format', { by: 'exit-status' }),
  e('mini-swe-agent', 'FormatError', '', 'echo', { by: 'exit-status' }),
  e('mini-swe-agent', 'Submitted', '', 'skip', { by: 'exit-status' }),
  e('mini-swe-agent', 'UserInterruption', '', 'skip', { by: 'exit-status' }),
  e('mini-swe-agent', 'InterruptAgentFlow', '', 'skip', { by: 'exit-status' }),
];

const OPENCODE: AgentCliEntry[] = [
  // fromError: the AI SDK's LoadAPIKeyError ("<Provider> API key is missing. Pass it using …").
  e('opencode', 'ProviderAuthError', '', 'auth', { by: 'json-name' }),
  e('opencode', 'ContextOverflowError', '', 'context', { by: 'json-name' }),
  e('opencode', 'StructuredOutputError', '', 'format', { by: 'json-name' }),
  // The answer cut at max tokens, an abort, a status error whose statusCode the status group would need.
  e('opencode', 'MessageOutputLengthError', '', 'echo', { by: 'json-name' }),
  e('opencode', 'MessageAbortedError', '', 'skip', { by: 'json-name' }),
];

const GOOSE: AgentCliEntry[] = [
  e('goose', 'no-provider', "No provider configured. Run 'goose configure' first", 'start'),
  e('goose', 'no-model', "No model configured. Run 'goose configure' first", 'start'),
  e('goose', 'no-provider-or-model', "Provider or model not configured. Run 'goose configure' first", 'start'),
];

const RIDGES: AgentCliEntry[] = [
  e('ridges', 'AGENT_TIMEOUT_RUNNING_AGENT', 'The agent timed out while being run', 'budget', { by: 'bare' }),
  e('ridges', 'AGENT_TIMEOUT_RUNNING_EVAL', 'The agent timed out while being evaluated', 'verifier', { by: 'bare' }),
  e('ridges', 'AGENT_INVALID_PATCH', 'The agent returned an invalid patch', 'gave_up', { by: 'bare' }),
  e('ridges', 'AGENT_KEY_UNREADABLE', "The agent's uploaded OpenRouter API key could not be decrypted", 'auth', { by: 'bare' }),
  // The agent's own exception, the validator's internal error, an unknown problem: their message decides.
  e('ridges', 'AGENT_EXCEPTION_RUNNING_AGENT', 'The agent raised an exception while being run', 'skip', { by: 'bare' }),
  e('ridges', 'AGENT_EXCEPTION_RUNNING_EVAL', 'The agent raised an exception while being evaluated', 'skip', { by: 'bare' }),
  e('ridges', 'VALIDATOR_INTERNAL_ERROR', 'An internal error occurred on the validator', 'skip', { by: 'bare' }),
  e('ridges', 'VALIDATOR_UNKNOWN_PROBLEM', 'Unknown problem', 'skip', { by: 'bare', generic: true }),
  e('ridges', 'PLATFORM_RESTARTED', 'The platform was restarted while the evaluation run was {…}', 'killed'),
  e('ridges', 'PLATFORM_FAILED_PROVISIONING', 'Platform failed to provision task resources', 'sandbox', { by: 'bare' }),
  e('ridges', 'PLATFORM_PRUNED_BY_SCORE_BOUND', 'The platform stopped this run because the agent could no longer meet the required score bound', 'skip', { by: 'bare' }),
];

export const AGENT_CLI_ERRORS: readonly AgentCliEntry[] = [...CLAUDE, ...CLAUDE_SDK, ...CODEX, ...GEMINI, ...AIDER, ...OPENHANDS, ...SWE_AGENT, ...MINI_SWE_AGENT, ...OPENCODE, ...GOOSE, ...RIDGES];

// ---------------------------------------------------------------------------------------------------
// Reading a line through the table.


/** The print templates of a name (see NameForm). */
const NAME_TEMPLATES: Record<NameForm, (name: string) => string[]> = {
  // A $ inside a constant (STATUS$ERROR) is a word boundary's neighbour like any letter; the lookarounds keep
  // STATUS$ERROR from matching inside STATUS$ERROR_LLM_… and a name from matching inside a longer one.
  bare: (n) => [`(?<![\\w$])${escapeRegExp(n)}(?![\\w$])`],
  'json-type': (n) => [`"type":\\s*"${escapeRegExp(n)}"`],
  'json-name': (n) => [`"name":\\s*"${escapeRegExp(n)}"`],
  subtype: (n) => [`"subtype":\\s*"${escapeRegExp(n)}"`],
  'error-tag': (n) => [`"error":\\s*"${escapeRegExp(n)}"`],
  'exit-status': (n) => [`"exit_status":\\s*"${escapeRegExp(n)}"`, `^${escapeRegExp(n)}: \\d+\\s*$`, `\\bminisweagent\\.exceptions\\.${escapeRegExp(n)}\\b`],
};

/** A message as a pattern: its literal parts in order, anything (short) where the producer fills in a value. */
function textTemplate(message: string): string {
  const parts = message.split(/\{[^}]*\}/);
  // A value at the end may be missing or wrapped onto the next line ("… because failed to spawn code-mode host").
  if (parts.length > 1 && parts[parts.length - 1] === '') {
    parts.pop();
    parts[parts.length - 1] = parts[parts.length - 1]!.trimEnd();
  }
  return parts.map(escapeRegExp).join('.{0,300}?');
}

interface Matcher {
  entry: AgentCliEntry;
  source: string;
  re: RegExp;
  /** How much literal text the template requires: the more, the more specific. */
  weight: number;
}

function matchersOf(x: AgentCliEntry): Matcher[] {
  const out: Matcher[] = [];
  if (x.readBy) return out;
  if (x.message && !x.generic) {
    const source = textTemplate(x.message);
    out.push({ entry: x, source, re: new RegExp(source), weight: x.message.replace(/\{[^}]*\}/g, '').length });
  }
  if (x.by) for (const source of NAME_TEMPLATES[x.by](x.name)) out.push({ entry: x, source, re: new RegExp(source), weight: x.name.length });
  return out;
}

/** Lookup order: notes (they quote what they retry), then the deciding entries, then echo, then skip. */
const rank = (x: AgentCliEntry): number => (x.note ? 0 : x.group === 'echo' ? 2 : x.group === 'skip' ? 3 : 1);

/**
 * Every template in lookup order, the most specific text first within a rank ("Invalid API key · Fix
 * external API key" before "API Error: … · Please run /login"). A wrapper that quotes another entry's text
 * (ResultError "Claude Code returned an error result: …", "Exit due to runtime error: …") is skip, ranked
 * last: the quoted text decides.
 */
const MATCHERS: readonly Matcher[] = AGENT_CLI_ERRORS.flatMap(matchersOf).sort((a, b) => rank(a.entry) - rank(b.entry) || b.weight - a.weight);

/** The entry a line shows (the first template that matches, in MATCHERS' order), or undefined. */
export function agentCliEntryOf(line: string): AgentCliEntry | undefined {
  for (const m of MATCHERS) if (m.re.test(line)) return m.entry;
  return undefined;
}

/** The entries of a producer and name (a name may have several texts). */
export function agentCliEntries(producer: AgentCliProducer, name: string): AgentCliEntry[] {
  return AGENT_CLI_ERRORS.filter((x) => x.producer === producer && x.name === name);
}

/** Most alternatives in one pattern: the prefilter derives one key set per pattern and cuts big ones. */
const CHUNK = 40;

/**
 * The prefilter patterns of the groups' templates (the rule's extract reads the line through
 * agentCliEntryOf). The skip group is in no pattern: a line that shows only a skip entry is left to the
 * other rules and the vocabulary fallback, unjudged.
 */
export function agentCliPatterns(groups: readonly Exclude<AgentCliGroup, 'skip'>[]): RegExp[] {
  const sources = [...new Set(MATCHERS.filter((m) => (groups as readonly AgentCliGroup[]).includes(m.entry.group)).map((m) => m.source))];
  const out: RegExp[] = [];
  for (let i = 0; i < sources.length; i += CHUNK) out.push(new RegExp(sources.slice(i, i + CHUNK).map((s) => `(?:${s})`).join('|')));
  return out;
}

/**
 * google.rpc status names as Gemini CLI prints them ("(Status: RESOURCE_EXHAUSTED)"), with the HTTP status
 * Google's APIs map each to (google/rpc/code.proto).
 */
export const GOOGLE_RPC_STATUS: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  ABORTED: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  DATA_LOSS: 500,
  UNKNOWN: 500,
  INTERNAL: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** The status a `status` entry's line carries: codex's "unexpected status 429 Too Many Requests", "last status: 503", Gemini's "(Status: UNAVAILABLE)". */
export function agentCliStatusOf(line: string): { status: number; rpc?: string } | undefined {
  const http = /\bunexpected status (\d{3})\b|\blast status: (\d{3})\b/.exec(line);
  if (http) return { status: Number(http[1] ?? http[2]) };
  const rpc = /\(Status: ([A-Z_]{4,40})\)/.exec(line)?.[1];
  if (rpc && GOOGLE_RPC_STATUS[rpc] !== undefined) return { status: GOOGLE_RPC_STATUS[rpc]!, rpc };
  return undefined;
}
