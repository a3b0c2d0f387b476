// A large bundle is redacted at ingest on disk, its files streamed through the redactor in 4 MiB
// chunks cut at line ends (src/archive/redact-bundle.ts). A secret whose line straddles a chunk
// boundary, a private key block cut by one, and a value harvested from a config file and echoed
// across one are all found, and what the chunks hold is what the whole file redacted in one piece
// gives (the same redactor, prefiltered, on either side of the cut).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { redactExtractedBundle } from '../../src/archive/redact-bundle.js';
import { extractBundle } from '../../src/bundle/reader.js';
import { createRedactor } from '../../src/redact/index.js';
import { tempDirs } from '../capture/helpers.js';
import { manifestFor, tarBlocks } from '../helpers/hostile.js';
import { PLANTED, tokenBody } from '../helpers/secrets.js';

const newDir = tempDirs();
const CHUNK = 4 * 1024 * 1024;
const NOISE = '(vLLMHttpServer pid=4410) INFO 21:24:47 [metrics.py:455] Avg prompt throughput: 4463.1 tokens/s, Running: 64 reqs\n';

/** Noise lines, with each `line` placed so that its middle lies at offset `at`. */
function logWith(placements: { at: number; line: string }[], size: number): string {
  let out = '';
  for (const { at, line } of placements) {
    const start = at - Math.floor(line.length / 2);
    while (out.length + NOISE.length < start) out += NOISE;
    out += `${'step 1 loss 0.5'.padEnd(start - out.length - 1, ' ')}\n${line}\n`;
  }
  while (out.length < size) out += NOISE;
  return out;
}

describe('secrets across the chunk cuts of streamed ingest redaction', () => {
  it('a token line, a private key block and an echoed config value, each straddling a 4 MiB boundary', async () => {
    const hidden = `e${tokenBody('chunk-hidden', 23)}`;
    const key = PLANTED.find((s) => s.id === 'private-key-block')!;
    const openai = PLANTED.find((s) => s.id === 'openai-key')!;
    const log = logWith(
      [
        { at: CHUNK, line: openai.log! },
        { at: 2 * CHUNK, line: key.log! },
        { at: 3 * CHUNK, line: `ib handshake with ${hidden} refused` },
      ],
      3 * CHUNK + 4096,
    );
    for (const [boundary, line] of [[CHUNK, openai.log!], [2 * CHUNK, key.log!], [3 * CHUNK, `ib handshake with ${hidden} refused`]] as const) {
      const start = log.indexOf(line);
      expect(start).toBeLessThan(boundary);
      expect(start + line.length).toBeGreaterThan(boundary);
    }
    const files = [
      { path: 'logs/train.log', data: log },
      { path: 'config/env.json', data: JSON.stringify({ NCCL_IB_SECRET_VALUE: hidden }) },
    ];
    const dir = newDir();
    const tgz = join(dir, 'b.tar.gz');
    writeFileSync(tgz, gzipSync(tarBlocks([{ path: 'manifest.json', data: manifestFor(files) }, ...files])));
    const ex = await extractBundle(tgz, join(dir, 'x'));
    expect(ex.dir).not.toBeNull();
    const r = await redactExtractedBundle(ex);
    expect(r).not.toBeNull();
    const stored = readFileSync(join(ex.dir!, 'logs/train.log'), 'latin1');
    for (const secret of [openai.secret, key.secret, hidden, ...key.log!.split('\n').slice(1, -1)]) expect(stored).not.toContain(secret);
    // chunk by chunk gives what the whole file gives in one piece, with the literals ingest harvests
    const base = createRedactor({});
    const harvested = new Set<string>();
    for (const f of files) base.bytesHarvesting(Buffer.from(f.data, 'latin1'), harvested);
    const literals = [...harvested];
    expect(literals).toContain(hidden);
    const whole = createRedactor({}, literals).bytes(Buffer.from(log, 'latin1'));
    expect(stored === whole.data.toString('latin1')).toBe(true);
    expect(whole.count).toBeGreaterThanOrEqual(3);
  });
});
