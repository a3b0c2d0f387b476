// Structured facts → rules. A row fires an existing rule (its class, strength and hint) when a typed
// signal (signals.ts) matches; `text` is what the evidence shows for it. The words of the facts are the
// producers' own constants: kubelet container/Pod reasons (pkg/kubelet/images, kuberuntime,
// pkg/kubelet/eviction), scheduler event reasons, exit statuses.
import type { Extracted, Section } from '../rule.js';
import type { SignalKind, SignalOf } from '../signals.js';
import type { RuleId } from './index.js';
import { EVICTED_FOR_RESOURCE, k8sReasonVerdict } from './k8s.js';
import { stallHint } from './stall.js';

export interface FactRule<K extends SignalKind = SignalKind> {
  /** The rule (in RULES) this fact fires. */
  rule: RuleId;
  on: K;
  when: (s: SignalOf<K>) => boolean;
  /** The evidence line shown for the fact. */
  text: (s: SignalOf<K>) => string;
  /** Same meaning as a line rule's extract (classOverride, hint, …). */
  extract?: (s: SignalOf<K>) => Extracted;
  /** Default: the run's log. */
  section?: Section;
}

const fact = <K extends SignalKind>(r: FactRule<K>): FactRule => r as unknown as FactRule;

/** kubelet's image-pull reasons (pkg/kubelet/images/types.go). */
export const IMAGE_PULL_REASONS = new Set(['ImagePullBackOff', 'ErrImagePull', 'ErrImageNeverPull', 'InvalidImageName', 'ImageInspectError', 'RegistryUnavailable', 'SignatureValidationFailed']);
/** kubelet's container-start reasons (kuberuntime, events.go) and the events for volumes and sandboxes. */
export const CONTAINER_START_REASONS = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'ContainerCannotRun', 'StartError', 'PreStartHookError', 'PostStartHookError', 'PreCreateHookError', 'FailedCreatePodSandBox', 'FailedMount', 'FailedAttachVolume']);
/**
 * An agent loop counts as cut only when its last step is this close to the end of its section: further
 * lines (another program's output in the same file) would mean the loop is not where the log stops.
 */
const AGENT_LOOP_TAIL_LINES = 200;
/** Waiting reasons of a container that is simply on its way up. */
const STARTING = new Set(['ContainerCreating', 'PodInitializing', '']);

const DUMPER: Record<SignalOf<'wait-stack'>['stack']['source'], string> = { interrupt: 'Ctrl-C', faulthandler: 'faulthandler', 'py-spy': 'py-spy', gdb: 'gdb py-bt' };
// The evidence is the frame line itself (or the dump's header), as the log shows it.
const waitText = (s: SignalOf<'wait-stack'>): string => s.stack.text;
const waitExtract = (s: SignalOf<'wait-stack'>, how: string): Extracted => ({
  wait: s.stack.wait,
  waitAt: s.stack.at ?? undefined,
  afterNcclInfo: s.stack.afterNcclInfo,
  hint: stallHint(s.stack.wait!, s.stack.at ?? '?', s.stack.caller, how),
});

const SIGKILL_EXIT = (code: number | null, signal: string | null): boolean => code === 137 || /^(SIGKILL|9|KILL)$/i.test(signal ?? '');
const SIGTERM_EXIT = (code: number | null, signal: string | null): boolean => code === 143 || /^(SIGTERM|15|TERM)$/i.test(signal ?? '');

const containerText = (s: SignalOf<'container'>): string =>
  `${s.init ? 'init container' : 'container'} ${s.container} ${s.state}: ${s.reason}${s.exitCode !== null ? ` (exit code ${s.exitCode})` : ''}${s.message ? ` ${s.message.slice(0, 300)}` : ''}${s.init ? ' (Init: the Pod never started)' : ''}`;

