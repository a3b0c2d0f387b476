// Redaction at ingest: the archive never stores a secret, whoever made the bundle (an older
// agent, a hand-made tar, `harbor import`). The verified bundle's files are redacted in place in
// its extraction folder (streamed in bounded chunks, so a 2 GiB log costs a few MiB) or in
// memory; entry names and the manifest's strings are redacted too. When anything changed, the folder is packed again
// (manifest.json first, new sizes and digests) and that is the blob the archive keeps.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import type { ExtractedBundle } from '../bundle/reader.js';
import type { Manifest } from '../bundle/schema.js';
import { assertSafeEntryPath } from '../bundle/paths.js';
import { createRedactor, MIN_LITERAL, redactValue, type Redactor } from '../redact/index.js';

const CHUNK = 4 * 1024 * 1024;
// A line (or an unfinished key block) longer than this is cut where it stands.
const MAX_CARRY = 16 * 1024 * 1024;

export interface RedactedBundle {
  manifest: Manifest;
  files: { path: string; bytes: number; sha256: string }[];
  count: number;
}

/**
 * Redacts an extracted bundle in place (its folder, or its in-memory `contents`); returns null when
 * it held nothing to redact.
 *
 * One pass with the generic rules first, harvesting as it redacts: the redactor harvests a value
 * only where one of its rules redacts (every harvested value is a counted replacement), so the
 * values found under secret keys come out of the very pass that redacts. A bundle clean under the
 * generic rules is clean under the full redactor too: its verified bytes are stored as they came
 * (on disk: no file is rewritten). A pass that harvested no value is the final one. Only when it
 * harvested some (a bundle with secrets) is every file redacted again, from the bytes as sent,
 * with those values hunted as literals wherever else they appear.
 */
export async function redactExtractedBundle(ex: ExtractedBundle): Promise<RedactedBundle | null> {
  const first = firstPass(ex);
  if (first === null) return null;
  // (A value too short to hunt is no literal: createRedactor drops it.)
  const literals = [...first.literals].filter((v) => v.length >= MIN_LITERAL);
  if (literals.length === 0) {
    commitFirstPass(ex, first.done);
    return redactWith(ex, first.base, first.done);
  }
  discardFirstPass(first.done);
  return redactWith(ex, createRedactor({}, literals));
}

/** A file's redaction; on disk, `tmp` holds the redacted copy (null when nothing in it changed). */
type FileResult = { count: number; bytes: number; sha256: string; data?: Buffer; tmp?: string | null };

/**
 * The generic rules over the bundle (files, entry names, manifest), harvesting: null when nothing
 * matches them; else each file's result and the values harvested.
 */
function firstPass(ex: ExtractedBundle): { base: Redactor; literals: Set<string>; done: Map<string, FileResult> } | null {
  const base = createRedactor({});
  const literals = new Set<string>();
  const done = new Map<string, FileResult>();
  let hit = false;
  try {
    // The manifest is harvested as its JSON text and redacted as values.
    if (base.bytesHarvesting(Buffer.from(JSON.stringify(ex.manifest)), literals).count > 0) hit = true;
    const { schema: _s, bundleId: _b, files: _f, redactions: _r, command, ...rest } = ex.manifest;
    const n = { n: 0 };
    redactValue(rest, base, n);
    if (n.n + base.argv(command).count > 0) hit = true;
    for (const f of ex.files) {
      if (f.path === 'manifest.json') continue;
      const mem = ex.contents?.get(f.path);
      const r = mem ? redactBuffer(mem, f, base, literals) : redactFileOnDisk(join(ex.dir!, f.path), f, base, literals);
      done.set(f.path, r);
      if (r.count || base.text(f.path).count) hit = true;
    }
  } catch (err) {
    discardFirstPass(done);
    throw err;
  }
  if (!hit) {
    discardFirstPass(done);
    return null;
  }
  return { base, literals, done };
}

