// The ruleset version is a hash of the rules (src/classifiers/version.ts): the archive re-classifies
// bundles whose stored version differs, so any rule change must give a new one, and nothing else may.
import { describe, expect, it } from 'vitest';
import { EXPLAINS, SYMPTOMS } from '../../src/classifiers/relations.js';
import { FACT_RULES } from '../../src/classifiers/rules/facts.js';
import { RULES } from '../../src/classifiers/rules/index.js';
import { LEXICON } from '../../src/classifiers/rules/lexicon.js';
import { INFO_LEVELS, LOWER_LEVELS, SEVERITY_MARKERS } from '../../src/classifiers/rules/severity.js';
import { WAIT_FRAMES } from '../../src/classifiers/rules/stall.js';
import { RULESET_VERSION, rulesetVersion } from '../../src/classifiers/version.js';

describe('ruleset version', () => {
  it('is the hash of the rules as loaded', () => {
    expect(rulesetVersion(RULES, FACT_RULES, EXPLAINS)).toBe(RULESET_VERSION);
    expect(RULESET_VERSION).toMatch(/^\d{4}\.\d{2}\.\d{2}\.[0-9a-f]{12}$/);
  });

  it('changes with a pattern, a strength, a hint, raisedIn, catchAll, a fact or a relation', () => {
    const [first, ...rest] = RULES;
    const variants = [
      [{ ...first!, patterns: [...first!.patterns, /something new/] }, ...rest],
      [{ ...first!, strength: first!.strength + 1 }, ...rest],
      [{ ...first!, hint: `${first!.hint} More.` }, ...rest],
      // Where a traceback must have been raised, and whether the row is a catch-all, decide verdicts too.
      [{ ...first!, raisedIn: first!.raisedIn === 'own' ? ('library' as const) : ('own' as const) }, ...rest],
      [{ ...first!, catchAll: first!.catchAll ? undefined : (true as const) }, ...rest],
    ];
    for (const v of variants) expect(rulesetVersion(v, FACT_RULES, EXPLAINS)).not.toBe(RULESET_VERSION);
    expect(rulesetVersion(RULES, FACT_RULES.slice(1), EXPLAINS)).not.toBe(RULESET_VERSION);
    expect(rulesetVersion(RULES, FACT_RULES, [{ ...EXPLAINS[0]!, causes: ['user.code_error'] }, ...EXPLAINS.slice(1)])).not.toBe(RULESET_VERSION);
  });

  it('changes with the vocabulary fallback’s lexicon or severity markers', () => {
    const [entry, ...more] = LEXICON;
    const markers = [...SEVERITY_MARKERS, ...LOWER_LEVELS, ...INFO_LEVELS];
    expect(rulesetVersion(RULES, FACT_RULES, EXPLAINS, SYMPTOMS, { lexicon: LEXICON, markers })).toBe(RULESET_VERSION);
    expect(rulesetVersion(RULES, FACT_RULES, EXPLAINS, SYMPTOMS, { lexicon: [{ ...entry!, terms: [...entry!.terms, 'one more term'] }, ...more], markers })).not.toBe(RULESET_VERSION);
    expect(rulesetVersion(RULES, FACT_RULES, EXPLAINS, SYMPTOMS, { lexicon: LEXICON, markers: markers.slice(1) })).not.toBe(RULESET_VERSION);
  });

  it('changes with the stall vocabulary (which innermost frames are a wait)', () => {
    const fallback = { lexicon: LEXICON, markers: [...SEVERITY_MARKERS, ...LOWER_LEVELS, ...INFO_LEVELS] };
    expect(rulesetVersion(RULES, FACT_RULES, EXPLAINS, SYMPTOMS, fallback, WAIT_FRAMES)).toBe(RULESET_VERSION);
    expect(rulesetVersion(RULES, FACT_RULES, EXPLAINS, SYMPTOMS, fallback, WAIT_FRAMES.slice(1))).not.toBe(RULESET_VERSION);
    const [first, ...rest] = WAIT_FRAMES;
    expect(rulesetVersion(RULES, FACT_RULES, EXPLAINS, SYMPTOMS, fallback, [{ ...first!, kind: 'socket' }, ...rest])).not.toBe(RULESET_VERSION);
  });
});
