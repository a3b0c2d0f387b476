// The two ways the rules of rules.ts are run over a text (latin1, one char per byte). Both give
// the same output, byte for byte, and find the same values for harvest:
//  - referencePipeline: every rule in order over the whole text. Simple, and the oracle the tests
//    and the bench compare against (createRedactor(..., { mode: 'reference' })).
//  - prefilteredPipeline: one prefilter pass (prefilter.ts) finds every anchor; a rule whose
//    anchors are absent is skipped, since it cannot change anything; a rule whose matches never
//    span a line runs on the lines holding its anchors only; key-value tries its pattern only where
//    the key holding a secret word ends. After a rule changed the text, the anchors are found
//    again around its edits only.
import { Prefilter, type AnchorSpec, type Hits } from './prefilter.js';
import { applyLiterals, applyRule, redactKeyValues, replacer, RULES, type Edit, type Rule } from './rules.js';

export function referencePipeline(input: string, litRe: RegExp | null): { text: string; count: number } {
  let count = 0;
  let s = input;
  if (litRe) {
    const out = applyLiterals(litRe, s);
    s = out.text;
    count += out.count;
  }
  for (const rule of RULES) {
    const out = applyRule(rule, s);
    s = out.text;
    count += out.count;
  }
  return { text: s, count };
}

// Where isSecretKey's reason for a key can lie: the words its patterns (rules.ts) end a secret
// name with, each as it can appear in the text (a name's `-` is read as `_`, camelCase as snake):
// `key` (api_key, apiKey, SSH_KEY), `token`, `secret`, `passw` (password, passwd) and `_PASS`,
// `pwd`, `credential`, `_AUTH`, `_pat`. isSecretKey accepts no name without one of them.
const SECRET_WORDS: AnchorSpec[] = [
  ...['key', 'token', 'secret', 'passw', 'pwd', 'credential', '_pat', '-pat'].map((t) => ({ name: t, text: t, ci: true })),
  ...['_PASS', '-PASS', '_AUTH', '-AUTH'].map((t) => ({ name: t, text: t, ci: false })),
];
// The lengths of key-value's words (KV_HIT in rules.ts: pwd, key, pass, _pat, auth, data, token,
// value, secret, passwd, password, credential, credentials).
const KV_WORD_LENGTHS = [3, 4, 5, 6, 8, 10, 11];

const STATIC_ANCHORS: AnchorSpec[] = [
  ...['PRIVATE KEY', 'client-key-data', 'token-data', 'mysql', 'password', 'login'].map((t) => ({ name: t, text: t, ci: false })),
  ...['authorization', 'bearer', 'hooks.slack.com', 'discord', 'accountkey', 'sharedaccess', 'cookie'].map((t) => ({ name: t, text: t, ci: true })),
  ...['@', '?', '&'].map((t) => ({ name: t, text: t, ci: false })),
  ...['sk-', 'sk_', 'rk_', 'npm_', 'hf_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'AKIA', 'ASIA', 'xox', 'AIza', 'eyJ'].map((t) => ({ name: t, text: t, ci: false })),
  ...SECRET_WORDS.map((a) => ({ ...a, name: `secret word ${a.text}` })),
];

/** One version of the text: its length and its char codes (latin1: bytes). */
interface Text {
  length: number;
  at(i: number): number;
}
const bytesText = (b: Uint8Array): Text => ({ length: b.length, at: (i) => b[i] });
const stringText = (s: string): Text => ({ length: s.length, at: (i) => s.charCodeAt(i) });

const isAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);
function textIs(t: Text, p: number, text: string, ci: boolean): boolean {
  if (p < 0 || p + text.length > t.length) return false;
  for (let k = 0; k < text.length; k++) if ((ci ? lower(t.at(p + k)) : t.at(p + k)) !== text.charCodeAt(k)) return false;
  return true;
}