export const FACT_RULES: FactRule[] = [
  fact({ rule: 'host.sigkill_worker', on: 'exit', when: (s) => SIGKILL_EXIT(s.code, s.signal), text: (s) => `process exited with SIGKILL (exit code ${s.code ?? 137})` }),
  fact({ rule: 'host.sigkill_worker', on: 'worker-exit', when: (s) => s.errorCode === -9 || s.errorCode === 137, text: (s) => `worker exited with SIGKILL (error code ${s.errorCode})` }),
  fact({ rule: 'host.sigterm', on: 'exit', when: (s) => !SIGKILL_EXIT(s.code, s.signal) && SIGTERM_EXIT(s.code, s.signal), text: (s) => `process exited with SIGTERM (exit code ${s.code ?? 143})` }),
  fact({ rule: 'host.sigterm', on: 'worker-exit', when: (s) => s.errorCode === -15 || s.errorCode === 143, text: (s) => `worker exited with SIGTERM (error code ${s.errorCode})` }),

  fact({ rule: 'host.oom_killer', on: 'container', when: (s) => s.reason === 'OOMKilled', text: containerText }),
  fact({ rule: 'host.sigkill_worker', on: 'container', when: (s) => s.exitCode === 137, text: containerText }),
  fact({ rule: 'k8s.image_pull', on: 'container', when: (s) => !s.init && IMAGE_PULL_REASONS.has(s.reason), text: containerText }),
  fact({ rule: 'k8s.container_start', on: 'container', when: (s) => !s.init && CONTAINER_START_REASONS.has(s.reason), text: containerText }),
  fact({ rule: 'k8s.crashloop', on: 'container', when: (s) => !s.init && s.reason === 'CrashLoopBackOff', text: containerText }),
  // An init container that cannot start or exits non-zero keeps the Pod in Init:… (the reader drops init
  // containers that completed, even after failed attempts).
  fact({
    rule: 'k8s.init_container_failed',
    on: 'container',
    when: (s) => s.init && s.reason !== 'OOMKilled' && (s.state === 'waiting' ? !STARTING.has(s.reason) : s.exitCode !== 0),
    text: containerText,
  }),

  fact({ rule: 'k8s.evicted', on: 'pod', when: (s) => s.reason === 'Evicted' && !EVICTED_FOR_RESOURCE.test(s.message), text: (s) => `Pod ${s.pod}: ${s.reason}` }),
  fact({ rule: 'k8s.evicted', on: 'k8s-event', when: (s) => s.reason === 'Evicted' && !EVICTED_FOR_RESOURCE.test(s.message), text: (s) => `${s.type} ${s.reason} (Pod ${s.pod})` }),
  fact({ rule: 'k8s.unschedulable', on: 'k8s-event', when: (s) => s.reason === 'FailedScheduling', text: (s) => `${s.type} ${s.reason} (Pod ${s.pod})` }),
  fact({ rule: 'k8s.container_start', on: 'k8s-event', when: (s) => CONTAINER_START_REASONS.has(s.reason), text: (s) => `${s.type} ${s.reason} (Pod ${s.pod})` }),
  fact({ rule: 'host.oom_killer', on: 'k8s-event', when: (s) => s.reason === 'OOMKilling', text: (s) => `${s.type} ${s.reason} (Pod ${s.pod})` }),
  // Scheduler preemption (event Preempted), taint eviction (TaintManagerEviction), the kubelet admitting a
  // critical Pod (Pod reason Preempting): the Pod was taken away from outside.
  fact({ rule: 'k8s.preempted', on: 'k8s-event', when: (s) => s.reason === 'Preempted' || s.reason === 'TaintManagerEviction', text: (s) => `${s.type} ${s.reason} (Pod ${s.pod})` }),
  fact({ rule: 'k8s.preempted', on: 'pod', when: (s) => s.reason === 'Preempting', text: (s) => `Pod ${s.pod}: ${s.reason}` }),

  // Every other reason of Kubernetes' vocabulary (rules/k8s-vocab.ts) fires its class's k8s.reason_* rule,
  // weaker than the rows above on the reasons they read: a Pod rejected at admission (OutOfcpu,
  // NodeAffinity, NodeShutdown), terminated for a node shutdown or deadline, a node event.
  ...(['pod', 'container', 'k8s-event'] as const).flatMap((on) =>
    (['k8s.reason_sandbox', 'k8s.reason_oom', 'k8s.reason_disk', 'k8s.reason_killed', 'k8s.reason_config'] as const).map((rule) =>
      fact({
        rule,
        on,
        when: (s: SignalOf<'pod' | 'container' | 'k8s-event'>) => k8sReasonVerdict(s.reason)?.rule === rule,
        text: (s: SignalOf<'pod' | 'container' | 'k8s-event'>) => (s.kind === 'container' ? containerText(s) : s.kind === 'pod' ? `Pod ${s.pod}: ${s.reason}${s.message ? ` ${s.message.slice(0, 300)}` : ''}` : `${s.type} ${s.reason} (Pod ${s.pod})${s.message ? ` ${s.message.slice(0, 300)}` : ''}`),
        extract: (s: SignalOf<'pod' | 'container' | 'k8s-event'>) => {
          const v = k8sReasonVerdict(s.reason)!;
          return { strength: v.strength, hint: v.hint, k8sReason: s.reason, k8sGroup: v.k8sGroup };
        },
      }),
    ),
  ),

  // Progress tracker (progress.ts): an agent's loop that stops mid-step, near the end of its section, with no
  // end of its own and no crash after it; a test session that never printed its summary.
  fact({
    rule: 'agent.loop_cut',
    on: 'agent-loop',
    when: (s) => !s.ended && !s.crashedAfter && s.linesAfter <= AGENT_LOOP_TAIL_LINES,
    text: (s) => s.text,
    extract: (s) => ({ agent: s.agent, steps: s.steps }),
    section: 'agent',
  }),
  fact({
    rule: 'verifier.no_test_summary',
    on: 'test-run',
    when: (s) => !s.summary,
    text: (s) => (s.started ? s.text : `${s.path}: ${s.lines} line${s.lines === 1 ? '' : 's'} of verifier output and no test result`),
    extract: (s) => ({ runner: s.runner, started: s.started }),
    section: 'verifier',
  }),

  // Stack tracker (stacks.ts): the main thread of a Ctrl-C traceback or of a live stack dump blocked in a
  // wait is a stall, named where it waits; a dump of a main thread busy in its own code says where it spins.
  fact({
    rule: 'stall.interrupted_wait',
    on: 'wait-stack',
    when: (s) => s.stack.source === 'interrupt' && s.stack.wait !== null,
    text: (s) => waitText(s),
    extract: (s) => waitExtract(s, 'The run was interrupted (Ctrl-C) while it had stopped making progress'),
  }),
  fact({
    rule: 'stall.dumped_wait',
    on: 'wait-stack',
    when: (s) => s.stack.source !== 'interrupt' && s.stack.wait !== null,
    text: (s) => waitText(s),
    extract: (s) => waitExtract(s, `A ${DUMPER[s.stack.source]} dump of the running process`),
  }),
  fact({
    rule: 'stall.dumped_busy',
    on: 'wait-stack',
    when: (s) => s.stack.source !== 'interrupt' && s.stack.wait === null,
    text: (s) => s.stack.text,
    extract: (s) => ({
      hint: `A ${DUMPER[s.stack.source]} dump of the running process: its main thread was not waiting but running its own code${s.stack.at ? ` at ${s.stack.at}` : ' (the first frame under the thread header)'}. A loop that never ends (a polling or retry loop, a data-dependent while) or very slow work there; dump it again a few seconds later to see whether it moves.`,
    }),
  }),

  // How the run's log ends (tail.ts): a wait, a heartbeat, a server with running requests, a progress bar
  // cut short. Asked only where the logs alone decide (engine.ts: not a live bundle, not a Harbor trial).
  fact({
    rule: 'stall.ends_waiting',
    on: 'log-ending',
    when: (s) => s.ending === 'waiting',
    text: (s) => s.text,
    extract: (s) => ({
      ...(s.cls ? { classOverride: s.cls } : {}),
      hint: `The log ends while the run waited for ${s.awaits}${s.repeats > 1 ? ` (the same wait printed ${s.repeats} times at the end)` : ''}, with no error after it: it stopped making progress there. ${s.cls === 'sandbox.failure' ? 'The sandbox never became ready: check the sandbox provider (its status, quota, image pull, start-up logs) and the harness timeout for sandbox start.' : 'Take a stack dump of the waiting process (py-spy dump --pid PID) and of its peers to see which side does not answer.'}`,
    }),
  }),
  fact({
    rule: 'stall.ends_repeating',
    on: 'log-ending',
    when: (s) => s.ending === 'repeating',
    text: (s) => s.text,
    extract: (s) => ({ hint: `The log ends in the same line printed ${s.repeats} times with nothing but its time changing: the process was alive and reporting, and nothing moved. What that line reports on is where it waits; a stack dump (py-spy dump --pid PID) shows the call.` }),
  }),
  fact({
    rule: 'stall.serving_no_progress',
    on: 'log-ending',
    when: (s) => s.ending === 'serving',
    text: (s) => s.text,
    extract: (s) =>
      s.generating
        ? { strength: 10, hint: `The inference server had ${s.running} request(s) running when the log ends, and nothing after: the run that used it (a rollout, an eval) waits on those requests or hung elsewhere. Dump the stacks of the client and of the engine workers (py-spy dump --pid PID) to see which side waits.` }
        : { hint: `The inference server reports ${s.running} request(s) running and no token generated (0 tokens/s) at the end of the log: its engine is stuck (a hung worker, a collective between tensor-parallel ranks that does not complete, a GPU kernel that does not return). py-spy dump of every engine worker shows where each waits; with several GPUs on PCIe, try NCCL_P2P_DISABLE=1 and --disable-custom-all-reduce.` },
  }),
  fact({
    rule: 'stall.ends_mid_progress',
    on: 'log-ending',
    when: (s) => s.ending === 'mid-progress',
    text: (s) => s.text,
    extract: () => ({ hint: 'The log ends on a progress bar short of its total with no error and no kill reported: the run stopped in the middle of that loop (hung there, or was killed without a word: check dmesg and the scheduler for a kill). A stack dump of the process (py-spy dump --pid PID) shows where it waits if it is still there.' }),
  }),

  fact({
    rule: 'outcome.tests_failed',
    on: 'reward',
    when: () => true,
    text: (s) => `"reward": ${s.value}`,
    extract: (s) => (s.value > 0 ? { classOverride: 'outcome.scored', reward: s.value } : { reward: s.value }),
    section: 'result',
  }),
];
