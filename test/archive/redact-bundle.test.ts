// Ingest-side redaction takes a shortcut: one pass with the generic rules, harvesting as it goes,
// and the literal hunt (a second pass) only when that pass harvested a value. Its answer must be
// the same for a bundle held in memory (every upload up to 16 MiB) and one on disk (larger), a
// clean bundle must be stored as the very bytes sent, and on disk a clean file is never rewritten.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive, type Archive } from '../../src/archive/index.js';
import { redactExtractedBundle } from '../../src/archive/redact-bundle.js';
import { extractBundle, type ExtractedBundle } from '../../src/bundle/reader.js';
import { tempDir } from '../helpers/bundles.js';
import { manifestFor, tarBlocks } from '../helpers/hostile.js';
import { PLANTED, tokenBody } from '../helpers/secrets.js';

type File = { path: string; data: string };

function tgz(files: File[], manifestExtra: Record<string, unknown> = {}): Buffer {
  return gzipSync(tarBlocks([{ path: 'manifest.json', data: manifestFor(files, manifestExtra) }, ...files]));
}

/** What a redaction left: the new manifest and every file's bytes, read back from where it wrote them. */
async function redacted(ex: ExtractedBundle): Promise<{ changed: boolean; manifest: unknown; files: Record<string, string> }> {
  const r = await redactExtractedBundle(ex);
  const paths = r ? r.files.map((f) => f.path) : ex.files.map((f) => f.path);
  const files: Record<string, string> = {};
  for (const p of paths) {
    if (p === 'manifest.json') continue;
    files[p] = ex.contents ? ex.contents.get(p)!.toString('latin1') : readFileSync(join(ex.dir!, p), 'latin1');
  }
  return { changed: r !== null, manifest: r?.manifest ?? ex.manifest, files };
}

async function bothWays(bundle: Buffer) {
  const p = join(tempDir(), 'b.tar.gz');
  writeFileSync(p, bundle);
  const inMemory = await redacted(await extractBundle(bundle, null));
  const onDisk = await redacted(await extractBundle(p, tempDir()));
  return { inMemory, onDisk };
}

const NOISE = [
  'step 120 loss 2.31 lr 1e-4 tokens/s 18211',
  'NCCL INFO Channel 00/02 : 0[0] -> 1[1] via P2P/CUDA',
  'INFO 12-01 10:00:01 metrics.py:341] Avg prompt throughput: 0.0 tokens/s, GPU KV cache usage: 12.1%',
  'HTTP Request: POST http://127.0.0.1:8000/v1/completions "HTTP/1.1 200 OK"',
  'RuntimeError: CUDA error: an illegal memory access was encountered',
  '  File "/work/train.py", line 9, in main',
];
const SECRET_LINES = PLANTED.filter((s) => s.log).map((s) => s.log!);
// A value that only a key names (no token shape), echoed bare elsewhere: found by the literal hunt alone.
const HIDDEN = `v${tokenBody('ingest-hidden', 22)}`;

describe('ingest redaction of a bundle in memory', () => {
  it('matches the full two-pass redaction, whatever the bundle holds (property)', async () => {
    const line = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...NOISE) },
      { weight: 1, arbitrary: fc.constantFrom(...SECRET_LINES) },
      { weight: 1, arbitrary: fc.constant(`exported the run's key ${HIDDEN} to the job`) },
      { weight: 1, arbitrary: fc.constant('password=short') },
    );
    const text = fc.array(line, { maxLength: 12 }).map((ls) => ls.join('\n') + '\n');
    const bundle = fc.record({
      log: text,
      other: text,
      env: fc.boolean(),
      label: fc.constantFrom('rl', `token=${HIDDEN}`, 'x'),
    });
    await fc.assert(
      fc.asyncProperty(bundle, async (b) => {
        const files: File[] = [
          { path: 'logs/train.log', data: b.log },
          { path: 'logs/other.log', data: b.other },
          ...(b.env ? [{ path: 'config/env.json', data: JSON.stringify({ NCCL_IB_SECRET_VALUE: HIDDEN, NCCL_DEBUG: 'INFO' }) }] : []),
        ];
        const { inMemory, onDisk } = await bothWays(tgz(files, { labels: { team: b.label } }));
        expect(inMemory).toEqual(onDisk);
      }),
      { numRuns: 40, seed: 1201 },
    );
  });

  it('hunts a value found under a secret key wherever else it appears, in a file with no hit of its own', async () => {
    const files: File[] = [
      { path: 'config/env.json', data: JSON.stringify({ NCCL_IB_SECRET_VALUE: HIDDEN }) },
      { path: 'logs/train.log', data: `${NOISE[0]}\nexported the run's key ${HIDDEN} to the job\n` },
    ];
    const { inMemory } = await bothWays(tgz(files));
    expect(inMemory.changed).toBe(true);
    expect(JSON.stringify(inMemory)).not.toContain(HIDDEN);
    expect(inMemory.files['logs/train.log']).toContain(NOISE[0]);
  });

  it('a hit that yields no literal (too short to hunt) is still redacted', async () => {
    const { inMemory, onDisk } = await bothWays(tgz([{ path: 'logs/train.log', data: `${NOISE[1]}\npassword=short\n` }]));
    expect(inMemory.changed).toBe(true);
    expect(inMemory.files['logs/train.log']).not.toContain('short');
    expect(inMemory).toEqual(onDisk);
  });
});

