// Ingest over HTTP at concurrency 8 of captured bundles carrying the shared 2 MiB training log
// (../shared/bench/make-big-log), while a reader lists failures; goal ≥ 200 bundles/s with the
// reader's p95 < 50 ms. Baselines, measured in the same run: a sink server that only spools each
// body to disk (fsync + rename) for throughput, and the same reader against the idle archive.
// Backends: the embedded default (SQLite + folder), then PostgreSQL + s3rver (a throwaway cluster,
// as the tests start one). Run: npm run bench -- ingest (BENCH_INGEST_BUNDLES=n, default 160;
// BENCH_FDIAG_CLI=path/to/cli.js to measure another build; BENCH_SERVER_NODE_ARGS to profile it).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { runCapture } from '../src/capture/capture.js';
import { startBackingServices } from '../test/backing-services.js';
import { percentile, printRows, row, type BenchRow } from './lib.js';

/** The server under test: the build (`npm run bench` makes it), or BENCH_FDIAG_CLI (another build, to compare two). */
const CLI = process.env.BENCH_FDIAG_CLI || join(import.meta.dirname, '..', 'dist', 'cli.js');
/** ../shared beside the checkout (the team's layout), else FDIAG_SHARED. */
const MAKE_BIG_LOG = [process.env.FDIAG_SHARED, join(import.meta.dirname, '..', '..', 'shared'), join(import.meta.dirname, '..', '..', '..', 'shared')]
  .filter((d): d is string => !!d)
  .map((d) => join(d, 'bench', 'make-big-log'))
  .find((p) => existsSync(p)) ?? 'make-big-log';
const CONCURRENCY = 8;

/** Bundles made by the real capture path (trap mode, the log given with --log), one run id each. */
async function captureBundles(n: number, log: string, out: string): Promise<Buffer[]> {
  const quiet = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write; // capture says one line per bundle
  try {
    for (let i = 0; i < n; i += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, n - i) }, (_, k) => runCapture([], { exitCode: 1, runId: `bench-ingest-${i + k}`, label: ['bench=ingest'], log: [log], config: [], out })),
      );
    }
  } finally {
    process.stderr.write = quiet;
  }
  return readdirSync(out)
    .filter((f) => f.endsWith('.tar.gz'))
    .map((f) => readFileSync(join(out, f)));
}

async function spawnArchive(env: Record<string, string>): Promise<{ url: string; proc: ChildProcess }> {
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": profile the server under load.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, CLI, 'serve', '--port', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stderr!.on('data', (d) => {
    out += d;
    process.stderr.write(`fdiag serve: ${d}`);
  });
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.on('exit', (code) => reject(new Error(`fdiag serve exited ${code}: ${out}`)));
  });
  return { url, proc };
}

