// How a log ends (tail.ts, LOG_ENDINGS in rules/stall.ts): a hang prints no failure line, its log just
// stops on what the run printed while it waited. Lines are written in each producer's own format, read in
// its source: PyTorch c10d distributed_c10d.py (_store_based_barrier), torchelastic agent/server/api.py
// (_rendezvous), vLLM engine/metrics.py and v1/metrics/loggers.py (LoggingStatLogger), pynccl.py,
// SGLang's scheduler decode stats, tqdm's format_meter. Near-negatives: the same lines followed by the
// producer's own success line, idle servers, prose, finished bars.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogClassifier } from '../../src/classifiers/index.js';
import { TAIL_BYTES, TailBytes } from '../../src/classifiers/tail.js';
import { classifyFiles, classifyText } from './helpers.js';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

// torch's logger through logging.basicConfig (INFO:<logger>:<message>), as torchrun prints it.
const C10D = 'INFO:torch.distributed.distributed_c10d';
const barrierWait = (t: number) => `${C10D}:Waiting in store based barrier to initialize process group for rank: 1, key: store_based_barrier_key:1 (world_size=2, num_workers_joined=1, timeout=0:30:00)`;
const barrier = lines(`${C10D}:Added key: store_based_barrier_key:1 to store for rank: 1`, barrierWait(10), barrierWait(20), barrierWait(30));

// vLLM V1 LoggingStatLogger.log ("Engine 000: Avg prompt throughput: …").
const vllmStats = (min: number, running: number, gen: number) =>
  `INFO 12-02 10:${String(min).padStart(2, '0')}:05 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: ${gen.toFixed(1)} tokens/s, Running: ${running} reqs, Waiting: 0 reqs, GPU KV cache usage: 11.0%, Prefix cache hit rate: 0.0%`;

describe('a log that ends in a wait', () => {
  it("c10d's store-based barrier: the other ranks never joined", () => {
    const d = classifyText(barrier);
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe('stall.ends_waiting');
    expect(d.evidence[0]!.line).toBe(4);
    expect(d.hint).toMatch(/other ranks to join the process group/);
    expect(d.hint).toMatch(/printed 3 times/);
  });

  it('the same barrier that completed and a run that went on is no stall', () => {
    const d = classifyText(`${barrier}${C10D}:Rank 1: Completed store-based barrier for key:store_based_barrier_key:1 with 2 nodes.\nepoch 1 step 100 loss 2.31\nTraining completed.\n`);
    expect(d.class).not.toBe('job.stall');
  });

  it("torchelastic's rendezvous that no other node joined", () => {
    const d = classifyText(lines('INFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs:', "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group"));
    expect(d.class).toBe('job.stall');
    expect(d.hint).toMatch(/rendezvous/);
  });

  it("vLLM's pynccl set-up line last: the workers hang in ncclCommInitRank", () => {
    const d = classifyText(lines('(Worker pid=960) INFO 08-12 20:26:09 [pynccl.py:113] vLLM is using nccl==2.28.9'));
    expect(d.class).toBe('job.stall');
    expect(d.hint).toMatch(/ncclCommInitRank/);
  });

  it('a generic "Waiting for …" poll as the message of a log line, named in the hint', () => {
    const d = classifyText(lines('2026-12-02 10:00:00,001 - INFO - worker.py:88 - Waiting for the reward server to come up...', '2026-12-02 10:00:30,001 - INFO - worker.py:88 - Waiting for the reward server to come up...'));
    expect(d.class).toBe('job.stall');
    expect(d.hint).toMatch(/the reward server to come up/);
  });

  it('a harness polling a runtime that stays pending is the sandbox failing to come up', () => {
    const d = classifyText(lines('django__django-15503 → Runtime not yet ready (status: pending)', 'astropy__astropy-14309 → Runtime not yet ready (status: pending)'));
    expect(d.class).toBe('sandbox.failure');
    expect(d.evidence[0]!.rule).toBe('stall.ends_waiting');
  });

  it("torch's JIT extension loader announcing its root and printing nothing more: the build lock's wait", () => {
    // torch/utils/cpp_extension.py _get_build_directory (verbose), one line per rank, as DeepSpeed's op builder loads fused_adam.
    const root = 'Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...';
    const d = classifyText(lines('[2024-05-02 10:11:12,000] [INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to cuda (auto detect)', root, root));
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe('stall.ends_waiting');
    expect(d.hint).toMatch(/lock/);
  });

  it('the same loader going on to build or load the extension is no stall', () => {
    const root = 'Using /root/.cache/torch_extensions/py310_cu121 as PyTorch extensions root...';
    const d = classifyText(lines(root, 'Detected CUDA files, patching ldflags', 'Emitting ninja build file /root/.cache/torch_extensions/py310_cu121/fused_adam/build.ninja...', 'Building extension module fused_adam...', 'ninja: no work to do.', 'Loading extension module fused_adam...', 'Time to load fused_adam op: 0.61 seconds'));
    expect(d.class).not.toBe('job.stall');
  });

  it('prose that mentions waiting is no wait', () => {
    expect(classifyText(lines('Thanks for the logs! I see a timeout waiting for systemd in the daemon.')).class).toBe('unknown');
  });

  it('a wait followed by the run finishing is no stall (a success line ends the log)', () => {
    const d = classifyText(lines('2026-12-02 10:00:00,001 - INFO - Waiting for checkpoint upload to finish', '2026-12-02 10:00:09,001 - INFO - Training completed successfully.', 'Process finished with exit code 0'));
    expect(d.class).toBe('unknown');
  });

  it('a failure after the wait is the failure, not a stall', () => {
    const d = classifyText(`${barrier}torch.distributed.DistStoreError: Timed out initializing process group in store based barrier on rank 1, for key: store_based_barrier_key:1 (world_size=2, num_workers_joined=1, timeout=0:30:00)\n`);
    expect(d.class).not.toBe('job.stall');
  });
});

