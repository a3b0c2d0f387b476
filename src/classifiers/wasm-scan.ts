// The automaton's hot loop (ac.ts) as WebAssembly: a block of complete lines is cut at newlines into
// four streams that step through the automaton together, each appending where a key ended to its own
// list; the newlines before each hit are counted afterwards, 16 bytes a step. In JS the same loop
// (the two-stream scan this replaced) spent most of each byte on bounds checks, register spills and a
// branch at every newline around its table loads; here a step is four instructions (the byte, its
// class, the add, the next row), four streams hide each table load's latency behind the other three,
// one index serves all four (their bytes lie at fixed distances, carried as the loads' constant
// offsets), and "did any stream end a key" is one compare: key-ending states are numbered from a
// power of two on. The module is assembled below from its instructions: no binary is checked in and
// no tool is needed to build it.
//
// It reports exactly what one stream of the JS automaton sees: every byte where the automaton enters
// a key-ending state, with that state, and the number of newlines before it in its stream
// (test/classifiers/wasm-scan.test.ts checks it against the JS automaton, scan.test.ts the engine).
import type { ByteDfa } from './ac.js';

/** Bytes scanned per call at most: complete lines, cut again into four streams. */
export const WASM_BLOCK = 256 * 1024;
const STREAMS = 4;
/** A hit record, three i32: position, state, newlines before it. */
const RECORD = 12;
/** Memory layout: REGS (per stream: where its next record goes, then its newline count), CLASS (per byte), TABLE, then the input and records. */
const REGS = 0;
const CLASS = 1024;
const TABLE = 2048;

const OP = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  call: 0x10,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i32Load8u: 0x2d,
  i32Load16u: 0x2f,
  i32Store: 0x36,
  i32Const: 0x41,
  i32Eq: 0x46,
  i32GeU: 0x4f,
  i32GtU: 0x4b,
  i32Add: 0x6a,
  i32Shl: 0x74,
  i32Popcnt: 0x69,
  i32Or: 0x72,
  simd: 0xfd,
  v128Load: 0x00,
  i8x16Splat: 0x0f,
  i8x16Eq: 0x23,
  i8x16Bitmask: 0x64,
  v128Or: 0x50,
  v128AnyTrue: 0x53,
  void: 0x40,
  i32: 0x7f,
  v128: 0x7b,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const get = (x: number): number[] => [OP.localGet, ...uleb(x)];
const set = (x: number): number[] => [OP.localSet, ...uleb(x)];
const i32 = (v: number): number[] => [OP.i32Const, ...sleb(v)];
const load = (offset: number): number[] => [OP.i32Load, 2, ...uleb(offset)];
const store = (offset: number): number[] => [OP.i32Store, 2, ...uleb(offset)];
/** `block { loop { if (cond) break; body; continue } }` */
const whileNot = (cond: number[], body: number[]): number[] => [OP.block, OP.void, OP.loop, OP.void, ...cond, OP.brIf, 1, ...body, OP.br, 0, OP.end, OP.end];

interface Layout {
  /** Where stream j's bytes start: input + j × WASM_BLOCK. */
  input: number;
  /** Where stream j's records start: out + j × WASM_BLOCK × RECORD (at most one record per byte). */
  out: number;
  /** First key-ending row offset: a power of two, above every other row. */
  threshold: number;
  /** CLASS holds class × 4 in one byte (up to 64 classes), else in two. */
  wideClasses: boolean;
  pages: number;
}

/** REGS: per stream where its next record goes, its newline count, whether it holds a CR or an ESC; then the running flag. */
const REG_NEWLINES = STREAMS;
const REG_CR_ESC = 2 * STREAMS;
const REG_FLAG = 3 * STREAMS;

/**
 * Function 0, `count(a, b) → n`: how many newlines memory [a, b) holds (SIMD compare, bitmask,
 * popcount per 16 bytes); a carriage return or an escape byte among them sets REGS[REG_FLAG].
 */
