// The engine's byte scan (src/classifiers/engine.ts): complete lines go through the WebAssembly scan
// (four streams in step, a block at a time), lines that cross a chunk boundary or a block through the JS
// automaton. Whatever the chunking, each line's hits must be exactly the keys the line holds, the same as
// the single-stream JS reference finds, and so must the verdict.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { automatonKeys, Engine, prefilterKeys } from '../../src/classifiers/engine.js';
import { WASM_BLOCK } from '../../src/classifiers/wasm-scan.js';
import type { Diagnosis } from '../../src/classifiers/types.js';
import { corpusRows, corpusText } from './helpers.js';

const FOLDED = automatonKeys();
const WRITTEN = prefilterKeys();
/** MAX_MATCHES_PER_LINE in engine.ts: past this many hits a line's later keys are not noted. */
const MAX_HITS = 256;

interface Scanned {
  lines: [number, string[], number[]][];
  diagnosis: Diagnosis;
}

function scan(bytes: Buffer, cuts: number[], fullScan: boolean): Scanned {
  const lines: Scanned['lines'] = [];
  const e = new Engine({ fullScan, onHitLine: (_file, line, ids, ends) => lines.push([line, ids.map((id) => FOLDED[id]!), [...ends]]) });
  let prev = 0;
  for (const p of [...new Set(cuts)].sort((a, b) => a - b).concat(bytes.length)) {
    if (p > prev) e.feed('logs/stdout.log', Buffer.from(bytes.subarray(prev, p)));
    prev = Math.max(prev, p);
  }
  return { lines, diagnosis: e.finish() };
}

/** The oracle, without the automaton: per line, the keys it holds (ASCII case folded), in order of where each first ends. */
function keysByLine(text: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  text.split('\n').forEach((line, i) => {
    const folded = line.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const found = FOLDED.map((k) => ({ k, end: folded.indexOf(k) >= 0 ? folded.indexOf(k) + k.length : -1 })).filter((x) => x.end >= 0);
    if (found.length) out.set(i + 1, found.sort((a, b) => a.end - b.end).map((x) => x.k));
  });
  return out;
}

const respell = (k: string, flips: number[]): string => [...k].map((c, i) => (flips.includes(i) ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');

// Lines of noise with planted keys (as written, or with some letters' case flipped), some long enough to
// be cut into windows (MAX_LINE), and enough of them (10+ KB between cuts, often) that the block scan
// cuts the chunk into four streams of several lines.
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ' ')) },
  { weight: 3, arbitrary: fc.constantFrom(...WRITTEN) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...WRITTEN), fc.array(fc.nat({ max: 40 }), { maxLength: 3 })).map(([k, f]) => respell(k, f)) },
  { weight: 2, arbitrary: fc.constant('\n') },
  { weight: 1, arbitrary: fc.constantFrom('\r', '\x1b[31m', '==> logs/a.log <==\n', 'vm:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\n') },
);
const logText = fc.tuple(fc.array(piece, { minLength: 300, maxLength: 1500 }), fc.nat({ max: 9000 })).map(([ps, pad]) => ps.join('') + (pad > 8000 ? `${'x'.repeat(pad)} ${WRITTEN[pad % WRITTEN.length]}\n` : ''));

