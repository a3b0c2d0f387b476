// The one bundle reader, and the security boundary: everything an archive, an upload or a
// `fdiag classify` call accepts goes through extractBundle. It streams gunzip → tar header
// checks → file writes, so a hostile archive is refused as soon as its first bad entry or its
// byte budget is seen, and nothing is ever written outside `destDir`.
import { createHash } from 'node:crypto';
import { createReadStream, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { BundleError } from './errors.js';
import { assertSafeEntryPath } from './paths.js';
import { TarGuard } from './tar-guard.js';
import { trimCutEdges } from '../redact/index.js';
import { JSON_FILE_SCHEMAS, Manifest } from './schema.js';

export interface BundleLimits {
  /** Unpacked bytes (tar stream after gunzip); far above any real bundle. */
  maxUnpackedBytes: number;
  maxEntries: number;
}

export const DEFAULT_LIMITS: BundleLimits = {
  maxUnpackedBytes: 2 * 1024 ** 3,
  maxEntries: 20_000,
};

export interface ExtractedBundle {
  /** Where the files were written; null when they were kept in memory (`contents`). */
  dir: string | null;
  manifest: Manifest;
  /** Every regular file in the archive (manifest.json included), with its size. */
  files: { path: string; bytes: number; sha256: string }[];
  /** The files' bytes when read into memory (destDir null). */
  contents?: Map<string, Buffer>;
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * Unpack and verify a bundle into `destDir` (which must exist and be empty), or into memory when
 * `destDir` is null (the caller bounds memory through `limits.maxUnpackedBytes`). The source is a
 * file path or the bundle's bytes.
 */
export async function extractBundle(tgz: string | Buffer, destDir: string | null, limits: Partial<BundleLimits> = {}): Promise<ExtractedBundle> {
  const lim = { ...DEFAULT_LIMITS, ...limits };
  const contents = destDir === null ? new Map<string, Buffer>() : null;
  const files = new Map<string, { bytes: number; sha256: string }>();
  const dirs = new Set<string>();
  let entries = 0;
  let unpacked = 0;
  // A BundleError for a bad bundle; a system error (ENOSPC, EACCES) is kept as it is, since the
  // bundle may be fine and the caller must not tell the client to discard it.
  let failure: Error | null = null;

  const whole = typeof tgz === 'string' ? null : inflateWhole(tgz, Math.min(lim.maxUnpackedBytes, ONE_SHOT_INFLATE_MAX));
  const parser = new Parser({ strict: true });
  // Every ancestor folder of every file: a file and a folder of one name conflict in either order.
  const ancestors = new Set<string>();
  const fail = (err: Error) => {
    if (!failure) failure = err;
    parser.abort(err);
  };

  parser.on('entry', (entry: ReadEntry) => {
    if (failure) return entry.resume();
    try {
      entries += 1;
      if (entries > lim.maxEntries) throw new BundleError('too_many_entries', `bundle has more than ${lim.maxEntries} entries`);
      const path = assertSafeEntryPath(entry.path);
      if (entry.type === 'Directory') {
        if (files.has(path)) throw new BundleError('duplicate_entry', `${JSON.stringify(path)} is both a file and a folder`);
        dirs.add(path);
        return entry.resume();
      }
      if (!FILE_TYPES.has(entry.type)) {
        throw new BundleError('unsafe_entry', `entry ${JSON.stringify(path)} is a ${entry.type}; only regular files and folders are allowed`);
      }
      if (files.has(path)) throw new BundleError('duplicate_entry', `duplicate entry ${JSON.stringify(path)}`);
      if (dirs.has(path) || ancestors.has(path)) throw new BundleError('duplicate_entry', `${JSON.stringify(path)} is both a file and a folder`);
      const segs = path.split('/');
      for (let i = 1; i < segs.length; i++) {
        const up = segs.slice(0, i).join('/');
        if (files.has(up)) throw new BundleError('duplicate_entry', `${JSON.stringify(up)} is both a file and a folder`);
        ancestors.add(up);
      }
      // The header declares the size up front: refuse a bomb before inflating any of it.
      if ((entry.size ?? 0) > lim.maxUnpackedBytes - unpacked) throw new BundleError('too_large', `entry ${JSON.stringify(path)} declares ${entry.size} bytes, over the ${lim.maxUnpackedBytes}-byte unpacked limit`);
      const hash = createHash('sha256');
      const kept: Buffer[] | null = contents ? [] : null;
      let fd = -1;
      if (destDir !== null) {
        const target = join(destDir, path);
        mkdirSync(dirname(target), { recursive: true });
        // 'wx': never follow or overwrite something already there.
        fd = openSync(target, 'wx', 0o600);
      }
      let bytes = 0;
      files.set(path, { bytes: 0, sha256: '' });
      let closed = fd < 0;
      const close = () => {
        if (!closed) closeSync(fd);
        closed = true;
      };
      entry.on('data', (chunk: Buffer) => {
        if (failure) return;
        bytes += chunk.length;
        hash.update(chunk);
        if (kept) {
          // Inflated whole, the data are pieces of that one buffer, which nothing writes to again: kept as they are.
          kept.push(whole ? chunk : Buffer.from(chunk));
          return;
        }
        try {
          writeSync(fd, chunk);
        } catch (err) {
          close();
          fail(err as Error);
        }
      });
      entry.on('end', () => {
        close();
        if (kept) contents!.set(path, kept.length === 1 ? kept[0]! : Buffer.concat(kept));
        files.set(path, { bytes, sha256: hash.digest('hex') });
      });
    } catch (err) {
      entry.resume();
      fail(err instanceof BundleError || (err as NodeJS.ErrnoException).code ? (err as Error) : new BundleError('corrupt', (err as Error).message));
    }
  });

  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      unpacked += chunk.length;
      if (unpacked > lim.maxUnpackedBytes) {
        cb(new BundleError('too_large', `bundle unpacks to more than ${lim.maxUnpackedBytes} bytes`));
        return;
      }
      cb(null, chunk);
    },
  });

  const parserDone = new Promise<void>((resolve, reject) => {
    parser.on('error', (err: Error) => reject(failure ?? new BundleError('corrupt', `not a valid tar archive: ${err.message}`)));
    parser.on('abort', (err: Error) => reject(failure ?? new BundleError('corrupt', err.message)));
    parser.on('end', () => resolve());
  });
  parserDone.catch(() => {});

  try {
    // The guard passes the archive up to its end marker and checks what follows is only short
    // zero padding, so node-tar never sees a trailer or a member type it would skip unchecked.
    const source = whole ? Readable.from([whole]) : typeof tgz === 'string' ? createReadStream(tgz) : Readable.from([tgz]);
    await pipeline(source, whole ? new PassThrough() : createGunzip(), counter, new TarGuard(), async function* (source) {
      for await (const chunk of source) {
        if (failure) throw failure;
        parser.write(chunk as Buffer);
      }
      parser.end();
    });
    await parserDone;
  } catch (err) {
    if (failure) throw failure;
    if (err instanceof BundleError) throw err;
    const msg = (err as Error).message ?? String(err);
    throw new BundleError('corrupt', `not a readable gzip/tar bundle: ${msg}`);
  }
  if (failure) throw failure;
  if (entries === 0) throw new BundleError('corrupt', 'archive has no entries');

  const manifestInfo = files.get('manifest.json');
  if (!manifestInfo) throw new BundleError('missing_manifest', 'bundle has no manifest.json');
  const readEntry = async (p: string): Promise<string> => (contents ? contents.get(p)!.toString('utf8') : readFile(join(destDir!, p), 'utf8'));
  if (manifestInfo.bytes > MAX_MANIFEST_BYTES) throw new BundleError('invalid_manifest', `manifest.json is ${manifestInfo.bytes} bytes, over ${MAX_MANIFEST_BYTES}`);
  let raw: unknown;
  try {
    raw = JSON.parse(await readEntry('manifest.json'));
  } catch (err) {
    throw new BundleError('invalid_manifest', `manifest.json is not JSON: ${(err as Error).message}`);
  }
  // Checked before the schema (and long before any blob is stored): zod and the index walk it.
  if (jsonDepth(raw, MAX_MANIFEST_DEPTH) > MAX_MANIFEST_DEPTH) throw new BundleError('invalid_manifest', `manifest.json nests deeper than ${MAX_MANIFEST_DEPTH} levels`);
  const parsed = Manifest.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new BundleError('invalid_manifest', `manifest.json is invalid at ${first?.path.join('.') || '(root)'}: ${first?.message}`);
  }
  const manifest = parsed.data;
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const path of files.keys()) {
    // An unlisted file would be stored and served without any integrity check.
    if (path !== 'manifest.json' && !listed.has(path)) throw new BundleError('integrity', `${path} is in the archive but not in manifest.files`);
  }
  for (const f of manifest.files) {
    const got = files.get(f.path);
    if (!got) throw new BundleError('integrity', `manifest lists ${f.path} but the archive lacks it`);
    if (got.sha256 !== f.sha256 || got.bytes !== f.bytes) throw new BundleError('integrity', `${f.path} does not match its sha256/size in the manifest`);
  }
  for (const [path, schema] of Object.entries(JSON_FILE_SCHEMAS)) {
    if (!files.has(path)) continue;
    let json: unknown;
    try {
      json = JSON.parse(await readEntry(path));
    } catch {
      throw new BundleError('invalid_file', `${path} is not valid JSON`);
    }
    const r = schema.safeParse(json);
    if (!r.success) throw new BundleError('invalid_file', `${path} does not match its schema: ${r.error.issues[0]?.message}`);
  }
  return {
    dir: destDir,
    manifest,
    files: [...files.entries()].map(([path, v]) => ({ path, ...v })).sort((a, b) => a.path.localeCompare(b.path)),
    ...(contents ? { contents } : {}),
  };
}

