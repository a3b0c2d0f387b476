// Secret redaction: the one redactor for every door text enters the archive by. The capture
// pipeline runs it over every file, entry name and manifest string before a bundle is written;
// the archive runs it again at ingest (an upload, `fdiag ingest`, `harbor import`), since a bundle
// may be hand-made or come from an older agent. Neutral module: capture may import it, and so may
// archive and harbor. Text is handled as latin1 so that bytes which are not secrets come out
// exactly as they went in, even when a log holds invalid UTF-8.
//
// The rules live in rules.ts; pipeline.ts runs them, either prefiltered (the default: one pass
// finds every rule's anchors, and only rules whose anchors occur run, mostly on those lines only)
// or as the reference (every rule over the whole text), which gives the same output and is kept as
// the oracle of the tests and the baseline of `npx tsx bench/run.ts redact`.
import { PrefilterPlan, prefilteredPipeline, referencePipeline } from './pipeline.js';
import { harvesting, isPlaceholder, isSecretKey, literalPattern, MIN_LITERAL, REDACTED } from './rules.js';

export { isSecretKey, MIN_LITERAL, REDACTED } from './rules.js';

export interface Redactor {
  /** Redact a string; returns the new text and how many secrets were replaced. */
  text(s: string): { text: string; count: number };
  /** Redact bytes (any encoding: non-secret bytes are preserved exactly). */
  bytes(b: Buffer): { data: Buffer; count: number };
  /**
   * Redact an argv list: each element as text, and the element after a secret flag given
   * without `=` (`--password VALUE`, `-p VALUE` of mysql), which names nothing by itself.
   */
  argv(list: readonly string[]): { argv: string[]; count: number };
  /**
   * bytes(), and the values this text's key-context rules redacted (`"HF_TOKEN": "…"`, `password: …`)
   * added to `into`, for a second redactor that also hunts them as literals wherever else they appear.
   */
  bytesHarvesting(b: Buffer, into: Set<string>): { data: Buffer; count: number };
  /** The literal secret values this redactor hunts for (tests). */
  readonly literals: readonly string[];
}

export interface RedactorOptions {
  /**
   * 'prefiltered' (default) or 'reference': the same output, byte for byte; 'reference' runs every
   * rule over the whole text (the oracle of test/redact/differential.test.ts and the bench).
   */
  mode?: 'prefiltered' | 'reference';
}

// The plan of a redactor without literal values is the same for every run: built once.
let plainPlan: PrefilterPlan | null = null;

/**
 * A redactor for one run: the generic rules plus the literal values of the run's secret env
 * vars (a WANDB_API_KEY value echoed into a log is caught even when nothing around it looks
 * like a key).
 */
