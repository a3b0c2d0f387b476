// `npm run bench`: every benchmark, each figure next to a baseline measured in the same run.
// `npm run bench -- archive capture` runs a subset. Results also go to bench/out/results.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printRows, type BenchRow } from './lib.js';

/** Suites report baselines either as {name, value} or as a bare number beside a ratio. */
interface LooseRow {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number } | number | null;
  ratio?: number | null;
  note?: string;
}
type Bench = () => Promise<LooseRow[]>;

function normalize(r: LooseRow): BenchRow {
  const baseline = typeof r.baseline === 'number' ? { name: 'baseline', value: r.baseline } : r.baseline ?? undefined;
  return { name: r.name, value: r.value, unit: r.unit, baseline, ratio: r.ratio ?? (baseline ? r.value / baseline.value : undefined), note: r.note };
}
const suites: Record<string, () => Promise<Bench>> = {
  archive: async () => (await import('./archive.js')).benchArchive,
  capture: async () => (await import('./capture.js')).benchCapture,
  classify: async () => (await import('./classify.js')).benchClassify,
  triage: async () => (await import('./triage.js')).benchTriage,
  ingest: async () => (await import('./ingest.js')).benchIngest,
  harbor: async () => (await import('./harbor.js')).benchHarbor,
  redact: async () => (await import('./redact.js')).benchRedact,
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const results: Record<string, BenchRow[]> = {};
for (const [name, load] of Object.entries(suites)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const rows = (await (await load())()).map(normalize);
  results[name] = rows;
  printRows(name, rows);
}
const out = join(import.meta.dirname, 'out');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'results.json'), JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2));
process.stdout.write(`\nwritten ${join(out, 'results.json')}\n`);