/** The floor: an HTTP server that spools each body to a file, fsyncs and renames it, nothing else. */
async function sinkServer(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  let n = 0;
  const srv = createServer((req, res) => {
    const tmp = join(dir, `${n++}.part`);
    void pipeline(req, createWriteStream(tmp))
      .then(async () => {
        const fh = await open(tmp, 'r');
        await fh.sync();
        await fh.close();
        renameSync(tmp, tmp.replace(/\.part$/, '.tar.gz'));
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const addr = srv.address() as { port: number };
  return { url: `http://127.0.0.1:${addr.port}`, close: () => new Promise((r) => srv.close(() => r())) };
}

/** POSTs every bundle at CONCURRENCY; returns bundles/s. Throws on any answer but 201. */
async function ingestAll(url: string, token: string, bundles: Buffer[]): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < bundles.length) {
        const b = bundles[next++]!;
        const r = await fetch(`${url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' }, body: new Uint8Array(b) });
        if (r.status !== 201) throw new Error(`ingest answered ${r.status}: ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  return bundles.length / ((performance.now() - t0) / 1000);
}

/** One reader listing the newest failures back to back until `stop` says so; latencies in ms. */
async function reader(url: string, token: string, stop: () => boolean, minReads = 0): Promise<number[]> {
  const lat: number[] = [];
  while (!stop() || lat.length < minReads) {
    const t = performance.now();
    const r = await fetch(`${url}/v1/failures?limit=50`, { headers: { authorization: `Bearer ${token}` } });
    await r.arrayBuffer();
    lat.push(performance.now() - t);
  }
  return lat.sort((a, b) => a - b);
}

/** User + system CPU of a process so far, in ms (Linux /proc), or null where there is none. */
function cpuMs(pid: number | undefined): number | null {
  try {
    // Fields after the parenthesised command: utime and stime are the 12th and 13th, in clock ticks (100/s).
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

async function measure(label: string, env: Record<string, string>, bundles: Buffer[], sinkRate: number): Promise<BenchRow[]> {
  const token = randomBytes(16).toString('hex');
  const srv = await spawnArchive({ ...env, FDIAG_TOKENS: `${token}:admin` });
  try {
    // Warm up (worker threads start, the index is created) with bundles not counted below.
    await ingestAll(srv.url, token, bundles.slice(0, CONCURRENCY));
    const idle = await reader(srv.url, token, () => true, 100);
    let done = false;
    const busyP = reader(srv.url, token, () => done);
    const cpu0 = cpuMs(srv.proc.pid);
    const rate = await ingestAll(srv.url, token, bundles.slice(CONCURRENCY)).finally(() => (done = true));
    const cpu1 = cpuMs(srv.proc.pid);
    const busy = await busyP;
    // CPU time is what a shared machine's load changes least: how much work one bundle costs.
    const cpu = cpu0 !== null && cpu1 !== null ? `; server CPU ${((cpu1 - cpu0) / (bundles.length - CONCURRENCY)).toFixed(0)} ms/bundle (reads included)` : '';
    return [
      row(`${label}: ingest at concurrency ${CONCURRENCY}`, rate, 'bundles/s', { name: 'sink server (spool + fsync + rename only)', value: sinkRate }, `${bundles.length - CONCURRENCY} captured bundles, 2 MiB log each, mean ${(bundles.reduce((s, b) => s + b.length, 0) / bundles.length / 1024).toFixed(0)} KB${cpu}; goal ≥ 200`),
      row(`${label}: reader p95 during ingest`, percentile(busy, 95), 'ms', { name: 'same reader, archive idle', value: percentile(idle, 95) }, `GET /v1/failures?limit=50 back to back, ${busy.length} reads; goal < 50 ms`),
    ];
  } finally {
    srv.proc.kill('SIGTERM');
    await new Promise((r) => srv.proc.once('exit', r));
  }
}

export async function benchIngest(opts: { bundles?: number } = {}): Promise<BenchRow[]> {
  const n = opts.bundles ?? Number(process.env.BENCH_INGEST_BUNDLES ?? 160);
  const work = mkdtempSync(join(tmpdir(), 'fdiag-bench-ingest-'));
  try {
    const log = join(work, 'train.log');
    if (!existsSync(MAKE_BIG_LOG)) throw new Error(`${MAKE_BIG_LOG} is missing (the shared bench workload)`);
    const made = spawnSync(MAKE_BIG_LOG, [log, String(2 * 1024 ** 2)], { stdio: 'inherit' });
    if (made.status !== 0) throw new Error('make-big-log failed');
    const bundles = await captureBundles(n, log, join(work, 'bundles'));

    const sink = await sinkServer(mkdtempSync(join(work, 'sink-')));
    const sinkRate = await ingestAll(sink.url, 'x', bundles.slice(CONCURRENCY)).finally(() => sink.close());

    const rows = await measure('embedded (SQLite + folder)', { FDIAG_DATA: join(work, 'embedded') }, bundles, sinkRate);
    // The shared set-up on a throwaway PostgreSQL cluster and s3rver (what the tests run on).
    const services = await startBackingServices();
    try {
      rows.push(
        ...(await measure('PostgreSQL + S3 (s3rver)', {
          FDIAG_DATA: join(work, 'scratch'),
          FDIAG_DB: services.pgUrl,
          FDIAG_BLOBS: `s3://${services.s3Bucket}/bench`,
          AWS_ENDPOINT_URL: services.s3Endpoint,
          AWS_ACCESS_KEY_ID: 'S3RVER',
          AWS_SECRET_ACCESS_KEY: 'S3RVER',
          AWS_REGION: 'us-east-1',
        }, bundles, sinkRate)),
      );
    } finally {
      await services.stop();
    }
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  printRows('ingest', await benchIngest());
}
