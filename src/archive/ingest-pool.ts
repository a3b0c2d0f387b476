// Worker threads for verify + classify (piscina), so a large bundle never holds up the event loop
// that answers reads. From the sources (tests, tsx) the worker is the .ts file loaded through tsx;
// from the build it is dist/ingest-worker.js beside dist/cli.js.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { BundleError, type BundleErrorCode } from '../bundle/errors.js';
import type { Analysis, AnalyzeTask } from './analyze.js';
import type { WorkerAnswer } from './ingest-worker.js';

export class IngestPool {
  private readonly pool: Piscina;

  constructor(threads = defaultThreads()) {
    const fromSource = import.meta.url.endsWith('.ts');
    this.pool = new Piscina({
      filename: new URL(fromSource ? './ingest-worker.ts' : './ingest-worker.js', import.meta.url).href,
      minThreads: threads,
      maxThreads: threads,
      // No queue limit of its own: what waits is bounded by the requests the server has accepted.
      idleTimeout: 60_000,
      ...(fromSource ? { execArgv: [...process.execArgv, '--import', 'tsx'] } : {}),
    });
  }

  /**
   * Load the worker module in every thread now, not on the first upload: piscina imports a
   * worker's module on its first task, and that import (the whole rule set, the redactor's tables)
   * is tens of MiB and a second of CPU, which the first request would otherwise pay — and a worker
   * that cannot load fails the server's start instead of an upload.
   */
  async warm(): Promise<void> {
    await Promise.all(Array.from({ length: this.pool.options.maxThreads }, () => this.pool.run(null, { name: 'warm' })));
  }

  async analyze(task: AnalyzeTask): Promise<Analysis> {
    const r = (await this.pool.run(task)) as WorkerAnswer;
    if (r.ok) return r.analysis;
    if (r.bundleError) throw new BundleError(r.bundleError.code as BundleErrorCode, r.bundleError.message);
    const err = new Error(r.error?.message ?? 'ingest worker failed') as NodeJS.ErrnoException;
    if (r.error?.code) err.code = r.error.code;
    throw err;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** FDIAG_INGEST_WORKERS, else one per CPU. */
export function defaultThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.FDIAG_INGEST_WORKERS);
  if (Number.isSafeInteger(n) && n > 0) return n;
  return Math.max(1, availableParallelism());
}
