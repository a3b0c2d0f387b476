// Every exception type a Harbor trial can record (exception_info.exception_type, i.e. type(e).__name__),
// read from Harbor's own source at 0.3.0, 0.13.0, 0.17.0 … 0.22.0 (shared/FORMATS.md §1.4, §1.4b), and
// the class fdiag gives it. One table, read by the trial decision (classifiers/harbor-trial.ts):
//
//   default      the class when nothing else speaks; 'by_reward' = the verifier's score stands (an
//                outcome), 'by_message' = a plain RuntimeError whose message names the cause (read by
//                the rule engine's own rules, e.g. rules/harbor.ts `harbor.sandbox`), else by reward.
//   overriddenBy infra classes whose evidence in the trial's own logs (trial.log, exception.txt, agent
//                output, k8s/) names a more specific root cause and then replaces the default. Empty when
//                Harbor's type already is the cause (it matched the agent's output itself).
//
// Whatever the class, a trial the verifier still scored above 0 becomes `outcome.scored` with the infra
// class kept beside it (TAXONOMY), and no infra row ever keeps Harbor's reward as a score.
// Exceptions of Harbor's CLI and hub (auth, registry, leaderboard, upload, export: AuthenticationError,
// NotAuthenticatedError, ApiKeyRejectedError, RefreshTokenExpiredError, OAuthCallbackError,
// LeaderboardAPIError, LeaderboardSubmitError, MultimodalExportError, HostedQuotaExceededError,
// HostedNotApprovedError, StaleAccessTokenError, OwnerOrgError, RegradeError, _BatchUpdateError,
// TaskVersionNotFoundError, UnavailableDatasetTasksError, EmptyDatasetError) never reach a trial's
// result.json and have no row; an unlisted type is decided from the logs and the reward.
import type { FailureClass } from '../taxonomy.js';

export type HarborInfraClass = Extract<
  FailureClass,
  | 'gateway.4xx'
  | 'gateway.5xx'
  | 'api.timeout'
  | 'network.error'
  | 'sandbox.failure'
  | 'image.build_failure'
  | 'host.oom'
  | 'cuda.oom'
  | 'disk.full'
  | 'agent.setup_failure'
  | 'verifier.failure'
>;

export interface HarborExceptionRow {
  type: string;
  /** The first of the Harbor releases read (0.3, 0.13, 0.17, 0.18, 0.20, 0.21, 0.22) that defines it. */
  since: string;
  /** Where Harbor defines it (src/harbor/…). */
  source: string;
  default: FailureClass | 'by_reward' | 'by_message';
  overriddenBy: readonly HarborInfraClass[];
}

/** Causes that can sit behind an agent-phase exception (the agent waited on them). */
export const AGENT_PHASE: readonly HarborInfraClass[] = ['gateway.5xx', 'gateway.4xx', 'api.timeout', 'network.error', 'sandbox.failure', 'host.oom', 'cuda.oom', 'disk.full', 'image.build_failure'];
/** Causes more specific than a sandbox that did not come up. */
const ENV: readonly HarborInfraClass[] = ['image.build_failure', 'disk.full', 'host.oom'];
/** Causes that stop a verifier more specifically than its own exception. */
export const VERIFIER: readonly HarborInfraClass[] = ['sandbox.failure', 'host.oom', 'disk.full', 'network.error', 'image.build_failure'];
/** A catch-all API type: the agent's log may say which API failure it was. */
const API_ANY: readonly HarborInfraClass[] = ['gateway.5xx', 'gateway.4xx', 'api.timeout', 'network.error'];

const INSTALLED = 'agents/installed/base.py';

