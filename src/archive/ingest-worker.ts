// A worker thread of the ingest pool (ingest-pool.ts): one bundle's verify + classify. Errors come
// back as data, since an Error's class (BundleError → 4xx) does not survive the thread boundary.
import { BundleError } from '../bundle/errors.js';
import { analyzeBundle, type Analysis, type AnalyzeTask } from './analyze.js';

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
