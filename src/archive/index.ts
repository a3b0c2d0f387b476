// The archive service: ingest (verify → classify → store blob → index in ONE transaction),
// query, detail, file access, reclassification. Used by the API, the CLI and Harbor import.
// Storage is behind two seams: a FailureIndex (failure-index.ts) and a BlobStore (blob-store.ts).
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, createReadStream, createWriteStream, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { copyFile, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BundleError } from '../bundle/errors.js';
import type { Manifest } from '../bundle/schema.js';
import { readBundleEntry, type BundleLimits } from '../bundle/reader.js';
import { RULESET_VERSION } from '../classifiers/index.js';
import { analyzeBundle, type Analysis } from './analyze.js';
import { IngestPool } from './ingest-pool.js';
import { blobKey, FolderBlobStore, type BlobStore } from './blob-store.js';
import { diagnosisColumns, testCrashPoint, type FailureDetail, type FailureIndex, type FailureQuery, type FailureSummary, type UiSessionRow } from './failure-index.js';
import type { GroupQuery, SettableStatus } from './groups.js';
import { SqliteFailureIndex } from './sqlite-index.js';
import { PgFailureIndex } from './pg-index.js';
import { isS3Url, S3BlobStore } from './s3-store.js';
import { isPostgresUrl } from '../db/pg-client.js';
import { pidAlive } from './pid.js';

export { ArchiveInputError, countedReward, type FailureQuery, type FailureSummary, type FailureDetail } from './failure-index.js';

export interface ArchiveOptions {
  /** The index: a SQLite file, or a postgres:// URL. */
  dbFile: string;
  /** Where blobs live: a folder (default `<dataDir>/blobs`) or s3://bucket/prefix (AWS_* variables). */
  blobs?: string;
  /** Data folder: blobs (for the folder store) and this process's scratch space (tmp/). */
  dataDir: string;
  limits?: Partial<BundleLimits>;
  /** Largest compressed bundle accepted, bytes. */
  maxBundleBytes?: number;
  /** Worker threads for verify + classify; 0 (the default) runs them inline (the CLI). */
  ingestWorkers?: number;
}

export interface IngestResult {
  id: string;
  class: string;
  category: string | null;
  duplicate: boolean;
}

export const DEFAULT_MAX_BUNDLE_BYTES = 512 * 1024 ** 2;
/**
 * The sweep leaves anything younger than this alone: an upload being spooled or classified by
 * another process on the same data folder, or a blob renamed in but not yet committed.
 */
export const SWEEP_GRACE_MS = 3600e3;

export interface SweepResult {
  removedBlobs: number;
  removedTmp: number;
  /** False when another process held the sweep lock, so nothing was looked at. */
  swept: boolean;
}

export class Archive {
  readonly dataDir: string;
  private readonly limits: Partial<BundleLimits>;
  readonly maxBundleBytes: number;

  private inFlight = 0;
  private readonly pool: IngestPool | null;
  private readonly liveWriters: LiveWriters;

  constructor(
    readonly index: FailureIndex,
    readonly blobs: BlobStore,
    opts: Omit<ArchiveOptions, 'dbFile'>,
  ) {
    this.dataDir = resolve(opts.dataDir);
    mkdirSync(join(this.dataDir, 'tmp'), { recursive: true, mode: 0o700 });
    this.liveWriters = new LiveWriters(join(this.dataDir, 'writers'));
    // undefined entries fall back to the reader's defaults
    this.limits = Object.fromEntries(Object.entries(opts.limits ?? {}).filter(([, v]) => v !== undefined));
    this.maxBundleBytes = opts.maxBundleBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
    this.pool = opts.ingestWorkers ? new IngestPool(opts.ingestWorkers) : null;
  }

  /** True for the embedded SQLite index (one machine). */
  get embedded(): boolean {
    return this.index.embedded;
  }

  /** Load the ingest workers' code before the first upload (see IngestPool.warm). */
  async warmWorkers(): Promise<void> {
    await this.pool?.warm();
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.liveWriters.leave();
    await this.index.close();
    this.blobs.close?.();
  }

  /** Scratch names carry host and pid, so a sweep by another process knows whose they are. */
  private tmpPath(suffix: string): string {
    return join(this.dataDir, 'tmp', `${SCRATCH_PREFIX}${randomUUID()}${suffix}`);
  }

