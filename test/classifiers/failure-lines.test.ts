// The failure lines the vocabulary fallback reads: chosen by the producers' own severity markers, kept
// bounded while the log streams, the same however the log is cut into chunks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/classifiers/engine.js';
import { FIRST_KEPT, LAST_KEPT } from '../../src/classifiers/failure-lines.js';

function failureLinesOf(text: string | Buffer, cuts: number[] = [], file = 'logs/stdout.log') {
  const e = new Engine();
  const buf = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const points = [...new Set(cuts.map((x) => Math.floor(x * buf.length)))].sort((a, b) => a - b);
  let prev = 0;
  for (const p of [...points, buf.length]) {
    if (p > prev) e.feed(file, buf.subarray(prev, p));
    prev = Math.max(prev, p);
  }
  e.finish();
  return e.failureLines();
}

/** A word per number without digits (the repeat check ignores digits). */
const word = (n: number): string => {
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return s;
};

describe('failure lines: what producers flag as a failure', () => {
  it('keeps lines marked by each producer’s severity markers and none of their info chatter', () => {
    const log = [
      'vm:948:948 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM',
      'INFO 12-02 10:11:12 [metrics.py:455] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 12.1 tokens/s',
      '[rank0]:[W1202 10:11:12.345678 1234 ProcessGroupNCCL.cpp:4115] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now',
      '[rank1]:[E1202 10:11:13.345678 1234 ProcessGroupNCCL.cpp:1484] [PG 0 Rank 1] Process group watchdog thread terminated with exception',
      'ERROR 12-02 10:11:14 [engine.py:160] Engine background task failed',
      '[2026-12-02 10:11:15,123 E 4521 4580] core_worker.cc:512: Unexpected error from the GCS',
      'panic: runtime error: invalid memory address or nil pointer dereference',
      'E       assert 3 == 4',
      "thread 'main' panicked at src/main.rs:4:5:",
      'subprocess.CalledProcessError: Command \'["make"]\' returned non-zero exit status 2.',
      '  Warning  FailedPreStopHook  2m  kubelet  PreStopHook failed',
      'step 100 loss 1.23 lr 0.0001',
    ].join('\n');
    const kept = failureLinesOf(log).map((l) => l.line);
    expect(kept).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('keeps the text without the stream prefix, and where the line is', () => {
    const [l] = failureLinesOf('hello\n(WorkerDict pid=3120) [rank0]: shardlib.ChecksumError: shard 12 of 64 is corrupt\n');
    expect(l).toEqual({ file: 'logs/stdout.log', line: 2, text: 'shardlib.ChecksumError: shard 12 of 64 is corrupt' });
  });

  it('keeps a line repeated by every rank once', () => {
    const lines = Array.from({ length: 8 }, (_, r) => `[rank${r}]:[E1202 10:11:13.34 shard_loader.cpp:77] [Rank ${r}] shard 12 checksum mismatch`);
    expect(failureLinesOf(lines.join('\n'))).toHaveLength(1);
  });

  it('skips a line its producer marks as information or a warning, whatever its words', () => {
    const log = [
      'W1201 10:00:00.000000 811 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 2372 closing signal SIGKILL',
      'WARNING:urllib3.connectionpool:Retrying (Retry(total=4)) after connection broken: failed to read',
      'time="2026-12-02T10:11:12Z" level=warning msg="failed to pull layer, retrying"',
      'time="2026-12-02T10:11:13Z" level=error msg="failed to pull layer"',
    ].join('\n');
    expect(failureLinesOf(log).map((l) => l.line)).toEqual([4]);
  });

  it('leaves out a line a rule has judged: fired on, or ruled out', () => {
    const log = [
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.', // cuda.oom fires
      // config.pydantic rules out a request model's validation error (the API's 4xx, not the run's config).
      'pydantic_core._pydantic_core.ValidationError: 1 validation error for ChatCompletionRequest',
      // An agent-install rule counts only in an agent's log: in the run's own log it is not the agent's install.
      'ERROR: No matching distribution found for openhands-ai==0.99.0',
      'shardlib.ChecksumError: shard 12 of 64 is corrupt',
    ].join('\n');
    expect(failureLinesOf(log).map((l) => l.line)).toEqual([4]);
  });

  it('counts lines of the run log only, not a verifier’s output', () => {
    expect(failureLinesOf('FAILED tests/test_outputs.py::test_result - AssertionError\n', [], 'verifier/test-stdout.txt')).toEqual([]);
  });

  it('keeps the first and the last of many, however many there are (memory bounded by what is kept)', () => {
    const n = 5000;
    const log = Array.from({ length: n }, (_, i) => `ERROR worker ${word(i)} lost its lease`).join('\n');
    const kept = failureLinesOf(log);
    expect(kept).toHaveLength(FIRST_KEPT + LAST_KEPT);
    expect(kept.slice(0, FIRST_KEPT).map((l) => l.line)).toEqual(Array.from({ length: FIRST_KEPT }, (_, i) => i + 1));
    expect(kept.slice(FIRST_KEPT).map((l) => l.line)).toEqual(Array.from({ length: LAST_KEPT }, (_, i) => n - LAST_KEPT + i + 1));
  });

  it('the same lines however the log is cut into chunks, very long lines included', () => {
    const parts: string[] = [];
    for (let i = 0; i < 300; i++) {
      parts.push(i % 7 === 0 ? `ERROR 12-02 10:11:${i % 60} [worker.py:1] request ${word(i)} failed` : `INFO step ${i} loss 0.${i}`);
      if (i === 100) parts.push(`ERROR ${'x'.repeat(6000)} failed`); // longer than a line the engine reads whole
      if (i === 200) parts.push(`${'y'.repeat((1 << 20) + 5000)} ERROR: tail of a huge line`); // past the carry limit
    }
    const buf = Buffer.from(parts.join('\n'), 'utf8');
    const whole = failureLinesOf(buf);
    expect(whole.length).toBeGreaterThan(FIRST_KEPT);
    expect(whole.some((l) => l.text.includes('tail of a huge line') || l.text.includes('xxxx'))).toBe(false);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 }), (cuts) => {
        expect(failureLinesOf(buf, cuts)).toEqual(whole);
      }),
      { numRuns: 12 },
    );
  });

  it('a huge line with no key at its end does not hide the next failure line', () => {
    // The huge line's keys are all in its first MiB (looked at in pieces); it ends on plain bytes.
    const log = [`ERROR ${'z'.repeat((1 << 20) + 5000)}`, 'INFO step 1 loss 0.5', 'ERROR 12-02 10:11:12 [worker.py:1] request upload failed', ''].join('\n');
    for (const cuts of [[], [0.3], [0.5, 0.9999]]) expect(failureLinesOf(log, cuts).map((l) => l.line)).toEqual([3]);
  });
});

