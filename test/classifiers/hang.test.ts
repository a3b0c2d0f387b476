// Live bundles (trigger stall/snapshot) are decided from the live evidence. The bundles here are made
// by the real agent on real processes (a job waiting on a lock, one waiting for an HTTP answer that
// never comes), and the flight-recorder cases read real torch 2.11 dumps recorded on 2×H200 through
// the real nccl collector.
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyBundle } from '../../src/classifiers/index.js';
import { createNcclCollector } from '../../src/capture/collectors/nccl.js';
import { findExecutable } from '../../src/capture/gpu/exec.js';
import type { CaptureContext } from '../../src/capture/collector.js';
import { AGENT, baseEnv, bundlesIn, readBundle, run, tempDirs } from '../capture/helpers.js';

const mk = tempDirs();
// scripts/install-system-deps.sh installs py-spy where pip can; without it only /proc states are taken.
const PY_SPY = findExecutable('py-spy', process.env.PATH);

async function stallBundle(d: string, script: string, extraEnv: Record<string, string> = {}) {
  writeFileSync(join(d, 'job.py'), script);
  const r = await run(AGENT, ['capture', '--stall-after', '1s', '--stall-action', 'kill', '--stall-kill-grace', '1s', '--', 'python3', 'job.py'], { cwd: d, env: baseEnv(d, extraEnv) });
  expect(r.code).toBe(143);
  const b = await readBundle(bundlesIn(join(d, 'fdiag-bundles'))[0]);
  const files = new Map<string, string>();
  for (const f of b.files) files.set(f.path, b.text(f.path));
  return { b, files, d: classifyBundle({ manifest: b.manifest, files }) };
}

describe('stall bundles of real processes', () => {
  it('a job blocked on a queue nobody fills: job.stall, waiting on a queue or lock, named in the stack', async () => {
    const { d: diag } = await stallBundle(mk(), `import queue\nq = queue.Queue()\nprint("step 1", flush=True)\ndef next_batch():\n    return q.get()\nnext_batch()\n`);
    expect(diag.class).toBe('job.stall');
    expect(diag.category).toBe('infra');
    expect(diag.hint).toContain('a queue or lock');
    expect(diag.evidence[0].file).toMatch(/^stacks\/pid-\d+\.txt$/);
    if (PY_SPY) {
      expect(diag.hint).toMatch(/at get \(.*queue\.py:\d+\)/);
      expect(diag.hint).toContain('called from next_batch (');
    }
  });

  describe('a job waiting for an HTTP answer that never comes', () => {
    let server: Server;
    let port = 0;
    const sockets: import('node:net').Socket[] = [];
    beforeAll(async () => {
      // accepts and reads the request, never answers
      server = createServer((s) => {
        sockets.push(s);
        s.on('data', () => {});
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => {
      for (const s of sockets) s.destroy();
      server.close();
    });

    it.skipIf(!PY_SPY)('job.stall in an HTTP call, with the frame of the client library and the caller', async () => {
      const { d: diag, files } = await stallBundle(mk(), `import urllib.request\nprint("calling the gateway", flush=True)\ndef ask_model():\n    return urllib.request.urlopen("http://127.0.0.1:${port}/v1/chat/completions").read()\nask_model()\n`);
      expect(diag.class).toBe('job.stall');
      expect(diag.hint).toContain('an HTTP call');
      expect(diag.hint).toContain('called from ask_model (');
      const ev = diag.evidence[0];
      expect(files.get(ev.file)!.split('\n')[ev.line - 1].trim()).toBe(ev.text);
    });
  });

  // multiprocessing's Process.join waits in popen_fork.poll: one wait vocabulary (rules/stall.ts) for live
  // stacks and for the same py-spy dump pasted into a log (the live analysis once had its own list without it).
  it.skipIf(!PY_SPY)('a job joining a child process that never ends: job.stall waiting on a child process, live and from its py-spy dump', async () => {
    const script = `import multiprocessing, time\ndef child():\n    time.sleep(600)\ndef wait_for_worker(p):\n    p.join()\nif __name__ == "__main__":\n    p = multiprocessing.Process(target=child)\n    p.start()\n    print("step 1", flush=True)\n    wait_for_worker(p)\n`;
    const { d: diag, files } = await stallBundle(mk(), script);
    expect(diag.class).toBe('job.stall');
    expect(diag.hint).toContain('a child process');
    expect(diag.hint).toContain('called from wait_for_worker (');
    const dump = files.get(diag.evidence[0]!.file)!;
    const fromLog = classifyBundle({ files: new Map([['logs/stdout.log', `step 1\n$ py-spy dump --pid 4711\n${dump}`]]) });
    expect(fromLog.class).toBe('job.stall');
    expect(fromLog.hint).toContain('a child process');
  });

  it('a failure in the logs is the cause even on a stall bundle', async () => {
    const { d: diag } = await stallBundle(mk(), `import sys, time\nprint("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB. GPU 0 has a total capacity of 139.81 GiB", file=sys.stderr, flush=True)\ntime.sleep(60)\n`);
    expect(diag.class).toBe('cuda.oom');
  });
});

async function frFiles(prefix: string): Promise<Map<string, string>> {
  const ctx = { env: { TORCH_FR_DUMP_TEMP_FILE: prefix }, startedAt: null, options: {} } as unknown as CaptureContext;
  const out = await createNcclCollector({ python: findExecutable('python3', process.env.PATH) }).collect(ctx, new AbortController().signal);
  if ('skipped' in out) throw new Error(out.skipped);
  return new Map(out.files.filter((f) => f.path.endsWith('.json')).map((f) => [f.path, String(f.data)]));
}

describe('flight recorder of a live two-rank job (real torch 2.11 dumps from 2×H200)', () => {
  const manifest = { exit: { code: null, signal: null }, trigger: 'stall', stall: { afterMs: 60_000 } };

  it('rank 1 never joined collective 5: nccl.timeout naming rank 1 as the lagging rank', async () => {
    const files = await frFiles(resolve('fixtures/h200/fr/nccl_trace_rank_'));
    const d = classifyBundle({ manifest, files });
    expect(d.class).toBe('nccl.timeout');
    expect(d.hint).toContain('rank 1 is behind');
    expect(d.hint).toContain('collective 4 vs 5');
    expect(d.evidence[0]).toMatchObject({ file: 'nccl/flight-recorder.json', rule: 'hang.flight_recorder' });
  });

  it('the ranks called different ops at collective 5: nccl.timeout naming the desync', async () => {
    const files = await frFiles(resolve('fixtures/h200/fr-desync/trace_'));
    const d = classifyBundle({ manifest, files });
    expect(d.class).toBe('nccl.timeout');
    expect(d.hint).toContain('desynchronized');
    expect(d.hint).toMatch(/rank 0 nccl:all_reduce, rank 1 nccl:_all_gather_base/);
  });

  it('the same dumps in an exit bundle are left to the log rules', async () => {
    const files = await frFiles(resolve('fixtures/h200/fr/nccl_trace_rank_'));
    const d = classifyBundle({ manifest: { exit: { code: 1, signal: null } }, files });
    expect(d.hint).not.toContain('made no progress');
  });
});
