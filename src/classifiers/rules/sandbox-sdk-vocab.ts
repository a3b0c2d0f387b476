// The sandbox providers' SDK exceptions, as data: every exception class of the Modal, E2B, Daytona and
// Runloop SDKs and of docker-py, with the message it prints, and the providers' own message templates
// that reach a log without a class name (Daytona's API quota answers, docker-py's daemon probe). Each is
// put in a group that says what it means for a run. The rules of rules/sandbox-sdk.ts (sandbox.sdk_error,
// sandbox.sdk_config, sandbox.sdk_build, sandbox.sdk_quiet, sandbox.sdk_message) read a line through this table; the
// narrower rules of sandbox-providers.ts, k8s.ts, oci-runtime.ts, build.ts and harbor.ts (sandbox.modal,
// sandbox.not_found, sandbox.daytona_state, sandbox.daytona_api, sandbox.e2b, sandbox.start,
// k8s.image_pull, build.failed, …) keep the wordings they had and stay first where both match (they are
// stronger).
//
// Sources (read in each producer's repository):
// - modal-labs/modal-client 69519ae (2026-08-21): py/modal/exception.py (every class), _grpc_client.py
//   (_STATUS_TO_EXCEPTION: which gRPC status becomes which class), client.py (AuthError "Token missing.
//   Could not authenticate client. …", "Modal profile '…' was not found in …"), _utils/grpc_utils.py
//   (ConnectionError "Could not connect to the Modal server."), sandbox.py (SandboxTimeoutError /
//   SandboxTerminatedError raised bare by wait/poll; ClientClosed "Unable to perform operation on a
//   detached sandbox"), _image.py (ImageBuildError "Image build for {id} failed …", "… terminated due to
//   external shut-down …", "… timed out. Please try again with a larger `timeout` parameter."),
//   _utils/function_utils.py (FunctionTimeoutError / InternalFailure / RemoteError from a result status),
//   _utils/task_command_router_client.py (ExecTimeoutError "Deadline exceeded while waiting for exec …"),
//   container_process.py (InteractiveTimeoutError "Failed to establish connection to container. Please
//   try again."), _tunnel.py (RemoteError "Relay server is unavailable"), volume.py (ServiceError
//   "Service temporarily unavailable: …").
// - e2b-dev/E2B b802997 (2026-08-21): packages/python-sdk/e2b/exceptions.py (every class,
//   format_sandbox_timeout_exception), envd/api.py (_DEFAULT_API_ERROR_MAP: 400/401/404/429/502/507),
//   envd/rpc.py (_DEFAULT_RPC_ERROR_MAP and their suffixes, format_terminated_exception), api/__init__.py
//   (api_exception_from_code "401: Unauthorized, please check your credentials.", "429: Rate limit
//   exceeded, please try again later.", validate_api_key "Invalid API key format: …"),
//   sandbox_async/sandbox_api.py ("Sandbox {id} not found", "Paused sandbox {id} not found"),
//   sandbox/commands/command_handle.py (CommandExitException "Command exited with code N and error:");
//   packages/js-sdk/src/errors.ts (the JS names); e2b-dev/infra 54693ff (2026-08-22): packages/api
//   (orchestrator/create_instance.go "you have reached the maximum number of concurrent E2B sandboxes (N)",
//   utils/messages.go "Sandbox \"…\" doesn't exist or you don't have access to it"), packages/shared/pkg/proxy/
//   template (the sandbox URL's answers: "The sandbox was not found", "The sandbox is running but port is
//   not open", the traffic access token).
// - daytonaio/daytona b5a5d9e (2026-06-23; the tree before the maintenance-notice commit):
//   libs/sdk-python/src/daytona/common/errors.py (every class, STATUS_CODE_TO_ERROR),
//   _utils/errors.py (intercept_errors; the transport errors it maps to DaytonaConnectionError /
//   DaytonaTimeoutError; the OpenAPI clients' exception classes); apps/api/src/sandbox/services/
//   sandbox.service.ts (the quota answers "Total CPU limit exceeded. Maximum allowed: N.", "CPU request N
//   exceeds maximum allowed per sandbox (N).", "No available runners", "Sandbox is in an errored state";
//   before 98b7223 (2025-10-17) "Total CPU quota exceeded. Maximum allowed: N").
// - runloopai/api-client-python ae5ffd5 (2026-08-20): src/runloop_api_client/_exceptions.py (the Stainless
//   classes: the same names and statuses as openai-python), resources/devboxes/devboxes.py (RunloopError
//   "Devbox entered non-running terminal state: {status}"), lib/polling.py (PollingTimeout "Exceeded
//   timeout of N seconds").
// - docker/docker-py afc6d1e (2026-07-10): docker/errors.py (every class; APIError.__str__ "{status}
//   {Client|Server} Error for {url}: {reason} (\"{explanation}\")", ContainerError "Command '…' in image
//   '…' returned non-zero exit status N: …"), docker/api/client.py (DockerException "Error while fetching
//   server API version: …", "Invalid response from docker daemon: key \"ApiVersion\" is missing.",
//   InvalidVersion "API versions below … are no longer supported by this library.").

