// `npx tsx scripts/ablate.ts [--corpus DIR] [--format json] [--misses]`: leave-one-family-out, a generalisation
// proxy that needs no held-out data. For each rule family (src/classifiers/rules/<family>.ts) the corpus
// is classified with that family's rules removed, by the rest of the engine alone and by the rest plus
// the vocabulary fallback (fallback.ts); the table counts how many of the family's own logs (those the
// full engine gets right through one of the family's rules) are still right. Rules are module-level
// data, so every family runs in a child process that removes its rules before the engine loads. The
// lexicon stays whole (it was written from producers' source, not from the rules); the rule-key part of
// the vocabulary is rebuilt from the rules left, so a removed family's own pattern keys do not help.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findCorpus, loadCorpus } from './corpus.js';

/** One log's verdicts in one child. */
interface Verdict {
  id: string;
  label: string;
  rulesOnly: string;
  withFallback: string;
  /** The rule of the first evidence line of the rules-only verdict (what decided it). */
  decidedBy: string | null;
  /** The fallback's hint where it made the verdict (the words that decided). */
  guessHint?: string;
}

const HERE = fileURLToPath(new URL('.', import.meta.url));
const RULES_DIR = join(HERE, '../src/classifiers/rules');

/** A family's rows: the exported arrays of rules (objects with an id and patterns) of one rules/<family>.ts. */
type FamilyModule = Record<string, unknown>;
const isRuleList = (v: unknown): v is readonly { id: string }[] =>
  Array.isArray(v) && v.length > 0 && v.every((r) => typeof r === 'object' && r !== null && typeof (r as { id?: unknown }).id === 'string' && Array.isArray((r as { patterns?: unknown }).patterns));

/**
 * Every family and the exports that hold its rows, read off src/classifiers/rules/ (not a list kept by
 * hand): a file that exports rules is a family; vocabulary tables without rules (cuda-vocab.ts,
 * lexicon.ts) are not.
 */
async function ruleFamilies(): Promise<Map<string, string[]>> {
  const families = new Map<string, string[]>();
  for (const f of readdirSync(RULES_DIR).filter((n) => n.endsWith('.ts') && n !== 'index.ts').sort()) {
    const family = f.slice(0, -3);
    const mod = (await import(`../src/classifiers/rules/${family}.js`)) as FamilyModule;
    const names = Object.keys(mod).filter((k) => isRuleList(mod[k]));
    if (names.length) families.set(family, names);
  }
  return families;
}

/** In a child: remove `family`'s rules (and the facts that fire them), then load the engine and classify every log. */
async function child(dir: string, family: string): Promise<Verdict[]> {
  const { RULES } = await import('../src/classifiers/rules/index.js');
  const { FACT_RULES } = await import('../src/classifiers/rules/facts.js');
  const removed = new Set<string>();
  if (family !== 'none') {
    const file = (await import(`../src/classifiers/rules/${family}.js`)) as FamilyModule;
    for (const name of Object.keys(file)) if (isRuleList(file[name])) for (const r of file[name]) removed.add(r.id);
    const rules = RULES as unknown as { id: string }[];
    for (let i = rules.length - 1; i >= 0; i--) if (removed.has(rules[i]!.id)) rules.splice(i, 1);
    for (let i = FACT_RULES.length - 1; i >= 0; i--) if (removed.has(FACT_RULES[i]!.rule)) FACT_RULES.splice(i, 1);
  }
  const { Engine } = await import('../src/classifiers/engine.js');
  const out: Verdict[] = [];
  for (const { row, text } of loadCorpus(dir)) {
    const path = `logs/${row.file}`;
    const run = (fallback: boolean) => {
      const e = new Engine();
      e.feed(path, text);
      return e.finish({ files: new Map([[path, text]]) }, { fallback });
    };
    const rulesOnly = run(false);
    const withFallback = run(true);
    const guessed = rulesOnly.class === 'unknown' && withFallback.class !== 'unknown';
    out.push({ id: row.id, label: row.label, rulesOnly: rulesOnly.class, withFallback: withFallback.class, decidedBy: rulesOnly.evidence[0]?.rule ?? null, ...(guessed ? { guessHint: withFallback.hint } : {}) });
  }
  return out;
}

