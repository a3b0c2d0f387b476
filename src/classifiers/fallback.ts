// The last resort when no rule decided: which class's producer vocabulary the log's failure lines
// (failure-lines.ts) speak. A weak verdict, never an outcome, and `unknown` when the words are too few
// or two classes are too close. docs/engine.md ("Vocabulary fallback") describes the scoring.
//
// The vocabulary of a class is its lexicon terms (rules/lexicon.ts, read in the producers' source) and
// the literal keys of its rules' patterns (keys.ts: what every match of a pattern contains, i.e. the
// producers' wordings the rules were written from). A term weighs by how few classes share it
// (inverse class frequency), by the share of its mentions that are this class's, and by its length in
// words; a class scores the sum over the distinct terms found in the failure lines.
import type { FailureLine } from './failure-lines.js';
import { deriveKeys } from './keys.js';
import type { Rule } from './rule.js';
import { LEXICON, type LexiconEntry, type VocabularyClass } from './rules/lexicon.js';
import { categoryOf, FAILURE_CLASSES, type FailureClass } from './taxonomy.js';
import type { Diagnosis } from './types.js';

/**
 * The least score a guess needs: one name only one class uses (an identifier such as ENOSPC, a phrase of
 * two words or more), or several shared ones; one plain word of one class is not enough.
 */
export const MIN_SCORE = 3.5;
/** The best class must score this many times the runner-up, else the guess is `unknown` (a tie is no guess). */
export const MIN_MARGIN = 1.5;
/** Confidence of a guess lies in [MIN_CONFIDENCE, MAX_CONFIDENCE]: below any rule's (≥ 0.35, resolve.ts). */
export const MIN_CONFIDENCE = 0.1;
export const MAX_CONFIDENCE = 0.3;
/**
 * A log with no flagged failure line (docs/engine.md "Vocabulary fallback"): its last lines and its other
 * lines that hold a rule's words are read instead. Chatter says a class's words without a failure, so the
 * guess needs twice the score and keeps to a lower confidence band, below any guess from failure lines.
 */
export const UNFLAGGED_MIN_SCORE = 2 * MIN_SCORE;
export const UNFLAGGED_MAX_CONFIDENCE = 0.15;
export const UNFLAGGED_MIN_CONFIDENCE = 0.05;

/** Which lines a guess read: the failure lines producers flagged, or (none flagged) the log's last lines and its other worded lines. */
export type GuessTier = 'flagged' | 'unflagged';
/** A lexicon mention counts this many times a rule key's: it was written as a class's word, a key is a piece of a pattern. */
const LEXICON_MENTION = 2;
const MAX_EVIDENCE = 6;
export const FALLBACK_RULE = 'fallback.vocabulary';

/** Words that every failure line carries (the severity markers' own words) or that say nothing of a class. */
const STOPWORDS = new Set(
  'error errors err exception exceptions failed failure fail fatal critical warning warn info debug the and or of to in on at for with by from is are was were be been not no an a this that it its as line file py self none true false http https www com org io html json yaml log logs run runs running code status message msg some any can could cannot may has have had do does did will would should out off up down into over new all one two set get got see use used using when while after before than then there here'.split(' '),
);

/** Lower-case words of a text: camelCase and snake_case split, every run of other characters one space; ' a b c '. */
export function words(text: string): string {
  const split = text
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z\d]+/g, ' ')
    .trim();
  return split ? ` ${split} ` : ' ';
}

/**
 * Names every producer uses for any failure (Python's catch-all exceptions, status fields) and the words of
 * a process dying of a signal (the kernel's and libc's signal names, bash's "Segmentation fault (core
 * dumped)", CPython faulthandler's "Fatal Python error"): they say a failure happened, not which. A native
 * crash reads the same in a Ray worker, a DataLoader worker or a CUDA extension, so it is no class's word.
 */
const GENERIC_NAMES = new Set(
  [
    'RuntimeError', 'ValueError', 'Exception', 'BaseException', 'OSError', 'IOError', 'EnvironmentError', 'SystemExit', 'SystemError', 'Error', 'StandardError', 'UserWarning', 'exitCode', 'ExitCode', 'errorCode', 'statusCode',
    'Segmentation fault', 'core dumped', 'Fatal Python error', 'Aborted', 'SIGSEGV', 'SIGABRT', 'SIGBUS', 'SIGILL', 'SIGFPE', 'received by PID',
  ].map((n) => words(n)),
);

