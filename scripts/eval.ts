// `npm run eval [-- --format json] [--corpus DIR] [--misses]`: score the classifier and the naive
// keyword baseline on the labeled corpus, side by side in one run.
import { resolve } from 'node:path';
import { baselineClassify } from '../src/classifiers/baseline.js';
import { CLASS_CATEGORY, classifyBundle, FAILURE_CLASSES, type FailureClass, isFailureClass } from '../src/classifiers/index.js';
import { findCorpus, loadCorpus, type Row } from './corpus.js';

export { findCorpus, findSharedCorpus, loadCorpus } from './corpus.js';

export interface Scores {
  n: number;
  rootCauseAccuracy: number;
  categoryAccuracy: number;
  infraCalledOutcome: number;
  /** Share of logs the classifier called `unknown`. */
  unknownRate: number;
  /** Root-cause accuracy over the logs not marked `silent`. */
  rootCauseAccuracyNonSilent: number;
  nonSilent: number;
  /** Labels (TAXONOMY classes) this ruleset has no class for; their logs count as misses. */
  labelsUnknownToRuleset: string[];
  perClass: Record<string, { precision: number; recall: number; f1: number; support: number; predicted: number }>;
  confusion: Record<string, Record<string, number>>;
  misses: { id: string; label: string; predicted: string }[];
}

export function score(items: { row: Row; predicted: FailureClass }[]): Scores {
  const nonSilentItems = items.filter((i) => !i.row.silent);
  const confusion: Record<string, Record<string, number>> = {};
  let correct = 0;
  let catCorrect = 0;
  let infraOutcome = 0;
  const misses: Scores['misses'] = [];
  for (const { row, predicted } of items) {
    confusion[row.label] ??= {};
    confusion[row.label]![predicted] = (confusion[row.label]![predicted] ?? 0) + 1;
    if (predicted === row.label) correct += 1;
    else misses.push({ id: row.id, label: row.label, predicted });
    const cat = CLASS_CATEGORY[predicted];
    if (cat === row.category) catCorrect += 1;
    if (row.category === 'infra' && cat === 'outcome') infraOutcome += 1;
  }
  const perClass: Scores['perClass'] = {};
  const labelsUnknownToRuleset = [...new Set(items.map((i) => i.row.label).filter((l) => !isFailureClass(l)))].sort();
  for (const cls of [...FAILURE_CLASSES, ...labelsUnknownToRuleset]) {
    const tp = items.filter((i) => i.row.label === cls && i.predicted === cls).length;
    const support = items.filter((i) => i.row.label === cls).length;
    const predicted = items.filter((i) => i.predicted === cls).length;
    if (support === 0 && predicted === 0) continue;
    const precision = predicted ? tp / predicted : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    perClass[cls] = { precision, recall, f1, support, predicted };
  }
  const n = items.length;
  const nonSilentCorrect = nonSilentItems.filter((i) => i.predicted === i.row.label).length;
  return {
    n,
    rootCauseAccuracy: n ? correct / n : 0,
    categoryAccuracy: n ? catCorrect / n : 0,
    infraCalledOutcome: infraOutcome,
    unknownRate: n ? items.filter((i) => i.predicted === 'unknown').length / n : 0,
    rootCauseAccuracyNonSilent: nonSilentItems.length ? nonSilentCorrect / nonSilentItems.length : 0,
    nonSilent: nonSilentItems.length,
    labelsUnknownToRuleset,
    perClass,
    confusion,
    misses,
  };
}

export function evaluate(dir: string): { classifier: Scores; baseline: Scores } {
  // Every row is scored: a label this ruleset has no class for yet (a class newly added to
  // TAXONOMY.md) is a miss, not a row dropped from the denominator.
  const corpus = loadCorpus(dir);
  const classifier = score(corpus.map(({ row, text }) => ({ row, predicted: classifyBundle({ files: new Map([[`logs/${row.file}`, text]]) }).class })));
  const baseline = score(corpus.map(({ row, text }) => ({ row, predicted: baselineClassify(text) })));
  return { classifier, baseline };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function printText(dir: string, r: { classifier: Scores; baseline: Scores }, showMisses: boolean): void {
  const out: string[] = [];
  out.push(`corpus: ${dir} (${r.classifier.n} logs)`);
  out.push('');
  out.push('                      root-cause  category  infra→outcome');
  out.push(`classifier            ${pct(r.classifier.rootCauseAccuracy).padStart(10)}  ${pct(r.classifier.categoryAccuracy).padStart(8)}  ${String(r.classifier.infraCalledOutcome).padStart(13)}`);
  out.push(`keyword baseline      ${pct(r.baseline.rootCauseAccuracy).padStart(10)}  ${pct(r.baseline.categoryAccuracy).padStart(8)}  ${String(r.baseline.infraCalledOutcome).padStart(13)}`);
  out.push('');
  out.push(`classifier: unknown ${pct(r.classifier.unknownRate)}; root cause without \`silent\` logs ${pct(r.classifier.rootCauseAccuracyNonSilent)} (${r.classifier.nonSilent} logs)`);
  if (r.classifier.labelsUnknownToRuleset.length) out.push(`labels this ruleset has no class for (scored as misses): ${r.classifier.labelsUnknownToRuleset.join(', ')}`);
  out.push('');
  out.push('per class              classifier P/R/F1 (n)          baseline P/R/F1');
  const classes = [...new Set([...Object.keys(r.classifier.perClass), ...Object.keys(r.baseline.perClass)])].sort();
  for (const c of classes) {
    const a = r.classifier.perClass[c];
    const b = r.baseline.perClass[c];
    const f = (s?: { precision: number; recall: number; f1: number }) => (s ? `${s.precision.toFixed(2)}/${s.recall.toFixed(2)}/${s.f1.toFixed(2)}` : '-');
    out.push(`${c.padEnd(22)} ${f(a).padEnd(16)} (${String(a?.support ?? 0).padStart(2)})        ${f(b)}`);
  }
  out.push('');
  for (const [name, sc] of [['classifier', r.classifier], ['keyword baseline', r.baseline]] as const) {
    out.push(`confusion (${name}): label → predicted counts, off-diagonal only (--format json has the full table)`);
    for (const [label, row] of Object.entries(sc.confusion).sort()) {
      const off = Object.entries(row).filter(([p]) => p !== label);
      if (off.length) out.push(`  ${label.padEnd(22)} ${off.map(([p, n]) => `${p}×${n}`).join(', ')}`);
    }
    out.push('');
  }
  if (showMisses) {
    out.push('');
    out.push('misses (classifier):');
    for (const m of r.classifier.misses) out.push(`  ${m.id.padEnd(10)} ${m.label.padEnd(22)} → ${m.predicted}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

const isMain = import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('scripts/eval.ts');
if (isMain) {
  const args = process.argv.slice(2);
  const fmtIdx = args.indexOf('--format');
  const format = fmtIdx >= 0 ? args[fmtIdx + 1] : 'text';
  const corpusIdx = args.indexOf('--corpus');
  const dir = corpusIdx >= 0 ? resolve(args[corpusIdx + 1]!) : findCorpus();
  const result = evaluate(dir);
  if (format === 'json') process.stdout.write(`${JSON.stringify({ corpus: dir, ...result }, null, 2)}\n`);
  else printText(dir, result, true);
}
