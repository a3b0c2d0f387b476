// Where one ingest's time goes, stage by stage, for the bundles `bench/ingest.ts` sends (captured,
// a 2 MiB training log each): the verify/redact/classify stages a worker runs (the same functions
// analyzeBundle calls, in its order), then the archive's own steps around them, timed through the
// real Archive (inline, no worker) on the embedded default and on PostgreSQL + s3rver.
// A profile, not a figure to compare: medians and minimums over BENCH_STAGES_BUNDLES (default 24),
// wall time and this process's CPU (PostgreSQL and s3rver's own work is theirs, not counted).
// The floor rows: inflate, sha256, the generic redaction rules and UTF-8 decoding of the bundle's bytes, each alone.
// Run: npx tsx bench/ingest-stages.ts
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { openArchive, type Archive } from '../src/archive/index.js';
import { redactExtractedBundle } from '../src/archive/redact-bundle.js';
import { runCapture } from '../src/capture/capture.js';
import { classifyBundle } from '../src/classifiers/index.js';
import { fingerprintOf } from '../src/classifiers/fingerprint.js';
import { createRedactor } from '../src/redact/index.js';
import { extractBundle, loadBundleTexts } from '../src/bundle/reader.js';
import { startBackingServices } from '../test/backing-services.js';

const MAKE_BIG_LOG = [process.env.FDIAG_SHARED, join(import.meta.dirname, '..', '..', 'shared'), join(import.meta.dirname, '..', '..', '..', 'shared')]
  .filter((d): d is string => !!d)
  .map((d) => join(d, 'bench', 'make-big-log'))
  .find((p) => existsSync(p));

const times = new Map<string, number[]>();
/** This process's CPU per stage (user + system, ms): the figure a busy shared machine changes least. */
const cpus = new Map<string, number[]>();
async function timed<T>(stage: string, fn: () => Promise<T> | T): Promise<T> {
  const t = performance.now();
  const c = process.cpuUsage();
  try {
    return await fn();
  } finally {
    const u = process.cpuUsage(c);
    (times.get(stage) ?? times.set(stage, []).get(stage)!).push(performance.now() - t);
    (cpus.get(stage) ?? cpus.set(stage, []).get(stage)!).push((u.user + u.system) / 1000);
  }
}

/** Wraps an object's method so each call is timed as `stage`. */
function timeMethod(obj: object, name: string, stage: string): void {
  const o = obj as Record<string, (...a: unknown[]) => unknown>;
  const orig = o[name]!.bind(obj);
  o[name] = (...a: unknown[]) => timed(stage, () => orig(...a) as Promise<unknown>);
}

async function throughArchive(label: string, a: Archive, bundles: Buffer[]): Promise<void> {
  timeMethod(a.index, 'brief', `${label}: duplicate lookup (index.brief)`);
  timeMethod(a.index, 'insertFailure', `${label}: index insert, one transaction`);
  timeMethod(a.blobs, 'putFile', `${label}: blob put (fsync + rename / S3 PUT)`);
  timeMethod(a, 'analyze', `${label}: analyze (the worker's part, inline)`);
  for (const b of bundles) await timed(`${label}: whole ingestStream`, () => a.ingestStream(Readable.from([b])));
  await a.close();
}

export async function benchIngestStages(n = Number(process.env.BENCH_STAGES_BUNDLES ?? 24)): Promise<void> {
  if (!MAKE_BIG_LOG) throw new Error('../shared/bench/make-big-log is missing (the shared bench workload)');
  const work = mkdtempSync(join(tmpdir(), 'fdiag-bench-stages-'));
  try {
    const log = join(work, 'train.log');
    if (spawnSync(MAKE_BIG_LOG, [log, String(2 * 1024 ** 2)], { stdio: 'inherit' }).status !== 0) throw new Error('make-big-log failed');
    const out = join(work, 'bundles');
    const quiet = process.stderr.write.bind(process.stderr);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      for (let i = 0; i < n; i++) await runCapture([], { exitCode: 1, runId: `bench-stages-${i}`, label: ['bench=ingest'], log: [log], config: [], out });
    } finally {
      process.stderr.write = quiet;
    }
    const files = readdirSync(out).map((f) => join(out, f));
    const bundles = files.map((f) => readFileSync(f));

    // The floor: what inflating, hashing and redacting a bundle's bytes cost at the least, each alone.
    for (const b of bundles) {
      const tar = await timed('floor: gunzip of the whole bundle, one call', () => gunzipSync(b, { chunkSize: b.readUInt32LE(b.length - 4) + 1 }));
      await timed('floor: sha256 of the unpacked bytes', () => createHash('sha256').update(tar).digest('hex'));
      await timed('floor: generic redaction rules over the unpacked bytes', () => createRedactor({}).bytes(tar));
      await timed('floor: UTF-8 decode of the unpacked bytes', () => tar.toString('utf8'));
    }
    for (const f of files) {
      const bytes = await timed('worker: read the spooled bundle', () => readFile(f));
      const ex = await timed('worker: extract + verify (gunzip, tar checks, sha256 of every entry, manifest)', () => extractBundle(bytes, null));
      await timed('worker: ingest redaction (redactExtractedBundle)', () => redactExtractedBundle(ex));
      const texts = await timed('worker: texts for the classifier (loadBundleTexts)', () => loadBundleTexts(ex));
      const diagnosis = await timed('worker: classify (classifyBundle)', () => classifyBundle({ manifest: ex.manifest, files: texts }));
      await timed('worker: fingerprint', () => fingerprintOf({ diagnosis, files: texts, exit: ex.manifest.exit }));
    }

    await throughArchive('embedded', await openArchive({ dbFile: join(work, 'e', 'fdiag.db'), dataDir: join(work, 'e') }), bundles);
    const services = await startBackingServices();
    try {
      Object.assign(process.env, { AWS_ENDPOINT_URL: services.s3Endpoint, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' });
      await throughArchive('PostgreSQL + s3rver', await openArchive({ dbFile: services.pgUrl, blobs: `s3://${services.s3Bucket}/stages`, dataDir: join(work, 'pg') }), bundles);
    } finally {
      await services.stop();
    }
    process.stdout.write(`\n## ingest stages (${files.length} captured bundles, mean ${(bundles.reduce((s, b) => s + b.length, 0) / bundles.length / 1024).toFixed(0)} KB, 2 MiB log each)\n`);
    for (const [stage, v] of times) {
      v.sort((x, y) => x - y);
      const c = cpus.get(stage)!.sort((x, y) => x - y);
      process.stdout.write(`${stage}: median ${v[v.length >> 1]!.toFixed(1)} ms, min ${v[0]!.toFixed(1)} ms; CPU of this process median ${c[c.length >> 1]!.toFixed(1)} ms\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await benchIngestStages();
