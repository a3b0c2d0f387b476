// One reading of log-line framing for capture and classifiers: prefixes, ranks and timestamps (with
// their year and zone when the stamp has them).
import { describe, expect, it } from 'vitest';
import { compareLogTimes, innermostFrame, isFrameworkCheckoutPath, isLibraryPath, isoOf, logTimeOf, parseFrame, parseLogTime, parseRank, splitPrefix, visibleText } from '../src/logline.js';

describe('timestamps', () => {
  it('keep the year: the last second of a year comes before the first of the next', () => {
    const dec = parseLogTime('2026-12-31 23:59:59,900 ERROR x')!;
    const jan = parseLogTime('2027-01-01 00:00:01,100 ERROR y')!;
    expect(compareLogTimes(dec, jan)).toBeLessThan(0);
  });

  it('read the zone: 03:00+02:00 is 01:00Z, and an epoch number is UTC', () => {
    const plus2 = parseLogTime('2026-11-30T03:00:00+02:00 worker failed')!;
    const utc = parseLogTime('2026-11-30T01:00:00Z worker failed')!;
    expect(plus2.zoned && utc.zoned).toBe(true);
    expect(compareLogTimes(plus2, utc)).toBe(0);
    expect(compareLogTimes(logTimeOf(Date.UTC(2026, 10, 30, 1) / 1000)!, utc)).toBe(0);
    expect(compareLogTimes(logTimeOf(String(Date.UTC(2026, 10, 30, 1) / 1000))!, utc)).toBe(0);
  });

  it('compare year-less stamps (glog, syslog, vLLM) with dated ones on month, day and time', () => {
    const glog = parseLogTime('E1130 03:00:05.123456 1234 ProcessGroupNCCL.cpp:1484] [Rank 1] Watchdog')!;
    const iso = parseLogTime('[2026-11-30 03:00:04,000][train][ERROR] boom')!;
    const syslog = parseLogTime('Nov 30 03:00:06 node-1 kernel: Out of memory')!;
    const vllm = parseLogTime('ERROR 11-30 03:00:07 [engine.py:12] x')!;
    expect(glog.ms).toBeUndefined();
    expect(compareLogTimes(iso, glog)).toBeLessThan(0);
    expect(compareLogTimes(glog, syslog)).toBeLessThan(0);
    expect(compareLogTimes(syslog, vllm)).toBeLessThan(0);
  });

  it('never compare a bare time of day with a dated stamp (it may be another day)', () => {
    const tod = parseLogTime('12:00:01 ERROR x')!;
    expect(tod.md).toBeUndefined();
    expect(compareLogTimes(tod, parseLogTime('2026-11-30 11:00:00 y')!)).toBeUndefined();
    expect(compareLogTimes(tod, parseLogTime('12:00:02 y')!)).toBeLessThan(0);
  });

  it("write torchrun's summary stamp back as ISO without inventing a zone", () => {
    expect(isoOf(parseLogTime('2026-11-30_04:00:01')!)).toBe('2026-11-30T04:00:01');
    expect(isoOf(parseLogTime('2026-11-30T04:00:01.250Z')!)).toBe('2026-11-30T04:00:01.250Z');
  });

  it('a line without a stamp has none', () => {
    expect(parseLogTime('RuntimeError: CUDA error: an illegal memory access was encountered')).toBeUndefined();
  });
});

describe('prefixes and ranks', () => {
  it('split torchrun, Ray and vLLM prefixes, also nested', () => {
    expect(splitPrefix('[rank3]: Traceback (most recent call last):')).toMatchObject({ stream: 'rank3', rank: 3, rest: 'Traceback (most recent call last):' });
    expect(splitPrefix('[default1]:RuntimeError: x')).toMatchObject({ rank: 1, rest: 'RuntimeError: x' });
    expect(splitPrefix('(WorkerDict pid=3120, ip=10.0.0.2) [rank0]:   File "a.py", line 1')).toMatchObject({ stream: 'pid3120', actor: 'WorkerDict', pid: 3120, rank: 0, rest: '  File "a.py", line 1' });
    expect(splitPrefix('ERROR 11-30 04:00:00 [worker.py:123] ValueError: bad')).toMatchObject({ stream: '', rank: null, rest: 'ValueError: bad' });
  });

  it("find the rank in PyTorch's own wording", () => {
    expect(parseRank('[Rank 5] Watchdog caught collective operation timeout')).toBe(5);
    expect(parseRank('[rank12]:[E1130 03:00:00] x')).toBe(12);
    expect(parseRank('step 12 loss 0.1')).toBeUndefined();
  });

  it('show what the terminal showed: no ANSI, the last \\r segment', () => {
    expect(visibleText('\x1b[31mERROR\x1b[0m boom')).toBe('ERROR boom');
    expect(visibleText('\x1b[?2004l\rbash: x: command not found')).toBe('bash: x: command not found');
  });
});

