import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { storageEnv } from './backends.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli.js');

/**
 * How long a server may take to print its address. A cold start on a loaded CI machine (migrations,
 * the ingest worker pool, two cores shared with other test files) took over 15 s; under the 60 s
 * hook timeout (vitest.config.ts) so that this message, not vitest's, says what was waited for.
 */
const SERVER_START_MS = 45_000;

/**
 * Starts `fdiag serve` as a real process on a free port; resolves once it listens. Its archive is
 * the data folder's on the run's backend (helpers/backends.ts) unless `env` names FDIAG_DB.
 */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}): Promise<{ url: string; proc: ChildProcess; output: () => string }> {
  const proc = spawn(process.execPath, [CLI, 'serve', '--data', dataDir, '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, ...('FDIAG_DB' in env ? {} : storageEnv(dataDir)), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`fdiag serve --data ${dataDir} (pid ${proc.pid}) printed no "listening on http://…" line within ${SERVER_START_MS / 1000} s; its output so far: ${out || '(none)'}`));
    }, SERVER_START_MS);
    proc.stdout!.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
  return { url, proc, output: () => out };
}

export function waitExit(proc: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve(proc.exitCode);
    proc.on('exit', (code) => resolve(code));
  });
}
