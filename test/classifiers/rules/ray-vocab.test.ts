// Ray's error vocabulary (rules/ray-vocab.ts, rules ray.vocab_*): every exception class, worker exit type,
// task error type and death text reaches its class through the templates Ray prints it with, the skip
// entries decide nothing, and a death that names no cause gives way to the cause in the same log.
import { describe, expect, it } from 'vitest';
import { RAY_DEATH_TEXTS, RAY_ERROR_TYPES, RAY_EXCEPTIONS, RAY_WORKER_EXIT_TYPES, type RayErrorGroup, rayVocabPatterns } from '../../../src/classifiers/rules/ray-vocab.js';
import { classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const rules = (text: string) => classifyText(text).evidence.map((e) => e.rule);
const vocab = (text: string) => rules(text).filter((r) => r.startsWith('ray.vocab_'));

// TAXONOMY.md's reading of each group (ray.crash for a Ray death or Ray's own failure, host.oom /
// disk.full, config.error for the job's runtime_env or its own limits, user.code_error for the run's
// code, api.timeout as GetTimeoutError already is elsewhere).
type Read = Exclude<RayErrorGroup, 'skip' | 'elsewhere'>;
const CLASS: Record<Read, string> = {
  died: 'ray.crash',
  system: 'ray.crash',
  echo: 'ray.crash',
  oom: 'host.oom',
  disk: 'disk.full',
  env: 'config.error',
  limit: 'config.error',
  user: 'user.code_error',
  intended: 'user.code_error',
  wait: 'api.timeout',
};

/** The message with sample values where Ray fills one in. */
const filled = (message: string): string =>
  message
    .replace(/\{hex\}/g, '00ffffffffffffffffffffffffffffffffffffff0100000001000000')
    .replace(/\{task_id\}|\{actor_id\}|\{id\}/g, '9f3c5a1b2c3d4e5f')
    .replace(/\{[^}]+\}/g, 'x')
    .replace(/ … /g, ' ')
    .split('\n')[0]!;

describe('every exception class of python/ray/exceptions.py', () => {
  const live = RAY_EXCEPTIONS.filter(([, , g]) => g !== 'skip' && g !== 'elsewhere');
  it.each(live.map(([name, message, group, how]) => [name, message, group as Read, how] as const))('%s', (name, message, group, how) => {
    // A driver's traceback ends in the qualified class and its __str__.
    const line = `ray.exceptions.${name}: ${filled(message) || 'x'}`;
    expect(cls(line)).toBe(CLASS[group]);
    // Where the bare name is Ray's alone, a library that re-raises it (or prints its type) says the same.
    if (how === 'bare') expect(cls(`${name}: ${filled(message) || 'x'}`)).toBe(CLASS[group]);
  });

  it('reads a class only other libraries share by its qualified name (gRPC has an RpcError of its own)', () => {
    expect(cls('ray.exceptions.RpcError: failed to connect to all addresses')).toBe('ray.crash');
    expect(rules('grpc.RpcError: <_InactiveRpcError of RPC that terminated with: status = StatusCode.UNAVAILABLE>')).not.toContain('ray.vocab_crash');
  });

  it('leaves RayTaskError(X) to the wrapped class (user.ray_task_error) and the skip entries to nothing', () => {
    expect(rules('ray.exceptions.RayTaskError(KeyError): ray::Worker.step() (pid=4711, ip=10.0.0.3)')).not.toContain('ray.vocab_user');
    for (const [name] of RAY_EXCEPTIONS.filter(([, , g]) => g === 'skip')) expect(rules(`ray.exceptions.${name}: x`).filter((r) => r.startsWith('ray.vocab_')), name).toEqual([]);
  });

  it('does not read a traceback source line that names a class', () => {
    expect(rules('    except ray.exceptions.GetTimeoutError:')).toEqual([]);
  });
});

