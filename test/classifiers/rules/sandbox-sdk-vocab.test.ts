// The sandbox providers' SDK vocabularies (rules/sandbox-sdk-vocab.ts, the sandbox.sdk_* rules of
// rules/sandbox-sdk.ts): every class of the table through the ways a harness's log prints it, the
// providers' message templates alone, and the groups ordering against real causes the way they mean.
import { describe, expect, it } from 'vitest';
import { SANDBOX_SDK_ERRORS, SANDBOX_SDK_MESSAGES, type SandboxSdkError, type SandboxSdkGroup, type SandboxSdkProducer } from '../../../src/classifiers/rules/sandbox-sdk-vocab.js';
import { classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const rules = (text: string) => classifyText(text).evidence.map((e) => e.rule);

/** The module Python prints before each class (each package's __module__); the JS SDK prints the bare name. */
const PRINTED_MODULE: Record<SandboxSdkProducer, string> = {
  modal: 'modal.exception.',
  e2b: 'e2b.exceptions.',
  'e2b-js': '',
  daytona: 'daytona.common.errors.',
  'daytona-openapi': 'daytona_api_client.exceptions.',
  runloop: 'runloop_api_client.',
  docker: 'docker.errors.',
};
const printed = (x: SandboxSdkError): string => (x.name === 'CommandExitException' ? 'e2b.sandbox.commands.command_handle.' : PRINTED_MODULE[x.producer]) + x.name;

/** Where each producer raises from, for a traceback's innermost frame (library code). */
const FRAME: Record<SandboxSdkProducer, string> = {
  modal: 'modal/sandbox.py", line 1721, in wait',
  e2b: 'e2b/sandbox_sync/main.py", line 212, in create',
  'e2b-js': '',
  daytona: 'daytona/_utils/errors.py", line 152, in process_n_raise_exception',
  'daytona-openapi': 'daytona_api_client/rest.py", line 244, in request',
  runloop: 'runloop_api_client/_base_client.py", line 1047, in request',
  docker: 'docker/errors.py", line 39, in create_api_error_from_http_exception',
};

/** What each group means for a run (the table's own documentation). */
const GROUP_CLASS: Record<SandboxSdkGroup, string | null> = {
  lost: 'sandbox.failure',
  provider: 'sandbox.failure',
  refused: 'sandbox.failure',
  unreachable: 'sandbox.failure',
  credentials: 'config.error',
  config: 'config.error',
  build: 'image.build_failure',
  disk: 'disk.full',
  time_limit: 'host.killed',
  api_timeout: 'api.timeout',
  exit: null,
  usage: null,
  echo: null,
  skip: null,
};

/** Each entry's lines as a harness prints them: the exception line alone, at the end of a traceback through the SDK, behind a logger's prefix. */
function templates(x: SandboxSdkError): string[] {
  const line = x.message ? `${printed(x)}: ${x.message}` : printed(x);
  if (x.producer === 'e2b-js') return [line, `${line}\n    at Sandbox.create (/app/node_modules/e2b/dist/index.mjs:2011:13)`];
  return [
    line,
    ['Traceback (most recent call last):', '  File "/workspace/harness/environments/remote.py", line 88, in start', '    self.sandbox = self._client.create(spec)', `  File "/opt/venv/lib/python3.12/site-packages/${FRAME[x.producer]}`, '    raise exc', line].join('\n'),
    `2026-12-02 10:00:00,123 - harness.trial - ERROR - trial sweb-django-11099 failed: ${line}`,
  ];
}

describe('every sandbox SDK exception class through the lines that print it', () => {
  // A producer's own message template decides over its class (AuthError "Token missing": no request was made).
  const groupOf = (x: SandboxSdkError): SandboxSdkGroup => SANDBOX_SDK_MESSAGES.find(([, , re]) => re.test(x.message))?.[3] ?? x.group;
  const deciding = SANDBOX_SDK_ERRORS.filter((x) => GROUP_CLASS[groupOf(x)] !== null);
  it.each(deciding.map((x) => [x.producer, x.name, x] as const))('%s %s', (_p, _n, x) => {
    for (const t of templates(x)) expect(cls(t), t).toBe(GROUP_CLASS[groupOf(x)]);
  });

  it('a command that exited non-zero, a file the agent asked for, a note: no failure of the infrastructure, and no guess', () => {
    const quiet = SANDBOX_SDK_ERRORS.filter((x) => x.group === 'exit' || x.group === 'usage' || x.group === 'echo');
    expect(quiet.length).toBeGreaterThan(25);
    for (const x of quiet) {
      // The run's own code may be blamed (a usage error ending a traceback is the traceback rules'); the
      // infrastructure never, and no vocabulary guess is made from the SDK's class name.
      const d = classifyText(templates(x)[0]!);
      expect(d.category === 'infra', templates(x)[0]).toBe(false);
      expect(d.evidence.map((e) => e.rule), templates(x)[0]).not.toContain('fallback.vocabulary');
    }
  });

  it('a base class is left to its message', () => {
    for (const x of SANDBOX_SDK_ERRORS.filter((y) => y.group === 'skip')) expect(rules(templates(x)[0]!).filter((r) => r.startsWith('sandbox.sdk_')), x.name).toEqual([]);
    // docker-py's base class carrying the daemon probe's message: that message decides.
    expect(cls("docker.errors.DockerException: Error while fetching server API version: ('Connection aborted.', FileNotFoundError(2, 'No such file or directory'))")).toBe('sandbox.failure');
  });

  it('covers every producer the table names, with each class once per producer', () => {
    const keys = SANDBOX_SDK_ERRORS.map((x) => `${x.producer}:${x.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(SANDBOX_SDK_ERRORS.map((x) => x.producer))).toEqual(new Set(Object.keys(PRINTED_MODULE)));
  });
});

describe("the providers' message templates, without the class", () => {
  it.each([
    // Daytona's API (apps/api sandbox.service.ts), as the SDK's prefix or the REST JSON carries it; the older wording too.
    ['{"statusCode":400,"message":"Total CPU limit exceeded. Maximum allowed: 10.\\nTo increase concurrency limits, upgrade your organization\'s Tier by visiting https://app.daytona.io/dashboard/limits.","error":"Bad Request"}', 'sandbox.failure'],
    ['{"statusCode":403,"message":"Total memory quota exceeded. Maximum allowed: 20GiB","error":"Forbidden"}', 'sandbox.failure'],
    ['{"statusCode":400,"message":"No available runners","error":"Bad Request"}', 'sandbox.failure'],
    ['{"statusCode":400,"message":"CPU request 16 exceeds maximum allowed per sandbox (4).","error":"Bad Request"}', 'sandbox.failure'],
    // Modal's client without a token: nothing reached Modal.
    ['Error: Token missing. Could not authenticate client. If you have token credentials, see modal.com/docs/sdk/py/latest/config for setup help.', 'config.error'],
    ["Error: Modal profile 'eval' was not found in /root/.modal.toml. Run `modal profile list` to see available profiles.", 'config.error'],
    // docker-py's first call when the socket is not there (docker/api/client.py).
    ["ERROR harness: docker client: Error while fetching server API version: ('Connection aborted.', ConnectionRefusedError(111, 'Connection refused'))", 'sandbox.failure'],
    ['RuntimeError: Devbox entered non-running terminal state: failure', 'sandbox.failure'],
    // E2B's sandbox-URL proxy and API (e2b-dev/infra), as a harness logs the body it got.
    ['Failed to create ZIP: {"sandboxId":"i3kx7o2c9q","message":"The sandbox was not found","code":502}', 'sandbox.failure'],
    ['{"code":502,"message":"The sandbox is running but port is not open","sandboxId":"i3kx7o2c9q","port":49999}', 'sandbox.failure'],
    ['ERROR trial: create failed: 429: you have reached the maximum number of concurrent E2B sandboxes (20). If you need more, please visit \'https://e2b.dev/docs/billing\'', 'sandbox.failure'],
    ['{"code":404,"message":"Sandbox \\"i3kx7o2c9q\\" doesn\'t exist or you don\'t have access to it"}', 'sandbox.failure'],
    ["{\"code\":403,\"message\":\"Sandbox is secured with traffic access token. Token header 'e2b-traffic-access-token' is missing\"}", 'config.error'],
  ])('%s', (line, want) => {
    expect(cls(line)).toBe(want);
  });
});

describe('what the groups mean in a run', () => {
  it("Modal's RESOURCE_EXHAUSTED is the provider's quota, not TensorFlow's GPU allocator", () => {
    expect(cls('modal.exception.ResourceExhaustedError: Sandbox creation rate limit exceeded')).toBe('sandbox.failure');
    expect(cls('modal.exception.ResourceExhaustedError: You have reached the limit of 100 concurrent sandboxes')).toBe('sandbox.failure');
    // TensorFlow's own class keeps its verdict.
    expect(cls('tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[8192,8192] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc')).toBe('cuda.oom');
  });

  it("a sandbox provider's rate limit or 4xx is the sandbox's, not the model gateway's", () => {
    expect(cls("runloop_api_client.RateLimitError: Error code: 429 - {'message': 'Too many running devboxes'}")).toBe('sandbox.failure');
    expect(cls("runloop_api_client.AuthenticationError: Error code: 401 - {'message': 'invalid api key'}")).toBe('sandbox.failure');
    // The same class names from the model SDK stay the gateway's.
    expect(cls("openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o', 'code': 'rate_limit_exceeded'}}")).toBe('gateway.4xx');
  });

  it("a docker daemon's 500 is left to the error it quotes (relayed-status); its 4xx is the container refused", () => {
    const relayed = 'docker.errors.APIError: 500 Server Error for http+docker://localhost/v1.47/images/create?tag=3.11&fromImage=python: Internal Server Error ("Get "https://registry-1.docker.io/v2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)")';
    expect(cls(relayed)).toBe('network.error');
    expect(rules(relayed)).not.toContain('sandbox.sdk_error');
    expect(cls('docker.errors.NotFound: 404 Client Error for http+docker://localhost/v1.47/containers/4b1c/json: Not Found ("No such container: 4b1c")')).toBe('sandbox.failure');
  });

  it("a command that failed inside the sandbox is the command's output, not the sandbox", () => {
    // The command's stderr on the next line decides (here a verifier without its test runner).
    expect(cls('e2b.sandbox.commands.command_handle.CommandExitException: Command exited with code 1 and error:\nbash: line 1: pytest: command not found')).toBe('verifier.failure');
    // Without its output the exit says nothing of whose failure it was: no class, and no vocabulary guess
    // from the words "image" and "Command" either.
    const bare = "docker.errors.ContainerError: Command 'python -m pytest' in image 'sweb.eval.x86_64.django:latest' returned non-zero exit status 1";
    expect(cls(bare)).toBe('unknown');
    expect(rules(bare)).not.toContain('fallback.vocabulary');
  });

  it("a sandbox that was gone explains the agent's connection errors after it", () => {
    const log = [
      '2026-12-02 10:00:00,100 - harbor.environments.modal - ERROR - modal.exception.SandboxTerminatedError',
      "2026-12-02 10:00:01,200 - agent - ERROR - httpx.ConnectError: [Errno 111] Connection refused",
    ].join('\n');
    expect(cls(log)).toBe('sandbox.failure');
  });

  it('source and imports that name the classes are no failure', () => {
    expect(rules('    except modal.exception.SandboxTimeoutError:').filter((r) => r.startsWith('sandbox.sdk_'))).toEqual([]);
    expect(rules('from docker.errors import NotFound, APIError').filter((r) => r.startsWith('sandbox.sdk_'))).toEqual([]);
    expect(rules('            raise DaytonaNotFoundError(msg) from None').filter((r) => r.startsWith('sandbox.sdk_'))).toEqual([]);
  });
});
