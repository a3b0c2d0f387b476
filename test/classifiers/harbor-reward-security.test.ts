// Hostile reward values in a Harbor trial (result.json, its steps, verifier/reward.txt): a reward is
// a finite number or absent, never Infinity or NaN, whatever the file says.
import { describe, expect, it } from 'vitest';
import { readHarborResult } from '../../src/classifiers/harbor-result.js';
import { structuredSignals } from '../../src/classifiers/structured.js';

const step = (reward: unknown) => ({ step_name: 's', verifier_result: { rewards: { reward } }, exception_info: null });

describe('hostile Harbor rewards', () => {
  it('the mean of huge step rewards is their (finite) mean, not an overflow to Infinity', () => {
    // before: summed first, 1.5e308 + 1.5e308 = Infinity, stored and counted as a score
    const r = readHarborResult(JSON.stringify({ task_name: 't', trial_name: 't1', verifier_result: null, step_results: [step(1.5e308), step(1.5e308)] }));
    expect(r.reward).toBe(1.5e308);
    const mixed = readHarborResult(JSON.stringify({ task_name: 't', trial_name: 't2', verifier_result: null, step_results: [step(1), step(0)] }));
    expect(mixed.reward).toBe(0.5);
  });

  it('rewards that are strings, NaN, Infinity or out of range are no reward', () => {
    expect(readHarborResult('{"task_name":"t","trial_name":"x","verifier_result":{"rewards":{"reward":"1.0"}}}').reward).toBeNull();
    expect(readHarborResult('{"task_name":"t","trial_name":"x","verifier_result":{"rewards":{"reward":1e999}}}').reward).toBeNull();
    // Python's json.dumps writes NaN for float('nan'): not JSON, so the record is unreadable, never a reward
    expect(readHarborResult('{"task_name":"t","trial_name":"x","verifier_result":{"rewards":{"reward":NaN}}}').reward).toBeNull();
    expect(readHarborResult(JSON.stringify({ task_name: 't', trial_name: 'x', verifier_result: null, step_results: [step('1'), step(null)] })).reward).toBeNull();
  });

  it('verifier/reward.txt and reward.json with a number too large for a double give no reward signal', () => {
    const huge = '1' + '0'.repeat(400);
    const rewards = (files: Record<string, string>) =>
      structuredSignals({ files: new Map(Object.entries(files)) } as Parameters<typeof structuredSignals>[0]).filter((s) => s.kind === 'reward');
    // before: /^-?\d+(\.\d+)?$/ accepted it and Number() made it Infinity
    expect(rewards({ 'harbor/verifier/reward.txt': huge })).toEqual([]);
    expect(rewards({ 'harbor/verifier/reward.json': JSON.stringify({ reward: huge }) })).toEqual([]);
    expect(rewards({ 'harbor/verifier/reward.txt': 'NaN' })).toEqual([]);
    expect(rewards({ 'harbor/verifier/reward.txt': '0.75\n' }).map((s) => (s as { value: number }).value)).toEqual([0.75]);
  });

  it('the classifier reads the reward the Harbor reader records, for every shape of result.json', () => {
    const signalled = (result: unknown) =>
      structuredSignals({ files: new Map([['harbor/result.json', JSON.stringify(result)]]) } as Parameters<typeof structuredSignals>[0])
        .filter((s) => s.kind === 'reward')
        .map((s) => (s as { value: number }).value);
    const shapes = [
      // Harbor keeps rewards.reward, not the largest value (before: the classifier took the max, 0.5)
      { task_name: 't', trial_name: 'a', verifier_result: { rewards: { reward: 0, partial_credit: 0.5 } } },
      // a multi-step trial without a trial-level result: the per-step mean (before: no reward signal)
      { task_name: 't', trial_name: 'b', verifier_result: null, step_results: [step(1), step(0)] },
      // a string is no reward (before: the classifier's own reader took "1.0" as 1)
      { task_name: 't', trial_name: 'c', verifier_result: { rewards: { reward: '1.0' } } },
    ];
    for (const r of shapes) {
      const recorded = readHarborResult(JSON.stringify(r)).reward;
      expect(signalled(r), JSON.stringify(r)).toEqual(recorded === null ? [] : [recorded]);
    }
    expect(shapes.map((r) => readHarborResult(JSON.stringify(r)).reward)).toEqual([0, 0.5, null]);
  });

  it("a verifier's reward.json gives Harbor's reward (rewards.reward), not the largest value", () => {
    const rewards = structuredSignals({ files: new Map([['harbor/verifier/reward.json', JSON.stringify({ reward: 0, style: 1 })]]) } as Parameters<typeof structuredSignals>[0]).filter((s) => s.kind === 'reward');
    expect(rewards.map((s) => (s as { value: number }).value)).toEqual([0]);
  });
});