import { STAINLESS_MODULES, type StainlessClass, stainlessClassesOf } from './stainless-vocab.js';

/**
 * What an error says about the run:
 * - lost: the sandbox ended or vanished under the run (its lifetime timeout, a termination, a container the
 *   daemon no longer knows): sandbox.failure;
 * - provider: the provider's control plane or the container daemon failed the call (an internal error, a
 *   5xx, no runner to place the sandbox on): sandbox.failure;
 * - refused: the provider refused to create or run the sandbox as asked (quota, rate limit, the account's
 *   key or permissions, a request it rejects): sandbox.failure, since no sandbox came up (TAXONOMY: a
 *   sandbox that cannot be created, started or reached);
 * - unreachable: the client could not reach the provider or the daemon at all (Modal's servers, the Docker
 *   socket): sandbox.failure;
 * - credentials: the SDK had no usable credentials to send (no token configured, a key of the wrong
 *   format): config.error, the run's settings;
 * - config: the installed SDK or its settings cannot work at all (an API version below the SDK's minimum, a
 *   TLS or config file it cannot read, a client version the provider no longer serves): config.error;
 * - build: the sandbox image failed to build: image.build_failure;
 * - disk: the sandbox's disk is full: disk.full;
 * - time_limit: a remote function ran past the time limit it was given (Modal's FunctionTimeoutError), the
 *   platform's kill at a time limit: host.killed;
 * - api_timeout: a request to the provider's API (an upload, a call) timed out: api.timeout;
 * - exit: a command run in the sandbox exited non-zero: the command's own output decides, nothing here
 *   (the exit-wrapper mechanism in relations.ts reads the wording);
 * - usage: the run's own code misused the SDK, or asked for a file that is not there (a path inside the
 *   sandbox, git credentials of the task's repository): the traceback rules read that as the run's code;
 * - echo: a consequence or a note (a client closed at shutdown, a result fetched after it expired, a
 *   warning category);
 * - skip: a base class whose message decides (modal.Error, DockerException, DaytonaError, SandboxException);
 *   in no pattern of the class rules.
 */
export type SandboxSdkGroup = 'lost' | 'provider' | 'refused' | 'unreachable' | 'credentials' | 'config' | 'build' | 'disk' | 'time_limit' | 'api_timeout' | 'exit' | 'usage' | 'echo' | 'skip';

export type SandboxSdkProducer = 'modal' | 'e2b' | 'e2b-js' | 'daytona' | 'daytona-openapi' | 'runloop' | 'docker';

/** One exception class: its producer, its name, the message it prints (fixed text or a typical one), its group. */
export interface SandboxSdkError {
  producer: SandboxSdkProducer;
  name: string;
  message: string;
  group: SandboxSdkGroup;
}

const e = (producer: SandboxSdkProducer, name: string, message: string, group: SandboxSdkGroup): SandboxSdkError => ({ producer, name, message, group });

/**
 * How each producer's classes appear on a line: Python's qualified name (`modal.exception.AuthError: …`,
 * `docker.errors.NotFound: …`), the JS SDK's bare `name` ("SandboxError: …"). Daytona's class names carry
 * the product name, so a bare one counts too.
 */
export const SANDBOX_SDK_MODULES: Record<SandboxSdkProducer, string> = {
  modal: String.raw`modal\.exception\.`,
  e2b: String.raw`e2b(?:_code_interpreter)?\.(?:exceptions|sandbox\.commands\.command_handle)\.`,
  // JS: only the names no other library uses (a bare TimeoutError or RateLimitError says nothing of E2B).
  'e2b-js': String.raw`(?<![.\w])`,
  daytona: String.raw`(?:daytona(?:_sdk)?\.(?:common\.)?errors\.|(?<![.\w]))`,
  'daytona-openapi': String.raw`daytona_(?:api|toolbox_api)_client(?:_async)?\.exceptions\.`,
  runloop: String.raw`${STAINLESS_MODULES.runloop}\.`,
  docker: String.raw`docker\.errors\.`,
};

