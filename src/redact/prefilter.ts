// The redactor's prefilter: one pass over the bytes that finds every occurrence of every anchor
// (a literal that each match of some rule contains: `PRIVATE KEY`, `bearer`, `@`, `sk-`, a secret
// word such as `token` or `pass`, a run's literal secret values). A rule none of whose anchors
// occurs cannot change the text and is skipped; most logs hold none, so most bytes are read once
// here and never by a regex.
//
// The pass reads the text as 32-bit words and looks each aligned byte pair up in one 64 Ki-entry
// table. An occurrence of an anchor of 3 or more bytes that starts at an even position holds the
// anchor's pairs at even offsets at even positions, one that starts at an odd position those at
// odd offsets: registering one pair of each kind (the rarest in logs) finds every occurrence.
// One-byte anchors register every pair that holds them. A table hit is checked on one more byte
// inline, then byte by byte.

export interface AnchorSpec {
  name: string;
  /** latin1 text (one char per byte). */
  text: string;
  /** ASCII letters match in either case (the rule's regex has the i flag). */
  ci: boolean;
}

const FOLD = new Uint8Array(256);
for (let c = 0; c < 256; c++) FOLD[c] = c >= 65 && c <= 90 ? c + 32 : c;

// The byte pairs most frequent in the shared corpus's logs and the shared benchmark's training log
// (folded to lower case), most frequent first: used only to choose which pairs of an anchor to
// register (the others are rare).
const COMMON_PAIRS = (
  'en er re ro th at or on id in to ti me ne ch tp ht tt st an ut ou io pu ns pi nn d= t: 0. te .1 ra le 31 00 ' +
  'ac co ct ng tr is un ge fo ri ic /s ea ke nf ru y: hr ug av gh hp s, /c ok 20 12 22 23 es 1. 48 se :5 py de ' +
  'nt :4 nc ec ar 0] as 94 ll cc lo cl 1] ta he ca et s/ us pr ep ha ni :9 :0 vi [0 om wa d_ ia r/ os rd po va ' +
  '== sk mp p: 0) g: 1) p/ (t =2 eq kr vg 3: 10 11 13 51 55 .3 ed li 30 8: :1 .7 03 :3 41 44 :2 it 45 al 64 :8 ' +
  'ss 71 el pe 80 rc no nd ag ve di .p op /t fa da ul 1/ .0 /p 5] nv rk am rn 0/ nk wo em cu -0 e/ pt s: ba _r ' +
  '[r s. bl l_ _s ol ab ir /e au sc ow _a ef lt um -> [1 /m hi ]: cr c/ m: ay t/ sa ms n: vm e: d. oi h_ ue pg ' +
  'hu rv _l g_ '
).trim().split(' ');
const PAIR_RANK = new Map(COMMON_PAIRS.map((p, i) => [p, i]));