describe('ingest redaction of a bundle on disk (too large for memory)', () => {
  const big = (line: string | null) => {
    // 9 MiB: three of the 4 MiB chunks the file is streamed in; the line sits in the last one.
    let log = '';
    while (log.length < 9 * 1024 * 1024) log += NOISE.join('\n') + '\n';
    return line === null ? log : `${log}${line}\n${NOISE[0]}\n`;
  };
  const onDisk = async (log: string) => {
    const dir = tempDir();
    const p = join(dir, 'b.tar.gz');
    writeFileSync(p, tgz([{ path: 'logs/train.log', data: log }]));
    const ex = await extractBundle(p, join(dir, 'x'));
    return { ex, dir: join(dir, 'x') };
  };

  it('a clean bundle is only read: no file is rewritten, nothing left beside it', async () => {
    const { ex, dir } = await onDisk(big(null));
    const before = statSync(join(dir, 'logs/train.log'));
    expect(await redactExtractedBundle(ex)).toBeNull();
    const after = statSync(join(dir, 'logs/train.log'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readdirSync(join(dir, 'logs'))).toEqual(['train.log']);
  });

  it('a secret past the first chunks is redacted in the one pass, as the bundle in memory is', async () => {
    const openai = PLANTED.find((s) => s.id === 'openai-key')!;
    const log = big(openai.log!);
    const { ex, dir } = await onDisk(log);
    const r = (await redactExtractedBundle(ex))!;
    const stored = readFileSync(join(dir, 'logs/train.log'), 'latin1');
    expect(stored).not.toContain(openai.secret);
    expect(stored.startsWith(log.slice(0, 8 * 1024 * 1024))).toBe(true);
    expect(readdirSync(join(dir, 'logs'))).toEqual(['train.log']);
    const f = r.files.find((x) => x.path === 'logs/train.log')!;
    expect(f).toEqual({ path: 'logs/train.log', bytes: Buffer.byteLength(stored, 'latin1'), sha256: createHash('sha256').update(Buffer.from(stored, 'latin1')).digest('hex') });
    const mem = await redacted(await extractBundle(tgz([{ path: 'logs/train.log', data: log }]), null));
    expect(mem.files['logs/train.log'] === stored).toBe(true);
    expect(mem.manifest).toEqual(r.manifest);
  });
});

describe('ingest of a clean bundle', () => {
  const opened: Archive[] = [];
  afterAll(async () => {
    for (const a of opened) await a.close();
  });

  it('stores the verified bytes as sent (nothing re-packed), and a bundle with a secret redacted', async () => {
    const dir = tempDir('fdiag-redact-ingest-');
    const a = await openArchive({ dbFile: join(dir, 'fdiag.db'), dataDir: dir, ingestWorkers: 1 });
    opened.push(a);
    const read = async (id: string) => {
      const b = await a.openBundle(id);
      const chunks: Buffer[] = [];
      for await (const c of b!.stream) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
    const clean = tgz([{ path: 'logs/train.log', data: NOISE.join('\n') + '\n' }]);
    const dirty = tgz([{ path: 'logs/train.log', data: NOISE.join('\n') + `\n${SECRET_LINES[0]}\n` }]);
    const ids: string[] = [];
    for (const b of [clean, dirty]) {
      const p = join(dir, `${ids.length}.tar.gz`);
      writeFileSync(p, b);
      ids.push((await a.ingestBundleFile(p)).id);
    }
    expect((await read(ids[0]!)).equals(clean)).toBe(true);
    const stored = await read(ids[1]!);
    expect(stored.equals(dirty)).toBe(false);
    const ex = await extractBundle(stored, null);
    expect(ex.manifest.redactions).toBeGreaterThan(0);
    expect(ex.contents!.get('logs/train.log')!.toString()).toContain('[REDACTED]');
  });
});
