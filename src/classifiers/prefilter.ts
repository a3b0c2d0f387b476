// The one prefilter over all rules: every pattern's derived keys (keys.ts) and the context trackers'
// keys go into a single case-folded byte automaton (ac.ts). Per line, the keys it saw decide which
// patterns are worth trying (a pattern needs a key of each of its groups) and whether the context
// trackers look at it; a line that needs neither is never decoded.
import { buildByteDfa, type ByteDfa } from './ac.js';
import { deriveKeys, MIN_KEY_LENGTH } from './keys.js';
import type { Rule } from './rule.js';

export interface PatternRef {
  rule: number;
  re: RegExp;
  /**
   * The pattern's further required groups (keys.ts), confirmed in the line's bytes once its first group
   * hit; only case-sensitive ones are kept (a case-insensitive group is left to the regex).
   */
  more: Buffer[][];
  /**
   * By group of `more`: a string every key of the group contains (their longest common substring, when
   * it has 3+ bytes), or null. A line without it holds none of the group's keys: one search instead of
   * one per key (a group of 110 `HTTP/1.1 `-like spellings).
   */
  moreCommon: (Buffer | null)[];
}

export interface KeyVariant {
  /** DFA key id (the folded key). */
  id: number;
  /** The key's bytes: as written when case-sensitive, lower-case when not. */
  bytes: Buffer;
  /** Exact bytes to confirm in the line, or null for a case-insensitive key (the fold is the match). */
  exact: Buffer | null;
  /** Patterns whose first group holds this key. */
  uses: number[];
  /** Context trackers (bits) that read lines holding this key. */
  context: number;
}

export interface Prefilter {
  dfa: ByteDfa;
  patterns: PatternRef[];
  /** By DFA key id: the real keys folded into it. */
  variants: KeyVariant[][];
  /** Every key as written (case-sensitive ones in their case), for `grep -F -f`-style baselines. */
  keys: string[];
}

const foldAscii = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Build the prefilter; a pattern without a usable literal is a build error, named. */
export function buildPrefilter(rules: readonly Rule[], contextKeys: readonly { key: string; bit: number }[]): Prefilter {
  const patterns: PatternRef[] = [];
  const byFold = new Map<string, Map<string, KeyVariant>>();
  const variant = (key: string, ignoreCase: boolean): KeyVariant => {
    const f = foldAscii(key);
    let m = byFold.get(f);
    if (!m) byFold.set(f, (m = new Map()));
    const id = ignoreCase ? '\u0000i' : key;
    let v = m.get(id);
    if (!v) m.set(id, (v = { id: -1, bytes: Buffer.from(ignoreCase ? f : key, 'utf8'), exact: ignoreCase ? null : Buffer.from(key, 'utf8'), uses: [], context: 0 }));
    return v;
  };
  rules.forEach((rule, ri) => {
    for (const re of rule.patterns) {
      const d = deriveKeys(re);
      if (!d) {
        throw new Error(`rule ${rule.id}: pattern /${re.source}/${re.flags} has no literal (of ${MIN_KEY_LENGTH}+ characters) that every match contains; the prefilter needs one`);
      }
      // Only the most specific group goes into the automaton: weaker ones (a status code, "pid=")
      // would make most lines of a log hits.
      const p = patterns.length;
      const more = d.ignoreCase ? [] : d.groups.slice(1).map((g) => g.map((k) => Buffer.from(k, 'utf8')));
      patterns.push({ rule: ri, re, more, moreCommon: more.map(commonPart) });
      for (const k of d.groups[0]!) variant(k, d.ignoreCase).uses.push(p);
    }
  });
  for (const { key, bit } of contextKeys) variant(key, false).context |= bit;
  const folded = [...byFold.keys()];
  const dfa = buildByteDfa(folded, { foldCase: true });
  const variants = folded.map((f) => [...byFold.get(f)!.values()]);
  variants.forEach((vs, id) => vs.forEach((v) => (v.id = id)));
  const keys = new Set<string>();
  for (const [f, m] of byFold) for (const [id, v] of m) keys.add(v.exact ? id : f);
  return { dfa, patterns, variants, keys: [...keys].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)) };
}

const ascending = (a: number, b: number): number => a - b;