function runChild(dir: string, family: string): Verdict[] {
  const r = spawnSync(process.execPath, [...process.execArgv, join(HERE, 'ablate.ts'), '--child', family, '--corpus', dir], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`family ${family}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Verdict[];
}

export interface FamilyRow {
  family: string;
  /** Logs the full engine gets right through one of this family's rules. */
  own: number;
  /** Of those, still right with the family removed: rules alone, and rules + vocabulary fallback. */
  rightRulesOnly: number;
  rightWithFallback: number;
  /** Of those, called `unknown`: rules alone, and with the fallback. */
  unknownRulesOnly: number;
  unknownWithFallback: number;
  /** Of those, called an outcome class although labelled infra or user: rules alone, and with the fallback (which never names one). */
  outcomeRulesOnly: number;
  outcomeWithFallback: number;
  /** Of those, not right with the fallback: id, label, rules-only verdict, verdict with the fallback. */
  misses: string[];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const dir = resolve(at('--corpus') ?? findCorpus(resolve(HERE, '..')));
  const childFamily = at('--child');
  if (childFamily) {
    process.stdout.write(JSON.stringify(await child(dir, childFamily)));
    return;
  }
  const full = runChild(dir, 'none');
  const families = await ruleFamilies();
  const familyOf = new Map<string, string>();
  for (const [family, names] of families) {
    const file = (await import(`../src/classifiers/rules/${family}.js`)) as FamilyModule;
    for (const name of names) for (const r of file[name] as readonly { id: string }[]) familyOf.set(r.id, family);
  }
  // A rule that no family file exports (built inline in rules/index.ts) would go unmeasured.
  const { RULES } = await import('../src/classifiers/rules/index.js');
  const orphans = RULES.filter((r) => !familyOf.has(r.id)).map((r) => r.id);
  if (orphans.length) throw new Error(`rules that no rules/<family>.ts exports: ${orphans.join(', ')}`);
  const rows: FamilyRow[] = [];
  for (const family of families.keys()) {
    const own = full.filter((v) => v.rulesOnly === v.label && v.decidedBy !== null && familyOf.get(v.decidedBy) === family).map((v) => v.id);
    if (own.length === 0) {
      rows.push({ family, own: 0, rightRulesOnly: 0, rightWithFallback: 0, unknownRulesOnly: 0, unknownWithFallback: 0, outcomeRulesOnly: 0, outcomeWithFallback: 0, misses: [] });
      continue;
    }
    const ablated = new Map(runChild(dir, family).map((v) => [v.id, v]));
    const mine = own.map((id) => ablated.get(id)!);
    rows.push({
      family,
      own: own.length,
      rightRulesOnly: mine.filter((v) => v.rulesOnly === v.label).length,
      rightWithFallback: mine.filter((v) => v.withFallback === v.label).length,
      unknownRulesOnly: mine.filter((v) => v.rulesOnly === 'unknown').length,
      unknownWithFallback: mine.filter((v) => v.withFallback === 'unknown').length,
      outcomeRulesOnly: mine.filter((v) => v.rulesOnly.startsWith('outcome.') && !v.label.startsWith('outcome.')).length,
      outcomeWithFallback: mine.filter((v) => v.withFallback.startsWith('outcome.') && !v.label.startsWith('outcome.')).length,
      misses: mine.filter((v) => v.withFallback !== v.label).map((v) => `${v.id} ${v.label} → ${v.rulesOnly} / ${v.withFallback}${v.guessHint ? `\n      ${v.guessHint}` : ''}`),
    });
  }
  const fullScores = {
    n: full.length,
    rightRulesOnly: full.filter((v) => v.rulesOnly === v.label).length,
    rightWithFallback: full.filter((v) => v.withFallback === v.label).length,
  };
  if (at('--format') === 'json') {
    process.stdout.write(`${JSON.stringify({ corpus: dir, full: fullScores, families: rows }, null, 2)}\n`);
    return;
  }
  const out: string[] = [`corpus: ${dir} (${full.length} logs); full engine right: ${fullScores.rightRulesOnly} rules only, ${fullScores.rightWithFallback} with the fallback`, ''];
  const w = Math.max(10, ...rows.map((r) => r.family.length));
  out.push(`${'family'.padEnd(w)}  own logs   still right: rules only   + fallback   unknown: rules only   + fallback   outcome: rules only   + fallback`);
  const sum = { own: 0, a: 0, b: 0, c: 0, d: 0, e: 0, f: 0 };
  for (const r of rows) {
    out.push(`${r.family.padEnd(w)} ${String(r.own).padStart(9)}   ${String(r.rightRulesOnly).padStart(22)}   ${String(r.rightWithFallback).padStart(10)}   ${String(r.unknownRulesOnly).padStart(19)}   ${String(r.unknownWithFallback).padStart(10)}   ${String(r.outcomeRulesOnly).padStart(19)}   ${String(r.outcomeWithFallback).padStart(10)}`);
    sum.own += r.own;
    sum.a += r.rightRulesOnly;
    sum.b += r.rightWithFallback;
    sum.c += r.unknownRulesOnly;
    sum.d += r.unknownWithFallback;
    sum.e += r.outcomeRulesOnly;
    sum.f += r.outcomeWithFallback;
  }
  out.push(`${'all'.padEnd(w)} ${String(sum.own).padStart(9)}   ${String(sum.a).padStart(22)}   ${String(sum.b).padStart(10)}   ${String(sum.c).padStart(19)}   ${String(sum.d).padStart(10)}   ${String(sum.e).padStart(19)}   ${String(sum.f).padStart(10)}`);
  if (args.includes('--misses')) {
    out.push('', 'misses with the fallback (id label → rules only / with fallback):');
    for (const r of rows) for (const m of r.misses) out.push(`  ${r.family.padEnd(w)} ${m}`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

await main();
