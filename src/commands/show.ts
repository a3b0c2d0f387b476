// `fdiag show ID` (what the failure page shows, in a terminal) and `fdiag pull ID` (the bundle),
// from the local archive or, with --server (or FDIAG_SERVER), from an fdiag server. A local id
// may be shortened to a unique prefix, as `fdiag query` prints it.
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Option, type Command } from 'commander';
import { buildFailureView, type FailureView } from '../archive/failure-view.js';
import { openArchive, type FailureDetail } from '../archive/index.js';
import { bundleFileName } from '../api/routes/failure-bundle.js';
import { failurePageUrl } from '../capture/upload.js';
import { archiveExists, archivePaths, terminalSafe, UsageError } from './common.js';
import { CliError, withExamples } from './program.js';

type FailureRecord = FailureDetail;

interface Source {
  /** The failure, or a CliError saying why not (no such id, ambiguous prefix, server refused). */
  get(id: string): Promise<FailureRecord>;
  readFile(id: string, path: string): Promise<Buffer | undefined>;
  bundle(id: string): Promise<Readable>;
  pageUrl(id: string): string | null;
  close(): Promise<void>;
}

interface SourceOpts {
  server?: string;
  token?: string;
  db?: string;
  data?: string;
  timeout?: string;
}

const notFound = (id: string) => new CliError(`no failure ${id}`, 1);

async function localSource(opts: SourceOpts): Promise<Source> {
  const paths = archivePaths(opts);
  if (!archiveExists(paths.dbFile)) throw new CliError(`no archive at ${paths.dbFile} (give --data/--db, or --server URL)`, 1);
  const archive = await openArchive(paths);
  const resolveId = async (id: string): Promise<string> => {
    if (!/^[0-9a-f]{4,64}$/.test(id)) throw new UsageError(`a failure id is 4-64 hex digits, got ${JSON.stringify(id)}`);
    const ids = await archive.idsWithPrefix(id);
    if (ids.length === 0) throw notFound(id);
    if (ids.length > 1) throw new UsageError(`${id} is the start of more than one failure id: give more of it`);
    return ids[0]!;
  };
  return {
    async get(id) {
      const f = await archive.get(await resolveId(id));
      if (!f) throw notFound(id);
      return f;
    },
    async readFile(id, path) {
      return (await archive.readFile(id, path))?.data;
    },
    async bundle(id) {
      const b = await archive.openBundle(await resolveId(id));
      if (!b) throw notFound(id);
      return b.stream;
    },
    pageUrl: () => null,
    close: () => archive.close(),
  };
}

function remoteSource(opts: SourceOpts & { server: string }): Source {
  const base = opts.server.replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]/.test(base)) throw new UsageError(`--server wants an http(s) URL, got ${JSON.stringify(opts.server)}`);
  const timeoutMs = opts.timeout ? Number(opts.timeout) : 30_000;
  const call = async (path: string): Promise<Response> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {}, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      throw new CliError(`cannot reach ${base}: ${e.cause?.code ?? e.message}`, 1);
    }
    return res;
  };
  const fail = async (res: Response, id: string): Promise<never> => {
    if (res.status === 404) throw notFound(id);
    let msg = `HTTP ${res.status}`;
    try {
      const body = (await res.json()) as { error?: { message?: string } };
      if (body?.error?.message) msg += `: ${body.error.message}`;
    } catch {
      /* not our error shape */
    }
    throw new CliError(`${base} refused: ${msg}${res.status === 401 || res.status === 403 ? ' (give --token or set FDIAG_TOKEN)' : ''}`, res.status === 401 || res.status === 403 ? 2 : 1);
  };
  const checkId = (id: string) => {
    if (!/^[0-9a-f]{64}$/.test(id)) throw new UsageError(`with --server give the full 64-digit id (the page URL ends with it), got ${JSON.stringify(id)}`);
  };
  return {
    async get(id) {
      checkId(id);
      const res = await call(`/v1/failures/${id}`);
      if (!res.ok) return fail(res, id);
      return (await res.json()) as FailureRecord;
    },
    async readFile(id, path) {
      const res = await call(`/v1/failures/${id}/files/${path.split('/').map(encodeURIComponent).join('/')}`);
      if (!res.ok) return undefined;
      return Buffer.from(await res.arrayBuffer());
    },
    async bundle(id) {
      checkId(id);
      const res = await call(`/v1/failures/${id}/bundle`);
      if (!res.ok || !res.body) return fail(res, id);
      return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>);
    },
    pageUrl: (id) => failurePageUrl(base, id),
    close: async () => {},
  };
}