describe('worker exit types, task error types and death texts', () => {
  it.each(RAY_WORKER_EXIT_TYPES.map(([name, group]) => [name, group] as const))('Worker exit type: %s', (name, group) => {
    // The GCS's death cause as the raylet and ActorDiedError print it.
    const line = `Worker exit type: ${name} Worker exit detail: Worker exits with an exit code 1.`;
    if (group === 'skip') expect(vocab(line)).toEqual([]);
    else if (group !== 'elsewhere') expect(cls(line)).toBe(CLASS[group]);
  });

  it.each(RAY_ERROR_TYPES.map(([name, group]) => [name, group] as const))('error_type %s', (name, group) => {
    // `ray get tasks <id>` (YAML) and `ray list tasks --detail` rendered as a dict.
    for (const line of [`  error_type: ${name}`, `{'task_id': '16310a0f0a45af5c', 'state': 'FAILED', 'error_type': '${name}'}`]) {
      if (group === 'skip') expect(vocab(line)).toEqual([]);
      else expect(cls(line), line).toBe(CLASS[group as Read]);
    }
  });

  it.each(RAY_DEATH_TEXTS.map(([source, text, group]) => [source, text, group] as const))('%s', (_source, text, group) => {
    const line = `(raylet) ${text}${text.endsWith(' ') ? 'spot instance reclaimed' : ''}`;
    if (group === 'skip') expect(vocab(line)).toEqual([]);
    else if (group !== 'elsewhere') expect(cls(line)).toBe(CLASS[group]);
  });

  it('reads an actor the job dropped the last handle of as its own code (like ray.kill), not a crash', () => {
    const line = 'ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\tclass_name: Rollout\tactor_id: 9f3c The actor is dead because all references to the actor were removed.';
    expect(cls(line)).toBe('user.code_error');
    expect(classifyText(line).evidence[0]?.rule).toBe('ray.intended_exit');
  });
});

describe('the entries an older rule reads in the same class (readBy)', () => {
  // One wording, one rule: the vocabulary rules build no pattern from these, and the named rule reads
  // them first with the class the entry records.
  const lines: [string, string, { rule: string; class: string }][] = [
    // The class without its message: a message of the table is an entry of its own (RAY_DEATH_TEXTS).
    ...RAY_EXCEPTIONS.filter((r) => r[4]).flatMap(([name, , , how, by]) => [
      [name, `ray.exceptions.${name}: 1 object(s) on node 10.0.0.3`, by!] as [string, string, { rule: string; class: string }],
      ...(how === 'bare' ? [[name, `${name}: x`, by!] as [string, string, { rule: string; class: string }]] : []),
    ]),
    ...RAY_WORKER_EXIT_TYPES.filter((r) => r[2]).map(([name, , by]) => [name, `Worker exit type: ${name} Worker exit detail: Worker exits with an exit code 1.`, by!] as [string, string, { rule: string; class: string }]),
    ...RAY_DEATH_TEXTS.filter((r) => r[3]).map(([source, text, , by]) => [source, `\t${text}spot instance reclaimed`, by!] as [string, string, { rule: string; class: string }]),
  ];
  it('marks the entries the older rules read', () => {
    expect(lines.map(([n]) => n)).toEqual(expect.arrayContaining(['GetTimeoutError', 'OutOfDiskError', 'ObjectStoreFullError', 'NODE_OUT_OF_MEMORY']));
  });
  it.each(lines)('%s: %s', (_n, line, by) => {
    const d = classifyText(line);
    expect(d.class).toBe(by.class);
    expect(d.evidence[0]?.rule).toBe(by.rule);
    // The evidence keeps one rule per line, so the vocabulary's own patterns are what must not match.
    expect(rayVocabPatterns(Object.keys(CLASS) as Read[]).filter((re) => re.test(line))).toEqual([]);
  });
});

