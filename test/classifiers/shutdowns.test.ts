// Runs stopped from outside (host.killed) and Ray requests that can never fit (config.error), in the
// producers' own formats: Ray's raylet/GCS SIGTERM handlers (src/ray/raylet/main.cc, gcs_server_main.cc),
// the autoscaler's infeasible report (autoscaler/_private/autoscaler.py), systemd-logind's power button
// (logind-button.c), torchelastic's death-signal warning (agent/server/api.py), bash's job status. The
// positives are in docs/rules.md (coverage.test.ts); here are the near-negatives and the orders.
import { describe, expect, it } from 'vitest';
import { classifyText } from './helpers.js';

const raylet = (at: string, msg: string) => `[2025-02-11 20:${at},117 I 4121 4121] ${msg}`;

describe('a Ray node shut down by SIGTERM', () => {
  const sigterm = [
    raylet('07:58', 'accessor.cc:776: Received notification for node, IsAlive = 1 node_id=0e12c858'),
    raylet('08:00', 'main.cc:483: received SIGTERM. Existing local drain request = None'),
    raylet('08:00', 'main.cc:284: Raylet graceful shutdown triggered, reason = EXPECTED_TERMINATION, reason message = received SIGTERM'),
    raylet('08:00', 'main.cc:287: Shutting down...'),
    raylet('08:00', 'agent_manager.cc:80: Agent process with name dashboard_agent/424238335 exited, exit code 0.'),
  ];

  it('is host.killed with nothing else in the log', () => {
    const d = classifyText(sigterm.join('\n'));
    expect(d.class).toBe('host.killed');
    expect(d.evidence[0]!.rule).toBe('ray.raylet_sigterm');
  });

  it('gives way to a failure of the run in the same log (the teardown after it looks the same)', () => {
    const oom = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.06 GiB is free.';
    expect(classifyText([oom, ...sigterm].join('\n')).class).toBe('cuda.oom');
  });

  it('an idle node scaled down by the autoscaler (AUTOSCALER_DRAIN_IDLE) is no kill of the run', () => {
    const d = classifyText(raylet('08:00', 'main.cc:284: Raylet graceful shutdown triggered, reason = AUTOSCALER_DRAIN_IDLE, reason message = idle for 60 s'));
    expect(d.class).not.toBe('host.killed');
  });
});

describe("torchelastic's line for a worker that ended", () => {
  const failed = (code: number) => `[2025-01-01 00:00:00,000] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: ${code}) local_rank: 0 (pid: 4711) of binary: /usr/bin/python3`;
  it('a native crash signal (-11) names no class: unknown, not a guess from the line\'s words', () => {
    const d = classifyText(failed(-11));
    expect(d.class).toBe('unknown');
  });
  it('a SIGKILL (-9) stays host.killed, and the worker\'s own traceback outranks an exit code of 1', () => {
    expect(classifyText(failed(-9)).class).toBe('host.killed');
    const d = classifyText(['Traceback (most recent call last):', '  File "/work/train.py", line 9, in <module>', '    import flash_attn', "ModuleNotFoundError: No module named 'flash_attn'", failed(1)].join('\n'));
    expect(d.evidence[0]!.rule).not.toBe('user.torchelastic_worker_exit');
  });
});

describe('torchelastic death signals', () => {
  it("a terminal's Ctrl-C (SIGINT) is not an outside kill, in either of Python's formats", () => {
    for (const sig of ['2', 'Signals.SIGINT']) {
      const d = classifyText(`[2025-12-01 10:00:00,000] torch.distributed.elastic.agent.server.api: [WARNING] Received ${sig} death signal, shutting down workers`);
      expect(d.class, sig).not.toBe('host.killed');
    }
  });

  it('SIGHUP names the closed terminal in the hint', () => {
    const d = classifyText('W1201 10:00:00.000000 811 torch/distributed/elastic/agent/server/api.py:719] Received Signals.SIGHUP death signal, shutting down workers');
    expect(d.class).toBe('host.killed');
    expect(d.hint).toMatch(/SSH session/);
  });
});