/** Words of a term (as `words` writes it) that say something: 3+ letters, no stopword, no number. */
function meaningfulWords(term: string): number {
  return term
    .trim()
    .split(' ')
    .filter((w) => /[a-z]/.test(w) && w.length >= 3 && !STOPWORDS.has(w)).length;
}

/** A name as code writes it (ENOSPC, OOMKilled, cudaErrorIllegalAddress, NCCL_P2P_DISABLE), not a word of prose. */
const isIdentifier = (raw: string): boolean => /^\S+$/.test(raw.trim()) && /[a-z][A-Z]|[A-Za-z\d]_[A-Za-z\d]|^[A-Z][A-Z\d]{3,}$/.test(raw.trim());

export interface VocabularyTerm {
  /** The term as `words` writes it, with its surrounding spaces: ' cuda out of memory '. */
  term: string;
  /** Matched as whole words at both ends (lexicon) or at its start only (a rule key may end inside a word: "HTTP/1.1 5"). */
  wholeWord: boolean;
  /** Weight for each class whose vocabulary holds it. */
  weights: Map<VocabularyClass, number>;
}

export interface Vocabulary {
  terms: VocabularyTerm[];
}

const isVocabularyClass = (c: FailureClass): c is VocabularyClass => c !== 'unknown' && categoryOf(c) !== 'outcome';

/** Build the vocabulary from the lexicon and the rules' pattern keys (ablation builds it from fewer rules). */
export function buildVocabulary(rules: readonly Rule[], lexicon: readonly LexiconEntry[] = LEXICON): Vocabulary {
  const mentions = new Map<string, { wholeWord: boolean; identifier: boolean; by: Map<VocabularyClass, number> }>();
  const mention = (raw: string, cls: VocabularyClass, n: number, fromLexicon: boolean) => {
    const term = words(raw);
    const meaning = meaningfulWords(term);
    const identifier = isIdentifier(raw);
    // A lexicon term may lean on a number (`code 503`); a rule key must be a name or say two things (not "python", "abort").
    const said = fromLexicon ? term.trim().split(' ').filter((w) => !STOPWORDS.has(w)).length : meaning;
    if (said === 0 || GENERIC_NAMES.has(term) || (!fromLexicon && !identifier && meaning < 2)) return;
    let m = mentions.get(term);
    if (!m) mentions.set(term, (m = { wholeWord: fromLexicon, identifier, by: new Map() }));
    m.wholeWord &&= fromLexicon;
    m.identifier ||= identifier;
    m.by.set(cls, (m.by.get(cls) ?? 0) + n);
  };
  for (const e of lexicon) for (const t of e.terms) mention(t, e.class, LEXICON_MENTION, true);
  for (const r of rules) {
    if (!isVocabularyClass(r.class)) continue;
    const keys = new Set<string>();
    for (const re of r.patterns) for (const g of deriveKeys(re)?.groups ?? []) for (const k of g) keys.add(k);
    for (const k of keys) mention(k, r.class, 1, false);
  }
  // Inverse class frequency over every class a vocabulary may name (TAXONOMY), not only those present.
  const n = FAILURE_CLASSES.filter(isVocabularyClass).length;
  const terms: VocabularyTerm[] = [];
  for (const [term, m] of mentions) {
    const total = [...m.by.values()].reduce((a, b) => a + b, 0);
    const idf = Math.log(1 + n / m.by.size);
    // Longer terms are rarer by chance; a code name counts as at least two words.
    const length = Math.min(4, term.trim().split(' ').length);
    const spec = Math.max(m.identifier ? 1.5 : 0, 0.5 + 0.5 * length);
    const weights = new Map<VocabularyClass, number>();
    for (const [c, k] of m.by) weights.set(c, idf * spec * (k / total));
    terms.push({ term, wholeWord: m.wholeWord, weights });
  }
  return { terms };
}

export interface VocabularyScore {
  cls: VocabularyClass;
  score: number;
  /** The terms that counted for the class, heaviest first. */
  terms: { term: string; weight: number }[];
}

