// The labelled corpus: where it is and its rows (manifest.jsonl: one {id, file, label, category} a line).
// Node's fs only, no classifier: scripts/ablate.ts loads it before the engine, whose rules it removes first.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface Row {
  id: string;
  file: string;
  /** The labelled root cause: a TAXONOMY.md class, possibly one this ruleset does not know yet. */
  label: string;
  category: string;
  why?: string;
  /** The cause is only in the thread, not in the log (shared corpus round 3). */
  silent?: boolean;
}


/**
 * The shared labelled corpus (`../shared/corpus` beside the repository; from a worktree under
 * `/work/wt/<name>` also `../../shared/corpus`; `FDIAG_SHARED_CORPUS` overrides), or undefined where
 * it is absent, as on a clean CI clone.
 */
export function findSharedCorpus(root = process.cwd()): string | undefined {
  const candidates = [process.env.FDIAG_SHARED_CORPUS, resolve(root, '../shared/corpus'), resolve(root, '../../shared/corpus')];
  return candidates.find((dir): dir is string => !!dir && existsSync(join(dir, 'manifest.jsonl')));
}

export function findCorpus(root = process.cwd()): string {
  return findSharedCorpus(root) ?? resolve(root, 'fixtures/corpus');
}

export function loadCorpus(dir: string): { row: Row; text: string }[] {
  const rows = readFileSync(join(dir, 'manifest.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
  return rows.map((row) => ({ row, text: readFileSync(join(dir, row.file), 'utf8') }));
}