/** The first pass is the final one: its redacted copies replace the files. */
function commitFirstPass(ex: ExtractedBundle, done: Map<string, FileResult>): void {
  for (const [path, r] of done) {
    if (r.tmp) renameSync(r.tmp, join(ex.dir!, path));
    r.tmp = null;
  }
}

function discardFirstPass(done: Map<string, FileResult>): void {
  for (const r of done.values()) if (r.tmp) rmSync(r.tmp, { force: true });
}

/** Every file, entry name and the manifest through `redactor`; `done` holds results already made with it. */
async function redactWith(ex: ExtractedBundle, redactor: Redactor, done?: Map<string, FileResult>): Promise<RedactedBundle | null> {
  let count = 0;
  const files: RedactedBundle['files'] = [];
  const renamed = new Map<string, string>();
  const taken = new Set(ex.files.map((f) => f.path));
  for (const f of ex.files) {
    if (f.path === 'manifest.json') continue;
    const mem = ex.contents?.get(f.path);
    const abs = ex.dir === null ? '' : join(ex.dir, f.path);
    const r = done?.get(f.path) ?? (mem ? redactBuffer(mem, f, redactor) : redactFileInPlace(abs, f, redactor));
    if (mem && r.data) ex.contents!.set(f.path, r.data);
    count += r.count;
    let path = f.path;
    const name = redactor.text(f.path);
    if (name.count) {
      count += name.count;
      path = name.text;
      for (let i = 1; taken.has(path); i++) path = `${name.text}-${i}`;
      assertSafeEntryPath(path);
      taken.add(path);
      if (ex.contents) {
        ex.contents.set(path, ex.contents.get(f.path)!);
        ex.contents.delete(f.path);
      } else {
        await mkdir(dirname(join(ex.dir!, path)), { recursive: true });
        await rename(abs, join(ex.dir!, path));
      }
      renamed.set(f.path, path);
    }
    files.push({ path, bytes: r.bytes, sha256: r.sha256 });
  }
  const n = { n: 0 };
  const { schema, bundleId, files: _files, redactions, command, ...rest } = ex.manifest;
  const cleanRest = redactValue(rest, redactor, n);
  const argv = redactor.argv(command);
  count += n.n + argv.count;
  if (count === 0) return null;
  const byPath = new Map(files.map((f) => [f.path, f]));
  const manifest = {
    ...cleanRest,
    schema,
    bundleId,
    command: argv.argv,
    files: ex.manifest.files.map((e) => {
      const p = renamed.get(e.path) ?? e.path;
      const now = byPath.get(p)!;
      return { path: p, bytes: now.bytes, sha256: now.sha256 };
    }),
    redactions: redactions + count,
  } as Manifest;
  const manifestText = JSON.stringify(manifest, null, 2);
  const mf = Buffer.from(manifestText);
  if (ex.contents) ex.contents.set('manifest.json', mf);
  else await writeFile(join(ex.dir!, 'manifest.json'), manifestText);
  files.push({ path: 'manifest.json', bytes: mf.length, sha256: createHash('sha256').update(mf).digest('hex') });
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { manifest, files, count };
}

/**
 * Packs a (redacted) extraction folder as a bundle tar.gz at `outPath`. An in-memory bundle is
 * written out to `dir` first (a redacted upload is the rare case; a clean one never touches disk).
 */
export async function packExtracted(dir: string, r: RedactedBundle, outPath: string, contents?: Map<string, Buffer>): Promise<number> {
  if (contents) {
    for (const [path, data] of contents) {
      const abs = join(dir, assertSafeEntryPath(path));
      await mkdir(dirname(abs), { recursive: true });
      await writeFile(abs, data, { mode: 0o600, flag: 'wx' });
    }
  }
  await tar.c({ gzip: { level: 6 }, cwd: dir, file: outPath, portable: true }, ['manifest.json', ...r.manifest.files.map((f) => f.path)]);
  return (await stat(outPath)).size;
}