/**
 * How sandbox.sdk_* reads a Stainless class of Runloop's SDK (stainless-vocab.ts): the provider's API, so
 * no connection is the provider unreachable, a 4xx the provider refusing the devbox (404: the devbox is
 * gone), a 5xx or a status the message carries the provider failing, a body that fails the schema the
 * SDK's version.
 */
function runloopGroup(c: StainlessClass): SandboxSdkGroup {
  switch (c.kind) {
    case 'connect':
      return 'unreachable';
    case 'timeout':
      return 'api_timeout';
    case 'status':
      return c.status === 404 ? 'lost' : c.status !== undefined && c.status < 500 ? 'refused' : 'provider';
    case 'body':
      return 'usage';
    case 'abort':
    case 'length':
      return 'echo';
    case 'base':
      return 'skip';
  }
}

export const SANDBOX_SDK_ERRORS: readonly SandboxSdkError[] = [
  // ── Modal (py/modal/exception.py) ──
  e('modal', 'Error', '', 'skip'),
  // gRPC statuses (_grpc_client.py _STATUS_TO_EXCEPTION); the server's message follows.
  e('modal', 'AlreadyExistsError', "App 'swe-bench' already exists", 'usage'),
  e('modal', 'AuthError', 'Token missing. Could not authenticate client.', 'refused'),
  e('modal', 'InternalError', 'Exit snapshot result is missing image ID', 'provider'),
  // Client-side checks and INVALID_ARGUMENT / OUT_OF_RANGE: the sandbox was not created as asked.
  e('modal', 'InvalidError', 'Sandboxes require an App when created outside of a Modal container.', 'refused'),
  e('modal', 'ConflictError', 'Sandbox has already finished', 'refused'),
  e('modal', 'DataLossError', 'data loss', 'provider'),
  e('modal', 'NotFoundError', "App 'sandbox-app' not found in environment 'main'", 'refused'),
  e('modal', 'PermissionDeniedError', 'permission denied', 'refused'),
  e('modal', 'ResourceExhaustedError', 'quota exceeded', 'refused'),
  e('modal', 'ServiceError', 'Service temporarily unavailable: upstream connect error', 'provider'),
  e('modal', 'UnimplementedError', 'not implemented', 'usage'),
  e('modal', 'RemoteError', 'Relay server is unavailable', 'provider'),
  e('modal', 'WorkspaceManagementError', '', 'skip'),
  e('modal', 'TimeoutError', '', 'skip'),
  e('modal', 'SandboxTimeoutError', '', 'lost'),
  e('modal', 'SnapshotCreationError', 'snapshot failed', 'provider'),
  e('modal', 'ExecTimeoutError', 'Deadline exceeded while waiting for exec ex-4b1c', 'lost'),
  e('modal', 'SandboxTerminatedError', '', 'lost'),
  e('modal', 'FunctionTimeoutError', 'Task timed out after 3600 seconds', 'time_limit'),
  e('modal', 'MountUploadTimeoutError', 'upload timed out', 'api_timeout'),
  e('modal', 'VolumeUploadTimeoutError', 'upload timed out', 'api_timeout'),
  e('modal', 'LogsFetchError', 'too many logs', 'echo'),
  e('modal', 'InteractiveTimeoutError', 'Failed to establish connection to container. Please try again.', 'unreachable'),
  e('modal', 'OutputExpiredError', '', 'echo'),
  e('modal', 'ConnectionError', 'Could not connect to the Modal server.', 'unreachable'),
  e('modal', 'VersionError', 'The client version (0.50.0) is too old. Please update (pip install --upgrade modal).', 'config'),
  // "Something unexpected happened during runtime": many sites, the message decides.
  e('modal', 'ExecutionError', '', 'skip'),
  e('modal', 'DeserializationError', 'Deserialization failed', 'usage'),
  e('modal', 'SerializationError', 'Serialization failed', 'usage'),
  e('modal', 'RequestSizeError', 'Queue.put request is too large', 'usage'),
  // Warning categories (UserWarning subclasses) and the SDK's private wrappers.
  e('modal', 'DeprecationError', '', 'echo'),
  e('modal', 'ServerWarning', '', 'echo'),
  e('modal', 'AsyncUsageWarning', '', 'echo'),
  e('modal', 'InternalFailure', 'Retriable internal error', 'provider'),
  e('modal', 'InputCancellation', '', 'echo'),
  e('modal', 'ModuleNotMountable', '', 'usage'),
  e('modal', 'ClientClosed', 'Unable to perform operation on a detached sandbox', 'echo'),
  e('modal', 'FilesystemExecutionError', 'unknown error during a container filesystem operation', 'provider'),
  e('modal', 'SandboxFilesystemError', '', 'skip'),
  e('modal', 'SandboxFilesystemNotFoundError', "No such file or directory: '/workspace/out.txt'", 'usage'),
  e('modal', 'SandboxFilesystemDirectoryNotEmptyError', '', 'usage'),
  e('modal', 'SandboxFilesystemIsADirectoryError', '', 'usage'),
  e('modal', 'SandboxFilesystemNotADirectoryError', '', 'usage'),
  e('modal', 'SandboxFilesystemPermissionError', '', 'usage'),
  e('modal', 'SandboxFilesystemFileTooLargeError', '', 'usage'),
  e('modal', 'SandboxFilesystemPathAlreadyExistsError', '', 'usage'),
  e('modal', 'ImageBuildError', 'Image build for im-4b1c failed. View the build logs:', 'build'),

  // ── E2B Python SDK (e2b/exceptions.py; envd/api.py and envd/rpc.py map the statuses) ──
  e('e2b', 'SandboxException', '', 'skip'),
  e('e2b', 'TimeoutException', "502: This error is likely due to sandbox timeout. You can modify the sandbox timeout by passing 'timeout' when starting the sandbox or calling '.set_timeout' on the sandbox with the desired timeout.", 'lost'),
  // 400 from the API or envd, and the SDK's own argument checks.
  e('e2b', 'InvalidArgumentException', "400: Template 'swe-bench' not found", 'refused'),
  e('e2b', 'NotEnoughSpaceException', '507: not enough disk space', 'disk'),
  // Deprecated 404 of the API or envd (the sandbox, sometimes a file); sandbox.e2b reads it as the sandbox.
  e('e2b', 'NotFoundException', '404: sandbox not found', 'lost'),
  e('e2b', 'FileNotFoundException', "File '/home/user/out.txt' not found", 'usage'),
  e('e2b', 'SandboxNotFoundException', 'Sandbox i3kx7o2c9q not found', 'lost'),
  e('e2b', 'AuthenticationException', '401: Unauthorized, please check your credentials.', 'refused'),
  // Git inside the sandbox: the task repository's credentials or branch, the agent's command.
  e('e2b', 'GitAuthException', 'Authentication failed for https://github.com/x/y', 'usage'),
  e('e2b', 'GitUpstreamException', 'no upstream configured for branch', 'usage'),
  e('e2b', 'TemplateException', 'You need to update the template to use the new SDK.', 'refused'),
  e('e2b', 'RateLimitException', '429: Rate limit exceeded, please try again later.', 'refused'),
  e('e2b', 'BuildException', 'Build failed', 'build'),
  e('e2b', 'FileUploadException', 'Failed to upload file', 'build'),
  e('e2b', 'VolumeException', 'volume error', 'refused'),
  e('e2b', 'VolumeNotFoundException', 'Volume vol-1 not found', 'refused'),
  e('e2b', 'VolumePathNotFoundException', "Path '/data/x' not found", 'usage'),
  e('e2b', 'SecretException', 'secret error', 'credentials'),
  e('e2b', 'SecretNotFoundException', 'Secret GITHUB_TOKEN not found', 'credentials'),
  e('e2b', 'CommandExitException', 'Command exited with code 1 and error:', 'exit'),
  // ── E2B JS SDK (packages/js-sdk/src/errors.ts): only the names no other library uses ──
  e('e2b-js', 'SandboxError', '500: Internal Server Error', 'provider'),
  e('e2b-js', 'SandboxNotFoundError', 'Sandbox i3kx7o2c9q not found', 'lost'),
  e('e2b-js', 'NotEnoughSpaceError', '507: not enough disk space', 'disk'),
  e('e2b-js', 'CommandExitError', 'exit status 1', 'exit'),

  // ── Daytona (libs/sdk-python/src/daytona/common/errors.py) ──
  e('daytona', 'DaytonaError', '', 'skip'),
  e('daytona', 'DaytonaNotFoundError', 'Sandbox with ID 7f3c2a1e not found', 'lost'),
  e('daytona', 'DaytonaAuthenticationError', 'Failed to list sandboxes: Unauthorized', 'refused'),
  e('daytona', 'DaytonaAuthorizationError', 'Region r1 is not available to the organization for class small', 'refused'),
  e('daytona', 'DaytonaRateLimitError', 'Failed to create sandbox: Rate limit exceeded', 'refused'),
  e('daytona', 'DaytonaConflictError', 'Sandbox with name x already exists', 'refused'),
  // 400 answers, the quota answers among them, and the SDK's own parameter checks.
  e('daytona', 'DaytonaValidationError', 'Failed to create sandbox: Total CPU limit exceeded. Maximum allowed: 10.', 'refused'),
  e('daytona', 'DaytonaTimeoutError', 'Sandbox 7f3c2a1e failed to start within the 60 seconds timeout period', 'lost'),
  e('daytona', 'DaytonaConnectionError', 'Failed to execute command: Server disconnected', 'unreachable'),
  // The OpenAPI-generated API and toolbox clients (daytona_api_client / daytona_toolbox_api_client).
  e('daytona-openapi', 'ApiException', '(502)', 'provider'),
  e('daytona-openapi', 'ServiceException', '(503)', 'provider'),
  e('daytona-openapi', 'BadRequestException', '(400)', 'refused'),
  e('daytona-openapi', 'UnauthorizedException', '(401)', 'refused'),
  e('daytona-openapi', 'ForbiddenException', '(403)', 'refused'),
  e('daytona-openapi', 'NotFoundException', '(404)', 'lost'),
  e('daytona-openapi', 'ConflictException', '(409)', 'refused'),
  e('daytona-openapi', 'UnprocessableEntityException', '(422)', 'refused'),
  e('daytona-openapi', 'OpenApiException', '', 'skip'),

  // ── Runloop (runloop_api_client/_exceptions.py, Stainless): the sandbox provider's own API ──
  e('runloop', 'RunloopError', 'Devbox entered non-running terminal state: failure', 'provider'),
  // The Stainless classes (stainless-vocab.ts) in this table's groups (runloopGroup).
  ...stainlessClassesOf('runloop').map((c) => e('runloop', c.name, c.message, runloopGroup(c))),

  // ── docker-py (docker/errors.py) ──
  e('docker', 'DockerException', '', 'skip'),
  // The daemon's answer (requests HTTPError). A 4xx is a container, name or request it refused; a 5xx is
  // left to gateway.server_error, whose signal relations.ts relayed-status reads through the error the
  // daemon quotes (rules/sandbox-sdk.ts DAEMON_5XX).
  e('docker', 'APIError', '409 Client Error for http+docker://localhost/v1.47/containers/create?name=sweb.eval.x: Conflict ("Conflict. The container name \"/sweb.eval.x\" is already in use by container \"4b1c\". You have to remove (or rename) that container to be able to reuse that name.")', 'refused'),
  e('docker', 'NotFound', '404 Client Error for http+docker://localhost/v1.47/containers/4b1c/json: Not Found ("No such container: 4b1c")', 'lost'),
  // An image the daemon does not have or cannot pull: the pull rules (k8s.image_pull) read the reason.
  e('docker', 'ImageNotFound', '404 Client Error for http+docker://localhost/v1.47/images/x/json: Not Found ("No such image: x:latest")', 'provider'),
  e('docker', 'InvalidVersion', 'API versions below 1.24 are no longer supported by this library.', 'config'),
  e('docker', 'InvalidRepository', 'Invalid repository name', 'config'),
  e('docker', 'InvalidConfigFile', 'Invalid auth configuration file', 'config'),
  e('docker', 'InvalidArgument', 'Invalid unlock key format', 'usage'),
  e('docker', 'DeprecatedMethod', '', 'usage'),
  e('docker', 'TLSParameterError', 'Path to a certificate and key files must be provided through the client_config param. TLS configurations should map the Docker CLI client configurations.', 'config'),
  e('docker', 'NullResource', 'Resource ID was not provided', 'usage'),
  e('docker', 'ContainerError', "Command 'pytest' in image 'sweb.eval.x86_64.x:latest' returned non-zero exit status 1", 'exit'),
  e('docker', 'StreamParseError', '', 'usage'),
  e('docker', 'BuildError', "The command '/bin/sh -c pip install -r requirements.txt' returned a non-zero code: 1", 'build'),
  e('docker', 'ImageLoadError', 'Error loading image', 'provider'),
  e('docker', 'MissingContextParameter', 'missing parameter: host', 'config'),
  e('docker', 'ContextAlreadyExists', 'context remote already exists', 'usage'),
  e('docker', 'ContextException', '', 'skip'),
  e('docker', 'ContextNotFound', "context 'remote' not found", 'config'),
];

