// Sandbox providers' SDKs and docker-py: every exception class of the table in sandbox-sdk-vocab.ts
// (sources there), read by the name Python prints for it (`modal.exception.AuthError: …`,
// `docker.errors.NotFound: …`, `runloop_api_client.RateLimitError: …`), and the providers' own message
// templates without a class. The narrower rules of sandbox-providers.ts, k8s.ts, oci-runtime.ts and
// build.ts match many of the same lines by their own wordings and are stronger, so they keep first place;
// these decide what no narrower rule names. A group's message template on the line decides over the
// class's group (modal AuthError "Token missing": nothing reached the provider, the run has no token).
import { defineRules, type Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import {
  SANDBOX_SDK_MESSAGES,
  SANDBOX_SDK_MODULES,
  type SandboxSdkError,
  type SandboxSdkGroup,
  type SandboxSdkProducer,
  sandboxSdkError,
  sandboxSdkNames,
} from './sandbox-sdk-vocab.js';

const PRODUCERS = Object.keys(SANDBOX_SDK_MODULES) as SandboxSdkProducer[];
const MODULE_EXACT = Object.fromEntries(PRODUCERS.map((p) => [p, new RegExp(`^(?:${SANDBOX_SDK_MODULES[p]})$`)])) as Record<SandboxSdkProducer, RegExp>;

/** One pattern per producer: its module path (captured), then one of its class names that `pick` keeps (captured). */
function qualified(pick: (x: SandboxSdkError) => boolean): RegExp[] {
  return PRODUCERS.flatMap((p) => {
    const names = sandboxSdkNames(p, pick);
    return names.length ? [new RegExp(String.raw`(${SANDBOX_SDK_MODULES[p]})(${names.join('|')})\b(?![.\w])`)] : [];
  });
}

function entryOf(module: string, name: string): SandboxSdkError | undefined {
  for (const p of PRODUCERS) {
    if (!MODULE_EXACT[p].test(module)) continue;
    const x = sandboxSdkError(p, name);
    if (x) return x;
  }
  return undefined;
}

/** The group a producer's own message template on the line names, if any. */
export function messageGroup(line: string): { group: SandboxSdkGroup; producer: SandboxSdkProducer } | undefined {
  for (const [producer, , re, group] of SANDBOX_SDK_MESSAGES) if (re.test(line)) return { group, producer };
  return undefined;
}

const HINTS: Record<'lost' | 'provider' | 'refused' | 'unreachable' | 'config' | 'build' | 'disk' | 'time_limit' | 'api_timeout', string> = {
  lost: "The sandbox was gone under the run: its provider lifetime timeout ran out, it was terminated, or the daemon no longer knows the container. Make the sandbox's lifetime exceed the whole trial (agent + verifier) and retry; the trial has no score.",
  provider: "The sandbox provider's control plane (or the Docker daemon) failed the call: an internal error, no runner to place the sandbox on, a 5xx. Retry the trial; if it repeats, check the provider's status and the daemon's log.",
  refused: "The sandbox provider refused to create or run the sandbox: a quota or rate limit of the account (concurrent sandboxes, total CPU/memory/disk), the API key or its permissions, or a request it rejects (no App for a Modal Sandbox, an unknown template). Lower the concurrency, raise the quota, or fix the harness's sandbox settings, then retry.",
  unreachable: "The client could not reach the sandbox provider or the Docker daemon at all (its API, the socket): check the network path to the provider (proxy, DNS) or that dockerd is running and its socket is mounted, then retry.",
  config: 'The SDK had no usable credentials or settings (no token configured, a key of the wrong format, an API version below the SDK\'s minimum, an unreadable TLS or config file): fix the environment the harness runs in.',
  build: 'The sandbox image failed to build: read the build log the error names (the Dockerfile step, the base image), fix it, then retry.',
  disk: "The sandbox's disk is full: give the sandbox more disk or clean up what the agent writes.",
  time_limit: "The remote function ran past the timeout it was given and the platform stopped it: raise the function's timeout above the job's run time, or checkpoint and resume.",
  api_timeout: "A request to the sandbox provider's API timed out: retry; if it repeats, check the provider's status and the size of what was uploaded.",
};

const GROUP_VERDICT: Record<SandboxSdkGroup, { cls: FailureClass; hint: string } | null> = {
  lost: { cls: 'sandbox.failure', hint: HINTS.lost },
  provider: { cls: 'sandbox.failure', hint: HINTS.provider },
  refused: { cls: 'sandbox.failure', hint: HINTS.refused },
  unreachable: { cls: 'sandbox.failure', hint: HINTS.unreachable },
  credentials: { cls: 'config.error', hint: HINTS.config },
  config: { cls: 'config.error', hint: HINTS.config },
  build: { cls: 'image.build_failure', hint: HINTS.build },
  disk: { cls: 'disk.full', hint: HINTS.disk },
  time_limit: { cls: 'host.killed', hint: HINTS.time_limit },
  api_timeout: { cls: 'api.timeout', hint: HINTS.api_timeout },
  exit: null,
  usage: null,
  echo: null,
  skip: null,
};

/**
 * How strong a class name is on its producer's line. Runloop's qualified names prove the answerer (the
 * sandbox provider's Stainless client, whose bare class names the gateway rules read as a model API's), so
 * they sit above gateway.rate_limited / gateway.client_error and network.connection. docker-py's sit below
 * gateway.server_error: the daemon's 500 quotes the error it hit, which relations.ts relayed-status reads
 * from a gateway.5xx signal.
 */
const STRENGTH: Record<SandboxSdkProducer, number> = { modal: 62, e2b: 62, 'e2b-js': 54, daytona: 62, 'daytona-openapi': 62, runloop: 67, docker: 52 };

function verdict(group: SandboxSdkGroup, name: string, strength: number): Extracted {
  const v = GROUP_VERDICT[group];
  if (!v) return { classOverride: null, sandboxError: name, sandboxGroup: group };
  return { classOverride: v.cls, strength, hint: v.hint, sandboxError: name, sandboxGroup: group };
}

/**
 * docker-py's APIError.__str__ for a 5xx of the daemon: gateway.server_error reads it, and relations.ts
 * relayed-status makes that signal give way to the error the daemon quotes (a registry timeout, a full
 * disk). A sandbox.failure here would take that place on every such line.
 */
const DAEMON_5XX = /\b5\d\d Server Error for http\+docker:\/\//;

function extractClass(line: string, m: RegExpExecArray): Extracted {
  const entry = entryOf(m[1]!, m[2]!);
  if (!entry || (entry.producer === 'docker' && DAEMON_5XX.test(line))) return { classOverride: null };
  const said = messageGroup(line.slice(m.index));
  return verdict(said?.group ?? entry.group, `${entry.producer}.${entry.name}`, STRENGTH[entry.producer]);
}

/** A message template of the table alone (no class on its match): its own group decides. */
function extractMessage(line: string): Extracted {
  const said = messageGroup(line);
  return said ? verdict(said.group, said.producer, 60) : { classOverride: null };
}

/** The class patterns capture (module, name); a message template captures nothing. */
const extract = (line: string, m: RegExpExecArray): Extracted => (m[2] !== undefined ? extractClass(line, m) : extractMessage(line));

/** The message templates whose group gives one of these classes, so each rule's keys are its own class's words (the vocabulary fallback reads them by class). */
const messagesOf = (groups: readonly SandboxSdkGroup[]): RegExp[] => SANDBOX_SDK_MESSAGES.filter(([, , , g]) => groups.includes(g)).map(([, , re]) => re);

/** Source shown in a traceback ("except modal.exception.NotFoundError:"), isinstance checks, docs quoting a class. */
const NOT_A_FAILURE: readonly RegExp[] = [/\bexcept\b/, /\bisinstance\(|\braise \w/, /^\s*(?:from|import) \w/];

const sandboxGroups = new Set<SandboxSdkGroup>(['lost', 'provider', 'refused', 'unreachable', 'disk', 'time_limit', 'api_timeout']);
const WHY = 'a sandbox provider SDK or docker-py raised one of its own exception classes (sandbox-sdk-vocab.ts), whose group says what failed';

export const sandboxSdkRules = defineRules([
  {
    // The sandbox gone, the provider failing or refusing, the provider unreachable; and the few classes of
    // another class (a full disk, a function's time limit, an API timeout), by their groups.
    id: 'sandbox.sdk_error',
    class: 'sandbox.failure',
    patterns: qualified((x) => sandboxGroups.has(x.group)),
    unless: NOT_A_FAILURE,
    strength: 62,
    extract: extractClass,
    why: WHY,
    hint: HINTS.provider,
  },
  {
    id: 'sandbox.sdk_config',
    class: 'config.error',
    patterns: [...qualified((x) => x.group === 'credentials' || x.group === 'config'), ...messagesOf(['credentials', 'config'])],
    unless: NOT_A_FAILURE,
    strength: 62,
    extract,
    why: WHY,
    hint: HINTS.config,
  },
  {
    id: 'sandbox.sdk_build',
    class: 'image.build_failure',
    patterns: [...qualified((x) => x.group === 'build'), ...messagesOf(['build'])],
    unless: NOT_A_FAILURE,
    strength: 62,
    extract,
    why: WHY,
    hint: HINTS.build,
  },
  {
    // A command in the sandbox exiting non-zero (its own output decides), the run misusing the SDK or
    // asking for a file that is not there, a note at shutdown: judged, as nothing. Class unknown: these
    // names are no vocabulary of any failure class.
    id: 'sandbox.sdk_quiet',
    class: 'unknown',
    patterns: qualified((x) => x.group === 'exit' || x.group === 'usage' || x.group === 'echo'),
    strength: 1,
    extract: () => ({ classOverride: null }),
    why: 'a sandbox SDK class that says nothing about the sandbox failing on its own (sandbox-sdk-vocab.ts groups exit, usage, echo)',
    hint: "No failure of the sandbox: a command inside it exited non-zero (its output says why), or the run's code misused the SDK.",
  },
  {
    // The providers' message templates without their class (a harness logging str(e), the API's JSON);
    // the credentials and build templates are sandbox.sdk_config's and sandbox.sdk_build's.
    id: 'sandbox.sdk_message',
    class: 'sandbox.failure',
    patterns: messagesOf(['lost', 'provider', 'refused', 'unreachable']),
    unless: NOT_A_FAILURE,
    strength: 60,
    extract: extractMessage,
    why: "a sandbox provider's own error message (sandbox-sdk-vocab.ts SANDBOX_SDK_MESSAGES): its quota, its credentials, its daemon or API unreachable",
    hint: HINTS.refused,
  },
]);
