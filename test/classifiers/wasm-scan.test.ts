// The WebAssembly scan (src/classifiers/wasm-scan.ts) must report what the JS automaton (ac.ts) sees
// on the same bytes: each position where it enters a key-ending state, that state, and how many
// newlines came before it in its stream; whether a stream holds a carriage return or an escape byte;
// and its streams must be complete lines that tile the block.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildByteDfa, FLAG_NEWLINE, FLAG_OUT, type ByteDfa } from '../../src/classifiers/ac.js';
import { WASM_BLOCK, WasmScanner } from '../../src/classifiers/wasm-scan.js';

/** One stream of the JS automaton over buf[start, end), from the root: [position, state, newlines before it] per hit. */
function reference(dfa: ByteDfa, buf: Buffer, start: number, end: number): { hits: number[][]; lines: number; crOrEscape: boolean } {
  const { table, byteClass, width, outputsAt } = dfa;
  const shift = Math.log2(width);
  let st = 0;
  let lines = 0;
  const hits: number[][] = [];
  for (let i = start; i < end; i++) {
    const t = table[st + byteClass[buf[i]!]!]!;
    st = t & ~3;
    if (t & FLAG_NEWLINE) lines += 1;
    else if (t & FLAG_OUT) {
      expect(outputsAt[st >> shift]).toBeGreaterThan(0);
      hits.push([i, st >> shift, lines]);
    }
  }
  const crOrEscape = buf.subarray(start, end).some((b) => b === 13 || b === 27);
  return { hits, lines, crOrEscape };
}

function scanned(scanner: WasmScanner, buf: Buffer, from: number, to: number): { hits: number[][]; lines: number; crOrEscape: boolean }[] {
  scanner.scan(buf, from, to);
  let at = from;
  return scanner.streams.map((st) => {
    // The streams tile [from, to), each made of whole lines.
    expect(st.start).toBe(at);
    expect(st.end).toBeGreaterThanOrEqual(st.start);
    if (st.end > st.start) expect(buf[st.end - 1]).toBe(10);
    at = st.end;
    const hits: number[][] = [];
    for (let r = st.from; r < st.to; r += 3) hits.push([scanner.rec[r]!, scanner.rec[r + 1]!, scanner.rec[r + 2]!]);
    return { hits, lines: st.lines, crOrEscape: st.crOrEscape };
  });
}

function check(dfa: ByteDfa, text: Buffer): void {
  const scanner = new WasmScanner(dfa);
  const end = text.lastIndexOf(10) + 1;
  for (let from = 0; from < end; ) {
    let to = Math.min(end, from + WASM_BLOCK);
    if (to < end) to = text.lastIndexOf(10, to - 1) + 1;
    if (to <= from) break;
    const got = scanned(scanner, text, from, to);
    const want = scanner.streams.map((st) => reference(dfa, text, st.start, st.end));
    expect(got).toEqual(want);
    from = to;
  }
}

const lowerKey = fc.string({ minLength: 1, maxLength: 12 }).map((s) => s.toLowerCase().replace(/\n/g, ' ')).filter((s) => s.length > 0);

describe('the WebAssembly scan', () => {
  it('reports every key end with its state and line, as the JS automaton does, on random keys and text', () => {
    fc.assert(
      fc.property(fc.uniqueArray(lowerKey, { minLength: 1, maxLength: 40 }), fc.array(fc.oneof({ weight: 8, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 2, arbitrary: fc.constant('\n') }, { weight: 1, arbitrary: fc.constantFrom('\r', '\x1b[0m') }), { maxLength: 400 }), (keys, pieces) => {
        const dfa = buildByteDfa(keys, { foldCase: true });
        // Keys planted as written and upper-cased among the noise: the fold must hold in the WebAssembly table too.
        const text = Buffer.from(`${pieces.map((p, i) => (i % 3 === 0 ? keys[i % keys.length]! : i % 3 === 1 ? p : keys[i % keys.length]!.toUpperCase() + p)).join('')}\n`, 'utf8');
        check(dfa, text);
      }),
      { numRuns: 60 },
    );
  });

  it('works past 64 byte classes (a class then takes two bytes of its table)', () => {
    // Keys over 120 distinct bytes, several blocks of text.
    const alphabet = Array.from({ length: 120 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => !/[A-Z]/.test(c));
    const keys = Array.from({ length: 200 }, (_, i) => [0, 1, 2, 3].map((k) => alphabet[(i * 7 + k * 13) % alphabet.length]).join(''));
    const dfa = buildByteDfa([...new Set(keys)], { foldCase: true });
    expect(Math.max(...dfa.byteClass)).toBeGreaterThan(64);
    const lines: string[] = [];
    for (let i = 0, bytes = 0; bytes < 3 * WASM_BLOCK; i++) {
      lines.push(`${alphabet[i % alphabet.length]!.repeat(i % 50)} ${keys[i % keys.length]} ${keys[(i * 3) % keys.length]!.slice(1)}`);
      bytes += lines[lines.length - 1]!.length + 1;
    }
    check(dfa, Buffer.from(`${lines.join('\n')}\n`, 'latin1'));
  });

  it('cuts a block of few long lines into streams that still end at newlines', () => {
    const dfa = buildByteDfa(['needle', 'dle x'], { foldCase: true });
    for (const lineLen of [1, 1000, 70_000, WASM_BLOCK - 1]) {
      const line = `${'x'.repeat(Math.max(0, lineLen - 8))}NEEDLE x`.slice(-lineLen);
      const n = Math.max(1, Math.floor(WASM_BLOCK / (lineLen + 1)));
      check(dfa, Buffer.from(`${Array.from({ length: n }, () => line).join('\n')}\n`, 'latin1'));
    }
  });

  it('refuses a block that does not end a line or is too large', () => {
    const scanner = new WasmScanner(buildByteDfa(['abcd']));
    expect(() => scanner.scan(Buffer.from('abcd'), 0, 4)).toThrow(/complete lines/);
    expect(() => scanner.scan(Buffer.alloc(WASM_BLOCK + 1, 10), 0, WASM_BLOCK + 1)).toThrow(/complete lines/);
  });
});
