// A worker thread of the ingest pool (ingest-pool.ts): one bundle's verify + classify. Errors come
// back as data, since an Error's class (BundleError → 4xx) does not survive the thread boundary.
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { BundleError } from '../bundle/errors.js';
import { analyzeBundle, type Analysis, type AnalyzeTask } from './analyze.js';

/**
 * FDIAG_INGEST_NICE: how much lower a worker thread runs than the event loop (added to its nice
 * value; Linux, where a thread's nice value is its own). With every core busy verifying and
 * classifying, the loop that answers reads and commits ingests is then scheduled first. Off by
 * default: on a machine shared with other work the workers also yield to every other process
 * there, and ingest slows down accordingly (docs/scale-out.md has the measurement).
 */
export function workerNice(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.FDIAG_INGEST_NICE ?? 0);
  return Number.isSafeInteger(n) && n >= 0 && n <= 19 ? n : 0;
}

/** This thread's id (Linux: /proc/thread-self is `<pid>/task/<tid>`), or null elsewhere. */
export function threadId(): number | null {
  if (process.platform !== 'linux') return null;
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  return Number.isSafeInteger(tid) && tid > 0 ? tid : null;
}

// Once per thread, as the module loads (piscina loads it in every thread it starts). A sandbox that
// refuses it (seccomp) costs only the priority, said once per thread, never the server's start.
const tid = isMainThread ? null : threadId();
if (tid !== null && workerNice() > 0) {
  try {
    setPriority(tid, Math.min(19, getPriority(tid) + workerNice()));
  } catch (err) {
    process.stderr.write(`fdiag: ingest worker runs at the event loop's priority (setpriority: ${(err as Error).message})\n`);
  }
}

export type WorkerAnswer = { ok: true; analysis: Analysis } | { ok: false; bundleError?: { code: string; message: string }; error?: { message: string; code?: string } };

export default async function analyzeInWorker(task: AnalyzeTask): Promise<WorkerAnswer> {
  try {
    return { ok: true, analysis: await analyzeBundle(task) };
  } catch (err) {
    if (err instanceof BundleError) return { ok: false, bundleError: { code: err.code, message: err.message } };
    const e = err as NodeJS.ErrnoException;
    return { ok: false, error: { message: e.message ?? String(err), code: e.code } };
  }
}

/** Called once per thread at the pool's start (IngestPool.warm): importing this module is the work. */
export function warm(): true {
  return true;
}