/**
 * A bundle given as bytes whose gzip trailer says it unpacks to at most this is inflated in one
 * synchronous call: the streamed inflater's round trip through the thread pool for every 16 KiB
 * cost several times the inflating itself (a 2 MiB log: ~4 ms inflating, up to 40 ms streamed on
 * a busy machine). The bundle reader runs in a worker thread of the archive, or in a CLI command.
 */
export const ONE_SHOT_INFLATE_MAX = 32 * 1024 ** 2;

/**
 * The whole tar stream, or null when it is (or may be) longer than `max` or is not plain gzip: the
 * streamed path then reads it, with its own limits and messages. The trailer's size is the
 * sender's word (and mod 2^32): the output limit is what bounds memory.
 */
function inflateWhole(tgz: Buffer, max: number): Buffer | null {
  const claimed = tgz.length < 18 ? Infinity : tgz.readUInt32LE(tgz.length - 4);
  if (claimed > max) return null;
  try {
    // One output piece of the claimed size (+1, so an honest claim never asks for a second one):
    // nothing to join. A false claim costs pieces, or one buffer of at most `max`.
    return gunzipSync(tgz, { maxOutputLength: Math.max(1, max), chunkSize: Math.max(claimed + 1, 16 * 1024) });
  } catch {
    return null;
  }
}