/**
 * The producers' own message templates, read on a line with or without the class name (a harness that
 * logs `str(e)`, an API's JSON answer): [producer, source, template as a pattern, group]. The group here
 * decides over the class's (AuthError "Token missing" is no refusal by the provider: nothing was sent).
 */
export const SANDBOX_SDK_MESSAGES: readonly (readonly [SandboxSdkProducer, string, RegExp, SandboxSdkGroup])[] = [
  ['modal', 'client.py', /\bToken missing\. Could not authenticate client\b/, 'credentials'],
  ['modal', 'client.py', /\bModal profile '[^']{1,80}' was not found in \S/, 'credentials'],
  ['modal', '_utils/grpc_utils.py', /\bCould not connect to the Modal server\b/, 'unreachable'],
  ['modal', 'container_process.py', /\bFailed to establish connection to container\. Please try again\b/, 'unreachable'],
  ['modal', '_image.py', /\bImage build for im-\w{1,40} (?:failed\b|terminated due to external shut-down|timed out\. Please try again with a larger `timeout`)/, 'build'],
  ['e2b', 'api/__init__.py validate_api_key', /\bInvalid API key format: expected "e2b_"/, 'credentials'],
  ['e2b', 'sandbox_async/sandbox_api.py', /\bPaused sandbox \S{1,120} not found\b/, 'lost'],
  // E2B's API and its sandbox-URL proxy (e2b-dev/infra): what the SDK quotes after the status.
  ['e2b', 'infra api orchestrator/create_instance.go', /\byou have reached the maximum number of concurrent E2B sandboxes \(\d+\)/, 'refused'],
  ['e2b', 'infra api utils/messages.go', /\bSandbox "[^"]{1,120}" (?:doesn't exist or you don't have access to it|is being (?:killed|paused|snapshotted))/, 'lost'],
  ['e2b', 'infra shared/pkg/proxy/template', /\bThe sandbox was not found\b|\bThe sandbox is still transitioning\. Try again in a moment\b/, 'lost'],
  ['e2b', 'infra shared/pkg/proxy/template', /\bThe sandbox is running but port is not open\b/, 'unreachable'],
  ['e2b', 'infra shared/pkg/proxy/template', /\bThe sandbox has too many concurrent incoming connections \(limit: \d+\)|\bThis sandbox can't be resumed with the credentials provided\b/, 'refused'],
  ['e2b', 'infra shared/pkg/proxy/template', /\bSandbox is secured with traffic access token\. Token header '[^']{1,80}' is (?:missing|invalid)/, 'credentials'],
  // Daytona's API (sandbox.service.ts): the organization's quota, the per-sandbox limit, no runner.
  ['daytona', 'apps/api sandbox.service.ts', /\bTotal (?:CPU|memory|disk|GPU) (?:limit|quota) exceeded\. Maximum allowed: \d/, 'refused'],
  ['daytona', 'apps/api sandbox.service.ts', /\b(?:CPU|Memory|Disk) request \d+(?:GB)? exceeds maximum allowed per sandbox \(/, 'refused'],
  ['daytona', 'apps/api sandbox.service.ts', /\b(?:GPU|Volume|Snapshot) quota exceeded\. Maximum allowed: \d/, 'refused'],
  ['daytona', 'apps/api sandbox.service.ts', /\bNo available runners\b|\bNo runners are configured in region '/, 'provider'],
  ['daytona', 'apps/api sandbox.service.ts', /\bSandbox is in an errored state\b/, 'lost'],
  ['runloop', 'resources/devboxes/devboxes.py', /\bDevbox entered non-(?:running|suspended) terminal state: /, 'provider'],
  ['docker', 'docker/api/client.py', /\bError while fetching server API version: /, 'unreachable'],
  ['docker', 'docker/api/client.py', /\bInvalid response from docker daemon: key "ApiVersion" is missing\b/, 'unreachable'],
];

export function sandboxSdkError(producer: SandboxSdkProducer, name: string): SandboxSdkError | undefined {
  return SANDBOX_SDK_ERRORS.find((x) => x.producer === producer && x.name === name);
}

export function sandboxSdkNames(producer: SandboxSdkProducer, pick: (x: SandboxSdkError) => boolean): string[] {
  return SANDBOX_SDK_ERRORS.filter((x) => x.producer === producer && pick(x)).map((x) => x.name);
}