async function openSource(opts: SourceOpts): Promise<Source> {
  return opts.server ? remoteSource({ ...opts, server: opts.server }) : localSource(opts);
}

const mib = (v: number | null) => (v === null ? '-' : v >= 10_000 ? `${(v / 1024).toFixed(1)} GiB` : `${Math.round(v)} MiB`);
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The text of `fdiag show`: what the failure page shows first, in the same order. */
export function renderShow(f: FailureRecord, d: FailureView, page: string | null): string {
  const o: string[] = [];
  o.push(`${f.class} (${f.category ?? 'unknown'})  confidence ${f.diagnosis.confidence.toFixed(2)}`);
  o.push(`  id      ${f.id}`);
  o.push(`  run     ${f.runId} (${f.kind})  host ${f.host}  failed ${f.failedAt}  ${f.signal ? `signal ${f.signal}` : `exit ${f.exitCode ?? '?'}`}`);
  if (f.hint) o.push(`  hint    ${f.hint}`);
  if (page) o.push(`  page    ${page}`);
  if (d.evidence.length) {
    o.push('', 'Evidence');
    for (const e of d.evidence) o.push(`  ${e.file}:${e.line} [${e.rule}]${e.count > 1 ? ` (×${e.count})` : ''} ${e.shown}`);
  }
  if (d.exceptions.length) {
    o.push('', 'Exception (root cause first)');
    d.exceptions.forEach((e, i) => {
      const where = e.file ? ` at ${e.file}:${e.line ?? '?'}` : '';
      o.push(`  ${i === 0 ? '' : e.wrapper ? 'wrapped by: ' : 'also: '}${e.type}${e.rank !== null ? ` (rank ${e.rank})` : ''}${where}${e.message ? `: ${e.message.split('\n')[0]!.slice(0, 300)}` : ''}`);
    });
  }
  if (d.ranks.length) {
    o.push('', `Ranks${d.firstFailingRank !== null ? ` (rank ${d.firstFailingRank} failed first)` : ''}`);
    o.push(`  ${pad('rank', 6)}${pad('GPU', 5)}${pad('process', 11)}${pad('GPU used/total', 22)}${pad('OOM tried', 11)}${pad('free', 11)}${pad('PyTorch alloc', 14)}capacity`);
    for (const r of d.ranks) {
      const mark = r.failedFirst ? '*' : '';
      o.push(
        `  ${pad(`${r.rank ?? '?'}${mark}`, 6)}${pad(String(r.gpuIndex ?? '?'), 5)}${pad(mib(r.processUsedMiB), 11)}${pad(`${mib(r.gpuUsedMiB)} / ${mib(r.gpuTotalMiB)}`, 22)}${pad(mib(r.oom?.triedMiB ?? null), 11)}${pad(mib(r.oom?.freeMiB ?? null), 11)}${pad(mib(r.oom?.allocatedByPyTorchMiB ?? null), 14)}${mib(r.oom?.capacityMiB ?? null)}`,
      );
    }
    if (d.workersGone) o.push('  the failing workers had exited by capture time: the OOM columns are the figures of their own OOM messages');
  }
  if (d.leftovers.length) {
    o.push('', 'Processes left at capture time');
    for (const l of d.leftovers.slice(0, 20)) o.push(`  ${pad(String(l.pid), 8)}${pad(l.known ? `leftover ${l.known}` : l.reason, 24)}${l.gpuUsedMiB ? pad(`GPU ${l.gpuIndex ?? '?'} ${mib(l.gpuUsedMiB)}`, 18) : ''}${l.cmdline.slice(0, 160)}`);
    if (d.leftovers.length > 20) o.push(`  … ${d.leftovers.length - 20} more`);
  }
  if (d.hydraOverrides.length) o.push('', 'Hydra overrides', `  ${d.hydraOverrides.join(' ')}`);
  if (d.checkpoint) {
    const c = d.checkpoint;
    o.push('', 'Checkpoint', `  ${c.dir}  tracker ${c.tracker}  latest complete ${c.latestComplete}  latest step ${c.latestStep}`);
    for (const s of c.steps) o.push(`  step ${pad(s.step, 8)}${s.complete ? 'complete  ' : 'INCOMPLETE'}  ${s.reasons.join('; ')}`);
  }
  o.push('', `Files: ${f.files.length} (fdiag pull ${f.id.slice(0, 12)} for the bundle)`);
  return o.join('\n') + '\n';
}

