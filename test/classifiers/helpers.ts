import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { classifyBundle, type Diagnosis } from '../../src/classifiers/index.js';

export const CORPUS = resolve(__dirname, '../../fixtures/corpus');

export interface CorpusRow {
  id: string;
  file: string;
  label: string;
  category: string;
  why: string;
  secondary: string[];
}

export function corpusRows(): CorpusRow[] {
  return readFileSync(join(CORPUS, 'manifest.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusRow);
}

export function corpusText(file: string): string {
  return readFileSync(join(CORPUS, file), 'utf8');
}

/** Classify log text as a one-file bundle. */
export function classifyText(text: string, path = 'logs/stdout.log'): Diagnosis {
  return classifyBundle({ files: new Map([[path, text]]) });
}

export function classifyFiles(files: Record<string, string>, manifest?: Parameters<typeof classifyBundle>[0]['manifest']): Diagnosis {
  return classifyBundle({ files: new Map(Object.entries(files)), manifest });
}

// docs/rules.md's coverage table: one row per upstream wording (coverage.test.ts checks each; others reuse the lines).
export interface CoverageRow {
  section: string;
  upstream: string;
  cls: string;
  rule: string;
  text: string;
}

/** The code spans of a table cell, in order: `x` or ``x with `ticks` ``. */
function codeSpans(cell: string): string[] {
  const out: string[] = [];
  const re = /(`+)(.+?)\1(?!`)/g;
  for (const m of cell.matchAll(re)) {
    let s = m[2]!;
    // CommonMark strips one space on each side of a span that starts and ends with one.
    if (m[1]!.length > 1 && s.startsWith(' ') && s.endsWith(' ')) s = s.slice(1, -1);
    else if (m[1]!.length > 1 && s.startsWith(' ')) s = s.slice(1);
    else if (m[1]!.length > 1 && s.endsWith(' ')) s = s.slice(0, -1);
    out.push(s.replace(/\\\|/g, '|'));
  }
  return out;
}

export function coverageRows(markdown: string): CoverageRow[] {
  const rows: CoverageRow[] = [];
  let section = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    if (!line.startsWith('| ') || line.startsWith('| upstream') || line.startsWith('|---')) continue;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    if (cells.length !== 4) throw new Error(`docs/rules.md: a row needs 4 cells: ${line.slice(0, 120)}`);
    const [upstream, cls, rule, test] = cells as [string, string, string, string];
    rows.push({ section, upstream, cls, rule, text: test.split('<br>').map((piece) => codeSpans(piece).join('')).join('\n') });
  }
  return rows;
}
