import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate, findSharedCorpus, loadCorpus } from '../../scripts/eval.js';
import { classifyText, CORPUS, corpusRows, corpusText } from './helpers.js';

function expectEvidenceInFile(text: string): void {
  const lines = text.split('\n');
  const d = classifyText(text);
  for (const e of d.evidence) {
    expect(e.file).toBe('logs/stdout.log');
    const actual = (lines[e.line - 1] ?? '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ' ').trim();
    expect(actual.startsWith(e.text.slice(0, 60)) || actual.includes(e.text.slice(0, 60))).toBe(true);
    expect(e.text.length).toBeLessThanOrEqual(500);
  }
}

describe('labeled corpus (fixtures/corpus, frozen copy of the first 111 real public logs)', () => {
  const result = evaluate(CORPUS);

  it('meets the root-cause, category and infra-never-outcome targets', () => {
    expect(result.classifier.n).toBe(111);
    expect(result.classifier.rootCauseAccuracy).toBeGreaterThanOrEqual(0.97);
    // 0.98: gpu-049 ("Duplicate GPU detected") is labelled nccl.error here, while issue 11 and
    // ../shared/corpus (r3h-008) call two ranks on one GPU a launch configuration error.
    expect(result.classifier.categoryAccuracy).toBeGreaterThanOrEqual(0.98);
    expect(result.classifier.infraCalledOutcome).toBe(0);
  });

  it('beats the keyword baseline measured in the same run', () => {
    expect(result.baseline.rootCauseAccuracy).toBeLessThan(0.7);
    expect(result.classifier.rootCauseAccuracy - result.baseline.rootCauseAccuracy).toBeGreaterThan(0.3);
  });

  // HARD: a louder signal in the log is not the root cause.
  const hard = corpusRows().filter((r) => r.why.startsWith('HARD') || r.why.startsWith('NEAR-MISS'));
  // Accepted misses: cl-060's log holds only RayActorError (the memory pressure is in the maintainer's
  // reply, not the log); gpu-070's 10.5 GiB allocation fits its 31.7 GiB GPU, so the log alone says
  // cuda.oom (the share-of-GPU heuristic that "fixed" it called real large-tensor OOMs user bugs).
  const ACCEPTED_MISSES = new Set(['cl-060', 'gpu-070']);
  it.each(hard.filter((r) => !ACCEPTED_MISSES.has(r.id)).map((r) => [r.id, r.label, r.file] as const))('%s → %s (HARD case)', (_id, label, file) => {
    const d = classifyText(corpusText(file));
    expect(d.class).toBe(label);
    expect(d.evidence.length).toBeGreaterThan(0);
    expect(d.evidence[0]!.line).toBeGreaterThanOrEqual(1);
  });

  it('every diagnosis carries evidence lines that really are in the file', () => {
    for (const row of corpusRows()) expectEvidenceInFile(corpusText(row.file));
  });
});

// The shared corpus (195 real logs when this was written, labelled from each thread's resolution) lives
// outside the repository: third-party text is never committed, so a clean CI clone has only the
// frozen copy above and this block does not run there.
const SHARED = findSharedCorpus(resolve(__dirname, '../..'));

// Root-cause accuracy on the shared corpus is a ratchet, not the goal: 0.764 measured at main fbd982e
// (2026-12-01; 149/195, host.killed and job.stall logs scored as misses), 0.897 at d1d23e8 (175/195),
// 0.944 with the agent-loop / test-session structural checks (184/195), 0.949 with traceback frames
// (an import failing inside installed packages is the environment's, 185/195).
// Issue 11's target is 0.97. Raise this floor whenever the rules get better; never lower it.
const SHARED_ROOT_CAUSE_FLOOR = 0.945;

describe.runIf(SHARED)('shared corpus (../shared/corpus, real public logs, measured when present)', () => {
  // A skipped describe still runs its body to collect the tests: read the corpus only when it is there.
  const dir = SHARED ?? '';
  const result = SHARED ? evaluate(dir) : (undefined as unknown as ReturnType<typeof evaluate>);
  const manifestRows = SHARED ? readFileSync(join(dir, 'manifest.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).length : 0;

  it('scores every log in the manifest (none dropped, not fewer than the 195 it had)', () => {
    expect(result.classifier.n).toBe(manifestRows);
    expect(result.classifier.n).toBeGreaterThanOrEqual(195);
  });

  it('never calls an infra failure an outcome, and does not fall below the ratchet', () => {
    expect(result.classifier.infraCalledOutcome).toBe(0);
    expect(result.classifier.rootCauseAccuracy).toBeGreaterThanOrEqual(SHARED_ROOT_CAUSE_FLOOR);
  });

  it('beats the keyword baseline measured in the same run', () => {
    expect(result.classifier.rootCauseAccuracy - result.baseline.rootCauseAccuracy).toBeGreaterThan(0.3);
  });

  it('every diagnosis carries evidence lines that really are in the file', () => {
    for (const { text } of loadCorpus(dir)) expectEvidenceInFile(text);
  });
});