function countNewlines(): number[] {
  const [A, B, N, F, NL, CR, ESC, SEEN, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const simd = (op: number, ...imm: number[]) => [OP.simd, ...uleb(op), ...imm];
  const byteIs = (v: number) => [...get(A), OP.i32Load8u, 0, 0, ...i32(v), OP.i32Eq];
  const body = [
    ...i32(10), ...simd(OP.i8x16Splat), ...set(NL),
    ...i32(13), ...simd(OP.i8x16Splat), ...set(CR),
    ...i32(27), ...simd(OP.i8x16Splat), ...set(ESC),
    ...whileNot([...get(A), ...i32(16), OP.i32Add, ...get(B), OP.i32GtU], [
      ...get(A), ...simd(OP.v128Load, 0, 0), ...set(V),
      ...get(N), ...get(V), ...get(NL), ...simd(OP.i8x16Eq), ...simd(OP.i8x16Bitmask), OP.i32Popcnt, OP.i32Add, ...set(N),
      ...get(SEEN), ...get(V), ...get(CR), ...simd(OP.i8x16Eq), ...simd(OP.v128Or), ...get(V), ...get(ESC), ...simd(OP.i8x16Eq), ...simd(OP.v128Or), ...set(SEEN),
      ...get(A), ...i32(16), OP.i32Add, ...set(A),
    ]),
    ...whileNot([...get(A), ...get(B), OP.i32GeU], [
      ...get(N), ...byteIs(10), OP.i32Add, ...set(N),
      ...get(F), ...byteIs(13), OP.i32Or, ...byteIs(27), OP.i32Or, ...set(F),
      ...get(A), ...i32(1), OP.i32Add, ...set(A),
    ]),
    ...i32(REGS), ...i32(REGS), ...load(4 * REG_FLAG), ...get(F), OP.i32Or, ...get(SEEN), ...simd(OP.v128AnyTrue), OP.i32Or, ...store(4 * REG_FLAG),
    ...get(N),
    OP.end,
  ];
  return [...vec([[2, OP.i32], [5, OP.v128]]), ...body];
}

/**
 * Function 1, `scan(common, l0, l1, l2, l3)`: stream j is the l_j bytes at input + j × WASM_BLOCK,
 * each from the root; all four in step for their first `common` bytes, then each alone. A hit appends
 * (position in its stream, row offset) at REGS[j], which moves past it. Then, per stream, each
 * record's third field gets the newlines before it, REGS[REG_NEWLINES + j] the stream's newline
 * count and REGS[REG_CR_ESC + j] whether a carriage return or an escape byte is in it.
 */
function scanFunction(L: Layout): number[] {
  const COMMON = 0;
  const len = (j: number) => 1 + j;
  const s = (j: number) => 1 + STREAMS + j;
  const [K, O, END, CUR, POS, N] = [1, 2, 3, 4, 5, 6].map((i) => 2 * STREAMS + i);
  const LOCALS = 2 * STREAMS + 7;
  const classOf = L.wideClasses ? [...i32(1), OP.i32Shl, OP.i32Load16u, 1, ...uleb(CLASS)] : [OP.i32Load8u, 0, ...uleb(CLASS)];
  /** s_j = table[s_j + class(in_j[k])] (row offsets and class × 4 are byte offsets). */
  const step = (j: number) => [...get(s(j)), ...get(K), OP.i32Load8u, 0, ...uleb(L.input + j * WASM_BLOCK), ...classOf, OP.i32Add, ...load(TABLE), ...set(s(j))];
  /** If s_j ends a key: append (k, s_j) to stream j's records. */
  const record = (j: number) => [
    ...get(s(j)), ...i32(L.threshold), OP.i32GeU, OP.if, OP.void,
    ...i32(REGS), ...load(4 * j), OP.localTee, ...uleb(O), ...get(K), ...store(0),
    ...get(O), ...get(s(j)), ...store(4),
    ...i32(REGS), ...get(O), ...i32(RECORD), OP.i32Add, ...store(4 * j),
    OP.end,
  ];
  const advance = [...get(K), ...i32(1), OP.i32Add, ...set(K)];
  const body: number[] = [];
  const together: number[] = [];
  for (let j = 0; j < STREAMS; j++) together.push(...step(j));
  together.push(...get(s(0)));
  for (let j = 1; j < STREAMS; j++) together.push(...get(s(j)), OP.i32Or);
  together.push(...i32(L.threshold), OP.i32GeU, OP.if, OP.void);
  for (let j = 0; j < STREAMS; j++) together.push(...record(j));
  together.push(OP.end, ...advance);
  body.push(...whileNot([...get(K), ...get(COMMON), OP.i32GeU], together));
  for (let j = 0; j < STREAMS; j++) {
    body.push(...get(COMMON), ...set(K), ...whileNot([...get(K), ...get(len(j)), OP.i32GeU], [...step(j), ...record(j), ...advance]));
  }
  for (let j = 0; j < STREAMS; j++) {
    const base = L.input + j * WASM_BLOCK;
    body.push(...i32(REGS), ...i32(0), ...store(4 * REG_FLAG));
    body.push(...i32(L.out + j * WASM_BLOCK * RECORD), ...set(O), ...i32(REGS), ...load(4 * j), ...set(END), ...i32(base), ...set(CUR), ...i32(0), ...set(N));
    body.push(
      ...whileNot([...get(O), ...get(END), OP.i32GeU], [
        ...get(O), ...load(0), ...i32(base), OP.i32Add, ...set(POS),
        ...get(N), ...get(CUR), ...get(POS), OP.call, 0, OP.i32Add, ...set(N), ...get(POS), ...set(CUR),
        ...get(O), ...get(N), ...store(8), ...get(O), ...i32(RECORD), OP.i32Add, ...set(O),
      ]),
    );
    body.push(...i32(REGS), ...get(N), ...get(CUR), ...i32(base), ...get(len(j)), OP.i32Add, OP.call, 0, OP.i32Add, ...store(4 * (REG_NEWLINES + j)));
    body.push(...i32(REGS), ...i32(REGS), ...load(4 * REG_FLAG), ...store(4 * (REG_CR_ESC + j)));
  }
  body.push(OP.end);
  return [...vec([[...uleb(LOCALS - 1 - STREAMS), OP.i32]]), ...body];
}

function scanModule(L: Layout): Uint8Array<ArrayBuffer> {
  const count = countNewlines();
  const scan = scanFunction(L);
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...vec([[OP.i32], [OP.i32]]), ...vec([[OP.i32]])], [0x60, ...vec(Array.from({ length: 1 + STREAMS }, () => [OP.i32])), 0]])),
    ...section(3, vec([[0], [1]])),
    ...section(5, vec([[0x01, ...uleb(L.pages), ...uleb(L.pages)]])),
    ...section(7, vec([[...name('scan'), 0x00, 1], [...name('mem'), 0x02, 0]])),
    ...section(10, vec([[...uleb(count.length), ...count], [...uleb(scan.length), ...scan]])),
  ];
  return Uint8Array.from(bytes);
}

