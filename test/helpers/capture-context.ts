// The CaptureContext a collector sees after a run exited 1, for collector tests: each test names only
// what its case is about (env, cwd, the run's window, options); the rest is a plain failed run.
import type { CaptureContext } from '../../src/capture/collector.js';

export function captureContext(over: Partial<Omit<CaptureContext, 'options'>> & { options?: Partial<CaptureContext['options']> } = {}): CaptureContext {
  const { options, ...rest } = over;
  return {
    command: ['python', 'train.py'],
    cwd: '/work/run',
    env: {},
    childPid: null,
    exit: { code: 1, signal: null },
    startedAt: new Date(Date.now() - 60_000),
    endedAt: new Date(),
    teedLogs: new Map(),
    produced: new Map(),
    ...rest,
    options: { runId: 'r1', labels: {}, logFiles: [], configFiles: [], ...options },
  };
}