  /**
   * Remove what a crash left half-done: scratch files and blobs no row references, by one process
   * at a time (the index's `sweep` lock). Another process may be using the same data folder right
   * now (`fdiag ingest` beside `fdiag serve`, or a replica on the same bucket), so a blob is removed
   * only when older than `graceMs`, and a scratch file only when its owner process is gone or it is
   * older than that. The one exception is a folder store that no other live process writes to, with
   * no ingest of our own in flight (a server starting after a crash): then every orphan goes.
   */
  async sweep(graceMs = SWEEP_GRACE_MS, now = Date.now()): Promise<SweepResult> {
    const r = await this.index.tryWithLock('sweep', async () => {
      const others = this.liveWriters.others();
      const alone = this.blobs instanceof FolderBlobStore && others === 0 && this.inFlight === 0;
      const cutoff = alone ? now : now - graceMs;
      let removedTmp = 0;
      let removedBlobs = 0;
      const tmp = join(this.dataDir, 'tmp');
      for (const name of await readdir(tmp).catch(() => [] as string[])) {
        const owner = scratchOwner(name);
        if (owner === 'self' || owner === 'alive') continue;
        const st = await stat(join(tmp, name)).catch(() => null);
        if (!st || (owner === 'unknown' && st.mtimeMs >= now - graceMs)) continue;
        await rm(join(tmp, name), { recursive: true, force: true });
        removedTmp++;
      }
      for await (const b of this.blobs.list()) {
        if (b.modifiedMs >= cutoff || (await this.index.isBlobReferenced(b.key))) continue;
        if (await this.blobs.deleteIfOrphan(b.key, cutoff, () => this.index.isBlobReferenced(b.key))) removedBlobs++;
      }
      return { removedBlobs, removedTmp, swept: true };
    });
    return r ?? { removedBlobs: 0, removedTmp: 0, swept: false };
  }

  /** Ingest a bundle file from disk. */
  async ingestBundleFile(path: string): Promise<IngestResult> {
    this.liveWriters.join();
    const size = (await stat(path)).size;
    if (size > this.maxBundleBytes) throw new BundleError('too_large', `bundle is ${size} bytes, over the ${this.maxBundleBytes}-byte limit`);
    const tmp = this.tmpPath('.tar.gz');
    await copyFile(path, tmp);
    return this.ingestTemp(tmp);
  }

  /** Ingest a bundle arriving as a stream (an HTTP body), spooled to a temp file with a size limit. */
  async ingestStream(body: ReadableStream<Uint8Array> | Readable): Promise<IngestResult> {
    this.liveWriters.join();
    const tmp = this.tmpPath('.tar.gz');
    const max = this.maxBundleBytes;
    let n = 0;
    const source = body instanceof Readable ? body : Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    const hash = createHash('sha256');
    let writeError: Error | null = null;
    out.on('error', (err) => {
      writeError ??= err;
    });
    try {
      for await (const chunk of source) {
        n += (chunk as Buffer).length;
        if (n > max) throw new BundleError('too_large', `bundle is over the ${max}-byte limit`);
        hash.update(chunk as Buffer);
        // After a write error (a full disk) keep reading the body to its end, so the client
        // gets our answer instead of a reset connection.
        if (!writeError && !out.write(chunk)) await new Promise<void>((r) => { out.once('drain', r); out.once('error', () => r()); });
      }
      if (!writeError) await new Promise<void>((resolve) => out.end(resolve));
      if (writeError) throw writeError;
    } catch (err) {
      out.destroy();
      await rm(tmp, { force: true });
      throw err;
    }
    if (n === 0) {
      await rm(tmp, { force: true });
      throw new BundleError('corrupt', 'empty body: expected a bundle (.tar.gz)');
    }
    return this.ingestTemp(tmp, hash.digest('hex'));
  }

  private analyze(tmp: string): Promise<Analysis> {
    const task = { path: tmp, scratchDir: this.tmpPath('.d'), limits: this.limits };
    return this.pool ? this.pool.analyze(task) : analyzeBundle(task);
  }

