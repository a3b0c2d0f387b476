import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { startBackingServices, type BackingServices } from './backing-services.js';
import { ON_BOTH_BACKENDS } from './on-both-backends.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's PostgreSQL cluster ('' when this run needs none). */
    pgUrl: string;
    s3Endpoint: string;
    s3Bucket: string;
  }
}

// Files that always run the archive on PostgreSQL + S3, whichever project runs them.
const NEEDS_BACKING = /backends|replicas/;

let services: BackingServices | null = null;

// Tests spawn the built CLI and agent (real processes), so build them once per run.
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  // A run of a few named files starts PostgreSQL only when one of them needs it (a vitest filter is a substring of the path).
  const filters = process.argv.slice(2).filter((a, i, all) => !a.startsWith('-') && a !== 'run' && a !== 'watch' && all[i - 1] !== '--project');
  const pgProject = project.vitest.projects.some((p) => p.name === 'postgres');
  const needed =
    filters.length === 0 || filters.some((f) => NEEDS_BACKING.test(f) || !/\.test\.ts$/.test(f) || (pgProject && ON_BOTH_BACKENDS.some((p) => p.includes(f))));
  if (needed) services = await startBackingServices();
  project.provide('pgUrl', services?.pgUrl ?? '');
  project.provide('s3Endpoint', services?.s3Endpoint ?? '');
  project.provide('s3Bucket', services?.s3Bucket ?? '');
  return async () => {
    await services?.stop();
  };
}