export function createRedactor(env: NodeJS.ProcessEnv = {}, extraLiterals: string[] = [], options: RedactorOptions = {}): Redactor {
  const lits = new Set<string>();
  for (const [k, v] of Object.entries(env)) {
    if (v && isSecretKey(k) && v.length >= MIN_LITERAL && !isPlaceholder(v)) lits.add(v);
  }
  for (const v of extraLiterals) if (v && v.length >= MIN_LITERAL) lits.add(v);
  const literals = [...lits].sort((a, b) => b.length - a.length);
  // Work in latin1 space: a UTF-8 secret becomes its byte sequence as latin1 chars.
  const latinLits = literals.map((v) => Buffer.from(v, 'utf8').toString('latin1'));
  const litRe = literalPattern(latinLits);
  const reference = options.mode === 'reference';
  const plan = reference ? null : latinLits.length ? new PrefilterPlan(latinLits) : (plainPlan ??= new PrefilterPlan([]));

  /** The redacted text of `b` (latin1), or null when nothing in it is a secret. */
  const redactBytes = (b: Buffer): { text: string; count: number } | null => {
    const out = plan ? prefilteredPipeline(b, plan, litRe) : referencePipeline(b.toString('latin1'), litRe);
    return out && out.count ? out : null;
  };

  return {
    literals,
    bytesHarvesting(b: Buffer, into: Set<string>) {
      const found = new Set<string>();
      const out = harvesting(found, () => redactBytes(b));
      for (const v of found) into.add(Buffer.from(v, 'latin1').toString('utf8'));
      return out ? { data: Buffer.from(out.text, 'latin1'), count: out.count } : { data: b, count: 0 };
    },
    bytes(b: Buffer) {
      const out = redactBytes(b);
      return out ? { data: Buffer.from(out.text, 'latin1'), count: out.count } : { data: b, count: 0 };
    },
    text(s: string) {
      const out = redactBytes(Buffer.from(s, 'utf8'));
      return out ? { text: Buffer.from(out.text, 'latin1').toString('utf8'), count: out.count } : { text: s, count: 0 };
    },
    argv(list) {
      let count = 0;
      const out: string[] = [];
      const mysql = list.length > 0 && /(?:^|\/)mysql(?:dump|admin|sh|import|check)?$/.test(list[0]);
      for (let i = 0; i < list.length; i++) {
        const prev = i > 0 ? list[i - 1] : '';
        const arg = list[i];
        const pairedWithFlag = /^--?[A-Za-z][A-Za-z0-9_.-]*$/.test(prev) && isSecretKey(prev) && !arg.startsWith('--');
        if ((pairedWithFlag || (mysql && prev === '-p')) && !isPlaceholder(arg)) {
          out.push(REDACTED);
          count++;
          continue;
        }
        if (mysql && /^-p.+/.test(arg)) {
          out.push(`-p${REDACTED}`);
          count++;
          continue;
        }
        const r = this.text(arg);
        count += r.count;
        out.push(r.text);
      }
      return { argv: out, count };
    },
  };
}

/** Every string inside a JSON-like value redacted (keys kept); `count` grows by what was replaced. */
export function redactValue<T>(v: T, r: Redactor, count: { n: number }): T {
  if (typeof v === 'string') {
    const out = r.text(v);
    count.n += out.count;
    return out.text as T;
  }
  if (Array.isArray(v)) return v.map((x) => redactValue(x, r, count)) as T;
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // A secret-named key ({"api_key": "…"} in a label or collector meta) loses its value.
      let value: unknown;
      if (typeof x === 'string' && isSecretKey(k) && !isPlaceholder(x)) {
        value = REDACTED;
        count.n++;
      } else value = redactValue(x, r, count);
      // defineProperty: a key named __proto__ stays a plain key instead of replacing the prototype.
      Object.defineProperty(o, k, { value, enumerable: true, writable: true, configurable: true });
    }
    return o as T;
  }
  return v;
}

// At a head/tail cut the bytes either side of the marker may be the halves of one token, too
// short for any rule to see as a secret. The head is cut back to its last line break (else its
// last blank) and the tail starts after its first, so no partial token survives a cut.
const EDGE_WINDOW = 64 * 1024;
// A run without any blank longer than this is no token shape any rule hunts; only this much of
// it is dropped at the cut.
const MAX_TOKEN = 4096;

function isBlank(b: number): boolean {
  return b === 0x0a || b === 0x0d || b === 0x20 || b === 0x09;
}

/** The head and tail of a cut text with the partial lines at the cut removed; `dropped` bytes. */
export function trimCutEdges(head: Buffer, tail: Buffer): { head: Buffer; tail: Buffer; dropped: number } {
  const headEnd = lastBreak(head);
  const tailStart = firstBreak(tail);
  const h = head.subarray(0, headEnd);
  const t = tail.subarray(tailStart);
  return { head: h, tail: t, dropped: head.length - h.length + tailStart };
}

function lastBreak(b: Buffer): number {
  const from = Math.max(0, b.length - EDGE_WINDOW);
  const nl = b.lastIndexOf(0x0a);
  if (nl >= from) return nl + 1;
  for (let i = b.length - 1; i >= from; i--) if (isBlank(b[i])) return i + 1;
  return Math.max(0, b.length - MAX_TOKEN);
}

function firstBreak(b: Buffer): number {
  const to = Math.min(b.length, EDGE_WINDOW);
  const nl = b.indexOf(0x0a);
  if (nl >= 0 && nl < to) return nl + 1;
  for (let i = 0; i < to; i++) if (isBlank(b[i])) return i + 1;
  return Math.min(b.length, MAX_TOKEN);
}