/** Where one stream of the last block lay, and its records. */
export interface StreamHits {
  /** The stream is buf[start, end) of the caller's buffer: complete lines. */
  start: number;
  end: number;
  /** Its records are rec[from, to), three numbers each: position in buf, automaton state, newlines before it in the stream. */
  from: number;
  to: number;
  /** Newlines in the stream (each of its lines ends with one). */
  lines: number;
  /** Whether a carriage return or an escape byte is in it (a line's visible text may then differ from its bytes). */
  crOrEscape: boolean;
}

export class WasmScanner {
  /** Hit records (see StreamHits). */
  readonly rec: Int32Array;
  readonly streams: StreamHits[] = Array.from({ length: STREAMS }, () => ({ start: 0, end: 0, from: 0, to: 0, lines: 0, crOrEscape: false }));
  private readonly mem: Uint8Array;
  private readonly regs: Int32Array;
  private readonly run: (common: number, ...lengths: number[]) => void;
  private readonly layout: Layout;
  private readonly rowBytes: number;
  /** Row number in the WebAssembly table → the automaton's state. */
  private readonly stateOf: Int32Array;

  constructor(dfa: ByteDfa) {
    const { width, table: jsTable, outputsAt, byteClass } = dfa;
    const shift = Math.log2(width);
    const states = jsTable.length / width;
    // The newline needs no class of its own here (newlines are counted from the bytes): it joins
    // class 0, the bytes no key holds, which send every state to the root.
    const newlineClass = byteClass[10]!;
    let classes = 1;
    for (let b = 0; b < 256; b++) if (b !== 10) classes = Math.max(classes, byteClass[b]! + 1);
    let rowLen = 1;
    while (rowLen < classes) rowLen *= 2;
    this.rowBytes = rowLen * 4;
    // Rows renumbered: states that end no key first (the root first, the breadth-first order kept),
    // then the key-ending ones from a power of two on.
    const plain: number[] = [];
    const ending: number[] = [];
    for (let q = 0; q < states; q++) (outputsAt[q] ? ending : plain).push(q);
    let firstEnding = 1;
    while (firstEnding < plain.length) firstEnding *= 2;
    const rows = firstEnding + ending.length;
    const rowOf = new Int32Array(states);
    plain.forEach((q, i) => (rowOf[q] = i));
    ending.forEach((q, i) => (rowOf[q] = firstEnding + i));
    this.stateOf = new Int32Array(rows).fill(-1);
    for (let q = 0; q < states; q++) this.stateOf[rowOf[q]!] = q;
    const input = TABLE + rows * this.rowBytes;
    const out = input + STREAMS * WASM_BLOCK;
    const end = out + STREAMS * WASM_BLOCK * RECORD;
    this.layout = { input, out, threshold: firstEnding * this.rowBytes, wideClasses: classes > 64, pages: Math.ceil(end / 65536) };
    const inst = new WebAssembly.Instance(new WebAssembly.Module(scanModule(this.layout)));
    const memory = inst.exports.mem as WebAssembly.Memory;
    this.mem = new Uint8Array(memory.buffer);
    this.regs = new Int32Array(memory.buffer, REGS, REG_FLAG + 1);
    this.rec = new Int32Array(memory.buffer);
    this.run = inst.exports.scan as WasmScanner['run'];
    const table = new Int32Array(memory.buffer, TABLE, rows * rowLen);
    for (let q = 0; q < states; q++) {
      const row = rowOf[q]! * rowLen;
      for (let c = 0; c < classes; c++) if (c !== newlineClass) table[row + c] = rowOf[jsTable[q * width + c]! >> shift]! * this.rowBytes;
    }
    const cls = this.layout.wideClasses ? new Uint16Array(memory.buffer, CLASS, 256) : new Uint8Array(memory.buffer, CLASS, 256);
    for (let b = 0; b < 256; b++) cls[b] = b === 10 ? 0 : byteClass[b]! * 4;
  }

