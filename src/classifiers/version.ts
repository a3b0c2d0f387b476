// The ruleset version is a hash of the rules, not a number bumped by hand: any change to a rule row
// (pattern, class, strength, sections, hint), a fact row or a cause→symptom relation gives a new
// version, and the archive re-classifies what an older version decided. Code inside functions (a rule's
// extract, resolution) is not hashed, since a bundler may rewrite its text: a change there bumps
// ENGINE_REVISION.
import { createHash } from 'node:crypto';
import { EXPLAINS, SYMPTOMS, type Explains, type SymptomMechanism } from './relations.js';
import type { Rule } from './rule.js';
import { FACT_RULES, type FactRule } from './rules/facts.js';
import { ABSENCE_AFTER, ABSENCE_BEFORE } from './rules/absence.js';
import { AGENT_LOOPS } from './rules/agent.js';
import { LEXICON, type LexiconEntry } from './rules/lexicon.js';
import { INFO_LEVELS, LOWER_LEVELS, SEVERITY_MARKERS, type SeverityMarker } from './rules/severity.js';
import { RULES } from './rules/index.js';
import { SERVER_STARTS } from './rules/server-start.js';
import { HELPER_BOTTOM, LOG_ENDINGS, PY_SPY_FRAME_KEYS, SUCCESS_ENDINGS, WAIT_FRAMES, type WaitFrame } from './rules/stall.js';
import { TEST_RUNNERS } from './rules/verifier.js';

/** Bump when engine or resolution code changes what a bundle is classified as. */
export const ENGINE_REVISION = '2026.12.02';

const re = (r: RegExp): string => `/${r.source}/${r.flags}`;

/** What the vocabulary fallback reads besides the rules (fallback.ts): part of the version like a rule. */
export interface FallbackData {
  lexicon: readonly LexiconEntry[];
  markers: readonly SeverityMarker[];
}

export function rulesetVersion(
  rules: readonly Rule[],
  facts: readonly FactRule[],
  explains: readonly Explains[],
  symptoms: readonly SymptomMechanism[] = SYMPTOMS,
  fallback: FallbackData = { lexicon: LEXICON, markers: [...SEVERITY_MARKERS, ...LOWER_LEVELS, ...INFO_LEVELS] },
  waitFrames: readonly WaitFrame[] = WAIT_FRAMES,
): string {
  const h = createHash('sha256');
  for (const r of rules) h.update(JSON.stringify([r.id, r.class, r.strength, r.sections ?? null, r.patterns.map(re), (r.unless ?? []).map(re), r.raisedIn ?? null, !!r.catchAll, !!r.extract, r.why, r.hint]));
  for (const f of facts) h.update(JSON.stringify([f.rule, f.on, f.section ?? null, !!f.extract]));
  for (const e of explains) h.update(JSON.stringify([e.symptom, e.causes, e.minCauseStrength ?? null, e.notFromRules ?? null, !!e.symptomIf, !!e.causeSignal, e.order, e.consequence]));
  for (const m of symptoms) h.update(JSON.stringify([m.id, m.symptomClasses ?? null, m.symptomRules ?? null, m.wording.map(re), m.extracted ?? null, m.sameFileClasses ?? null, m.unlessBundleHas ?? null, m.causes, m.consequence]));
  // The structure vocabularies (progress.ts) decide agent.loop_cut / verifier.no_test_summary as much as a rule's patterns.
  for (const a of AGENT_LOOPS) h.update(JSON.stringify([a.agent, a.step.map(re), a.end.map(re)]));
  for (const t of TEST_RUNNERS) h.update(JSON.stringify([t.runner, t.start.map(re), t.summary.map(re)]));
  // Which lines are a server's start (rules/server-start.ts) decides whose traceback a refusal follows.
  for (const s of SERVER_STARTS) h.update(JSON.stringify(['server-start', s.server, re(s.pattern)]));
  // The stall vocabulary (stacks.ts): which innermost frames are a wait decides job.stall as much as a rule's patterns.
  for (const w of waitFrames) h.update(JSON.stringify(['wait-frame', w.kind, re(w.file), w.fn ? re(w.fn) : null, !!w.apiOnly]));
  h.update(JSON.stringify(['helper-bottom', re(HELPER_BOTTOM), PY_SPY_FRAME_KEYS]));
  // How a log ends (tail.ts): which last lines are a wait decides stall.ends_waiting as much as a rule's patterns.
  for (const w of LOG_ENDINGS) h.update(JSON.stringify(['log-ending', re(w.re), !!w.atHead, w.cls ?? null]));
  h.update(JSON.stringify(['success-ending', SUCCESS_ENDINGS.map(re)]));
  // Which positions report a condition absent (rules/absence.ts) decides whether a matched line is evidence at all.
  h.update(JSON.stringify(['absence', re(ABSENCE_BEFORE), re(ABSENCE_AFTER)]));
  // The vocabulary fallback's data (fallback.ts): which lines it reads and the words it weighs.
  for (const m of fallback.markers) h.update(JSON.stringify(['severity', re(m.re)]));
  for (const e of fallback.lexicon) h.update(JSON.stringify(['lexicon', e.class, e.terms]));
  return `${ENGINE_REVISION}.${h.digest('hex').slice(0, 12)}`;
}

export const RULESET_VERSION = rulesetVersion(RULES, FACT_RULES, EXPLAINS);