/** The longest substring (3+ bytes) of every key of a group of several, or null. */
function commonPart(group: Buffer[]): Buffer | null {
  if (group.length < 2) return null;
  const shortest = group.reduce((a, b) => (b.length < a.length ? b : a));
  for (let len = shortest.length; len >= 3; len--) {
    for (let at = 0; at + len <= shortest.length; at++) {
      const part = shortest.subarray(at, at + len);
      if (group.every((k) => k.includes(part))) return Buffer.from(part);
    }
  }
  return null;
}
const has = (buf: Buffer, key: Buffer): boolean => key.length <= buf.length && buf.indexOf(key) >= 0;

/** `key` ends at buf[end - 1]. */
function endsAt(buf: Uint8Array, end: number, key: Uint8Array): boolean {
  const start = end - key.length;
  if (start < 0) return false;
  for (let j = 0; j < key.length; j++) if (buf[start + j] !== key[j]) return false;
  return true;
}

/** Per-line scratch for `candidates`: reused across lines, so a line costs no allocation. */
export class CandidateScratch {
  private readonly gen: Uint32Array;
  private stamp = 0;

  constructor(private readonly pf: Prefilter) {
    this.gen = new Uint32Array(pf.patterns.length);
  }

  /**
   * Which patterns the line (its bytes) may match, in pattern order, given the DFA key ids seen in it;
   * `context`: the bits of the context trackers whose keys are in it. Case-sensitive keys are confirmed in the bytes here.
   */
  candidates(line: Uint8Array, hitIds: Iterable<number>): { patterns: number[]; context: number } {
    return this.fromVariants(line, hitIds, true);
  }

  /** A fresh generation stamp for `gen` (which pattern a call has already taken), wrapping before 2^32. */
  private nextStamp(): number {
    if (++this.stamp === 0xffffffff) {
      this.gen.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  /**
   * Like `candidates`, for the line buf[start, end) and the DFA key ids seen in it with where each was
   * first seen (end offset from `start`): a case-sensitive key is confirmed at that spot first, and only
   * searched for in the line when the text there differs in case.
   */
  candidatesAt(buf: Buffer, start: number, end: number, ids: readonly number[], firstEnd: readonly number[], count = ids.length): { patterns: number[]; context: number } {
    const { pf } = this;
    const stamp = this.nextStamp();
    let context = 0;
    let line: Buffer | null = null;
    const patterns: number[] = [];
    for (let k = 0; k < count; k++) {
      const at = start + firstEnd[k]!;
      for (const v of pf.variants[ids[k]!]!) {
        if (v.exact && !endsAt(buf, at, v.exact) && !has((line ??= buf.subarray(start, end)), v.exact)) continue;
        if (v.uses.length === 0) context |= v.context;
        else context |= this.take(v, (line ??= buf.subarray(start, end)), stamp, patterns);
      }
    }
    if (patterns.length > 1) patterns.sort(ascending);
    return { patterns, context };
  }

  /**
   * Like `candidates`, from variants the caller has already confirmed in the line,
   * or from DFA ids whose variants still need confirming (`confirm`).
   */
  fromVariants(line: Uint8Array, hits: Iterable<number> | Iterable<KeyVariant>, confirm: boolean): { patterns: number[]; context: number } {
    const { pf } = this;
    const stamp = this.nextStamp();
    let context = 0;
    const buf = Buffer.isBuffer(line) ? line : Buffer.from(line.buffer, line.byteOffset, line.byteLength);
    const patterns: number[] = [];
    if (confirm) {
      for (const id of hits as Iterable<number>) for (const v of pf.variants[id]!) if (!v.exact || has(buf, v.exact)) context |= this.take(v, buf, stamp, patterns);
    } else {
      for (const v of hits as Iterable<KeyVariant>) context |= this.take(v, buf, stamp, patterns);
    }
    if (patterns.length > 1) patterns.sort(ascending);
    return { patterns, context };
  }

  /** A confirmed key: the patterns it makes worth trying (once each per line); returns its context bits. */
  private take(v: KeyVariant, buf: Buffer, stamp: number, patterns: number[]): number {
    const { gen, pf } = this;
    for (const p of v.uses) {
      if (gen[p] === stamp) continue;
      gen[p] = stamp;
      const { more, moreCommon } = pf.patterns[p]!;
      if (more.length === 0 || more.every((g, gi) => (moreCommon[gi] === null || has(buf, moreCommon[gi]!)) && g.some((k) => has(buf, k)))) patterns.push(p);
    }
    return v.context;
  }
}