  /**
   * Scan buf[from, to): complete lines (buf[to - 1] is a newline), at most WASM_BLOCK bytes, cut into
   * four streams at newlines. Afterwards `streams` and `rec` say what each stream saw.
   */
  scan(buf: Buffer, from: number, to: number): void {
    const n = to - from;
    if (n > WASM_BLOCK || (n > 0 && buf[to - 1] !== 10)) throw new Error('WasmScanner.scan takes complete lines, at most WASM_BLOCK bytes');
    const { input, out } = this.layout;
    const { streams, regs, rec, stateOf, rowBytes } = this;
    let common = WASM_BLOCK;
    let start = from;
    for (let j = 0; j < STREAMS; j++) {
      const st = streams[j]!;
      let end = to;
      if (j < STREAMS - 1) {
        const want = from + Math.floor((n * (j + 1)) / STREAMS);
        end = want <= start ? start : buf.indexOf(10, want - 1) + 1;
      }
      st.start = start;
      st.end = end;
      this.mem.set(buf.subarray(start, end), input + j * WASM_BLOCK);
      regs[j] = out + j * WASM_BLOCK * RECORD;
      if (end - start < common) common = end - start;
      start = end;
    }
    this.run(common, ...streams.map((st) => st.end - st.start));
    for (let j = 0; j < STREAMS; j++) {
      const st = streams[j]!;
      st.from = (out + j * WASM_BLOCK * RECORD) >> 2;
      st.to = regs[j]! >> 2;
      st.lines = regs[REG_NEWLINES + j]!;
      st.crOrEscape = regs[REG_CR_ESC + j] !== 0;
      for (let r = st.from; r < st.to; r += 3) {
        rec[r] = rec[r]! + st.start;
        rec[r + 1] = stateOf[rec[r + 1]! / rowBytes]!;
      }
    }
  }
}