describe('pastes that cut Ray\'s lines', () => {
  it("a worker-kill summary wrapped before its count is still the memory monitor (its advice says so)", () => {
    const log = [
      '(raylet) [2024-03-02 11:40:17,552 E 8842 8842] (raylet) node_manager.cc:3007: 3 Workers (tasks /',
      ' actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 7c1e9a2b4d, IP: 10.0.4.12) over the last',
      ' time period. To see more information about the Workers killed on this node, use `ray logs raylet.out -ip 10.0.4.12`',
      '(raylet) Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/sche',
      'duling/ray-oom-prevention.html. Consider provisioning more memory on this node or reducing task parallelism by requesting more CPUs per task.',
    ].join('\n');
    expect(cls(log)).toBe('host.oom');
  });

  it("Ray 0.5's monitor marking nodes dead and the local scheduler's fatal check are Ray crashing", () => {
    expect(cls('a8f31c27d0e45b96 has been marked dead because the monitor has missed too many heartbeats')).toBe('ray.crash');
    const d = classifyText('F1017 20:46:36.214735 14867 local_scheduler_client.cc:321]  Check failed: static_cast<ray::protocol::MessageType>(type) == ray::protocol::MessageType::WaitReply');
    expect(d.class).toBe('ray.crash');
    expect(d.evidence[0]?.rule).toBe('ray.node_or_raylet_died');
  });

  it("reads a line that syslog prefixed with '#033[' (an escape byte rendered) like any other", () => {
    expect(cls('#033[2m#033[33m(raylet)#033[0m Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html.')).toBe('host.oom');
    // A comment in a traceback's source listing is not Ray reporting anything.
    expect(vocab('    # ray.exceptions.ObjectFreedError: retry on another node')).toEqual([]);
  });
});

describe('a death that names no cause gives way to the cause in the same log', () => {
  it("the worker's own exception, forwarded to the driver's log, is what the actor died of", () => {
    const log = [
      '(RolloutWorker pid=4711) Traceback (most recent call last):',
      '(RolloutWorker pid=4711)   File "/workspace/rl/rollout.py", line 88, in step',
      "(RolloutWorker pid=4711)     reward = batch['reward'] / batch['count']",
      "(RolloutWorker pid=4711) KeyError: 'reward'",
      'Traceback (most recent call last):',
      '  File "/workspace/rl/train.py", line 41, in <module>',
      '    results = ray.get(futures)',
      'ray.exceptions.RayActorError: The actor experienced an error before finishing this task.',
    ].join('\n');
    expect(cls(log)).toBe('user.code_error');
  });

  it("the kernel OOM killer's line explains a task error type that names no cause", () => {
    const log = [
      '[ 9001.2] Out of memory: Killed process 4711 (ray::TaskRunner) total-vm:98119556kB, anon-rss:86538204kB, file-rss:80652kB, shmem-rss:16kB, UID:0 pgtables:170000kB oom_score_adj:0',
      "{'task_id': '16310a0f0a45af5c', 'name': 'TaskRunner.run', 'state': 'FAILED', 'error_type': 'WORKER_DIED'}",
    ].join('\n');
    expect(cls(log)).toBe('host.oom');
  });

  it("a placement group removed or a ray.get that timed out after a worker's CUDA failure is that failure", () => {
    const log = [
      '(VllmWorker pid=812) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.',
      'ray.exceptions.ActorPlacementGroupRemoved: The placement group corresponding to this Actor has been removed.',
      'ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.',
    ].join('\n');
    expect(cls(log)).toBe('cuda.oom');
  });

  it("Ray's memory monitor decides over the actor death that reports it", () => {
    const log = [
      'ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.',
      '\tclass_name: Learner',
      'The actor is dead because its worker process has died. Worker exit type: NODE_OUT_OF_MEMORY Worker exit detail: Task was killed due to the node running low on memory.',
    ].join('\n');
    expect(cls(log)).toBe('host.oom');
  });
});

describe('a cancel the job made after a death', () => {
  // vLLM's Ray executor on a node short of host memory: the raylet reports a worker that vanished (its
  // connection error text, gcs_actor_manager's death), and the actors still queued behind it are cancelled
  // before they ran (exceptions.py ActorDiedError never_started). The cancel is the teardown, not a cause.
  const log = [
    'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.',
    'The actor never ran - it was cancelled before it started running.',
  ].join('\n');

  it('is no exception the actor died of: the death stays Ray\'s', () => {
    expect(cls(log)).toBe('ray.crash');
    expect(rules(log)).toContain('ray.vocab_intended');
  });

  it('alone, a cancel is still the job\'s own doing (weak user.code_error)', () => {
    expect(cls('The actor never ran - it was cancelled before it started running.')).toBe('user.code_error');
  });
});