/** Text files a classifier reads, each cut to `maxFileBytes` keeping head and tail. */
export async function loadBundleTexts(ex: ExtractedBundle, maxFileBytes = 32 * 1024 ** 2): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of ex.files) {
    if (f.path === 'manifest.json') continue;
    if (!/\.(log|txt|out|err|json|jsonl|ya?ml|csv|xml|cast)$/i.test(f.path) && !f.path.startsWith('logs/')) continue;
    const inMemory = ex.contents?.get(f.path);
    if (inMemory) {
      out.set(f.path, inMemory.length <= maxFileBytes ? inMemory.toString('utf8') : cutText(inMemory.subarray(0, maxFileBytes >> 1), inMemory.subarray(inMemory.length - (maxFileBytes >> 1)), inMemory.length));
      continue;
    }
    // On disk, a long file is read as two bounded positioned reads, never whole: a 2 GiB log
    // costs `maxFileBytes`.
    const fh = await open(join(ex.dir!, f.path), 'r');
    try {
      const size = (await fh.stat()).size;
      if (size <= maxFileBytes) {
        out.set(f.path, (await fh.readFile()).toString('utf8'));
        continue;
      }
      const half = maxFileBytes >> 1;
      const head = Buffer.alloc(half);
      const tail = Buffer.alloc(half);
      const h = await fh.read(head, 0, half, 0);
      const t = await fh.read(tail, 0, half, size - half);
      out.set(f.path, cutText(head.subarray(0, h.bytesRead), tail.subarray(0, t.bytesRead), size));
    } finally {
      await fh.close();
    }
  }
  return out;
}