/** Writes the stream to `target` through a temp file, checking the sha256 against the id; atomic. */
async function writeBundle(stream: Readable, target: string, id: string): Promise<number> {
  const tmp = join(dirname(target), `.${process.pid}.${Date.now()}.fdiag-pull.tmp`);
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  try {
    await pipeline(stream, tap, createWriteStream(tmp, { flags: 'wx', mode: 0o644 }));
    const sum = hash.digest('hex');
    if (sum !== id) throw new CliError(`the bundle received does not match its id (sha256 ${sum.slice(0, 12)}…): not written`, 1);
    await rename(tmp, target);
    return bytes;
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

const serverOptions = (cmd: Command) =>
  cmd
    .addOption(new Option('--server <url>', 'read from this fdiag server instead of the local archive').env('FDIAG_SERVER'))
    .addOption(new Option('--token <token>', 'bearer token (read scope) for --server').env('FDIAG_TOKEN'))
    .option('--db <file>', 'SQLite file of the local archive (env FDIAG_DB; default <data>/fdiag.db)')
    .option('--data <dir>', 'data folder of the local archive (env FDIAG_DATA; default ./.fdiag)');

export function registerShowCommands(program: Command): void {
  const show = serverOptions(
    program
      .command('show')
      .description('one failure: diagnosis, evidence, root exception, per-rank GPU memory, leftover processes, checkpoint')
      .argument('<id>', 'failure id (locally a unique prefix will do, as fdiag query prints it)'),
  )
    .addOption(new Option('--format <fmt>', 'output').choices(['text', 'json']).default('text'))
    .action(async (id: string, opts: SourceOpts & { format: 'text' | 'json' }) => {
      const src = await openSource(opts);
      try {
        const f = await src.get(id.toLowerCase());
        const detail = await buildFailureView(f, (p) => src.readFile(f.id, p));
        process.stdout.write(opts.format === 'json' ? JSON.stringify({ failure: f, detail, page: src.pageUrl(f.id) }, null, 2) + '\n' : terminalSafe(renderShow(f, detail, src.pageUrl(f.id))));
      } finally {
        await src.close();
      }
    });
  withExamples(show, ['fdiag show 3f9a2c81d0e4', 'fdiag show 3f9a…(64 hex digits) --server http://archive:8787 --token $TOKEN', 'fdiag show 3f9a2c81d0e4 --format json | jq .detail.ranks'], 'Exit codes: 0 shown, 1 no such failure (or the server could not be reached), 2 bad usage.');

  const pull = serverOptions(
    program
      .command('pull')
      .description("download a failure's bundle (.tar.gz, checked against its id)")
      .argument('<id>', 'failure id (locally a unique prefix will do)'),
  )
    .option('-o, --out <path>', 'file to write, or a folder to write it into (default: ./fdiag-<run>-<id12>.tar.gz)')
    .action(async (id: string, opts: SourceOpts & { out?: string }) => {
      const src = await openSource(opts);
      try {
        const f = await src.get(id.toLowerCase());
        const name = bundleFileName(f.runId, f.id);
        const out = opts.out ? resolve(opts.out) : resolve(name);
        const target = existsSync(out) && statSync(out).isDirectory() ? join(out, name) : out;
        if (existsSync(target)) throw new UsageError(`${target} exists: not overwritten (give -o)`);
        const bytes = await writeBundle(await src.bundle(f.id), target, f.id);
        process.stderr.write(`fdiag: ${target} (${bytes} bytes, ${f.class})\n`);
      } finally {
        await src.close();
      }
    });
  withExamples(pull, ['fdiag pull 3f9a2c81d0e4', 'fdiag pull 3f9a…(64 hex digits) --server http://archive:8787 -o /tmp/', 'fdiag pull 3f9a2c81d0e4 && fdiag classify fdiag-*-3f9a2c81d0e4.tar.gz'], 'Exit codes: 0 written, 1 no such failure, unreachable server or a bundle that does not match its id, 2 bad usage.');
}