describe("bash's Killed after a progress bar", () => {
  // transformers' "Loading checkpoint shards" / vLLM's "Loading safetensors checkpoint shards": every
  // shard passes through host RAM, so a kill that interrupts the bar is memory evidence (host.killed_loading_weights).
  it('a kill that interrupts a weights-loading bar is the OOM killer (host.oom), with the bar as evidence', () => {
    const d = classifyText('Loading checkpoint shards:   0%|          | 0/2 [00:00<?, ?it/s]Killed');
    expect(d.class).toBe('host.oom');
    expect(d.hint).toMatch(/checkpoint shards into host RAM/);
    const v = classifyText(
      [
        '(VllmWorker rank=0 pid=4711) INFO 03-02 10:01:12 [default_loader.py:262] Loading weights took 1.2 seconds',
        // vLLM's own _BAR_FORMAT ("{desc}: {percentage:3.0f}% Completed | {n_fmt}/{total_fmt} […]").
        'Loading safetensors checkpoint shards:  40% Completed | 2/5 [00:41<01:02, 20.9s/it]',
        'Loading safetensors checkpoint shards:  60% Completed | 3/5 [00:52<00:31, 15.7s/it]',
        '[2026-03-02 10:02:05,017] [ERROR] [launch.py:325:sigkill_handler] [\'/usr/bin/python\', \'-u\', \'serve.py\'] exits with return code = -9',
      ].join('\n'),
    );
    expect(v.class).toBe('host.oom');
  });

  it('a finished bar, or one long before the kill, is no memory evidence: the kill stays host.killed', () => {
    expect(classifyText('Loading checkpoint shards: 100%|██████████| 2/2 [00:05<00:00,  2.51s/it]\nstep 1 loss 2.31\nKilled').class).toBe('host.killed');
    const later = ['Loading checkpoint shards:  50%|█████     | 1/2 [00:03<00:03,  3.10s/it]', ...Array.from({ length: 20 }, (_, i) => `step ${i} loss 2.${i}`), 'Killed'];
    expect(classifyText(later.join('\n')).class).toBe('host.killed');
    // A bar with no kill at all is no memory failure.
    expect(classifyText('Loading checkpoint shards:  50%|█████     | 1/2 [00:03<00:03,  3.10s/it]').class).not.toBe('host.oom');
  });

  it('a bar that only mentions the word is no kill', () => {
    expect(classifyText('Killed jobs:  38%|███▊      | 3/8 [00:02<00:03,  1.28it/s]').class).not.toBe('host.killed');
  });

  it('with the kernel OOM killer line in the bundle it is host.oom (TAXONOMY: a kill with memory evidence)', () => {
    const d = classifyText(
      [
        'Loading checkpoint shards:  38%|███▊      | 3/8 [00:02<00:03,  1.28it/s]Killed',
        '[ 9001.2] Out of memory: Killed process 4711 (python) total-vm:98119556kB, anon-rss:86538204kB, file-rss:80652kB, shmem-rss:16kB, UID:0 pgtables:170000kB oom_score_adj:0',
      ].join('\n'),
    );
    expect(d.class).toBe('host.oom');
  });
});

describe('Ray resource requests', () => {
  it('an infeasible request beats the placement-group timeout it causes', () => {
    const d = classifyText(
      [
        "(autoscaler +34s) Error: No available node types can fulfill resource request defaultdict(<class 'float'>, {'CPU': 8.0, 'GPU': 8.0}). Add suitable node types to this cluster to resolve this issue.",
        'Traceback (most recent call last):',
        '  File "/app/train.py", line 40, in <module>',
        '    pg = placement_group(bundles)',
        'RuntimeError: Failed to create placement group with 8 bundles (requiring 8.0 GPUs, 8.0 CPUs total) in 180 seconds. This might indicate insufficient GPU resources.',
      ].join('\n'),
    );
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]!.rule).toBe('ray.infeasible_request');
    expect(d.hint).toContain("{'CPU': 8.0, 'GPU': 8.0}");
  });

  it('a request that fits but waits for busy resources stays a stall', () => {
    const d = classifyText(
      "(autoscaler +2m) Warning: The following resource request cannot be scheduled right now: {'GPU': 1.0, 'CPU': 1.0}. This is likely due to all cluster resources being claimed by actors. Consider creating fewer actors or adding more nodes to this Ray cluster.",
    );
    expect(d.class).toBe('job.stall');
  });
});