describe('an inference server whose metrics end the log', () => {
  it('requests running and nothing generated: the engine is stuck', () => {
    const d = classifyText(lines(vllmStats(0, 4, 0), vllmStats(1, 4, 0), vllmStats(2, 4, 0)));
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe('stall.serving_no_progress');
    expect(d.hint).toMatch(/4 request\(s\) running and no token generated/);
  });

  it('requests still generating when the log stops: a weaker stall, named so', () => {
    const d = classifyText(lines('INFO 11-12 22:04:23 metrics.py:406] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 103.0 tokens/s, Running: 2 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 11.0%, CPU KV cache usage: 0.0%.'));
    expect(d.class).toBe('job.stall');
    expect(d.hint).toMatch(/2 request\(s\) running when the log ends/);
  });

  it("SGLang's decode stats with running requests and 0 token/s", () => {
    const d = classifyText(lines('[2026-12-02 10:00:00 TP0] Decode batch. #running-req: 8, #token: 9120, token usage: 0.04, gen throughput (token/s): 0.00, #queue-req: 0'));
    expect(d.class).toBe('job.stall');
  });

  it('an idle server (Running: 0) waits for clients: no stall', () => {
    expect(classifyText(lines(vllmStats(0, 0, 0), vllmStats(1, 0, 0), vllmStats(2, 0, 0))).class).toBe('unknown');
  });

  it('a server shut down after its last metrics is no stall', () => {
    expect(classifyText(lines(vllmStats(0, 2, 50), 'INFO:     Shutting down', 'INFO:     Application shutdown complete.', 'INFO:     Finished server process [4711]')).class).toBe('unknown');
  });

  it('health checks answered at the end are a server doing its job', () => {
    const hc = 'INFO:     127.0.0.1:40000 - "GET /health HTTP/1.1" 200 OK';
    expect(classifyText(lines(hc, hc, hc, hc)).class).toBe('unknown');
  });
});

