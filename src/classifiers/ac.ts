// Aho–Corasick over bytes, compiled to a dense DFA. The prefilter has a few hundred literal keys; a JS
// regex alternation of that many literals runs at ~70 MB/s, a byte DFA at several hundred MB/s, and it
// needs no UTF-8 decoding: only the rare lines that contain a key are ever turned into strings.

// Only the compact table is ever built: a byte-indexed transition table of every state (states × 256
// entries: over 100 MiB for the ~10k keys of the vocabularies) would cost every thread that loads the
// engine that much at start, and the scan never reads it.
export interface ByteDfa {
  /** Key ids that end at a state (its own and those of its suffix states). */
  outputs: number[][];
  keys: string[];
  /** Key lengths in bytes, by key id. */
  keyBytes: number[];
  /**
   * The same automaton, compact, for the scan loop: bytes map to classes (`byteClass`; all bytes no key
   * uses share class 0, a newline has its own), states are renumbered breadth-first (the root and the
   * shallow states a scan spends its time in sit together) and a row has `width` entries.
   * `table[state * width + class]` is `next * width | flags`: FLAG_OUT when `next` ends a key,
   * FLAG_NEWLINE on a newline (which returns to the root). `outputsAt[next]` is then 0 or (index into
   * `outputs`) + 1.
   */
  byteClass: Uint8Array;
  table: Int32Array;
  width: number;
  outputsAt: Int32Array;
}

export const FLAG_OUT = 1;
export const FLAG_NEWLINE = 2;

/**
 * `foldCase`: keys must be ASCII lower case, and an upper-case input byte moves the automaton as its
 * lower-case letter does, so the scan finds a key in any case at no extra cost per byte.
 */
export function buildByteDfa(keys: string[], opts: { foldCase?: boolean } = {}): ByteDfa {
  if (opts.foldCase && keys.some((k) => /[A-Z]/.test(k))) throw new Error('a case-folded automaton takes lower-case keys');
  const encoded = keys.map((k) => Buffer.from(k, 'utf8'));
  const gotoMaps: Map<number, number>[] = [new Map()];
  const own: number[][] = [[]];
  encoded.forEach((bytes, id) => {
    let s = 0;
    for (const b of bytes) {
      let next = gotoMaps[s]!.get(b);
      if (next === undefined) {
        next = gotoMaps.length;
        gotoMaps.push(new Map());
        own.push([]);
        gotoMaps[s]!.set(b, next);
      }
      s = next;
    }
    own[s]!.push(id);
  });
  const n = gotoMaps.length;
  const foldCase = !!opts.foldCase;
  // A byte no key holds sends every state to the root: all such bytes share class 0. Each byte a key
  // holds gets its own class (an upper-case letter its lower-case letter's, when folding).
  const byteClass = new Uint8Array(256);
  const repOf: number[] = [0];
  const used = new Uint8Array(256);
  for (const e of encoded) for (const b of e) used[b] = 1;
  for (let b = 0; b < 256; b++) {
    if (b === 10 || !used[b] || (foldCase && b >= 65 && b <= 90)) continue;
    byteClass[b] = repOf.length;
    repOf.push(b);
  }
  if (foldCase) for (let b = 65; b <= 90; b++) byteClass[b] = byteClass[b + 32]!;
  const newline = repOf.length;
  byteClass[10] = newline;
  // At least 4: an entry keeps its two flags below the row offset.
  let width = 4;
  while (width < newline + 1) width *= 2;
  // Rows in breadth-first order from the root (the root and the shallow states a scan spends its time in
  // sit together), a state's bytes visited 0..255 (an upper-case byte, when folding, leads where its
  // lower-case letter does). Only trie children are new there: every other transition goes back to a
  // state no deeper than the current one, which breadth-first order has already seen.
  const order = [0];
  const id = new Int32Array(n).fill(-1);
  id[0] = 0;
  for (let qi = 0; qi < order.length; qi++) {
    const m = gotoMaps[order[qi]!]!;
    if (m.size === 0) continue;
    for (let b = 0; b < 256; b++) {
      const c = m.get(foldCase && b >= 65 && b <= 90 ? b + 32 : b);
      if (c !== undefined && id[c]! < 0) {
        id[c] = order.length;
        order.push(c);
      }
    }
  }
  // Failure links and outputs by row, breadth-first: a row's failure target is shallower, so done first.
  const fail = new Int32Array(n);
  const NONE: number[] = [];
  const outputsOf: number[][] = new Array<number[]>(n);
  const child = (row: number, b: number): number => {
    const c = gotoMaps[order[row]!]!.get(b);
    return c === undefined ? -1 : id[c]!;
  };
  for (let row = 0; row < n; row++) {
    const s = order[row]!;
    const f = fail[row]!;
    const inherited = row === 0 ? NONE : outputsOf[f]!;
    outputsOf[row] = own[s]!.length ? [...own[s]!, ...inherited] : inherited;
    for (const [b, c] of gotoMaps[s]!) {
      let t = row === 0 ? -1 : f;
      let next = -1;
      while (t >= 0) {
        next = child(t, b);
        if (next >= 0 || t === 0) break;
        t = fail[t]!;
      }
      fail[id[c]!] = next >= 0 ? next : 0;
    }
  }
  const outputs: number[][] = [];
  const outputsAt = new Int32Array(n);
  for (let row = 0; row < n; row++) {
    if (outputsOf[row]!.length) {
      outputs.push(outputsOf[row]!);
      outputsAt[row] = outputs.length;
    }
  }
  // The compact table, written row by row: a missing child is the failure target's entry (a shallower
  // row, already written), so no byte-indexed table of every state is ever built.
  const table = new Int32Array(n * width);
  for (let row = 0; row < n; row++) {
    for (let c = 0; c < newline; c++) {
      let t = child(row, repOf[c]!);
      if (t < 0) t = row === 0 ? 0 : table[fail[row]! * width + c]! >> Math.log2(width);
      table[row * width + c] = t * width | (outputsAt[t] !== 0 ? FLAG_OUT : 0);
    }
    table[row * width + newline] = FLAG_NEWLINE;
  }
  return { outputs, keys, keyBytes: encoded.map((e) => e.length), byteClass, table, width, outputsAt };
}

/** Key ids found anywhere in `bytes` (for short synthetic lines; the engine inlines the loop for logs). */
export function keysIn(dfa: ByteDfa, bytes: Uint8Array): Set<number> {
  // (The caller confirms case-sensitive keys; see prefilter.ts.)
  const found = new Set<number>();
  const { byteClass, table, width, outputsAt, outputs } = dfa;
  // An entry is next * width with the flags in its low bits (width ≥ 4 leaves room for both).
  const rowMask = ~(width - 1);
  const shift = Math.log2(width);
  let row = 0;
  for (let i = 0; i < bytes.length; i++) {
    const t = table[row + byteClass[bytes[i]!]!]!;
    row = t & rowMask;
    if (t & FLAG_OUT) for (const k of outputs[outputsAt[row >> shift]! - 1]!) found.add(k);
  }
  return found;
}
