// The Ray collector on a session folder laid out as Ray writes it (FORMATS §5.1):
// <RAY_TMPDIR>/ray/session_<date>_<time>_<usec>_<pid>/logs/…, with session_latest a symlink to it.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRayCollector, raySessionDir } from '../../../src/capture/collectors/ray.js';
import type { CaptureContext } from '../../../src/capture/collector.js';
import { captureContext } from '../../helpers/capture-context.js';

const root = mkdtempSync(join(tmpdir(), 'fdiag-ray-'));
const SESSION = 'session_2026-11-30_04-58-26_128000_45083';
const logs = join(root, 'ray', SESSION, 'logs');
const now = Date.now();

function put(name: string, text: string, ageS: number): void {
  writeFileSync(join(logs, name), text);
  const t = new Date(now - ageS * 1000);
  utimesSync(join(logs, name), t, t);
}

beforeAll(() => {
  mkdirSync(logs, { recursive: true });
  symlinkSync(SESSION, join(root, 'ray', 'session_latest'));
  put('raylet.out', '[2026-11-30 04:58:27,101 I 45120 45120] (raylet) memory_monitor.cc:47: MemoryMonitor initialized with usage threshold at 242352218112 bytes (0.95 system memory), total system memory bytes: 255107596288\n'.repeat(3), 20);
  put('raylet.err', '', 20);
  put(
    'gcs_server.out',
    '[2026-11-30 05:01:12,554 I 45090 45090] (gcs_server) gcs_worker_manager.cc:55: Reporting worker exit, worker id = 3f1c, node id = 9a2e, address = 192.0.2.2, exit_type = NODE_OUT_OF_MEMORY, exit_detail = Task was killed due to the node running low on memory.\n',
    10,
  );
  put('monitor.log', 'autoscaler: no pending requests\n', 30);
  put('dashboard_agent.log', `${'x'.repeat(99)}\n`.repeat(6000), 40); // larger than head+tail: cut in the middle
  put('log_monitor.log', 'not collected\n', 5);
  // Ten workers: most idle (empty files), a few with output, of different ages.
  for (let i = 0; i < 10; i++) {
    const id = `0${i}a1b2c3d4e5f6-01000000-${45200 + i}`;
    put(`worker-${id}.out`, i % 3 === 0 ? `:task_name:train_step ${i}\n` : '', 100 - i);
    put(`worker-${id}.err`, i % 3 === 0 ? `:actor_name:Trainer\nTraceback (most recent call last):\n  RuntimeError: step ${i}\n` : '', 100 - i);
    put(`python-core-worker-${id.slice(0, 12)}_${45200 + i}.log`, `core worker ${i}\n`, 100 - i);
  }
  put('python-core-driver-01000000ffffffffffffffffffffffffffffffffffffffffffffffff_45083.log', 'task_manager.cc:1005: task failed, retries left: 0, oom retries left: 14\n', 15);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function ctx(env: NodeJS.ProcessEnv, startedAt: Date | null = new Date(now - 300_000)): CaptureContext {
  return captureContext({ options: { runId: 'ray-run' }, command: ['python', 'driver.py'], env, startedAt, endedAt: new Date(now) });
}

describe('ray collector', () => {
  it('finds the session through RAY_TMPDIR and keeps system logs plus the newest worker logs', async () => {
    expect(raySessionDir({ RAY_TMPDIR: root })).toBe(join(root, 'ray', 'session_latest'));
    expect(raySessionDir({})).toBe('/tmp/ray/session_latest');
    const r = await createRayCollector().collect(ctx({ RAY_TMPDIR: root }), new AbortController().signal);
    if ('skipped' in r) throw new Error(r.skipped);
    const paths = r.files.map((f) => f.path);
    expect(paths.slice(0, 5)).toEqual(['ray/raylet.out', 'ray/raylet.err', 'ray/gcs_server.out', 'ray/monitor.log', 'ray/dashboard_agent.log']);
    expect(paths).not.toContain('ray/log_monitor.log');
    // Workers with output first, newest first: 9, 6, 3, 0; the empty ones only fill what is left.
    expect(paths.filter((p) => /worker-.*\.err$/.test(p))).toEqual(['09', '06', '03', '00'].map((i) => `ray/worker-${i}a1b2c3d4e5f6-01000000-452${i}.err`));
    expect(paths.filter((p) => p.startsWith('ray/python-core-worker-'))).toHaveLength(3);
    expect(paths).toContain('ray/python-core-driver-01000000ffffffffffffffffffffffffffffffffffffffffffffffff_45083.log');
    expect(String(r.files.find((f) => f.path === 'ray/gcs_server.out')!.data)).toContain('exit_type = NODE_OUT_OF_MEMORY');
    const dash = String(r.files.find((f) => f.path === 'ray/dashboard_agent.log')!.data);
    // 321,472 bytes over the budget, plus the partial lines either side of the cut (< 100 bytes each)
    const cut = Number(/\[fdiag: (\d+) bytes cut\]/.exec(dash)?.[1]);
    expect(cut).toBeGreaterThanOrEqual(321_472);
    expect(cut).toBeLessThan(321_472 + 200);
    expect(dash.length + cut - `\n[fdiag: ${cut} bytes cut]\n`.length).toBe(600_000);
    const session = JSON.parse(String(r.files.at(-1)!.data));
    expect(r.files.at(-1)!.path).toBe('ray/session.json');
    expect(session).toMatchObject({ session: SESSION, logFiles: 37, leftOut: [], staleSession: false });
    expect(session.kept.find((k: { name: string }) => k.name === 'dashboard_agent.log')).toMatchObject({ bytes: 600_000, cutBytes: cut });
    expect(r.labels).toEqual({ 'ray.session': SESSION });
  });

  it('stays within its byte budget and lists what it left out', async () => {
    const r = await createRayCollector({ sessionDir: join(root, 'ray', 'session_latest'), budgetBytes: 100_000 }).collect(ctx({}), new AbortController().signal);
    if ('skipped' in r) throw new Error(r.skipped);
    const total = r.files.filter((f) => f.path !== 'ray/session.json').reduce((n, f) => n + Buffer.byteLength(f.data), 0);
    expect(total).toBeLessThanOrEqual(100_000);
    expect(JSON.parse(String(r.files.at(-1)!.data)).leftOut).toEqual(['dashboard_agent.log']);
  });

  it('marks a session_latest older than the run as stale', async () => {
    const r = await createRayCollector().collect(ctx({ FDIAG_RAY_SESSION_DIR: join(root, 'ray', 'session_latest') }, new Date(now + 3600_000)), new AbortController().signal);
    if ('skipped' in r) throw new Error(r.skipped);
    expect(JSON.parse(String(r.files.at(-1)!.data)).staleSession).toBe(true);
  });

  it('is skipped when there is no session folder', async () => {
    expect(await createRayCollector().collect(ctx({ RAY_TMPDIR: join(root, 'nope') }), new AbortController().signal)).toEqual({
      skipped: `no Ray session folder at ${join(root, 'nope', 'ray', 'session_latest')}`,
    });
  });
});