describe('a heartbeat and a progress bar at the end', () => {
  it('the same status line repeating with only its time changing', () => {
    const beat = (s: number) => `2026-12-02 10:00:${String(s).padStart(2, '0')},000 INFO supervisor: job 4711 state RUNNING, last output 2026-12-02 09:40:00`;
    const d = classifyText(lines(beat(0), beat(10), beat(20), beat(30)));
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe('stall.ends_repeating');
  });

  it('lines that change (a counter moving) are progress, not a heartbeat', () => {
    const step = (n: number) => `2026-12-02 10:00:${String(n).padStart(2, '0')},000 INFO train: step ${n * 10} loss ${(3 - n / 10).toFixed(2)}`;
    expect(classifyText(lines(step(1), step(2), step(3), step(4))).class).toBe('unknown');
  });

  it('a repeated warning that something failed is a retry loop, not a heartbeat', () => {
    const w = 'WARNING 12-02 10:00:00 worker.py:12] connect to 10.0.0.2:29500 failed, retrying';
    expect(classifyText(lines(w, w, w)).evidence.every((e) => e.rule !== 'stall.ends_repeating')).toBe(true);
  });

  it('a tqdm bar short of its total is the last line', () => {
    const d = classifyText(lines('INFO 11-01 23:16:33 distributed_gpu_executor.py:56] # GPU blocks: 185231, # CPU blocks: 18724', 'Processed prompts:   0%|          | 0/16 [00:00<?, ?it/s, est. speed input: 0.00 toks/s, output: 0.00 toks/s]'));
    expect(d.class).toBe('job.stall');
    expect(d.evidence[0]!.rule).toBe('stall.ends_mid_progress');
  });

  it('a finished bar is no stall', () => {
    expect(classifyText(lines('Processed prompts: 100%|██████████| 16/16 [00:05<00:00,  3.10it/s]')).class).toBe('unknown');
  });
});

describe("a producer's words for having finished", () => {
  it('end the log: a server that reported running requests and then the run completed is no stall', () => {
    for (const done of [
      '[titan] 2025-08-21 11:20:00,001 - root - INFO - Training completed. Do not forget to share your model on huggingface.co/models =)',
      'INFO:torch.distributed.elastic.agent.server.api:[default] worker group successfully finished. Waiting 300 seconds for other agents to finish.',
      'Process finished with exit code 0',
    ]) {
      expect(classifyText(lines(vllmStats(0, 2, 0), done)).class, done).toBe('unknown');
    }
  });

  it('a periodic line that says its work finished is no heartbeat of a stalled run', () => {
    const sync = (s: number) => `2026-12-02 10:00:${String(s).padStart(2, '0')},000 INFO uploader: checkpoint sync of step_4000 finished`;
    expect(classifyText(lines(sync(0), sync(10), sync(20))).class).toBe('unknown');
    const busy = (s: number) => `2026-12-02 10:00:${String(s).padStart(2, '0')},000 INFO uploader: checkpoint sync of step_4000 in progress`;
    expect(classifyText(lines(busy(0), busy(10), busy(20))).evidence[0]!.rule).toBe('stall.ends_repeating');
  });
});

describe('where the logs alone do not decide', () => {
  it('a Harbor trial is decided from its records, not from how its log ends', () => {
    const d = classifyFiles({ 'harbor/trial.log': lines('Waiting for the sandbox to be ready...', 'Waiting for the sandbox to be ready...') });
    expect(d.evidence.some((e) => e.rule === 'stall.ends_waiting')).toBe(false);
  });
});

describe('the tail is bounded and the same however the log streams', () => {
  const long = `${'INFO 12-02 09:00:00 [llm_engine.py:1] warming up the cache of the engine, please wait\n'.repeat(Math.ceil((3 * TAIL_BYTES) / 80))}${lines(vllmStats(0, 3, 0), vllmStats(1, 3, 0))}`.trimEnd();

  it('keeps only the last TAIL_BYTES, numbering lines from the end', () => {
    const t = new TailBytes();
    const buf = Buffer.from(long);
    for (let i = 0; i < buf.length; i += 777) t.push(buf.subarray(i, i + 777));
    const total = long.split('\n').length;
    const got = t.lines(total);
    expect(got[got.length - 1]!.line).toBe(total);
    expect(got[got.length - 1]!.text).toMatch(/Running: 3 reqs/);
    expect(got.reduce((n, l) => n + l.shown.length + 1, 0)).toBeLessThanOrEqual(TAIL_BYTES);
  });

  it('streamed in random chunks == in memory, with the last line unterminated', () => {
    const whole = classifyText(long);
    expect(whole.class).toBe('job.stall');
    expect(whole.evidence[0]!.line).toBe(long.split('\n').length);
    const buf = Buffer.from(long);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: buf.length - 1 }), { maxLength: 10 }), (cuts) => {
        const c = createLogClassifier();
        let prev = 0;
        for (const p of [...new Set(cuts)].sort((a, b) => a - b).concat(buf.length)) {
          c.feed('logs/stdout.log', buf.subarray(prev, p));
          prev = p;
        }
        expect(c.finish()).toEqual(whole);
      }),
      { numRuns: 25 },
    );
  });
});
