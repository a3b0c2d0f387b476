// The two ways the rules of rules.ts are run over a text (latin1, one char per byte). Both give
// the same output, byte for byte, and find the same values for harvest:
//  - referencePipeline: every rule in order over the whole text. Simple, and the oracle the tests
//    and the bench compare against (createRedactor(..., { mode: 'reference' })).
//  - prefilteredPipeline: one prefilter pass (prefilter.ts) finds every anchor; a rule whose
//    anchors are absent is skipped, since it cannot change anything; a rule whose matches never
//    span a line runs on the lines holding its anchors only; key-value tries its pattern only where
//    one of its words is. After a rule changed the text, the anchors are found again.
import { Prefilter, type AnchorSpec, type Hits } from './prefilter.js';
import { applyLiterals, applyRule, redactKeyValues, replacer, RULES, type Rule } from './rules.js';

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
// Key-value's words (KV_HIT in rules.ts): its pattern can match only where one of them starts.
const KV_WORDS = ['pass', 'pwd', 'secret', 'token', 'key', 'credential', '_pat', 'auth', 'value', 'data'];
const KV_PREFILTER = new Prefilter(KV_WORDS.map((t) => ({ name: t, text: t, ci: true })));

const STATIC_ANCHORS: AnchorSpec[] = [
  ...['PRIVATE KEY', 'client-key-data', 'token-data', 'mysql', 'password', 'login'].map((t) => ({ name: t, text: t, ci: false })),
  ...['authorization', 'bearer', 'hooks.slack.com', 'discord', 'accountkey', 'sharedaccess'].map((t) => ({ name: t, text: t, ci: true })),
  ...['@', '?', '&'].map((t) => ({ name: t, text: t, ci: false })),
  ...['sk-', 'sk_', 'rk_', 'npm_', 'hf_', 'ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_', 'glpat-', 'AKIA', 'ASIA', 'xox', 'AIza', 'eyJ'].map((t) => ({ name: t, text: t, ci: false })),
  ...SECRET_WORDS.map((a) => ({ ...a, name: `secret word ${a.text}` })),
];

const isAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c + 32 : c);
function bytesAre(b: Uint8Array, p: number, text: string, ci: boolean): boolean {
  if (p < 0 || p + text.length > b.length) return false;
  for (let k = 0; k < text.length; k++) if ((ci ? lower(b[p + k]) : b[p + k]) !== text.charCodeAt(k)) return false;
  return true;
}

/**
 * Could this occurrence of a secret word be where isSecretKey's reason for a key lies? Every rule
 * that asks isSecretKey reads a key that the text follows with a character that is not a letter or
 * digit, and most of isSecretKey's patterns end at the key's end: `tokens/s` cannot be a secret
 * key's `token`. The exceptions follow isSecretKey's patterns: upper-case names that hold
 * SECRET, PASSWORD or API_KEY anywhere, `clientKeyData`, FDIAG_TOKENS, CREDENTIALS.
 */
function secretWordCounts(word: string, b: Uint8Array, p: number): boolean {
  const end = p + word.length;
  const next = end < b.length ? b[end] : -1;
  if (next < 0 || !isAlnum(next) || word === 'credential' || word === 'passw') return true;
  switch (word) {
    case 'key':
      return bytesAre(b, p, 'KEY', false) || bytesAre(b, end, 'data', true);
    case 'secret':
      return bytesAre(b, p, 'SECRET', false);
    case 'token':
      return (next === 0x53 || next === 0x73) && (bytesAre(b, p - 5, 'fdiag', true) || (bytesAre(b, p - 6, 'fdiag', true) && (b[p - 1] === 0x5f || b[p - 1] === 0x2d)));
    default:
      return false;
  }
}

/** A run's prefilter: the static anchors and the run's literal secret values. */
export class PrefilterPlan {
  private readonly prefilter: Prefilter;
  private readonly index = new Map<string, number>();
  private readonly literalAnchors: number[] = [];

  constructor(latinLits: readonly string[]) {
    const anchors = [...STATIC_ANCHORS];
    for (const lit of latinLits) {
      this.literalAnchors.push(anchors.length);
      anchors.push({ name: `literal ${anchors.length}`, text: lit, ci: false });
    }
    anchors.forEach((a, i) => this.index.set(a.name, i));
    this.prefilter = new Prefilter(anchors);
  }

