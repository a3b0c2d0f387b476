// Hosted sandbox providers and agent runtimes that evaluation harnesses create sandboxes through: Modal,
// Daytona, E2B and the OpenHands runtime client. Each SDK raises its own exception classes with its own
// message templates (read in each SDK's source, cited per row); an exception of one of these SDKs means the
// sandbox (its creation, its lifetime, the provider's API in front of it) failed, not the agent or the model.
// A bare HTTP status from a sandbox provider's API is classed by who answered it (rules/answerer.ts).
import type { Extracted } from '../rule.js';
import { defineRules } from '../rule.js';

/**
 * Daytona's sandbox states that end a wait in failure (libs/sdk-python/src/daytona/_sync/sandbox.py
 * `_wait_for_state` error_states: SandboxState.ERROR, SandboxState.BUILD_FAILED). BUILD_FAILED is the
 * snapshot (image) build failing, not the sandbox.
 */
function daytonaState(line: string): Extracted {
  return /build_failed/i.test(line) ? { classOverride: 'image.build_failure' } : {};
}

/** E2B's exception classes whose cause is more specific than the sandbox (e2b/exceptions.py). */
function e2bClass(line: string): Extracted {
  if (/\bNotEnoughSpaceException\b/.test(line)) return { classOverride: 'disk.full' };
  if (/\b(?:BuildException|FileUploadException)\b/.test(line)) return { classOverride: 'image.build_failure' };
  return {};
}