/** Head + marker + tail, with no partial line (or token) either side of the cut. */
function cutText(head: Buffer, tail: Buffer, size: number): string {
  const edges = trimCutEdges(head, tail);
  const cut = size - edges.head.length - edges.tail.length;
  return edges.head.toString('utf8') + `\n[fdiag: ${cut} bytes cut]\n` + edges.tail.toString('utf8');
}

/** manifest.json is metadata: a few KiB for a real run; far more is an attack on the index. */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
export const MAX_MANIFEST_DEPTH = 32;

/** Nesting depth of a JSON value; the walk stops once past `cap` (and never recurses). */
function jsonDepth(v: unknown, cap: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (!x || typeof x !== 'object') continue;
    if (d > max) max = d;
    if (max > cap) return max;
    for (const y of Array.isArray(x) ? x : Object.values(x)) if (y && typeof y === 'object') stack.push([y, d + 1]);
  }
  return max;
}

/**
 * One entry of an already-verified bundle (e.g. a stored blob: a path or a stream of its bytes),
 * or null when absent. Reads at most `maxBytes`; `truncated` says whether the entry was longer.
 */
export async function readBundleEntry(tgz: string | Readable, entryPath: string, maxBytes = 64 * 1024 ** 2): Promise<{ data: Buffer; bytes: number; truncated: boolean } | null> {
  const wanted = assertSafeEntryPath(entryPath);
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  let found = false;
  // Once the entry is read, the rest of the blob is neither inflated nor read.
  let finished = false;
  const parser = new Parser({
    filter: (p) => p === wanted,
    onReadEntry: (entry: ReadEntry) => {
      if (entry.path !== wanted || !FILE_TYPES.has(entry.type)) return entry.resume();
      found = true;
      entry.on('end', () => {
        finished = true;
      });
      entry.on('data', (c: Buffer) => {
        total += c.length;
        if (kept < maxBytes) {
          const part = c.subarray(0, maxBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
      });
    },
  });
  const done = new Promise<void>((resolve, reject) => {
    parser.on('end', () => resolve());
    parser.on('error', reject);
  });
  try {
    await pipeline(typeof tgz === 'string' ? createReadStream(tgz) : tgz, createGunzip(), new TarGuard(), async function* (source) {
      for await (const chunk of source) {
        parser.write(chunk as Buffer);
        if (finished) break;
      }
      if (!finished) parser.end();
    });
  } catch (err) {
    // Leaving the loop early aborts the rest of the pipeline by design: the entry is complete.
    if (!finished) throw err;
  }
  if (!finished) await done;
  if (!found) return null;
  return { data: Buffer.concat(chunks), bytes: total, truncated: total > kept };
}