describe('traceback frames', () => {
  it('read CPython, faulthandler and IPython frame lines, after launcher prefixes', () => {
    expect(parseFrame('  File "/workspace/train.py", line 12, in main')).toEqual({ path: '/workspace/train.py', line: 12, fn: 'main', library: false, checkout: false });
    expect(parseFrame('  File "/usr/lib/python3.10/threading.py", line 320 in wait')).toMatchObject({ fn: 'wait', library: true });
    expect(parseFrame('File ~/venv/lib/python3.11/site-packages/openai/_base_client.py:1029, in SyncAPIClient._request(self, cast_to)')).toMatchObject({ line: 1029, library: true });
    expect(parseFrame(splitPrefix('[rank3]:   File "train.py", line 7, in <module>').rest)).toMatchObject({ path: 'train.py', library: false });
    expect(parseFrame('    x = batch["File"]')).toBeNull();
  });

  it('call installed packages, the standard library and frozen modules library code; the project, notebooks and stdin the run\'s own', () => {
    for (const p of ['/opt/conda/lib/python3.10/site-packages/torch/nn/modules/module.py', '/usr/lib/python3/dist-packages/yaml/__init__.py', '/usr/lib/python3.8/json/decoder.py', 'C:\\Python311\\Lib\\asyncio\\base_events.py', '<frozen importlib._bootstrap>', '/root/.local/lib/python3.9/site-packages/x.py']) {
      expect(isLibraryPath(p), p).toBe(true);
    }
    for (const p of ['train.py', '/workspace/verl/verl/trainer/main_ppo.py', '<stdin>', '/tmp/ipykernel_123/456.py', '/home/u/mylib/site_utils.py']) {
      expect(isLibraryPath(p), p).toBe(false);
    }
  });

  it("tell a framework's clone (the package folder under a folder named for it) from the run's own folders", () => {
    for (const p of ['/opt/megatron-lm/megatron/core/parallel_state.py', '/workspace/verl/verl/trainer/main_ppo.py', '/root/OpenRLHF/openrlhf/cli/train_ppo_ray.py', '/home/u/transformers/src/transformers/trainer.py', 'C:\\src\\DeepSpeed\\deepspeed\\runtime\\engine.py']) {
      expect(isFrameworkCheckoutPath(p), p).toBe(true);
    }
    // Installed copies are library code (isLibraryPath), and a project named after a framework is the run's own.
    for (const p of ['/opt/conda/lib/python3.10/site-packages/verl/verl/x.py', '/workspace/verl_exp/train.py', '/home/u/vllm-bench/bench.py', '/home/alice/nemo-asr-finetune/nemo/train.py', '/workspace/verl/recipe/dapo/main.py', 'train.py']) {
      expect(isFrameworkCheckoutPath(p), p).toBe(false);
    }
    expect(parseFrame('  File "/opt/megatron-lm/megatron/core/parallel_state.py", line 532, in initialize_model_parallel')).toMatchObject({ library: false, checkout: true });
  });

  it('take the innermost frame of a traceback, passing over the import machinery', () => {
    const tb = 'Traceback (most recent call last):\n  File "train.py", line 1, in <module>\n    import a\n  File "<frozen importlib._bootstrap>", line 1176, in _find_and_load\n  File "/opt/venv/lib/python3.11/site-packages/a/__init__.py", line 2, in <module>\n    import b\n  File "<frozen importlib._bootstrap>", line 1140, in _find_and_load_unlocked';
    expect(innermostFrame(tb)).toMatchObject({ path: '/opt/venv/lib/python3.11/site-packages/a/__init__.py', library: true });
    expect(innermostFrame('no frames here')).toBeNull();
  });

  it("read Ray's bare (pid=N) worker prefix", () => {
    expect(splitPrefix('(pid=2231) KeyError: 1')).toMatchObject({ stream: 'pid2231', pid: 2231, actor: null, rest: 'KeyError: 1' });
  });
});