  private async ingestTemp(tmp: string, knownId?: string): Promise<IngestResult> {
    this.inFlight++;
    // The blob store takes the file over once it has it; until then it is ours to remove.
    let spooled = true;
    try {
      const id = knownId ?? (await sha256File(tmp));
      const existing = await this.index.brief(id);
      if (existing) return { ...existing, duplicate: true };

      const a = await this.analyze(tmp);
      const { diagnosis, manifest: m, facts } = a;
      const key = blobKey(id);
      const bytes = a.bundleBytes;
      await this.blobs.putFile(key, tmp);
      spooled = false;
      testCrashPoint('after-blob');

      const received = Date.now();
      const times = boundedTimes(m, received);
      const inserted = await this.index.insertFailure({
        row: {
          id,
          bundleId: m.bundleId,
          runId: m.runId,
          kind: facts.kind,
          host: m.host,
          failedAt: times.failedAt,
          startedAt: times.startedAt,
          ingestedAt: received,
          exitCode: m.exit.code,
          signal: m.exit.signal,
          ...diagnosisColumns(diagnosis, facts.harborReward),
          exceptionType: facts.exceptionType,
          gpuCount: facts.gpuCount === null ? null : Math.min(Math.max(facts.gpuCount, 0), MAX_GPUS_PER_BUNDLE),
          labels: JSON.stringify(m.labels),
          manifest: JSON.stringify(m),
          blobPath: key,
          blobBytes: bytes,
        },
        labels: m.labels,
        files: a.files.map((f) => ({ ...f, content: a.storedFiles[f.path] ?? null })),
        group: { diagnosis, fp: a.fingerprint },
      });
      return { id, class: diagnosis.class, category: diagnosis.category, duplicate: !inserted };
    } finally {
      this.inFlight--;
      if (spooled) await rm(tmp, { force: true });
    }
  }

  query(q: FailureQuery): Promise<{ items: FailureSummary[]; nextCursor: string | null }> {
    return this.index.query(q);
  }

  get(id: string): Promise<FailureDetail | null> {
    return this.index.get(id);
  }

  /** Full ids that start with `prefix` (hex), at most two: enough to tell one from ambiguous. */
  async idsWithPrefix(prefix: string): Promise<string[]> {
    if (!/^[0-9a-f]{1,64}$/.test(prefix)) return [];
    return this.index.idsWithPrefix(prefix, 2);
  }

  /** The stored bundle (the tar.gz as ingested), streamed; null when there is no such failure. */
  async openBundle(id: string): Promise<{ stream: Readable; bytes: number; runId: string } | null> {
    const row = await this.index.bundleOf(id);
    if (!row) return null;
    const stream = await this.blobs.read(row.blobPath);
    if (!stream) throw new Error(`blob ${row.blobPath} of failure ${id} is missing from ${this.blobs.location}`);
    return { stream, bytes: row.blobBytes, runId: row.runId };
  }

  /** A file of a stored bundle; null when the failure or the file does not exist. */
  async readFile(id: string, path: string): Promise<{ data: Buffer; bytes: number; truncated: boolean } | null> {
    const f = await this.index.fileOf(id, path);
    if (!f) return null;
    if (f.content !== null) {
      const data = Buffer.from(f.content, 'utf8');
      return { data, bytes: data.length, truncated: false };
    }
    const blob = await this.blobs.read(f.blobPath);
    if (!blob) throw new Error(`blob ${f.blobPath} of failure ${id} is missing from ${this.blobs.location}`);
    return readBundleEntry(blob, path);
  }

  classCounts(since?: string, until?: string) {
    return this.index.classCounts(since, until);
  }

  listGroups(q: GroupQuery) {
    return this.index.listGroups(q);
  }

  getGroup(id: string) {
    return this.index.getGroup(id);
  }

  setGroupStatus(id: string, status: SettableStatus, now?: number) {
    return this.index.setGroupStatus(id, status, now);
  }

  weeklyExport(week: string) {
    return this.index.weeklyExport(week);
  }

  weeklyClassSeries(lastWeek: string, weeks: number) {
    return this.index.weeklyClassSeries(lastWeek, weeks);
  }

  metricCounts() {
    return this.index.metricCounts();
  }

  // Web UI sessions live in the index, so any replica honours a session another one issued.
  putSession(s: UiSessionRow): Promise<void> {
    return this.index.putSession(s);
  }

  sessionToken(idHash: string, now = Date.now()): Promise<string | null> {
    return this.index.sessionToken(idHash, now);
  }

  deleteSession(idHash: string): Promise<void> {
    return this.index.deleteSession(idHash);
  }

  /** Throws when the index cannot be reached. */
  ping(): Promise<void> {
    return this.index.ping();
  }

