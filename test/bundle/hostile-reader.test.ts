// Hostile-input suite, bundle reader (issue 10): every fault is refused with its code before
// anything is kept, and a stored entry read stops at the entry instead of inflating the blob.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BundleError } from '../../src/bundle/errors.js';
import { extractBundle, loadBundleTexts, readBundleEntry } from '../../src/bundle/reader.js';
import { tempDir } from '../helpers/bundles.js';
import { manifestFor, tarBlocks } from '../helpers/hostile.js';
import { hostileBundles } from '../helpers/hostile-bundles.js';

describe('hostile bundles are refused by the reader', () => {
  for (const h of hostileBundles()) {
    it(`${h.name}: ${h.code}`, async () => {
      const dir = tempDir();
      const p = join(dir, 'b.tar.gz');
      writeFileSync(p, h.bytes);
      const dest = tempDir();
      const err = await extractBundle(p, dest).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BundleError);
      expect((err as BundleError).code, (err as Error).message).toBe(h.code);
      expect((err as BundleError).status).toBe(400);
      // a `../../x` member never reached the file system, inside or outside the folder
      expect(readdirSync(dir)).toEqual(['b.tar.gz']);
    });
    it(`${h.name}, given as bytes (the archive's in-memory path): ${h.code}`, async () => {
      const err = await extractBundle(h.bytes, null).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BundleError);
      expect((err as BundleError).code, (err as Error).message).toBe(h.code);
    });
  }

  it('a bomb given as bytes whose gzip trailer claims a small size is still stopped at the unpacked-byte limit', async () => {
    const log = { path: 'logs/big.log', data: Buffer.alloc(48 * 1024 ** 2, 0x61) };
    const tgz = gzipSync(tarBlocks([{ path: 'manifest.json', data: manifestFor([log]) }, log]), { level: 9 });
    tgz.writeUInt32LE(4096, tgz.length - 4); // the sender's word for the size
    for (const maxUnpackedBytes of [8 * 1024 ** 2, 40 * 1024 ** 2]) {
      const err = await extractBundle(tgz, null, { maxUnpackedBytes }).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as BundleError).code, String(err)).toBe('too_large');
    }
  });
});

describe('reading one entry of a stored bundle', () => {
  it('manifest.json (first) is read without inflating a large log after it', async () => {
    const log = { path: 'logs/big.log', data: Buffer.alloc(64 * 1024 * 1024, 0x61) };
    const tar = tarBlocks([{ path: 'manifest.json', data: manifestFor([log]) }, log]);
    const p = join(tempDir(), 'b.tar.gz');
    writeFileSync(p, gzipSync(tar, { level: 1 }));
    // count the compressed bytes the reader pulls: stopping at the manifest leaves most unread
    const { createReadStream, statSync } = await import('node:fs');
    let pulled = 0;
    const src = createReadStream(p, { highWaterMark: 16 * 1024 }).on('data', (c) => (pulled += c.length));
    const m = await readBundleEntry(src, 'manifest.json');
    expect(JSON.parse(m!.data.toString()).files[0].path).toBe('logs/big.log');
    expect(pulled).toBeLessThan(statSync(p).size / 4);
  });

  it('a text over the classify budget is cut head + tail from two positioned reads, no partial line at the cut', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${String(i).padStart(6, '0')} ${'z'.repeat(40)}`).join('\n') + '\n';
    const log = { path: 'logs/x.log', data: lines };
    const dir = tempDir();
    const p = join(dir, 'b.tar.gz');
    writeFileSync(p, gzipSync(tarBlocks([{ path: 'manifest.json', data: manifestFor([log]) }, log])));
    const ex = await extractBundle(p, tempDir());
    const texts = await loadBundleTexts(ex, 100_000);
    const t = texts.get('logs/x.log')!;
    const [head, tail] = t.split(/\n\[fdiag: \d+ bytes cut\]\n/);
    const whole = (part: string) => part.split('\n').filter(Boolean).every((l) => /^line \d{6} z{40}$/.test(l));
    expect(whole(head)).toBe(true);
    expect(whole(tail)).toBe(true);
    expect(head.startsWith('line 000000 ')).toBe(true);
    expect(tail.endsWith('line 019999 ' + 'z'.repeat(40) + '\n')).toBe(true);
  });
});
