// The failure lines of a log, as its producers flag them (rules/severity.ts), kept while it streams:
// the first FIRST_KEPT and the last LAST_KEPT, so memory stays bounded however long the log is and no
// second pass is needed. The engine hands a line here only when the byte scan saw a marker's key in it
// (SEVERITY_KEYS are context keys of the one automaton), so lines without one cost nothing.
import { splitPrefix } from '../logline.js';
import { deriveKeys } from './keys.js';
import { INFO_LEVELS, LOWER_LEVELS, SEVERITY_MARKERS } from './rules/severity.js';

/** The first failure lines show how it began, the last how it ended (a traceback's exception line is near the end). */
export const FIRST_KEPT = 16;
export const LAST_KEPT = 64;
/** Characters kept of one line (the same cut as a signal's text). */
export const MAX_FAILURE_TEXT = 500;
/** A line the same as one of the last few kept, digits aside, is a repeat (one warning per rank, a retry loop). */
const REPEAT_WINDOW = 4;

export interface FailureLine {
  file: string;
  line: number;
  /** The visible text without its stream prefix (`[rank0]:`, `(Actor pid=N)`, vLLM's), cut to MAX_FAILURE_TEXT. */
  text: string;
}

/** Literal keys of the markers, for the engine's automaton: a line holds one of them before any marker can match it. */
export const SEVERITY_KEYS: readonly string[] = (() => {
  const keys = new Set<string>();
  for (const m of SEVERITY_MARKERS) {
    const d = deriveKeys(m.re);
    if (!d) throw new Error(`severity marker "${m.producer}": /${m.re.source}/ has no 4+ character literal every match contains`);
    // The context keys of the scan are case-sensitive; a marker that means any case spells each case out.
    if (d.ignoreCase) throw new Error(`severity marker "${m.producer}": write the cases out instead of the i flag`);
    for (const k of d.groups[0]!) keys.add(k);
  }
  return [...keys];
})();

/** Whether a producer flags this (visible, prefix-free) line as a failure: a marker, and no lower level of its own at its head. */
export function isFailureLine(text: string): boolean {
  for (const l of LOWER_LEVELS) if (l.re.test(text)) return false;
  for (const m of SEVERITY_MARKERS) if (m.re.test(text)) return true;
  return false;
}

/** Whether the producer logged this (prefix-free) line at an information level (INFO_LEVELS): normal operation by its own account. */
export function isInfoLine(text: string): boolean {
  for (const l of INFO_LEVELS) if (l.re.test(text)) return true;
  return false;
}

/** Whether a producer's failure marker is in the line at all, whatever level it was logged at ("WARN … failed", a retry loop). */
export function holdsFailureMarker(text: string): boolean {
  for (const m of SEVERITY_MARKERS) if (m.re.test(text)) return true;
  return false;
}

const shape = (s: string): string => s.replace(/\d+/g, '0');

/**
 * The first FIRST_KEPT and last LAST_KEPT lines that `accepts` takes, repeats once: the failure lines
 * (isFailureLine), or with another test the lines the vocabulary fallback reads when none is flagged.
 */
export class FailureLines {
  constructor(private readonly accepts: (text: string) => boolean = isFailureLine) {}

  private readonly first: FailureLine[] = [];
  /** The last LAST_KEPT lines after the first ones, as a ring: `next` is where the next one goes. */
  private readonly last: FailureLine[] = [];
  private next = 0;
  private readonly recent: string[] = [];

  /** A line (visible text, whole); kept when `accepts` takes it and it is no repeat. Returns whether it took it (a repeat too). */
  note(file: string, line: number, visible: string): boolean {
    const rest = splitPrefix(visible).rest.trim();
    if (!rest || !this.accepts(rest)) return false;
    const text = rest.slice(0, MAX_FAILURE_TEXT);
    const s = shape(text);
    if (this.recent.includes(s)) return true;
    if (this.recent.length >= REPEAT_WINDOW) this.recent.shift();
    this.recent.push(s);
    const entry = { file, line, text };
    if (this.first.length < FIRST_KEPT) this.first.push(entry);
    else if (this.last.length < LAST_KEPT) this.last.push(entry);
    else {
      this.last[this.next] = entry;
      this.next = (this.next + 1) % LAST_KEPT;
    }
    return true;
  }

  /** The kept lines in the order they were seen. */
  lines(): FailureLine[] {
    return [...this.first, ...this.last.slice(this.next), ...this.last.slice(0, this.next)];
  }
}