/** How often a pair of anchor bytes (already folded when `ci`) is expected in a log. */
function pairWeight(x: number, y: number, ci: boolean): number {
  const rank = PAIR_RANK.get(String.fromCharCode(FOLD[x], FOLD[y]));
  let w = rank === undefined ? 1 : 1000 - rank;
  if (x === 32 || y === 32) w += 1000;
  // an upper-case letter matched as such is rarer than its folded pair says
  if (!ci && ((x >= 0x41 && x <= 0x5a) || (y >= 0x41 && y <= 0x5a))) w = w / 5;
  return w;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Occurrences (start offsets, ascending) of each anchor, by anchor index. */
export type Hits = number[][];
// The list of an anchor not found (shared, never added to).
const NONE: number[] = Object.freeze([]) as unknown as number[];

export class Prefilter {
  readonly anchors: readonly AnchorSpec[];
  private readonly bytes: Uint8Array[];
  private readonly ci: Uint8Array;
  /** The longest anchor's length. */
  readonly maxLen: number;
  /** Pair (b0 | b1 << 8) → bucket id (0: none). */
  private readonly table = new Uint16Array(65536);
  /** Bucket id → its entries' range in `entries`. */
  private readonly bucketStart: Int32Array;
  /**
   * Four ints an entry: anchor index, the pair's offset in the anchor, where one more byte of the
   * anchor lies relative to the pair, and that byte (| 256: compare folded to lower case).
   */
  private readonly entries: Int32Array;

  constructor(anchors: readonly AnchorSpec[]) {
    this.anchors = anchors;
    this.bytes = anchors.map((a) => {
      const b = Uint8Array.from(a.text, (ch) => ch.charCodeAt(0) & 0xff);
      return a.ci ? b.map((c) => FOLD[c]) : b;
    });
    this.ci = Uint8Array.from(anchors, (a) => (a.ci ? 1 : 0));
    this.maxLen = Math.max(1, ...anchors.map((a) => a.text.length));
    const byPair = new Map<number, number[]>();
    const variants = (c: number, ci: boolean) => (ci && c >= 0x61 && c <= 0x7a ? [c, c - 32] : [c]);
    anchors.forEach((a, i) => {
      const b = this.bytes[i];
      const fold = a.ci ? 256 : 0;
      const add = (pair: number, offset: number, quickAt: number, quick: number) => {
        let e = byPair.get(pair);
        if (!e) byPair.set(pair, (e = []));
        e.push(i, offset, quickAt, quick | fold);
      };
      if (b.length === 1) {
        for (const c of variants(b[0], a.ci)) {
          for (let x = 0; x < 256; x++) {
            add(c | (x << 8), 0, 0, b[0]);
            add(x | (c << 8), -1, 1, b[0]);
          }
        }
        return;
      }
      if (b.length < 3) throw new Error(`prefilter anchor ${a.name}: 2-byte anchors are not supported`);
      for (const parity of [0, 1]) {
        let best = -1;
        let bestScore = Infinity;
        for (let k = parity; k + 1 < b.length; k += 2) {
          const score = pairWeight(b[k], b[k + 1], a.ci);
          if (score < bestScore) {
            bestScore = score;
            best = k;
          }
        }
        const quickAt = best + 2 < b.length ? 2 : -1;
        for (const x of variants(b[best], a.ci)) for (const y of variants(b[best + 1], a.ci)) add(x | (y << 8), best, quickAt, b[best + quickAt]);
      }
    });
    if (byPair.size > 65534) throw new Error('prefilter: too many anchor pairs');
    const starts = [0, 0];
    const flat: number[] = [];
    for (const [pair, e] of byPair) {
      this.table[pair] = starts.length - 1;
      flat.push(...e);
      starts.push(flat.length);
    }
    this.bucketStart = Int32Array.from(starts);
    this.entries = Int32Array.from(flat);
  }

  /** Every occurrence of every anchor in `buf`. */
  scan(buf: Uint8Array): Hits {
    const n = buf.length;
    const hits: Hits = this.anchors.map(() => NONE);
    const b = buf.byteOffset & 3 ? new Uint8Array(buf) : buf; // a fresh copy is aligned
    const words = n >>> 2;
    if (LITTLE_ENDIAN) {
      const u32 = new Uint32Array(b.buffer, b.byteOffset, words);
      const table = this.table;
      for (let j = 0; j < words; j++) {
        const w = u32[j];
        const lo = table[w & 0xffff];
        if (lo !== 0) this.check(b, lo, j << 2, hits);
        const hi = table[w >>> 16];
        if (hi !== 0) this.check(b, hi, (j << 2) + 2, hits);
      }
      // The last bytes, as one word padded with zeros (a check never reads past the end).
      if (n & 3) {
        let w = 0;
        for (let k = n & ~3; k < n; k++) w |= b[k] << ((k & 3) << 3);
        const lo = table[w & 0xffff];
        if (lo !== 0) this.check(b, lo, words << 2, hits);
        const hi = table[w >>> 16];
        if (hi !== 0) this.check(b, hi, (words << 2) + 2, hits);
      }
    } else {
      for (let q = 0; q < n; q += 2) {
        const bucket = this.table[b[q] | ((q + 1 < n ? b[q + 1] : 0) << 8)];
        if (bucket !== 0) this.check(b, bucket, q, hits);
      }
    }
    for (const h of hits) {
      for (let k = 1; k < h.length; k++) {
        if (h[k] <= h[k - 1]) {
          const u = [...new Set(h)].sort((x, y) => x - y);
          h.length = 0;
          h.push(...u);
          break;
        }
      }
    }
    return hits;
  }

  /** The entries of the bucket of the pair at `at`: one more byte inline, then the whole anchor. */
  private check(b: Uint8Array, bucket: number, at: number, hits: Hits): void {
    const e = this.entries;
    const n = b.length;
    for (let k = this.bucketStart[bucket], end = this.bucketStart[bucket + 1]; k < end; k += 4) {
      const q = at + e[k + 2];
      if (q < 0 || q >= n) continue;
      const quick = e[k + 3];
      if ((quick & 256 ? FOLD[b[q]] : b[q]) !== (quick & 255)) continue;
      const p = at - e[k + 1];
      if (p >= 0 && this.matchAt(b, e[k], p)) {
        const i = e[k];
        if (hits[i] === NONE) hits[i] = [p];
        else hits[i].push(p);
      }
    }
  }

  private matchAt(b: Uint8Array, i: number, p: number): boolean {
    const a = this.bytes[i];
    if (p + a.length > b.length) return false;
    if (this.ci[i]) {
      for (let k = 0; k < a.length; k++) if (FOLD[b[p + k]] !== a[k]) return false;
    } else {
      for (let k = 0; k < a.length; k++) if (b[p + k] !== a[k]) return false;
    }
    return true;
  }
}
