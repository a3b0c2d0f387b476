// The classifier's public surface. classifyBundle and the streaming classifier share one engine, so a
// bundle classified in memory and a 1 GiB log streamed from disk get the same verdict.
import { Engine, createLogClassifier, type LogClassifier } from './engine.js';
import { decideHarborTrial, decideHarborTrialWithoutResult } from './harbor-trial.js';
import { isStructuredPath } from './structured.js';
import { decideHang, isLiveBundle } from './hang.js';
import type { BundleInput, Diagnosis } from './types.js';

export * from './types.js';
export * from './taxonomy.js';
export { RULESET_VERSION } from './version.js';
export { createLogClassifier, type LogClassifier };
export { isStructuredPath };

/** Classify a bundle whose files are already in memory. Never throws. */
export function classifyBundle(input: BundleInput): Diagnosis {
  const engine = new Engine();
  const files = input?.files instanceof Map ? input.files : new Map<string, string>();
  for (const [path, text] of files) {
    if (isStructuredPath(path) || typeof text !== 'string') continue;
    engine.feed(path, text);
  }
  const safeInput: BundleInput = { ...input, files };
  const live = isLiveBundle(safeInput);
  const harborResult = files.has('harbor/result.json');
  const harborWithout = !!input?.harborResultProblem || files.has('harbor/trial.log') || files.has('harbor/config.json');
  // A vocabulary guess (fallback.ts) only where the logs alone decide: a live bundle's stacks and a
  // Harbor trial's records say more than a guess from words.
  const fromLogs = engine.finish(safeInput, { fallback: !live && !harborResult && !harborWithout });
  // Taken while the run still ran (a stall, `fdiag snapshot`): the live evidence decides.
  if (live) return decideHang(safeInput, fromLogs);
  if (harborResult) return decideHarborTrial(safeInput, fromLogs);
  // A Harbor trial killed before it wrote result.json: no score, only its logs.
  if (harborWithout) return decideHarborTrialWithoutResult(safeInput, fromLogs, input?.harborResultProblem);
  return fromLogs;
}
