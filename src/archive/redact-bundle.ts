// Redaction at ingest: the archive never stores a secret, whoever made the bundle (an older
// agent, a hand-made tar, `harbor import`). The verified bundle's files are redacted in place in
// its extraction folder, streamed in bounded chunks so a 2 GiB log costs a few MiB; entry names
// and the manifest's strings are redacted too. When anything changed, the folder is packed again
// (manifest.json first, new sizes and digests) and that is the blob the archive keeps.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as tar from 'tar';
import type { ExtractedBundle } from '../bundle/reader.js';
import type { Manifest } from '../bundle/schema.js';
import { assertSafeEntryPath } from '../bundle/paths.js';
import { createRedactor, redactValue, type Redactor } from '../redact/index.js';

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
 */
export async function redactExtractedBundle(ex: ExtractedBundle): Promise<RedactedBundle | null> {
  if (ex.contents) {
    // One pass with the generic rules first. The redactor harvests a value only where one of its
    // rules redacts (every harvested value is a counted replacement), so a part with no hit adds
    // no literal: a bundle that is clean under the generic rules is clean under the full redactor
    // too, and its verified bytes are stored as they came, never redacted twice nor re-packed.
    const first = firstPass(ex);
    if (first === null) return null;
    // Something matched: literals come from the parts that had a hit (and from the head and tail
    // windows of files too long to harvest whole, as on disk), then every file is redacted again
    // with them unless there were none (the pass already made is then the final one).
    const literals = harvestLiterals(ex, (path) => first.hit.has(path));
    return literals.length ? redactWith(ex, createRedactor({}, literals)) : redactWith(ex, first.base, first.done);
  }
  return redactWith(ex, createRedactor({}, harvestLiterals(ex, () => true)));
}

type FileResult = { count: number; bytes: number; sha256: string; data?: Buffer };

/**
 * The generic rules over an in-memory bundle: null when nothing in it (files, entry names,
 * manifest) matches them; else which parts matched and each file's result.
 */
function firstPass(ex: ExtractedBundle): { base: Redactor; hit: Set<string>; done: Map<string, FileResult> } | null {
  const base = createRedactor({});
  const hit = new Set<string>();
  const done = new Map<string, FileResult>();
  // The manifest is harvested as its JSON text (as harvestLiterals does) and redacted as values.
  if (base.bytes(Buffer.from(JSON.stringify(ex.manifest))).count > 0) hit.add('manifest.json');
  const { schema: _s, bundleId: _b, files: _f, redactions: _r, command, ...rest } = ex.manifest;
  const n = { n: 0 };
  redactValue(rest, base, n);
  if (n.n + base.argv(command).count > 0) hit.add('manifest.json');
  let big = false;
  for (const f of ex.files) {
    if (f.path === 'manifest.json') continue;
    const mem = ex.contents!.get(f.path)!;
    const r = base.bytes(mem);
    done.set(f.path, r.count ? { count: r.count, bytes: r.data.length, sha256: sha256(r.data), data: r.data } : { count: 0, bytes: f.bytes, sha256: f.sha256 });
    if (r.count || base.text(f.path).count) hit.add(f.path);
    if (mem.length > 2 * HARVEST_BYTES) big = true;
  }
  // A file too long to harvest whole is harvested by windows, whose cut edges may read differently
  // from the whole file: such a bundle takes the full path.
  return hit.size || big ? { base, hit, done } : null;
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
    const r = done?.get(f.path) ?? (mem ? redactBuffer(mem, f, redactor) : redactFileInPlace(abs, redactor));
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

// The values of secret-named keys (config/env.json's HF_TOKEN, a yaml password) are hunted as
// literals in every file, as capture does with the run's env: a log line echoing one names no key.
// Read from each file's first and last HARVEST_BYTES, where env dumps and configs sit.
const HARVEST_BYTES = 8 * 1024 * 1024;

function harvestLiterals(ex: ExtractedBundle, wanted: (path: string) => boolean): string[] {
  const base = createRedactor({});
  const found = new Set<string>(wanted('manifest.json') ? base.harvest(Buffer.from(JSON.stringify(ex.manifest))) : []);
  for (const f of ex.files) {
    if (f.path === 'manifest.json') continue;
    const mem = ex.contents?.get(f.path);
    if (mem) {
      // A file with no hit of the generic rules holds nothing to harvest (unless only windows of it are read).
      if (!wanted(f.path) && mem.length <= 2 * HARVEST_BYTES) continue;
      const spans = mem.length <= 2 * HARVEST_BYTES ? [mem] : [mem.subarray(0, HARVEST_BYTES), mem.subarray(mem.length - HARVEST_BYTES)];
      for (const b of spans) for (const v of base.harvest(b)) found.add(v);
      continue;
    }
    const fd = openSync(join(ex.dir!, f.path), 'r');
    try {
      const spans = f.bytes <= 2 * HARVEST_BYTES ? [[0, f.bytes]] : [[0, HARVEST_BYTES], [f.bytes - HARVEST_BYTES, HARVEST_BYTES]];
      for (const [pos, len] of spans) {
        const buf = Buffer.alloc(len);
        const n = readSync(fd, buf, 0, len, pos);
        for (const v of base.harvest(buf.subarray(0, n))) found.add(v);
      }
    } finally {
      closeSync(fd);
    }
  }
  return [...found];
}

/** An in-memory file through the redactor, whole (it is already held); unchanged bytes keep their verified digest. */
function redactBuffer(data: Buffer, f: { bytes: number; sha256: string }, redactor: Redactor): FileResult {
  const r = redactor.bytes(data);
  return r.count ? { count: r.count, bytes: r.data.length, sha256: sha256(r.data), data: r.data } : { count: 0, bytes: f.bytes, sha256: f.sha256 };
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

/** Streams one file through the redactor in bounded chunks, split at line ends. */
function redactFileInPlace(abs: string, redactor: Redactor): FileResult {
  const tmp = `${abs}.redact.tmp`;
  const inFd = openSync(abs, 'r');
  const outFd = openSync(tmp, 'wx', 0o600);
  const hash = createHash('sha256');
  let count = 0;
  let bytes = 0;
  let carry = Buffer.alloc(0);
  const emit = (b: Buffer) => {
    if (b.length === 0) return;
    const r = redactor.bytes(b);
    count += r.count;
    hash.update(r.data);
    bytes += r.data.length;
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
  } finally {
    closeSync(inFd);
    closeSync(outFd);
  }
  renameSync(tmp, abs);
  return { count, bytes, sha256: hash.digest('hex') };
}