  scan(b: Uint8Array): Scan {
    return new Scan(this, this.prefilter.scan(b), b);
  }

  hitsOf(hits: Hits, name: string): readonly number[] {
    const i = this.index.get(name);
    if (i === undefined) throw new Error(`redact: no prefilter anchor ${name}`);
    return hits[i];
  }

  literalHits(hits: Hits): boolean {
    return this.literalAnchors.some((i) => hits[i].length > 0);
  }
}

/** The anchors found in one version of the text. */
class Scan {
  private secretWordHits: number[] | null = null;
  private kvHits: Hits | null = null;

  constructor(
    private readonly plan: PrefilterPlan,
    private readonly hits: Hits,
    private readonly bytes: Uint8Array,
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
      for (const w of SECRET_WORDS) for (const p of this.of(`secret word ${w.text}`)) if (secretWordCounts(w.text, this.bytes, p)) out.push(p);
      this.secretWordHits = out.sort((a, b) => a - b);
    }
    return this.secretWordHits;
  }

  /** Occurrences of key-value's words (found on first use: only texts with a secret word need them). */
  kv(word?: string): readonly number[] {
    this.kvHits ??= KV_PREFILTER.scan(this.bytes);
    if (word !== undefined) return this.kvHits[KV_WORDS.indexOf(word)];
    return this.kvHits.flat().sort((a, b) => a - b);
  }

  /** Could nothing at all change? (checked before the text is decoded) */
  nothing(): boolean {
    if (this.literals() || this.secretWords().length) return false;
    for (const rule of RULES) for (const a of rule.gate.anchors) if (a !== 'secret-key' && this.of(a).length) return false;
    return true;
  }
}

// Key-value reads a key back from its word over these characters, and wants this after the word.
const KV_KEY_CHAR = /[A-Za-z0-9_.-]/;
const KV_AFTER_KEY = /["']?\s*[:=]/y;

/**
 * Does the key holding the secret word at `p` end where key-value's pattern can follow it? A key
 * that key-value redacts is a run of KV_KEY_CHAR ending in one of its words and followed by
 * `["']?\s*[:=]`; the secret word that makes it secret lies in that run.
 */
function kvKeyEndsAt(s: string, p: number): boolean {
  let e = p;
  while (e < s.length && KV_KEY_CHAR.test(s[e])) e++;
  KV_AFTER_KEY.lastIndex = e;
  return KV_AFTER_KEY.test(s);
}

function lineAt(s: string, p: number): [number, number] {
  const start = p === 0 ? 0 : s.lastIndexOf('\n', p - 1) + 1;
  const end = s.indexOf('\n', p);
  return [start, end < 0 ? s.length : end];
}

/** The positions of `rule`'s anchors in this text; empty when the rule cannot change it. */
function gatePositions(rule: Rule, scan: Scan, s: string): readonly number[] {
  const g = rule.gate;
  if (g.needs && g.needs.some((n) => scan.kv(n).length === 0)) return [];
  if (g.anchors[0] === 'secret-key') {
    const words = scan.secretWords();
    if (g.scope === 'kv') return words.filter((p) => kvKeyEndsAt(s, p));
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
function applyOnLines(rule: Extract<Rule, { re: RegExp }>, s: string, positions: readonly number[]): { text: string; count: number } {
  let count = 0;
  const cb = replacer(rule, () => count++);
  const pieces: string[] = [];
  let last = 0;
  let lineEnd = -1;
  for (const p of positions) {
    if (p <= lineEnd) continue;
    const [a, b] = lineAt(s, p);
    lineEnd = b;
    const line = s.slice(a, b);
    rule.re.lastIndex = 0;
    const out = line.replace(rule.re, cb);
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
  const changed = (out: { text: string; count: number }) => {
    count += out.count;
    if (out.text === s) return;
    s = out.text;
    scan = plan.scan(Buffer.from(s, 'latin1'));
  };
  if (litRe && scan.literals()) changed(applyLiterals(litRe, s));
  for (const rule of RULES) {
    const at = gatePositions(rule, scan, s);
    if (!at.length) continue;
    if (rule.gate.scope === 'kv') changed(redactKeyValues(s, scan.kv()));
    else if (rule.gate.scope === 'line' && 're' in rule) changed(applyOnLines(rule, s, at));
    else changed(applyRule(rule, s));
  }
  return { text: s, count };
}
