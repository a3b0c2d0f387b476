// Progress of the loops a log records, read from its structure rather than from one line: an agent's step
// loop (rules/agent.ts AGENT_LOOPS) and a test runner's session (rules/verifier.ts TEST_RUNNERS). The engine
// hands this tracker the lines that hold one of the vocabularies' derived keys, the tracebacks it sees and
// each `==> path <==` section switch; at the end it turns what each section showed into typed signals
// (`agent-loop`, `test-run`, signals.ts) that rules/facts.ts maps to rules. Nothing is rendered into a log
// line. Memory is bounded by the vocabularies and MAX_SPANS, not by the log.
import { deriveKeys } from './keys.js';
import type { Section } from './rule.js';
import { AGENT_LOOPS } from './rules/agent.js';
import { TEST_RUNNERS } from './rules/verifier.js';
import type { StructuredSignal } from './signals.js';

type Mark = { kind: 'step' | 'end'; name: string } | { kind: 'start' | 'summary'; name: string };

const MARKS: { re: RegExp; mark: Mark }[] = [
  ...AGENT_LOOPS.flatMap((a) => [...a.step.map((re) => ({ re, mark: { kind: 'step', name: a.agent } as Mark })), ...a.end.map((re) => ({ re, mark: { kind: 'end', name: a.agent } as Mark }))]),
  ...TEST_RUNNERS.flatMap((t) => [...t.start.map((re) => ({ re, mark: { kind: 'start', name: t.runner } as Mark })), ...t.summary.map((re) => ({ re, mark: { kind: 'summary', name: t.runner } as Mark }))]),
];

/** The prefilter keys of every vocabulary pattern (its most specific derived group); a pattern without one fails the load. */
export const PROGRESS_KEYS: readonly string[] = [
  ...new Set(
    MARKS.flatMap(({ re }) => {
      const d = deriveKeys(re);
      if (!d || d.ignoreCase) throw new Error(`progress vocabulary /${re.source}/${re.flags} needs a case-sensitive literal of 4+ characters for the prefilter`);
      return d.groups[0]!;
    }),
  ),
];

/** Sections kept per file; a log with more `==> … <==` headers keeps its last ones. */
const MAX_SPANS = 64;
const MAX_TEXT = 500;

interface Where {
  line: number;
  text: string;
}

interface Span {
  /** The path the section's header named, or the file. */
  path: string;
  section: Section;
  firstLine: number;
  lastLine: number;
  agents: Map<string, { steps: number; last: Where; endLine: number }>;
  tests: Map<string, { start: Where | undefined; summaryLine: number }>;
  lastTraceback: number;
}

const newSpan = (path: string, section: Section, firstLine: number): Span => ({ path, section, firstLine, lastLine: firstLine - 1, agents: new Map(), tests: new Map(), lastTraceback: 0 });

export class ProgressTracker {
  private readonly done: Span[] = [];
  private cur: Span;

  constructor(private readonly file: string, section: Section) {
    this.cur = newSpan(file, section, 1);
  }

  /** A line that holds one of PROGRESS_KEYS (already cut and ANSI-free). */
  line(text: string, lineNo: number): void {
    for (const { re, mark } of MARKS) {
      if (!re.test(text)) continue;
      const s = this.cur;
      const w = { line: lineNo, text: text.trim().slice(0, MAX_TEXT) };
      if (mark.kind === 'step' || mark.kind === 'end') {
        const a = s.agents.get(mark.name) ?? { steps: 0, last: w, endLine: 0 };
        if (mark.kind === 'step') {
          a.steps += 1;
          a.last = w;
        } else a.endLine = lineNo;
        s.agents.set(mark.name, a);
      } else {
        const t = s.tests.get(mark.name) ?? { start: undefined, summaryLine: 0 };
        if (mark.kind === 'start') t.start = w;
        else t.summaryLine = lineNo;
        s.tests.set(mark.name, t);
      }
    }
  }

  /** A Python traceback starts at this line. */
  traceback(lineNo: number): void {
    this.cur.lastTraceback = lineNo;
  }

  /** A `==> path <==` header at `headerLine` starts a new section. */
  section(path: string, section: Section, headerLine: number): void {
    this.close(headerLine - 1);
    this.cur = newSpan(path, section, headerLine + 1);
  }

  /** The file ended after `lastLine`: the typed signals of every section. */
  finish(lastLine: number): StructuredSignal[] {
    this.close(lastLine);
    const out: StructuredSignal[] = [];
    for (const s of this.done) {
      const at = (line: number) => ({ file: this.file, line: Math.max(1, line) });
      if (s.section === 'log' || s.section === 'agent') {
        for (const [agent, a] of s.agents) {
          if (a.steps === 0) continue;
          out.push({
            kind: 'agent-loop',
            agent,
            path: s.path,
            steps: a.steps,
            ended: a.endLine > a.last.line,
            crashedAfter: s.lastTraceback > a.last.line,
            linesAfter: s.lastLine - a.last.line,
            text: a.last.text,
            at: at(a.last.line),
          });
        }
      }
      if (s.section === 'log' || s.section === 'verifier') {
        const started = [...s.tests.entries()].filter(([, t]) => t.start);
        const anySummary = [...s.tests.values()].some((t) => t.summaryLine > 0);
        for (const [runner, t] of started) {
          out.push({ kind: 'test-run', runner, path: s.path, section: s.section, started: true, summary: t.summaryLine > t.start!.line, lines: s.lastLine - s.firstLine + 1, text: t.start!.text, at: at(t.start!.line) });
        }
        // A verifier's own output (not its stderr) that shows no session and no result at all.
        if (s.section === 'verifier' && started.length === 0 && !anySummary && !/stderr/i.test(s.path) && s.lastLine >= s.firstLine) {
          out.push({ kind: 'test-run', runner: null, path: s.path, section: s.section, started: false, summary: false, lines: s.lastLine - s.firstLine + 1, text: '', at: at(s.lastLine) });
        }
      }
    }
    return out;
  }

  private close(lastLine: number): void {
    const s = this.cur;
    s.lastLine = Math.max(s.lastLine, lastLine);
    // Sections without anything tracked say nothing, except a verifier's output (its silence is the fact).
    if (s.agents.size === 0 && s.tests.size === 0 && s.section !== 'verifier') return;
    this.done.push(s);
    if (this.done.length > MAX_SPANS) this.done.shift();
  }
}
