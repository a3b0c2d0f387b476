import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { ON_BOTH_BACKENDS } from './test/on-both-backends.js';

// Without PostgreSQL's server binaries (scripts/install-system-deps.sh installs them) CI fails here,
// loudly; a developer's machine runs the embedded project alone and says so.
const PG_READY = ['15', '16', '17'].some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
if (!PG_READY) {
  if (process.env.CI) throw new Error('PostgreSQL server binaries missing (/usr/lib/postgresql/*/bin/initdb): run scripts/install-system-deps.sh as root');
  process.stderr.write('\nvitest: PostgreSQL not installed: the postgres project is SKIPPED (only the embedded SQLite backend is tested). Install it: sudo bash scripts/install-system-deps.sh\n\n');
}

const shared = { testTimeout: 60_000, hookTimeout: 60_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    // Once for the whole run (both projects): builds the CLI, starts one PostgreSQL + s3rver when needed.
    globalSetup: ['test/global-setup.ts'],
    projects: [
      { test: { ...shared, name: 'default', include: ['test/**/*.test.ts'] } },
      ...(PG_READY ? [{ test: { ...shared, name: 'postgres', include: ON_BOTH_BACKENDS, env: { FDIAG_TEST_BACKEND: 'pg', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } } }] : []),
    ],
  },
});