/** An in-memory file through the redactor, whole (it is already held); unchanged bytes keep their verified digest. */
function redactBuffer(data: Buffer, f: { bytes: number; sha256: string }, redactor: Redactor, harvest?: Set<string>): FileResult {
  const r = harvest ? redactor.bytesHarvesting(data, harvest) : redactor.bytes(data);
  return r.count ? { count: r.count, bytes: r.data.length, sha256: sha256(r.data), data: r.data } : { count: 0, bytes: f.bytes, sha256: f.sha256 };
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/** A file on disk redacted, its redacted copy (if any) put in its place. */
function redactFileInPlace(abs: string, f: { bytes: number; sha256: string }, redactor: Redactor): FileResult {
  const r = redactFileOnDisk(abs, f, redactor);
  if (r.tmp) renameSync(r.tmp, abs);
  return { ...r, tmp: null };
}

/**
 * Streams one file through the redactor in bounded chunks, split at line ends. Nothing is written
 * until the first chunk with a hit; then the bytes before it are copied to the redacted copy
 * (`<file>.redact.tmp`) and the rest follows. A clean file is only read, and keeps its verified digest.
 */
function redactFileOnDisk(abs: string, f: { bytes: number; sha256: string }, redactor: Redactor, harvest?: Set<string>): FileResult {
  const tmp = `${abs}.redact.tmp`;
  const inFd = openSync(abs, 'r');
  let outFd = -1;
  const hash = createHash('sha256');
  let count = 0;
  let bytes = 0;
  // Bytes of the file passed through unchanged so far, not yet copied: the redacted copy starts with them.
  let clean = 0;
  let carry = Buffer.alloc(0);
  const emit = (b: Buffer) => {
    if (b.length === 0) return;
    const r = harvest ? redactor.bytesHarvesting(b, harvest) : redactor.bytes(b);
    if (r.count && outFd < 0) {
      outFd = openSync(tmp, 'wx', 0o600);
      copyPrefix(inFd, clean, outFd, hash);
    }
    count += r.count;
    bytes += r.data.length;
    if (outFd < 0) {
      clean += b.length;
      return;
    }
    hash.update(r.data);
    writeSync(outFd, r.data);
  };
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(inFd, buf, 0, CHUNK, null);
      if (n === 0) break;
      const data = carry.length ? Buffer.concat([carry, buf.subarray(0, n)]) : Buffer.from(buf.subarray(0, n));
      let split = data.lastIndexOf(0x0a) + 1;
      // Keep an unfinished key block whole: its END line is in the next chunk.
      const begin = data.lastIndexOf('-----BEGIN');
      if (begin >= 0 && begin > data.lastIndexOf('-----END') && begin > 0) split = Math.min(split, begin);
      if (split <= 0 && data.length > MAX_CARRY) split = data.length;
      emit(data.subarray(0, split));
      carry = Buffer.from(data.subarray(split));
      if (carry.length > MAX_CARRY) {
        emit(carry);
        carry = Buffer.alloc(0);
      }
    }
    emit(carry);
  } catch (err) {
    if (outFd >= 0) {
      closeSync(outFd);
      outFd = -1;
      rmSync(tmp, { force: true });
    }
    throw err;
  } finally {
    closeSync(inFd);
    if (outFd >= 0) closeSync(outFd);
  }
  if (count === 0) return { count: 0, bytes: f.bytes, sha256: f.sha256, tmp: null };
  return { count, bytes, sha256: hash.digest('hex'), tmp };
}

/** The first `n` bytes of `inFd` (read by position) to `outFd`, hashed on the way. */
function copyPrefix(inFd: number, n: number, outFd: number, hash: ReturnType<typeof createHash>): void {
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(n, 1)));
  for (let pos = 0; pos < n; ) {
    const got = readSync(inFd, buf, 0, Math.min(buf.length, n - pos), pos);
    if (got === 0) throw new Error('file shrank while being redacted');
    hash.update(buf.subarray(0, got));
    writeSync(outFd, buf.subarray(0, got));
    pos += got;
  }
}
