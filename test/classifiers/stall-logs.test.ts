// Hangs in plain logs (stacks.ts, rules/stall.ts, resolve.ts). The Ctrl-C tracebacks and faulthandler
// dumps are made here by real Python processes (interrupted once they block, or while they compute);
// the py-spy dumps in fixtures/stacks were recorded by py-spy 0.4.2 on real processes (README there).
// PyTorch / NCCL / vLLM / SGLang / Ray lines are written in each producer's own format, read in its source
// (ProcessGroupNCCL.cpp HeartbeatMonitor, TraceUtils.h retrieveDesyncReport, tools/flight_recorder,
// NCCL's INFO transport lines, torch/utils/data/dataloader.py, vLLM shm_broadcast.py, SGLang's scheduler
// watchdog, Ray's scheduling warnings).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyText } from './helpers.js';

const FIXTURES = resolve(__dirname, '../../fixtures/stacks');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const procState = (pid: number): string | null => {
  const p = `/proc/${pid}/stat`;
  if (!existsSync(p)) return null;
  const stat = readFileSync(p, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Run `script` with python3, wait for it to print `ready <pid>` lines (its own pid first, then any child
 * to interrupt before it), then until each is asleep (blocked) or, with `busy`, just running; send
 * SIGINT to each in turn as a terminal's Ctrl-C would, and return what the run wrote (stdout+stderr).
 */
async function interrupted(script: string, opts: { busy?: boolean; children?: number; signal?: NodeJS.Signals } = {}): Promise<string> {
  const d = mkdtempSync(join(tmpdir(), 'fdiag-stall-'));
  dirs.push(d);
  writeFileSync(join(d, 'job.py'), script);
  const child = spawn('python3', ['-u', 'job.py'], { cwd: d, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  const done = new Promise<void>((r) => child.on('close', () => r()));
  const want = 1 + (opts.children ?? 0);
  const deadline = Date.now() + 10_000;
  const pids = () => [...out.matchAll(/^ready (\d+)$/gm)].map((m) => Number(m[1]));
  while (pids().length < want && Date.now() < deadline) await sleep(20);
  const [main, ...kids] = pids();
  for (const pid of [...kids, main!]) {
    if (!opts.busy || pid !== main) while (procState(pid) !== 'S' && Date.now() < deadline) await sleep(20);
    else await sleep(100);
    process.kill(pid, opts.signal ?? 'SIGINT');
    // A child prints its traceback and exits (a zombie until joined) before the main program is interrupted.
    if (pid !== main) while (!['Z', null].includes(procState(pid)) && Date.now() < deadline) await sleep(20);
  }
  await done;
  return out.split(d).join('/home/user/run');
}

describe('a Ctrl-C of a run that had stopped: job.stall, named where it waits', () => {
  it('blocked in multiprocessing.Queue.get() that nothing fills: a queue wait, its caller named', async () => {
    const log = await interrupted(`import multiprocessing as mp, os, time
def producer(q):
    time.sleep(1000)
def next_batch(q):
    return q.get()
if __name__ == "__main__":
    q = mp.Queue()
    mp.Process(target=producer, args=(q,), daemon=True).start()
    print("ready", os.getpid(), flush=True)
    next_batch(q)
`);
    expect(log).toContain('KeyboardInterrupt');
    const d = classifyText(log);
    expect(d.class).toBe('job.stall');
    expect(d.category).toBe('infra');
    expect(d.evidence[0]!.rule).toBe('stall.interrupted_wait');
    expect(d.hint).toMatch(/waits in a queue or lock at get \(multiprocessing\/queues\.py:\d+\), called from next_batch \(run\/job\.py:5\)/);
  }, 20_000);

  it('waiting for a child process that does not end: a subprocess wait', async () => {
    const d = classifyText(await interrupted(`import os, subprocess\nprint("ready", os.getpid(), flush=True)\nsubprocess.run(["sleep", "1000"])\n`));
    expect(d.class).toBe('job.stall');
    expect(d.hint).toMatch(/waits in a child process at run \(\S*subprocess\.py:\d+\)/);
  }, 20_000);

  it('waiting for an HTTP answer that never comes: an HTTP call, at the urlopen the run made', async () => {
    const d = classifyText(
      await interrupted(`import os, socket, urllib.request
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
print("ready", os.getpid(), flush=True)
urllib.request.urlopen(f"http://127.0.0.1:{srv.getsockname()[1]}/v1/models")
`),
    );
    expect(d.class).toBe('job.stall');
    expect(d.hint).toMatch(/waits in an HTTP call at urlopen \(urllib\/request\.py:\d+\)/);
    expect(d.hint).toContain('timeout=');
  }, 20_000);

  it("waiting on a JIT extension's build lock that a killed build left behind: named as the lock, also with Windows paths", () => {
    // torch/utils/cpp_extension.py _jit_compile → baton.wait() → file_baton.py FileBaton.wait polling with
    // time.sleep while the lock file exists; a Ctrl-C ends it there (torch 2.x line numbers).
    const frames = (sep: string, root: string) =>
      [
        'Traceback (most recent call last):',
        `  File "${root}${sep}exllama${sep}cuda_ext.py", line 43, in <module>`,
        '    exllama_ext = load(',
        `  File "${root}${sep}Lib${sep}site-packages${sep}torch${sep}utils${sep}cpp_extension.py", line 1301, in load`,
        '    return _jit_compile(',
        `  File "${root}${sep}Lib${sep}site-packages${sep}torch${sep}utils${sep}cpp_extension.py", line 1538, in _jit_compile`,
        '    baton.wait()',
        `  File "${root}${sep}Lib${sep}site-packages${sep}torch${sep}utils${sep}file_baton.py", line 42, in wait`,
        '    time.sleep(self.wait_seconds)',
        'KeyboardInterrupt',
        '',
      ].join('\n');
    for (const [sep, root] of [['/', '/home/user/venv'], ['\\', 'C:\\Users\\me\\venv']] as const) {
      const d = classifyText(frames(sep, root));
      expect(d.class).toBe('job.stall');
      expect(d.evidence[0]!.rule).toBe('stall.interrupted_wait');
      expect(d.hint).toMatch(/lock file/);
    }
  });

  it('a Ctrl-C of a run that was computing is not a stall', async () => {
    const log = await interrupted(`import os\ndef step(x):\n    s = 0\n    for i in range(10**9):\n        s += i * x\n    return s\nprint("ready", os.getpid(), flush=True)\nwhile True:\n    step(3)\n`, { busy: true });
    expect(log).toContain('KeyboardInterrupt');
    expect(classifyText(log).class).not.toBe('job.stall');
  }, 20_000);

  it("a helper process's idle wait is not the run's: a worker blocked on its queue while the main program computes", async () => {
    const log = await interrupted(
      `import multiprocessing as mp, os
def worker(q):
    print("ready", os.getpid(), flush=True)
    q.get()
if __name__ == "__main__":
    print("ready", os.getpid(), flush=True)
    q = mp.Queue()
    mp.Process(target=worker, args=(q,)).start()
    s = 0
    while True:
        s += 1
`,
      { busy: true, children: 1 },
    );
    // Both tracebacks are there: the worker's (in its queue get) and the main program's.
    expect(log).toMatch(/Process Process-1:[\s\S]*queues\.py[\s\S]*KeyboardInterrupt[\s\S]*KeyboardInterrupt/);
    expect(classifyText(log).class).not.toBe('job.stall');
  }, 20_000);

  it('a faulthandler dump_traceback_later of a run waiting on a condition: job.stall from the dump', async () => {
    const d = mkdtempSync(join(tmpdir(), 'fdiag-stall-'));
    dirs.push(d);
    writeFileSync(join(d, 'job.py'), `import faulthandler, threading\nfaulthandler.dump_traceback_later(1, exit=True)\ndef wait_for_batch():\n    cv = threading.Condition()\n    with cv:\n        cv.wait()\nwait_for_batch()\n`);
    const child = spawn('python3', ['job.py'], { cwd: d, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    child.stderr.on('data', (b) => (log += b));
    await new Promise((r) => child.on('close', r));
    expect(log).toMatch(/^Timeout \(0:00:01\)!/);
    const diag = classifyText(log);
    expect(diag.class).toBe('job.stall');
    expect(diag.evidence[0]!.rule).toBe('stall.dumped_wait');
    expect(diag.hint).toMatch(/faulthandler dump .*waits in a queue or lock at wait \(\S*threading\.py:\d+\), called from wait_for_batch/);
  }, 20_000);

  it("a fatal error's faulthandler stack is a crash, not a wait", async () => {
    // Aborted from outside once it blocks, as a C++ std::terminate (NCCL's watchdog) would abort it.
    const log = await interrupted(`import faulthandler, os, threading\nfaulthandler.enable()\nprint("ready", os.getpid(), flush=True)\nthreading.Event().wait()\n`, { signal: 'SIGABRT' });
    expect(log).toContain('Fatal Python error: Aborted');
    expect(log).toMatch(/threading\.py", line \d+ in wait/);
    expect(classifyText(log).evidence.some((e) => e.rule === 'stall.dumped_wait')).toBe(false);
  }, 20_000);
});

describe('py-spy dumps (recorded, fixtures/stacks)', () => {
  it('main thread in Queue.get: job.stall at the get, with and without native frames', () => {
    for (const f of ['pyspy-queue-get.txt', 'pyspy-queue-get-native.txt']) {
      const d = classifyText(fixture(f));
      expect(d.class, f).toBe('job.stall');
      expect(d.evidence[0]!.rule, f).toBe('stall.dumped_wait');
      expect(d.hint, f).toContain('waits in a queue or lock at get (multiprocessing/queues.py:103)');
    }
  });

  it('main thread reading a socket under urlopen: an HTTP call', () => {
    const d = classifyText(fixture('pyspy-http-read.txt'));
    expect(d.class).toBe('job.stall');
    expect(d.hint).toContain('waits in an HTTP call at urlopen (urllib/request.py:216)');
  });

  it("a busy main thread is said to be running its own code, whatever a helper thread waits on", () => {
    for (const f of ['pyspy-busy.txt', 'pyspy-busy-helper-idle.txt']) {
      const d = classifyText(fixture(f));
      expect(d.evidence.some((e) => e.rule === 'stall.dumped_wait'), f).toBe(false);
      expect(d.hint, f).toContain('not waiting but running its own code');
    }
  });
});

// NCCL's INFO transport lines (src/transport/p2p.cc: "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"), one host.
const ncclInit = (p2p: string) =>
  [0, 1]
    .flatMap((r) => [`node1:${2000 + r}:${2100 + r} [${r}] NCCL INFO Channel 00/0 : ${r}[${r}] -> ${1 - r}[${1 - r}] via ${p2p}`, `node1:${2000 + r}:${2100 + r} [${r}] NCCL INFO Connected all rings`])
    .join('\n');
// A Ctrl-C traceback of a rank blocked in its first all_reduce (CPython's format; torch's real file paths).
const ctrlCInAllReduce = (r: number) =>
  [
    'Traceback (most recent call last):',
    '  File "/home/user/run/train.py", line 41, in <module>',
    '    main()',
    '  File "/home/user/run/train.py", line 33, in main',
    '    dist.all_reduce(t)',
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/c10d_logger.py", line 81, in wrapper',
    '    return func(*args, **kwargs)',
    '  File "/usr/local/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", line 2806, in all_reduce',
    '    work.wait()',
    'KeyboardInterrupt',
  ]
    .map((l) => `[rank${r}]: ${l}`)
    .join('\n');

describe('a stall in a collective', () => {
  it('right after NCCL set up P2P channels on one host: the P2P deadlock', () => {
    const d = classifyText(`${ncclInit('P2P/IPC')}\n${ctrlCInAllReduce(0)}\n${ctrlCInAllReduce(1)}\n`);
    expect(d.class).toBe('nccl.p2p_deadlock');
    expect(d.hint).toContain('all_reduce (distributed/distributed_c10d.py:2806)');
    expect(d.hint).toContain('NCCL_P2P_DISABLE=1');
    expect(d.evidence.some((e) => e.text.includes('via P2P/IPC'))).toBe(true);
  });

  it('over shared memory, with NCCL_P2P_DISABLE set, or long after set-up: a stall in the collective', () => {
    const late = Array.from({ length: 80 }, (_, i) => `[rank0]: step ${i} loss 2.31`).join('\n');
    for (const [why, log] of [
      ['SHM transport', `${ncclInit('SHM/direct/direct')}\n${ctrlCInAllReduce(0)}\n`],
      ['P2P disabled', `node1:2000:2000 [0] NCCL INFO NCCL_P2P_DISABLE set by environment to 1\n${ncclInit('P2P/IPC')}\n${ctrlCInAllReduce(0)}\n`],
      ['late in the run', `${ncclInit('P2P/IPC')}\n${late}\n${ctrlCInAllReduce(0)}\n`],
    ] as const) {
      const d = classifyText(log);
      expect(d.class, why).toBe('job.stall');
      expect(d.hint, why).toContain('waits in a collective with its peers at all_reduce (distributed/distributed_c10d.py:2806), called from main (run/train.py:33)');
    }
  });
});

// ProcessGroupNCCL's logPrefix and glog prefix, as torchrun --tee prints them.
const pgLine = (r: number, msg: string) => `[rank${r}]:[E1202 03:41:07.512${r}00 ProcessGroupNCCL.cpp:1790] [PG ID 0 PG GUID 0(default_pg) Rank ${r}] ${msg}`;

describe('NCCL watchdog and heartbeat monitor', () => {
  it('the heartbeat monitor firing with no collective pending: the process froze, job.stall', () => {
    const log = [0, 1]
      .flatMap((r) => [
        pgLine(r, 'Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=0'),
        pgLine(r, "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog."),
      ])
      .join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('job.stall');
    expect(d.hint).toContain('no collective was pending');
    // With collectives still pending it stays the NCCL timeout class.
    expect(classifyText(log.replace(/size\(\)=0/g, 'size()=3')).class).toBe('nccl.timeout');
  });

  it('every rank stuck in its first collective by last enqueued/completed work (-1: none completed), over P2P: the P2P deadlock', () => {
    const log = [ncclInit('P2P/CUMEM'), ...[0, 1].map((r) => pgLine(r, 'Exception (either an error or timeout) detected by watchdog at work: 1, last enqueued NCCL work: 1, last completed NCCL work: -1.'))].join('\n');
    expect(classifyText(log).class).toBe('nccl.p2p_deadlock');
    // Deep in the run, the same lines are a timeout.
    expect(classifyText(log.replace(/work: 1, last enqueued NCCL work: 1, last completed NCCL work: -1/g, 'work: 5120, last enqueued NCCL work: 5120, last completed NCCL work: 5119')).class).toBe('nccl.timeout');
  });

  it("PyTorch's desync report names the lagging rank: nccl.timeout, not the P2P deadlock", () => {
    const log = [
      ncclInit('P2P/IPC'),
      pgLine(0, 'Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600031 milliseconds before timing out.'),
      '[rank0]:\t - [0] Timeout at collective: ALLREDUCE, #1',
      '[rank0]:\t - To our best knowledge, ranks [1] are the lagging ranks that caused this timeout. They never joined any collectives',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('nccl.timeout');
    expect(d.hint).toMatch(/desync report names rank 1 as lagging/);
  });

  it("the flight-recorder analyser's missing ranks name the lagging rank", () => {
    const log = [
      pgLine(0, 'Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=12, NumelOut=12, Timeout(ms)=600000) ran for 600009 milliseconds before timing out.'),
      'Not all ranks joining collective 5 at entry 4',
      'group info: 0:default_pg',
      'collective: nccl:all_reduce',
      'missing ranks: {1}',
      'collective state: scheduled',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('nccl.timeout');
    expect(d.hint).toMatch(/names rank 1 as lagging \(collective #5\)/);
  });
});

describe('producers that report a stall in their own words', () => {
  it.each([
    ['DataLoader timeout (torch/utils/data/dataloader.py)', 'RuntimeError: DataLoader timed out after 120 seconds', 'stall.dataloader_timeout'],
    ['vLLM shared-memory broadcast (shm_broadcast.py)', 'INFO 12-02 03:40:11 [shm_broadcast.py:542] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation).', 'stall.vllm_shm_broadcast'],
    ['SGLang scheduler watchdog', '[2026-12-02 03:40:11 TP0] Scheduler watchdog timeout (self.watchdog_timeout=300, self.soft=False)', 'stall.sglang_watchdog'],
    ['Ray pending task', "(autoscaler +2m) Warning: The following resource request cannot be scheduled right now: {'GPU': 8.0, 'CPU': 1.0}. This is likely due to all cluster resources being claimed by actors.", 'stall.ray_pending_resources'],
  ])('%s: job.stall', (_, line, rule) => {
    const d = classifyText(`${line}\n`);
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe(rule);
  });

  it('a real failure in the same log is the root cause, not the stall it led to', () => {
    const d = classifyText(`torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.02 GiB is free.\nRuntimeError: DataLoader timed out after 120 seconds\n`);
    expect(d.class).toBe('cuda.oom');
  });
});

describe('gdb on a stuck process', () => {
  it("`info threads` (recorded): thread 1 in a futex wait is a stall, thread 1 evaluating Python is not", () => {
    const wait = classifyText(fixture('gdb-info-threads-wait.txt'));
    expect(wait.class).toBe('job.stall');
    expect(wait.evidence[0]!.rule).toBe('stall.gdb_main_thread_wait');
    expect(wait.hint).toContain('blocked in __futex_abstimed_wait_common');
    expect(classifyText(fixture('gdb-info-threads-busy.txt')).class).not.toBe('job.stall');
  });

  // CPython's Tools/gdb/libpython.py: `py-bt-full` (and Python 2's py-bt) print "#N Frame 0x…, for file …,
  // line N, in f (locals)"; Python 3's py-bt prints CPython's own frame lines under "Traceback (most recent call first):".
  it('py-bt of the main thread in Condition.wait: a stall at the wait, in both libpython formats', () => {
    const old = classifyText(
      [
        'Thread 1 (Thread 0x7f384e2dc740 (LWP 237)):',
        '(gdb) py-bt',
        '#4 Frame 0x7f3484000910, for file /usr/lib/python2.7/threading.py, line 358, in wait (self=<_Condition(_Verbose__verbose=False) at remote 0x7f37257518f0>, timeout=5)',
        '#8 Frame 0x7f3484001a20, for file /home/u/train.py, line 88, in next_batch (self=<Loader at remote 0x7f3725751900>)',
      ].join('\n'),
    );
    expect(old.class).toBe('job.stall');
    expect(old.hint).toMatch(/gdb py-bt dump .*waits in a queue or lock at wait \(python2\.7\/threading\.py:358\), called from next_batch \(u\/train\.py:88\)/);
    const py3 = classifyText(['(gdb) py-bt', 'Traceback (most recent call first):', '  <built-in method acquire of _thread.lock object at remote 0x7f1f7b0e1b40>', '  File "/usr/lib/python3.11/threading.py", line 327, in wait', '    waiter.acquire()', '  File "/home/u/train.py", line 88, in next_batch', '    cv.wait()'].join('\n'));
    expect(py3.class).toBe('job.stall');
    expect(py3.hint).toContain('at wait (python3.11/threading.py:327), called from next_batch (u/train.py:88)');
  });

  it("another thread's py-bt is not the main thread's", () => {
    const d = classifyText(['Thread 7 (Thread 0x7f38227fc700 (LWP 301)):', '(gdb) py-bt', '#4 Frame 0x7f3484000910, for file /usr/lib/python2.7/threading.py, line 358, in wait (self=<_Condition at remote 0x7f37257518f0>)'].join('\n'));
    expect(d.class).not.toBe('job.stall');
  });
});

describe('a run that went silent', () => {
  // CUDA samples p2pBandwidthLatencyTest: its banner, the peer-access lines, and a closing NOTE after the matrices.
  const p2pTest = ['[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]', 'Device: 0, NVIDIA GeForce RTX 3090, pciBusID: 1, pciDeviceID: 0, pciDomainID:0', 'Device: 1, NVIDIA GeForce RTX 3090, pciBusID: 2, pciDeviceID: 0, pciDomainID:0', 'Device=0 CAN Access Peer Device=1', 'Device=1 CAN Access Peer Device=0', 'Unidirectional P2P=Disabled Bandwidth Matrix (GB/s)', '   D\\D     0      1', '     0 831.56  11.07', '     1  11.10 832.26'];
  it("CUDA's P2P bandwidth test that never printed its closing note: the P2P deadlock; one that finished is not", () => {
    const d = classifyText(`${p2pTest.join('\n')}\n`);
    expect(d.class).toBe('nccl.p2p_deadlock');
    expect(d.evidence[0]!.rule).toBe('nccl.p2p_test_hang');
    const done = classifyText(`${p2pTest.join('\n')}\nNOTE: The CUDA Samples are not meant for performance measurements. Results may vary when GPU Boost is enabled.\n`);
    expect(done.class).not.toBe('nccl.p2p_deadlock');
  });

  it('a log that ends right after NCCL set-up over shared memory only: a stall just after set-up', () => {
    const d = classifyText(`${ncclInit('SHM/direct/direct')}\nnode1:2000:2100 [0] NCCL INFO comm 0x5581 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1000 commId 0x47dc - Init COMPLETE\n`);
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe('stall.after_nccl_init');
    // Over P2P it is the P2P deadlock, as before.
    expect(classifyText(`${ncclInit('P2P/IPC')}\n`).class).toBe('nccl.p2p_deadlock');
  });

  it("SGLang's watchdog then the server killed: the stall, the kill its reaction", () => {
    const log = ['[2025-03-09 00:57:15 TP4] Watchdog timeout (self.watchdog_timeout=300)', '[2025-03-09 00:57:16 TP0] Watchdog timeout (self.watchdog_timeout=300)', '[2025-03-09 00:57:20] Received sigquit from a child proces. It usually means the child failed.', 'Killed'].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe('stall.sglang_watchdog');
  });

  it("vLLM's API server waiting for output from its engine, and nothing else: job.stall", () => {
    const log = Array.from({ length: 6 }, (_, i) => `DEBUG 05-31 01:5${i}:28 client.py:191] Waiting for output from MQLLMEngine.`).join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('job.stall');
    // Any failure in the same log decides instead.
    expect(classifyText(`${log}\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n`).class).toBe('cuda.oom');
  });

  it("an AMD IOMMU page fault of the GPU's own DMA: the P2P deadlock; of another device, not", () => {
    const fault = (dev: string) => `[ 4703.568967] ${dev} 0000:41:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000e address=0x3f80001b100 flags=0x0030]`;
    expect(classifyText(fault('nvidia')).class).toBe('nccl.p2p_deadlock');
    expect(classifyText(fault('xhci_hcd')).class).not.toBe('nccl.p2p_deadlock');
  });
});

describe('bounds', () => {
  it('thousands of ranks, each with its Ctrl-C traceback in the collective: read from the first ones, still the stall', () => {
    const log = Array.from({ length: 3000 }, (_, r) => ctrlCInAllReduce(r)).join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('job.stall');
    expect(d.hint).toContain('all_reduce (distributed/distributed_c10d.py:2806)');
  });
});
