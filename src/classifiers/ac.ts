// Aho–Corasick over bytes, compiled to a dense DFA. The prefilter has a few hundred literal keys; a JS
// regex alternation of that many literals runs at ~70 MB/s, a byte DFA at several hundred MB/s, and it
// needs no UTF-8 decoding: only the rare lines that contain a key are ever turned into strings.

// Only the compact table is kept: the full byte-indexed transition table it is made from (states × 256
// entries, over 100 MiB for the ~10k keys of the vocabularies) is dropped once the table is built, since
// every thread that loads the engine would hold it.
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
  const fail = new Int32Array(n);
  const delta = new Int32Array(n * 256);
  const outputsByState: number[][] = own.map((o) => [...o]);
  // Breadth-first: a state's failure target is always complete before the state itself.
  const queue: number[] = [];
  for (let b = 0; b < 256; b++) {
    const next = gotoMaps[0]!.get(b);
    if (next !== undefined) {
      fail[next] = 0;
      delta[b] = next * 256;
      queue.push(next);
    } else {
      delta[b] = 0;
    }
  }
  for (let qi = 0; qi < queue.length; qi++) {
    const s = queue[qi]!;
    const f = fail[s]!;
    if (outputsByState[f]!.length) outputsByState[s] = [...outputsByState[s]!, ...outputsByState[f]!];
    for (let b = 0; b < 256; b++) {
      const next = gotoMaps[s]!.get(b);
      if (next !== undefined) {
        fail[next] = delta[f * 256 + b]! / 256;
        delta[s * 256 + b] = next * 256;
        queue.push(next);
      } else {
        delta[s * 256 + b] = delta[f * 256 + b]!;
      }
    }
  }
  if (opts.foldCase) for (let s = 0; s < n; s++) for (let b = 65; b <= 90; b++) delta[s * 256 + b] = delta[s * 256 + b + 32]!;
  const out = new Int32Array(n);
  const outputs: number[][] = [];
  for (let s = 0; s < n; s++) {
    if (outputsByState[s]!.length) {
      outputs.push(outputsByState[s]!);
      out[s] = outputs.length;
    }
  }
  return { outputs, keys, keyBytes: encoded.map((e) => e.length), ...compact(delta, out, n, encoded, !!opts.foldCase) };
}

function compact(delta: Int32Array, out: Int32Array, n: number, encoded: Buffer[], foldCase: boolean): Pick<ByteDfa, 'byteClass' | 'table' | 'width' | 'outputsAt'> {
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
  // Breadth-first order from the root.
  const order = [0];
  const seen = new Uint8Array(n);
  seen[0] = 1;
  for (let qi = 0; qi < order.length; qi++) {
    const s = order[qi]!;
    for (let b = 0; b < 256; b++) {
      const t = delta[s * 256 + b]! >> 8;
      if (!seen[t]) {
        seen[t] = 1;
        order.push(t);
      }
    }
  }
  const id = new Int32Array(n);
  order.forEach((s, i) => (id[s] = i));
  const table = new Int32Array(order.length * width);
  const outputsAt = new Int32Array(order.length);
  for (const s of order) {
    outputsAt[id[s]!] = out[s]!;
    for (let c = 0; c < newline; c++) {
      const t = delta[s * 256 + repOf[c]!]! >> 8;
      table[id[s]! * width + c] = id[t]! * width | (out[t] !== 0 ? FLAG_OUT : 0);
    }
    table[id[s]! * width + newline] = FLAG_NEWLINE;
  }
  return { byteClass, table, width, outputsAt };
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
