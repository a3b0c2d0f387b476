// docs/rules.md is the coverage table of the producers' error vocabularies: every row names a class, the
// rule that must decide it, and a line in the producer's own format. This runs each row's line through
// the classifier, so the table cannot claim a coverage the rules do not have.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isFailureClass } from '../../src/classifiers/index.js';
import { RULES } from '../../src/classifiers/rules/index.js';
import { classifyText, coverageRows } from './helpers.js';

const rows = coverageRows(readFileSync(resolve(__dirname, '../../docs/rules.md'), 'utf8'));
const ruleIds = new Set<string>(RULES.map((r) => r.id));

describe('docs/rules.md coverage table', () => {
  it('has rows for every producer family, each with a class of the taxonomy and an existing rule', () => {
    expect(rows.length).toBeGreaterThan(150);
    expect(new Set(rows.map((r) => r.section)).size).toBeGreaterThanOrEqual(12);
    for (const r of rows) {
      expect(isFailureClass(r.cls), `${r.upstream}: ${r.cls}`).toBe(true);
      if (r.rule !== 'n/a') expect(ruleIds.has(r.rule), `${r.upstream}: rule ${r.rule}`).toBe(true);
      expect(r.text.length, r.upstream).toBeGreaterThan(3);
    }
  });

  it.each(rows.map((r) => [`${r.section.split(':')[0]} / ${r.upstream}`, r] as const))('%s', (_name, r) => {
    const d = classifyText(r.text);
    expect(d.class).toBe(r.cls);
    if (r.rule === 'n/a') expect(d.evidence).toEqual([]);
    else expect(d.evidence[0]?.rule).toBe(r.rule);
  });
});

describe('agent install vocabulary in an agent session log', () => {
  const install = 'npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fagent-cli - Not found';
  it('counts while the agent never reached a model (its install failed)', () => {
    expect(classifyText(install, 'agent/setup/stdout.txt').class).toBe('agent.setup_failure');
  });
  it("is the task's own npm output once the agent worked (tokens were used)", () => {
    const session = `{"type":"assistant","usage":{"input_tokens":18234,"output_tokens":512}}\n${install}`;
    expect(classifyText(session, 'agent/claude-code.txt').class).not.toBe('agent.setup_failure');
  });
});