/**
 * Could this occurrence of a secret word be where isSecretKey's reason for a key lies? Every rule
 * that asks isSecretKey reads a key that the text follows with a character that is not a letter or
 * digit, and most of isSecretKey's patterns end at the key's end: `tokens/s` cannot be a secret
 * key's `token`. The exceptions follow isSecretKey's patterns: upper-case names that hold
 * SECRET, PASSWORD or API_KEY anywhere, `clientKeyData`, FDIAG_TOKENS, CREDENTIALS.
 */
function secretWordCounts(word: string, b: Text, p: number): boolean {
  const end = p + word.length;
  const next = end < b.length ? b.at(end) : -1;
  if (next < 0 || !isAlnum(next) || word === 'credential' || word === 'passw') return true;
  switch (word) {
    case 'key':
      return textIs(b, p, 'KEY', false) || textIs(b, end, 'data', true);
    case 'secret':
      return textIs(b, p, 'SECRET', false);
    case 'token':
      return (next === 0x53 || next === 0x73) && (textIs(b, p - 5, 'fdiag', true) || (textIs(b, p - 6, 'fdiag', true) && (b.at(p - 1) === 0x5f || b.at(p - 1) === 0x2d)));
    default:
      return false;
  }
}

// A run's literal values each become an anchor up to this many (an env has a handful, a bundle's
// harvest a few); past it they would crowd the pair table, and their rule just runs.
const MAX_LITERAL_ANCHORS = 256;

/** A run's prefilter: the static anchors and the run's literal secret values. */
export class PrefilterPlan {
  private readonly prefilter: Prefilter;
  private readonly index = new Map<string, number>();
  private readonly literalAnchors: number[] = [];
  /** The anchors of the rules' gates, and the literal values: one found, and the text is decoded. */
  readonly gateAnchors: number[];
  /** [anchor index, word] of each secret word. */
  readonly secretWordAnchors: [number, string][];

  /** Too many literal values to hunt by anchor: their rule runs over every text that has any. */
  readonly literalsAlways: boolean;

  constructor(latinLits: readonly string[]) {
    const anchors = [...STATIC_ANCHORS];
    this.literalsAlways = latinLits.length > MAX_LITERAL_ANCHORS;
    for (const lit of this.literalsAlways ? [] : latinLits) {
      this.literalAnchors.push(anchors.length);
      anchors.push({ name: `literal ${anchors.length}`, text: lit, ci: false });
    }
    anchors.forEach((a, i) => this.index.set(a.name, i));
    this.prefilter = new Prefilter(anchors);
    const gated = new Set(RULES.flatMap((r) => r.gate.anchors.filter((a) => a !== 'secret-key')));
    this.gateAnchors = [...[...gated].map((a) => this.index.get(a)!), ...this.literalAnchors];
    if (this.gateAnchors.some((i) => i === undefined)) throw new Error('redact: a rule gate names no prefilter anchor');
    this.secretWordAnchors = SECRET_WORDS.map((w) => [this.index.get(`secret word ${w.text}`)!, w.text]);
  }

  scan(b: Uint8Array): Scan {
    return new Scan(this, this.prefilter.scan(b), bytesText(b));
  }