export const sandboxProviderRules = defineRules([
  {
    // SWE-ReX, the sandbox runtime of SWE-agent and mini-swe-agent's swerex environments (swerex/exceptions.py):
    // DeploymentStartupError (swerex/deployment/docker.py "Runtime did not start within timeout. Here's the
    // output from the container process."), its subclass DockerPullError (the image could not be pulled),
    // DeploymentNotStartedError ("Deployment not started"). Named with their module: the bare class names are
    // common in other programs. A command timing out inside the sandbox (CommandTimeoutError) is the agent's
    // command, not the sandbox: no row reads it here.
    id: 'sandbox.swerex',
    class: 'sandbox.failure',
    patterns: [
      /\bswerex\.exceptions\.(?:DeploymentStartupError|DockerPullError|DeploymentNotStartedError)\b/,
      /\bRuntime did not start within timeout\. Here's the output from the container process\b/,
      // swerex/utils/wait.py _wait_until_alive, under every deployment: "Runtime did not start within 60.0s
      // (tried to connect 103 times)" (the remote runtime in the container never answered its health check).
      /\bRuntime did not start within [\d.]+s \(tried to connect \d+ times\)/,
    ],
    strength: 72,
    why: "SWE-ReX could not start the sandbox runtime (container start, image pull) the agent runs in",
    hint: "The SWE-ReX runtime never came up in its container (startup timeout, image pull failure): check the Docker/Modal backend, the image name and registry access, and raise the deployment's startup_timeout on a loaded host; the trial has no score.",
  },
  {
    // modal-client py/modal/exception.py: SandboxTimeoutError ("a Sandbox exceeds its execution duration
    // limit"), SandboxTerminatedError ("terminated for an internal reason"), raised by Sandbox.wait/poll
    // (py/modal/sandbox.py); the filesystem/exec control plane's "The Sandbox is unavailable. This Sandbox may
    // have already shut down." (py/modal/_utils/sandbox_fs_utils.py, go/ and js/ alike).
    id: 'sandbox.modal',
    class: 'sandbox.failure',
    patterns: [
      /\b(?:modal\.exception\.)?Sandbox(?:Timeout|Terminated)Error\b/,
      /\bThis Sandbox may have already shut down\b|\bThe Sandbox is unavailable\b/,
      // Modal's server-side errors reach the client as these modal.exception classes (py/modal/exception.py:
      // InternalError / InternalFailure "Retriable internal error", RemoteError "an error occurs on the Modal
      // server", SnapshotCreationError).
      /\bmodal\.exception\.(?:InternalError|InternalFailure|RemoteError|SnapshotCreationError|ExecTimeoutError)\b/,
    ],
    // The image build's own failure reaches the client as a RemoteError too (py/modal/_image.py: "Image build
    // for im-… failed. See build logs for more details."): the image, not the sandbox.
    extract: (line): Extracted => (/\bImage build for im-\w{1,40} failed\b/.test(line) ? { classOverride: 'image.build_failure' } : {}),
    strength: 72,
    why: 'the Modal sandbox timed out, was terminated or was already gone when the harness used it',
    hint: "Modal's sandbox ended under the trial (its timeout, an internal termination, or it had already shut down): raise the sandbox timeout above the agent + verifier budget, and retry the trial; the trial has no score.",
  },
  {
    // A sandbox the provider no longer knows: E2B SandboxNotFoundException f"Sandbox {sandbox_id} not found"
    // (e2b/sandbox_async/sandbox_api.py), Daytona's API NotFound for the sandbox (DaytonaNotFoundError), the
    // Modal server's "Sandbox … not found" and `modal shell`'s "Sandbox '…' not found (is it still running?)"
    // (py/modal/cli/shell.py); all are the sandbox gone (killed, expired, cleaned up).
    id: 'sandbox.not_found',
    class: 'sandbox.failure',
    patterns: [/\bNo sandbox found\b/, /\bSandbox \S{1,120} not found\b/, /\bSandbox with (?:container )?ID(?: or name)? \S{1,120} not found\b/, /\bSandboxNotFoundException\b|\bDaytonaNotFoundError\b/],
    strength: 66,
    why: 'the sandbox provider no longer knew the sandbox: it was killed, expired or cleaned up under the trial',
    hint: 'The sandbox was gone when the harness used it (its provider timeout or TTL ran out, it was killed, or a cleanup removed it early): make the sandbox lifetime exceed the whole trial (agent + verifier), then retry.',
  },
  {
    // Daytona SDK (libs/sdk-python/src/daytona/_sync/sandbox.py `_wait_for_state`): "Sandbox {id} entered
    // error state: {state}, error reason: {error_reason}"; before it "Sandbox {id} failed to start with state:
    // {state}, error reason: {reason}" (and "Workspace {id} failed to start with state"); the create/start
    // time limits from `with_timeout` (_utils/timeout.py): "Failed to create and start sandbox within {t}
    // seconds timeout period.", "Sandbox {id} failed to start within the {t} seconds timeout period".
    // The API's Sandbox DTO read back (`daytona sandbox info`, the REST JSON): "state": "error" with its
    // "errorReason".
    id: 'sandbox.daytona_state',
    class: 'sandbox.failure',
    patterns: [
      /\b(?:Sandbox|Workspace) \S{1,120} (?:entered error state|failed to start with state): /,
      /\bFailed to create and start sandbox within \d+(?:\.\d+)? seconds timeout period/,
      /\b(?:Sandbox|Workspace) \S{1,120} failed to (?:start|become ready) within the \d+(?:\.\d+)? seconds timeout period/,
      /"errorReason"\s*:\s*"[^"]{1,300}"/,
      /"state"\s*:\s*"(?:error|build_failed)"/,
    ],
    strength: 72,
    extract: daytonaState,
    why: 'the Daytona sandbox went to an error state (or did not start in time)',
    hint: "Daytona could not bring the sandbox up: its state went to error (the error reason names why: the runner, the toolbox daemon, resources) or it stayed in creating past the timeout. Retry on another runner/region; a build_failed state is the snapshot image failing to build.",
  },
  {
    // Daytona SDK exception classes (libs/sdk-python/src/daytona/common/errors.py; `intercept_errors` in
    // _utils/errors.py re-raises every API and toolbox failure as one of them, DaytonaRateLimitError for 429).
    // A bare one-line "Failed to …: (502) Reason: …" is classed by who answered (rules/answerer.ts). The
    // OpenAPI ApiException's own str() is multi-line ("(502)\nReason: Bad Gateway\n"), so in a log the prefix
    // line ends at the status and the reason phrase (which the gateway rules would read) follows alone.
    id: 'sandbox.daytona_api',
    class: 'sandbox.failure',
    patterns: [/\b(?:daytona(?:_sdk)?\.[\w.]{1,60}\.)?Daytona(?:RateLimit|Timeout)?Error: /, /\bFailed to [a-z][a-z ]{2,60}: \((?:5\d\d|404|408|409|429)\)\s*$/],
    strength: 68,
    why: "Daytona's API or the sandbox's toolbox failed the harness's call",
    hint: "The Daytona API (or the toolbox daemon inside the sandbox) failed the call: a 502/503 there means the sandbox's toolbox is not answering (not started, crashed, runner overloaded), 429 the Daytona rate limit. Check the sandbox state, then retry the trial.",
  },
  {
    // E2B SDK exception classes (packages/python-sdk/e2b/exceptions.py; js-sdk src/errors.ts): the SDK
    // maps envd/API failures onto them (envd/api.py, envd/rpc.py: 502 and UNAVAILABLE → TimeoutException
    // "…likely due to sandbox timeout", CANCELED "…cancelled by the server or a proxy while it was in flight",
    // 429 / RESOURCE_EXHAUSTED → RateLimitException, 507 → NotEnoughSpaceException).
    id: 'sandbox.e2b',
    class: 'sandbox.failure',
    patterns: [
      /\be2b(?:_code_interpreter)?\.exceptions\.(?:Sandbox|Timeout|NotFound|RateLimit|Template|NotEnoughSpace|Build|FileUpload)Exception\b/,
      /\b(?:SandboxException|TemplateException|NotEnoughSpaceException)\b/,
      /\bcancelled by the server or a proxy while it was in flight\b/,
      /: The requests are being rate limited\.$/,
    ],
    strength: 68,
    extract: e2bClass,
    why: "the E2B sandbox failed (timed out, gone, refused by E2B's API)",
    hint: "E2B's sandbox failed the harness's call: its lifetime timeout ran out (set_timeout / the 'timeout' on create), it was killed or paused, or E2B's API refused it (rate limit, template). Retry the trial with a sandbox timeout above the trial's budget.",
  },
  {
    // OpenHands core/exceptions.py AgentRuntimeError family, raised by its runtimes
    // (runtime/impl/remote/remote_runtime.py and the docker/local runtimes): "Runtime is unavailable (status: failed). Please try again.", "Runtime crashed
    // and is being restarted, potentially due to memory usage.", 404/502/504 from the runtime → "Runtime is not
    // responding." / "Runtime is temporarily unavailable.", "Runtime /alive failed to respond with 200",
    // "Container image … does not exist". AgentRuntimeBuildError is the runtime image build.
    id: 'sandbox.openhands_runtime',
    class: 'sandbox.failure',
    patterns: [
      /\bAgentRuntime(?:Unavailable|NotReady|Disconnected|NotFound|Timeout|Build)?Error\b/,
      /\bRuntime is (?:unavailable \(status: |temporarily unavailable\b|not responding\b)/,
      /\bRuntime crashed and is being restarted\b/,
      /\bRuntime \/alive failed to respond with 200\b/,
    ],
    // The runtime client waits for a runtime inside a tenacity retry loop (remote_runtime.py
    // _wait_until_alive raises AgentRuntimeNotReadyError "Runtime (ID=…) is not yet ready. Status: pending"
    // until it is): a retry line is a wait, not a failure. A log that ends in that wait is stall.ts's
    // (LOG_ENDINGS, stall.ends_waiting).
    unless: [/\bRetrying \S.{0,200} as it raised\b|\b(?:will retry|retrying)\b/i],
    strength: 70,
    extract: (line) => (/\bAgentRuntimeBuildError\b/.test(line) ? { classOverride: 'image.build_failure' } : {}),
    why: "the agent's runtime sandbox (OpenHands) was not ready, crashed or stopped answering",
    hint: "The OpenHands runtime sandbox never became ready or stopped answering (its pod stayed Pending, crashed, or the runtime API lost it): check the runtime cluster's pod events (scheduling, startup probe, OOM), raise the runtime startup timeout, and retry the instance.",
  },
]);
