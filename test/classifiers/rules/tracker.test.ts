// Weights & Biases ending wandb.init() (rules/tracker.ts): its credential checks and init timeout decide a
// run that died there; its retry note decides only a log where nothing else failed.
import { describe, expect, it } from 'vitest';
import { classifyText } from '../helpers.js';

function top(text: string): [string, string | undefined] {
  const d = classifyText(text);
  return [d.class, d.evidence[0]?.rule];
}

// wandb's terminal prefix and a Lightning run's traceback around wandb.init(), as a cluster job prints them.
const INIT_TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/workspace/train.py", line 61, in <module>',
  '    logger = WandbLogger(project="grpo", name=run_name)',
  '  File "/opt/conda/lib/python3.11/site-packages/wandb/sdk/wandb_init.py", line 1312, in init',
];

describe('W&B at wandb.init()', () => {
  it('no key on a node without a terminal is the configuration (old and new wordings)', () => {
    expect(top([...INIT_TRACEBACK, 'wandb.errors.UsageError: api_key not configured (no-tty). call wandb.login(key=[your_api_key])'].join('\n'))).toEqual(['config.error', 'config.tracker_credentials']);
    expect(top([...INIT_TRACEBACK, 'wandb.errors.errors.UsageError: No API key configured. Use `wandb login` to log in.'].join('\n'))).toEqual(['config.error', 'config.tracker_credentials']);
  });

  it('the init timeout after retries is the W&B API timing out, not the run', () => {
    const log = ['wandb: Network error (ReadTimeout), entering retry loop.', ...INIT_TRACEBACK, 'wandb.errors.errors.CommError: Timed out while retrying: 504 Gateway Timeout', 'Consider increasing the init_timeout setting:', '  wandb.init(settings=wandb.Settings(init_timeout=...))'].join('\n');
    expect(top(log)).toEqual(['api.timeout', 'tracker.init_timeout']);
  });

  it('a run that hung in its retry loop, nothing else failing, is the network path to W&B', () => {
    const log = ['>>> wandb.init()', 'wandb: W&B API key is configured (use `wandb login --relogin` to force relogin)', 'wandb: Network error (ConnectTimeout), entering retry loop.', 'wandb: Network error (ConnectTimeout), entering retry loop.'].join('\n');
    expect(top(log)).toEqual(['network.error', 'tracker.network_retry']);
  });

  it('the retry note never outweighs a real failure in the same log', () => {
    const log = ['wandb: Network error (ConnectionError), entering retry loop.', '[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.14 GiB of which 1.05 GiB is free.'].join('\n');
    expect(top(log)[0]).toBe('cuda.oom');
    const killed = ['wandb: Network error (ConnectTimeout), entering retry loop.', 'E1201 10:00:00.000000 811 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 0 (pid: 2371) of binary: /usr/bin/python'].join('\n');
    expect(top(killed)[0]).toBe('host.killed');
  });

  it('nor is it the rank a collective timeout waited on (wandb retries in a thread of its own)', () => {
    const log = ['wandb: Network error (ReadTimeout), entering retry loop.', '[rank1]:[E1201 10:00:00.000000000 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4412, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600086 milliseconds before timing out.'].join('\n');
    expect(top(log)[0]).toBe('nccl.timeout');
  });
});