/** Every class's score on these lines, best first. */
export function scoreLines(lines: readonly FailureLine[], vocabulary: Vocabulary): VocabularyScore[] {
  const text = lines.map((l) => words(l.text)).join('|');
  const by = new Map<VocabularyClass, VocabularyScore>();
  const found = vocabulary.terms.filter((t) => text.includes(t.wholeWord ? t.term : t.term.trimEnd()));
  // A term inside a longer one that was found is that one's word ("config error" in
  // CreateContainerConfigError, "out of memory" in "CUDA out of memory"): only the longer counts.
  const counted = found.filter((t) => !found.some((u) => u !== t && u.term.length > t.term.length && u.term.includes(t.term)));
  for (const t of counted) {
    for (const [cls, w] of t.weights) {
      let s = by.get(cls);
      if (!s) by.set(cls, (s = { cls, score: 0, terms: [] }));
      s.score += w;
      s.terms.push({ term: t.term.trim(), weight: w });
    }
  }
  const out = [...by.values()];
  for (const s of out) s.terms.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
  // Equal scores keep a fixed order (class id), so the verdict does not depend on the vocabulary's order.
  return out.sort((a, b) => b.score - a.score || (a.cls < b.cls ? -1 : 1));
}

/**
 * The guess, or null when the failure lines are too few in words or two classes are too close. `rulesetVersion`
 * is the caller's (version.ts hashes the lexicon and the markers with the rules).
 */
export function vocabularyGuess(lines: readonly FailureLine[], vocabulary: Vocabulary, rulesetVersion: string, tier: GuessTier = 'flagged'): Diagnosis | null {
  if (lines.length === 0) return null;
  const scores = scoreLines(lines, vocabulary);
  const best = scores[0];
  const minScore = tier === 'flagged' ? MIN_SCORE : UNFLAGGED_MIN_SCORE;
  if (!best || best.score < minScore) return null;
  const second = scores[1];
  if (second && best.score < MIN_MARGIN * second.score) return null;
  const lead = second ? 1 - second.score / best.score : 1;
  const [lo, hi] = tier === 'flagged' ? [MIN_CONFIDENCE, MAX_CONFIDENCE] : [UNFLAGGED_MIN_CONFIDENCE, UNFLAGGED_MAX_CONFIDENCE];
  const confidence = Math.round((lo + (hi - lo) * lead * Math.min(1, best.score / (2 * minScore))) * 100) / 100;
  const decisive = best.terms.slice(0, 5).map((t) => `"${t.term}"`);
  // The lines that hold the class's heaviest words first, then in log order.
  const weightOf = (l: FailureLine) => {
    const w = words(l.text);
    return best.terms.reduce((sum, t) => (w.includes(` ${t.term}`) ? sum + t.weight : sum), 0);
  };
  const ranked = lines.map((l, i) => ({ l, i, w: weightOf(l) })).filter((x) => x.w > 0);
  ranked.sort((a, b) => b.w - a.w || a.i - b.i);
  const evidence = ranked.slice(0, MAX_EVIDENCE).map(({ l }) => ({ file: l.file, line: l.line, text: l.text, rule: FALLBACK_RULE }));
  const runnerUp = second ? ` Next closest: ${second.cls} (score ${second.score.toFixed(1)} against ${best.score.toFixed(1)}).` : '';
  return {
    class: best.cls,
    category: categoryOf(best.cls),
    confidence,
    evidence,
    hint:
      tier === 'flagged'
        ? `Vocabulary guess, not a rule: no rule matched, and the log's failure lines use the producers' words for ${best.cls}: ${decisive.join(', ')}.${runnerUp} Check the evidence lines before acting on it.`
        : `Weak vocabulary guess, not a rule: no rule matched and no line of the log is flagged as a failure; its last lines and its other lines use the producers' words for ${best.cls}: ${decisive.join(', ')}.${runnerUp} Words in ordinary output are weaker evidence than a failure line: check the evidence lines before acting on it.`,
    rulesetVersion,
  };
}

/** Whether a diagnosis is a vocabulary guess (its evidence came from this fallback, not a rule). */
export function isVocabularyGuess(d: Diagnosis): boolean {
  return d.evidence.length > 0 && d.evidence.every((e) => e.rule === FALLBACK_RULE);
}