export const HARBOR_EXCEPTIONS: readonly HarborExceptionRow[] = [
  // trial/errors.py (0.3: trial/trial.py), all asyncio.TimeoutError subclasses
  { type: 'EnvironmentStartTimeoutError', since: '0.3', source: 'trial/errors.py', default: 'sandbox.failure', overriddenBy: ENV },
  { type: 'AgentSetupTimeoutError', since: '0.3', source: 'trial/errors.py', default: 'agent.setup_failure', overriddenBy: [...ENV, 'sandbox.failure'] },
  // The verifier still runs after it: a valid outcome unless the agent was waiting on infrastructure.
  { type: 'AgentTimeoutError', since: '0.3', source: 'trial/errors.py', default: 'outcome.agent_timeout', overriddenBy: AGENT_PHASE },
  { type: 'VerifierTimeoutError', since: '0.3', source: 'trial/errors.py', default: 'verifier.failure', overriddenBy: VERIFIER },
  // verifier/verifier.py
  { type: 'AddTestsDirError', since: '0.3', source: 'verifier/verifier.py', default: 'verifier.failure', overriddenBy: VERIFIER },
  { type: 'VerifierOutputParseError', since: '0.3', source: 'verifier/verifier.py', default: 'verifier.failure', overriddenBy: VERIFIER },
  { type: 'DownloadVerifierDirError', since: '0.3', source: 'verifier/verifier.py', default: 'verifier.failure', overriddenBy: VERIFIER },
  { type: 'RewardFileNotFoundError', since: '0.3', source: 'verifier/verifier.py', default: 'verifier.failure', overriddenBy: VERIFIER },
  { type: 'RewardFileEmptyError', since: '0.3', source: 'verifier/verifier.py', default: 'verifier.failure', overriddenBy: VERIFIER },
  // llms/base.py (terminus-2's own LLM client)
  { type: 'ContextLengthExceededError', since: '0.3', source: 'llms/base.py', default: 'gateway.4xx', overriddenBy: [] },
  { type: 'OutputLengthExceededError', since: '0.3', source: 'llms/base.py', default: 'gateway.4xx', overriddenBy: [] },
  // agents/installed/base.py: the agent CLI exited nonzero. ≥ 0.17 names the API trouble by the LAST of
  // ERROR_PATTERNS matching its output; the bare type means none matched.
  // Exit 127/126 of the agent's command (not installed) is the agent's setup, not its work.
  { type: 'NonZeroAgentExitCodeError', since: '0.3', source: INSTALLED, default: 'by_reward', overriddenBy: [...AGENT_PHASE, 'agent.setup_failure'] },
  { type: 'ApiError', since: '0.17', source: INSTALLED, default: 'gateway.5xx', overriddenBy: API_ANY },
  { type: 'ApiRateLimitError', since: '0.17', source: INSTALLED, default: 'gateway.4xx', overriddenBy: [] },
  { type: 'ApiUsageLimitError', since: '0.17', source: INSTALLED, default: 'gateway.4xx', overriddenBy: [] },
  { type: 'ApiInternalServerError', since: '0.17', source: INSTALLED, default: 'gateway.5xx', overriddenBy: [] },
  { type: 'ApiOverloadedError', since: '0.17', source: INSTALLED, default: 'gateway.5xx', overriddenBy: [] },
  { type: 'ApiConnectionClosedError', since: '0.17', source: INSTALLED, default: 'network.error', overriddenBy: [] },
  { type: 'UnknownApiError', since: '0.17', source: INSTALLED, default: 'gateway.5xx', overriddenBy: API_ANY },
  // "Request timed out" and "Connection timed out" are among its patterns: a log naming the API timeout says which.
  { type: 'NetworkConnectionError', since: '0.17', source: INSTALLED, default: 'network.error', overriddenBy: ['api.timeout'] },
  { type: 'ApiResponseStalledError', since: '0.20', source: INSTALLED, default: 'api.timeout', overriddenBy: [] },
  { type: 'OutputTokenExceededError', since: '0.20', source: INSTALLED, default: 'gateway.4xx', overriddenBy: [] },
  { type: 'ContextWindowExceededError', since: '0.20', source: INSTALLED, default: 'gateway.4xx', overriddenBy: [] },
  { type: 'ApiProviderResourceNotFoundError', since: '0.20', source: INSTALLED, default: 'gateway.4xx', overriddenBy: [] },
  { type: 'AgentAuthenticationError', since: '0.20', source: INSTALLED, default: 'gateway.4xx', overriddenBy: [] },
  { type: 'ModelNotFoundError', since: '0.20', source: INSTALLED, default: 'gateway.4xx', overriddenBy: [] },
  // The policy itself refused (a deterministic, request-level decision): the verifier's score stands.
  { type: 'AgentSafetyRefusalError', since: '0.20', source: INSTALLED, default: 'by_reward', overriddenBy: [] },
  // agents/installed/vibe.py: Vibe's read timeouts and connection errors.
  { type: 'ApiConnectionError', since: '0.20', source: 'agents/installed/vibe.py', default: 'network.error', overriddenBy: ['api.timeout'] },
  // environments/
  { type: 'HealthcheckError', since: '0.13', source: 'environments/base.py', default: 'sandbox.failure', overriddenBy: ENV },
  { type: 'SandboxBuildFailedError', since: '0.13', source: 'environments/base.py', default: 'image.build_failure', overriddenBy: [] },
  { type: 'MemoryLimitExceededError', since: '0.13', source: 'environments/singularity/singularity.py', default: 'host.oom', overriddenBy: [] },
  // The task asks for per-service compose operations its environment type cannot do: the job's configuration.
  { type: 'ServiceOperationsUnsupportedError', since: '0.17', source: 'environments/base.py', default: 'config.error', overriddenBy: [] },
  { type: 'GKEExecStreamClosedError', since: '0.21', source: 'environments/gke.py', default: 'sandbox.failure', overriddenBy: ['host.oom', 'disk.full'] },
  { type: 'VercelScopeError', since: '0.22', source: 'environments/vercel/scope.py', default: 'config.error', overriddenBy: [] },
  // Plain RuntimeErrors (GKE, Docker, Daytona…) name the cause in their message; the computer-1 runtime's too.
  { type: 'RuntimeError', since: '0.3', source: 'environments/*.py', default: 'by_message', overriddenBy: AGENT_PHASE },
  { type: 'RuntimeRequestError', since: '0.17', source: 'agents/computer_1/runtime.py', default: 'by_message', overriddenBy: AGENT_PHASE },
  // A missing optional dependency (`harbor[gke]`, dspy): the installation, not the trial.
  { type: 'MissingExtraError', since: '0.13', source: 'utils/optional_import.py', default: 'config.error', overriddenBy: [] },
  { type: 'DspyImportError', since: '0.17', source: 'agents/dspy_rlm.py', default: 'config.error', overriddenBy: [] },
  // asyncio.CancelledError: the job was interrupted (under rLLM's Harbor 0.3, its session timeout fired).
  { type: 'CancelledError', since: '0.3', source: 'trial/trial.py', default: 'unknown', overriddenBy: AGENT_PHASE },
];

const BY_TYPE = new Map(HARBOR_EXCEPTIONS.map((r) => [r.type, r]));

export function harborExceptionRow(type: string | null | undefined): HarborExceptionRow | undefined {
  return type ? BY_TYPE.get(type) : undefined;
}