describe('the block scan', () => {
  // The text goes in as UTF-8, as logs are written: keys are matched as their UTF-8 bytes, so a latin1
  // encoding (one byte for '±') held a key the oracle saw and no scan could (stop 19's skip).
  it('notes on each line exactly the keys it holds, and the same hits and verdict as one stream, in any chunking', () => {
    fc.assert(
      fc.property(logText, fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }), (text, at) => {
        const bytes = Buffer.from(text, 'utf8');
        // Cuts anywhere, and right inside planted keys (a key split across chunks).
        const cuts = at.map((x) => Math.floor(x * bytes.length));
        const blocks = scan(bytes, cuts, false);
        const single = scan(bytes, cuts, true);
        expect(blocks.lines).toEqual(single.lines);
        expect(blocks.diagnosis).toEqual(single.diagnosis);
        const oracle = keysByLine(text);
        const noted = new Map(blocks.lines.map(([line, keys, ends]) => [line, { keys, ends }]));
        for (const [line, keys] of oracle) {
          const got = noted.get(line);
          expect(got, `line ${line}`).toBeDefined();
          if (got!.ends.length < MAX_HITS) expect(new Set(got!.keys)).toEqual(new Set(keys));
        }
        for (const line of noted.keys()) expect(oracle.has(line), `line ${line} noted without a key`).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('a non-ASCII key cut inside a multi-byte character is found by every scan path', () => {
    // '|±  |' (lm-eval's table, rules/outcome.ts): '±' is two bytes in UTF-8; a chunk may end between them.
    const key = WRITTEN.find((k) => /[^\x00-\x7f]/.test(k))!;
    expect(key).toBeDefined();
    const row = `|arc_easy|      1|none  |     0|acc     |↑  |0.0000|${key}0.0000|`;
    const text = `${'noise '.repeat(900)}\n${row}\n${'noise '.repeat(900)}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const start = bytes.indexOf(Buffer.from(key, 'utf8'));
    const reference = scan(bytes, [], true);
    expect(reference.lines.some(([, keys]) => keys.includes(key.toLowerCase()))).toBe(true);
    for (let cut = start; cut <= start + Buffer.byteLength(key); cut++) {
      for (const fullScan of [false, true]) expect(scan(bytes, [cut], fullScan), `cut at ${cut - start}, ${fullScan ? 'one stream' : 'block scan'}`).toEqual(reference);
    }
  });

  it('keys cut by every chunk boundary of a line that spans chunks', () => {
    const key = WRITTEN.find((k) => k.length > 12)!;
    const text = `${'noise '.repeat(900)}\n${'a'.repeat(700)}${key}${'b'.repeat(700)}\n${'noise '.repeat(900)}\n`;
    const bytes = Buffer.from(text, 'latin1');
    const start = text.indexOf(key);
    const reference = scan(bytes, [], true);
    expect(reference.lines.some(([, keys]) => keys.includes(key.toLowerCase()))).toBe(true);
    for (let cut = start - 1; cut <= start + key.length + 1; cut++) expect(scan(bytes, [cut, cut + 3000], false)).toEqual(reference);
  });

  it('chunks of several blocks, and lines longer than a block, get the same hits and verdict as one stream', () => {
    // Real log lines (a corpus log with a failure), repeated past a few blocks, with one line longer than a block holding keys.
    const real = corpusText(corpusRows().find((r) => corpusText(r.file).length > 20_000)!.file);
    const long = `${'x'.repeat(WASM_BLOCK + 5000)} NCCL WARN Cuda failure 'out of memory' ${'y'.repeat(3000)} CUDA out of memory\n`;
    const text = `${real}\n`.repeat(Math.ceil((2.5 * WASM_BLOCK) / real.length)) + long + `${real}\n`.repeat(3);
    const bytes = Buffer.from(text, 'utf8');
    const reference = scan(bytes, [], true);
    expect(reference.lines.length).toBeGreaterThan(100);
    expect(scan(bytes, [], false)).toEqual(reference);
    expect(scan(bytes, [WASM_BLOCK - 7, 2 * WASM_BLOCK + 11, bytes.length - 1000], true)).toEqual(scan(bytes, [WASM_BLOCK - 7, 2 * WASM_BLOCK + 11, bytes.length - 1000], false));
  });

  it('an NCCL INFO line overwritten after a carriage return counts the host it shows, as one stream does', () => {
    // The block scan skips decoding NCCL INFO lines of a host already counted, unless its stream holds
    // a carriage return or an escape byte: then the visible text (after the last \r) may name another.
    const known = 'vm:948:948 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>';
    const overwritten = 'vm:948:948 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM\rnode7:12:12 [1] NCCL INFO Channel 00/0 : 1[1] -> 0[0] via P2P/CUMEM';
    const text = `${known}\n`.repeat(200) + `${overwritten}\n` + `${known}\n`.repeat(200);
    for (const fullScan of [false, true]) {
      const e = new Engine({ fullScan });
      e.feed('logs/stdout.log', Buffer.from(text, 'utf8'));
      e.finish();
      expect([...e.ctx.ncclHosts].sort(), fullScan ? 'one stream' : 'block scan').toEqual(['node7', 'vm']);
    }
  });

  it('keeps nothing of a chunk past feed: one buffer overwritten after each feed gives the same verdict', () => {
    for (const { file } of corpusRows()) {
      const bytes = Buffer.from(corpusText(file), 'utf8');
      const whole = scan(bytes, [], true).diagnosis;
      for (const size of [61, 4099]) {
        const e = new Engine();
        const reused = Buffer.alloc(size);
        for (let o = 0; o < bytes.length; o += size) {
          const n = bytes.copy(reused, 0, o, o + size);
          e.feed('logs/stdout.log', reused.subarray(0, n));
          reused.fill(0x41);
        }
        expect(e.finish(), `${file} in ${size}-byte pieces`).toEqual(whole);
      }
    }
  });

  it.each(corpusRows().map((r) => [r.id, r.file] as const))('%s: same hits and verdict as one stream', (_id, file) => {
    const bytes = Buffer.from(corpusText(file), 'utf8');
    for (const size of [1 << 20, 4099]) {
      const cuts = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => i * size);
      expect(scan(bytes, cuts, false)).toEqual(scan(bytes, cuts, true));
    }
  });
});