  /**
   * The anchors of `s`, the text `edits` (in the old text's offsets, ascending) made of the one
   * `old` was found in: old hits away from every edit, shifted; the bytes around each edit scanned
   * again. An anchor that starts more than the longest anchor (and the few bytes a secret word's
   * check reads) before or after an edit did not change.
   */
  rescan(old: Hits, s: string, edits: readonly Edit[]): Scan {
    const margin = this.prefilter.maxLen + 8;
    const dropped: [number, number][] = []; // old offsets whose hits may have changed
    const zones: [number, number][] = []; // the same stretches in the new text
    const shifts: [number, number][] = []; // [old offset from which, delta]
    let delta = 0;
    for (const [start, end, length] of edits) {
      const union = (list: [number, number][], from: number, to: number) => {
        const last = list[list.length - 1];
        if (last && from <= last[1]) last[1] = Math.max(last[1], to);
        else list.push([from, to]);
      };
      union(dropped, start - margin, end + margin);
      union(zones, Math.max(0, start + delta - margin), Math.min(s.length, start + delta + length + margin));
      delta += length - (end - start);
      shifts.push([end, delta]);
    }
    const hits: Hits = old.map((list) => {
      const out: number[] = [];
      let k = 0;
      let d = 0;
      let z = 0;
      for (const p of list) {
        while (z < dropped.length && dropped[z][1] <= p) z++;
        if (z < dropped.length && p >= dropped[z][0]) continue;
        while (k < shifts.length && shifts[k][0] <= p) d = shifts[k++][1];
        out.push(p + d);
      }
      return out;
    });
    const grown = new Set<number>();
    for (const [from, to] of zones) {
      const found = this.prefilter.scan(Buffer.from(s.slice(from, Math.min(s.length, to + this.prefilter.maxLen)), 'latin1'));
      found.forEach((list, i) => {
        for (const p of list) {
          if (from + p >= to) continue;
          hits[i].push(from + p);
          grown.add(i);
        }
      });
    }
    for (const i of grown) hits[i].sort((a, b) => a - b);
    return new Scan(this, hits, stringText(s));
  }

  hitsOf(hits: Hits, name: string): readonly number[] {
    const i = this.index.get(name);
    if (i === undefined) throw new Error(`redact: no prefilter anchor ${name}`);
    return hits[i];
  }

  literalHits(hits: Hits): boolean {
    return this.literalsAlways || this.literalAnchors.some((i) => hits[i].length > 0);
  }
}

/** The anchors found in one version of the text. */
class Scan {
  private secretWordHits: number[] | null = null;

  constructor(
    private readonly plan: PrefilterPlan,
    readonly hits: Hits,
    private readonly text: Text,
  ) {}

  of(name: string): readonly number[] {
    return this.plan.hitsOf(this.hits, name);
  }

  literals(): boolean {
    return this.plan.literalHits(this.hits);
  }

  /** Secret words (ascending) that could be where a secret key name's reason lies. */
  secretWords(): readonly number[] {
    if (!this.secretWordHits) {
      const out: number[] = [];
      for (const [i, word] of this.plan.secretWordAnchors) for (const p of this.hits[i]) if (secretWordCounts(word, this.text, p)) out.push(p);
      this.secretWordHits = out.length > 1 ? out.sort((a, b) => a - b) : out;
    }
    return this.secretWordHits;
  }

  /** Could nothing at all change? (checked before the text is decoded) */
  nothing(): boolean {
    if (this.plan.literalsAlways) return false;
    for (const i of this.plan.gateAnchors) if (this.hits[i].length) return false;
    return this.secretWords().length === 0;
  }
}

// Key-value reads a key back from its word over these characters, and wants this after the word.
const KV_KEY_CHAR = /[A-Za-z0-9_.-]/;
const KV_AFTER_KEY = /["']?\s*[:=]/y;

/**
 * Where key-value's pattern can match so as to redact: at one of its words ending a key that holds
 * a secret word. Elsewhere a match redacts nothing and moves its scan past no other word's start
 * (none of its words starts inside another's match), so trying these alone gives the same output.
 * A key that key-value redacts is a run of KV_KEY_CHAR ending in one of its words and followed by
 * `["']?\s*[:=]`; the secret word that makes it secret lies in that run. Each run is read once,
 * however many secret words it holds (`key_key_…_key=`: one walk, not one per word), so the work is
 * linear in the text.
 */
/** Characters kvStarts has read walking keys, since the process started: the work bound's witness in tests. */
export const kvWork = { keyCharsRead: 0 };

function kvStarts(s: string, secretWords: readonly number[]): number[] {
  const out: number[] = [];
  let runEnd = -1;
  for (const p of secretWords) {
    // Ascending words: one inside the run already read ends where that run ends (all KV_KEY_CHAR between).
    if (p < runEnd) continue;
    let e = p;
    while (e < s.length && KV_KEY_CHAR.test(s[e]!)) e++;
    kvWork.keyCharsRead += e - p;
    runEnd = e;
    KV_AFTER_KEY.lastIndex = e;
    if (!KV_AFTER_KEY.test(s)) continue;
    for (let k = KV_WORD_LENGTHS.length - 1; k >= 0; k--) if (e - KV_WORD_LENGTHS[k]! >= 0) out.push(e - KV_WORD_LENGTHS[k]!);
  }
  // Each run adds its candidates ascending; runs at least a separator apart may still interleave
  // (a run shorter than the longest word), so sort, then drop repeats.
  out.sort((a, b) => a - b);
  let n = 0;
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i]!;
  out.length = n;
  return out;
}

