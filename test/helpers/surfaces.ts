// The surfaces a user reads an archive through, opened over one data folder: the CLI's JSON (fdiag query),
// the API (list, detail, export) and the web page of an in-process server. The tests that check every
// surface agrees (no infra failure shown as reward 0) load the folder their own way, then read it here.
import { spawnSync } from 'node:child_process';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { storageEnvOfArgs, storageFor } from './backends.js';
import { tempDir } from './bundles.js';
import { CLI } from './server.js';

export interface CliResult {
  code: number | null;
  out: string;
  err: string;
}

/** Run the built CLI with the archive named by its arguments only (no FDIAG_DB/FDIAG_DATA from the environment). */
export function fdiagCli(...args: string[]): CliResult {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FDIAG_DB: '', FDIAG_DATA: '', ...storageEnvOfArgs(args) } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export interface Surfaces<Item> {
  data: string;
  /** `GET /v1/failures` items. */
  api: Item[];
  /** `fdiag query --format json` over the same folder. */
  cli: CliResult;
  get: (path: string) => Promise<Response>;
  close: () => Promise<void>;
}

/**
 * A fresh data folder filled by `load` (through the CLI), then read by the CLI and by a server with a
 * read token. The CLI runs before the server starts: a synchronous child process would stall it.
 */
export async function openSurfaces<Item>(opts: { prefix: string; token: string; limit: number; load: (data: string) => void | Promise<void> }): Promise<Surfaces<Item>> {
  const data = tempDir(opts.prefix);
  await opts.load(data);
  const cli = fdiagCli('query', '--data', data, '--format', 'json', '--limit', String(opts.limit));
  const srv: RunningServer = await startServer({ ...storageFor(data), dataDir: data, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${opts.token}:read` } });
  const get = (p: string) => fetch(`${srv.url}${p}`, { headers: { authorization: `Bearer ${opts.token}` } });
  const r = await get(`/v1/failures?limit=${opts.limit}`);
  if (r.status !== 200) {
    await srv.close();
    throw new Error(`GET /v1/failures answered ${r.status}: ${await r.text()}`);
  }
  const api = ((await r.json()) as { items: Item[] }).items;
  return { data, api, cli, get, close: () => srv.close() };
}