  /** Re-run the current rules over every stored bundle whose diagnosis came from another rule-set version. */
  async reclassify(opts: { all?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<{ checked: number; changed: number }> {
    const rows = await this.index.toReclassify(RULESET_VERSION, opts.all ?? false);
    let changed = 0;
    let done = 0;
    for (const r of rows) {
      const tgz = this.tmpPath('.tar.gz');
      try {
        const blob = await this.blobs.read(r.blobPath);
        if (!blob) throw new Error(`blob ${r.blobPath} of failure ${r.id} is missing from ${this.blobs.location}`);
        await pipeline(blob, createWriteStream(tgz, { flags: 'wx', mode: 0o600 }));
        const a = await this.analyze(tgz);
        if (a.diagnosis.class !== r.class) changed++;
        await this.index.updateDiagnosis(r.id, a.diagnosis, r.harborReward, a.fingerprint);
      } finally {
        await rm(tgz, { force: true });
      }
      opts.onProgress?.(++done, rows.length);
    }
    return { checked: rows.length, changed };
  }
}

/**
 * Open an archive: the index (SQLite file, or PostgreSQL when dbFile is a postgres:// URL) and the
 * blob store (a folder, or a bucket when `blobs` is s3://…); dataDir is this process's scratch space.
 */
export async function openArchive(opts: ArchiveOptions): Promise<Archive> {
  const dataDir = resolve(opts.dataDir);
  // Owner-only: the data folder holds every run's logs; nobody else on the host reads them.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  let blobs: BlobStore;
  if (isS3Url(opts.blobs)) blobs = new S3BlobStore(opts.blobs);
  else {
    const root = opts.blobs ? resolve(opts.blobs) : dataDir;
    mkdirSync(join(root, 'blobs'), { recursive: true, mode: 0o700 });
    blobs = new FolderBlobStore(root);
  }
  const index = isPostgresUrl(opts.dbFile) ? await PgFailureIndex.open(opts.dbFile) : new SqliteFailureIndex(opts.dbFile);
  const archive = new Archive(index, blobs, opts);
  try {
    await archive.warmWorkers();
  } catch (err) {
    await archive.close();
    throw err;
  }
  return archive;
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  return h.digest('hex');
}

const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
const SCRATCH_PREFIX = `${HOST}~${process.pid}~`;

/** Whose a scratch file is: this process, another live process on this host, a dead one, or unknown. */
function scratchOwner(name: string): 'self' | 'alive' | 'dead' | 'unknown' {
  const m = /^([A-Za-z0-9._-]+)~(\d+)~/.exec(name);
  if (!m || m[1] !== HOST) return 'unknown';
  const pid = Number(m[2]);
  if (pid === process.pid) return 'self';
  return pidAlive(pid) ? 'alive' : 'dead';
}

/**
 * `<dataDir>/writers/<host>~<pid>`: one marker per process that has ingested into this data folder
 * and not closed. A marker of a dead process on this host is stale and removed; one from another
 * host (a shared mount) counts as live.
 */
class LiveWriters {
  private joined = false;
  constructor(private readonly dir: string) {}

  private get mine(): string {
    return join(this.dir, `${HOST}~${process.pid}`);
  }

  join(): void {
    if (this.joined) return;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(this.mine, '');
    this.joined = true;
  }

  leave(): void {
    if (this.joined) rmSync(this.mine, { force: true });
    this.joined = false;
  }

  others(): number {
    let n = 0;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0;
    }
    for (const name of names) {
      const owner = scratchOwner(`${name}~`);
      if (owner === 'self') continue;
      if (owner === 'dead') rmSync(join(this.dir, name), { force: true });
      else n++;
    }
    return n;
  }
}

// Uploader-chosen facts that reports add up are kept within what the archive can vouch for
// (issue 10: startedAt=1970 with 1,000 GPUs made 498,930,241 GPU-hours lost; endedAt=2099 was the
// newest failure forever and never pruned). The bundle's own manifest keeps what it said.
/** A failure is never newer than its receipt (plus clock skew), nor older than this. */
export const MAX_FAILURE_AGE_MS = 5 * 365 * 86400e3;
export const CLOCK_SKEW_MS = 5 * 60e3;
/** A run counted for GPU-hours ran at most this long before it failed. */
export const MAX_RUN_MS = 31 * 86400e3;
/** One bundle is one node: gpu/topology.json lists at most this many GPUs. */
export const MAX_GPUS_PER_BUNDLE = 64;

export function boundedTimes(m: Pick<Manifest, 'endedAt' | 'createdAt' | 'startedAt'>, receivedAt: number): { failedAt: number; startedAt: number | null } {
  let failedAt = Date.parse(m.endedAt ?? m.createdAt);
  if (!Number.isFinite(failedAt) || failedAt > receivedAt + CLOCK_SKEW_MS) failedAt = receivedAt;
  failedAt = Math.max(failedAt, receivedAt - MAX_FAILURE_AGE_MS);
  let startedAt = m.startedAt ? Date.parse(m.startedAt) : null;
  if (startedAt !== null && (!Number.isFinite(startedAt) || startedAt > failedAt)) startedAt = null;
  if (startedAt !== null) startedAt = Math.max(startedAt, failedAt - MAX_RUN_MS);
  return { failedAt, startedAt };
}