function lineAt(s: string, p: number): [number, number] {
  const start = p === 0 ? 0 : s.lastIndexOf('\n', p - 1) + 1;
  const end = s.indexOf('\n', p);
  return [start, end < 0 ? s.length : end];
}

/** The positions of `rule`'s anchors in this text; empty when the rule cannot change it. */
function gatePositions(rule: Rule, scan: Scan, s: string): readonly number[] {
  const g = rule.gate;
  const at = anchorPositions(g, scan, s);
  if (at.length && g.needs && g.needs.some((n) => !s.includes(n))) return [];
  return at;
}

function anchorPositions(g: Rule['gate'], scan: Scan, s: string): readonly number[] {
  if (g.anchors[0] === 'secret-key') {
    const words = scan.secretWords();
    if (g.scope === 'kv') return kvStarts(s, words);
    if (!g.keyLine) return words;
    const out: number[] = [];
    let lineEnd = -1;
    let ok = false;
    for (const p of words) {
      if (p > lineEnd) {
        const [a, b] = lineAt(s, p);
        lineEnd = b;
        ok = g.keyLine(s.slice(a, b));
      }
      if (ok) out.push(p);
    }
    return out;
  }
  if (g.anchors.length === 1) return scan.of(g.anchors[0]);
  return g.anchors.flatMap((a) => scan.of(a)).sort((a, b) => a - b);
}

/** A rule whose matches never span a line, run on the lines holding `positions` (ascending). */
function applyOnLines(rule: Extract<Rule, { re: RegExp }>, s: string, positions: readonly number[], edits: Edit[]): { text: string; count: number } {
  let count = 0;
  const pieces: string[] = [];
  let last = 0;
  let lineEnd = -1;
  for (const p of positions) {
    if (p <= lineEnd) continue;
    const [a, b] = lineAt(s, p);
    lineEnd = b;
    const line = s.slice(a, b);
    rule.re.lastIndex = 0;
    const out = line.replace(rule.re, replacer(rule, () => count++, edits, a));
    if (out !== line) {
      pieces.push(s.slice(last, a), out);
      last = b;
    }
  }
  if (!pieces.length) return { text: s, count };
  pieces.push(s.slice(last));
  return { text: pieces.join(''), count };
}

/**
 * The prefiltered pipeline over `bytes` (whose latin1 decoding is the text). Returns null when no
 * rule can change anything (the common case: the bytes are not even decoded).
 */
export function prefilteredPipeline(bytes: Uint8Array, plan: PrefilterPlan, litRe: RegExp | null): { text: string; count: number } | null {
  let scan = plan.scan(bytes);
  if (scan.nothing()) return null;
  let s = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  let count = 0;
  const step = (run: (edits: Edit[]) => { text: string; count: number }) => {
    const edits: Edit[] = [];
    const out = run(edits);
    count += out.count;
    if (!edits.length) return;
    s = out.text;
    scan = plan.rescan(scan.hits, s, edits);
  };
  if (litRe && scan.literals()) step((edits) => applyLiterals(litRe, s, edits));
  for (const rule of RULES) {
    const at = gatePositions(rule, scan, s);
    if (!at.length) continue;
    if (rule.gate.scope === 'kv') step((edits) => redactKeyValues(s, at, edits));
    else if (rule.gate.scope === 'line' && 're' in rule) step((edits) => applyOnLines(rule, s, at, edits));
    else step((edits) => applyRule(rule, s, edits));
  }
  return { text: s, count };
}
