// The real CLI (dist/cli.js, built by the global setup) on the fixture jobs: the canary gate's
// exit codes and the audit's corrected vs naive rewards (import into an archive: import-cli.test.ts).
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { categoryOf, isFailureClass } from '../../src/classifiers/taxonomy.js';
import { percentile } from '../../src/harbor/canary.js';
import { tempDir } from '../helpers/bundles.js';
import { CLEAN, EXPECTED, FIX, H03, INFRA, trialNames } from './helpers.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

function fdiag(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FDIAG_DB: '', FDIAG_DATA: '' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('fdiag harbor canary', () => {
  it('passes the clean 10-trial job (exit 0) and prints P50/P95 timings', async () => {
    const r = fdiag('harbor', 'canary', CLEAN);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/GATE PASSED/);
    expect(r.out).toMatch(/not checked: no Pod evidence/);
    expect(r.out).toMatch(/environment setup\s+\d+\.\ds\s+\d+\.\ds\s+10/);
    expect(r.out).toMatch(/agent setup\+exec/);
  });

  it('fails the infra job (exit 1), naming each failed check and the trials behind it', async () => {
    const r = fdiag('harbor', 'canary', INFRA, '--format', 'json');
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.out);
    expect(rep.passed).toBe(false);
    const failed = Object.fromEntries(rep.checks.filter((c: any) => c.status === 'fail').map((c: any) => [c.id, c.trials.map((t: any) => t.trial).sort()]));
    expect(failed).toEqual({
      trials_complete: ['openssl-selfsigned-cert__Dn6yF2i', 'regex-log__Ev1rH7j'],
      sandbox_created: ['build-cython-ext__Hk8wE4m', 'git-multibranch__Uc9gJ3g'],
      sandbox_cleaned_up: ['git-multibranch__Uc9gJ3g'],
      verifier_result: ['build-cython-ext__Hk8wE4m', 'crack-7z-hash__Jt2xA9n', 'git-multibranch__Uc9gJ3g', 'log-summary-date-ranges__Mw4tB8h'],
      atif_trajectory: ['build-cython-ext__Hk8wE4m', 'crack-7z-hash__Jt2xA9n', 'git-multibranch__Uc9gJ3g', 'openssl-selfsigned-cert__Dn6yF2i', 'sqlite-with-gcov__Gs3uC5k'],
      no_gateway_errors: ['count-dataset-tokens__Rz2hY6e', 'extract-elf__aP5sK1f'],
      no_infra_failures: ['build-cython-ext__Hk8wE4m', 'count-dataset-tokens__Rz2hY6e', 'crack-7z-hash__Jt2xA9n', 'extract-elf__aP5sK1f', 'git-multibranch__Uc9gJ3g', 'log-summary-date-ranges__Mw4tB8h'],
    });
    // The healthy agent timeout is a valid outcome: it fails nothing by itself.
    expect(JSON.stringify(failed)).not.toContain('csv-to-parquet__Lq8vN4d');
    expect(rep.checks.find((c: any) => c.id === 'sandbox_cleaned_up').trials[0].why).toMatch(/git-multibranch--uc9gj3g still exists/);
  });

  it('text output lists the failing trials under each failed check', async () => {
    const r = fdiag('harbor', 'canary', INFRA);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL zero gateway 4xx\/5xx: 2 trial\(s\)\n\s+- count-dataset-tokens__Rz2hY6e: classified gateway.5xx \(AgentTimeoutError\)\n\s+- extract-elf__aP5sK1f: classified gateway.4xx \(ApiRateLimitError\)/);
    expect(r.out).toMatch(/GATE FAILED: .*no_gateway_errors/);
  });

  it('one infra failure in an otherwise clean job fails the gate', async () => {
    const dir = join(tempDir('fdiag-canary-'), 'job');
    cpSync(CLEAN, dir, { recursive: true });
    const log = join(dir, 'fix-git__bT7mW2c', 'trial.log');
    // An API timeout the agent survived still fails the canary's "zero API timeouts".
    writeFileSync(log, readFileSync(log, 'utf8') + 'LLM call failed: litellm.Timeout: APITimeoutError - Request timed out.\n');
    const r = fdiag('harbor', 'canary', dir, '--format', 'json');
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.out);
    expect(rep.checks.filter((c: any) => c.status === 'fail').map((c: any) => c.id)).toEqual(['no_api_timeouts']);
  });

  it('a job with too few trials fails trials_complete unless --min-trials says otherwise', async () => {
    expect(fdiag('harbor', 'canary', H03, '--format', 'json').code).toBe(1);
    const rep = JSON.parse(fdiag('harbor', 'canary', H03, '--format', 'json').out);
    expect(rep.checks.find((c: any) => c.id === 'trials_complete').trials[0].trial).toBe('(job)');
    const four = JSON.parse(fdiag('harbor', 'canary', H03, '--format', 'json', '--min-trials', '4').out);
    expect(four.checks.find((c: any) => c.id === 'trials_complete').status).toBe('pass');
  });

  it('bad input exits 2', async () => {
    expect(fdiag('harbor', 'canary', join(FIX, 'nope')).code).toBe(2);
    expect(fdiag('harbor', 'canary', FIX).code).toBe(2);
    const r = fdiag('harbor', 'canary', join(INFRA, 'hello-world__Xk3pQ9a'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/trial folder/);
    expect(fdiag('harbor', 'canary', CLEAN, '--format', 'xml').code).toBe(2);
  });

  it('percentiles are nearest-rank', async () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
    expect(percentile([], 50)).toBeNull();
  });
});

/** Rewards straight from the fixtures' result.json files, for the audit's arithmetic. */
function fixtureRewards(jobDir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of trialNames(jobDir)) {
    let r: any;
    try {
      r = JSON.parse(readFileSync(join(jobDir, t, 'result.json'), 'utf8'));
    } catch {
      continue; // killed or garbled: no reward to count anywhere
    }
    const v = r.verifier_result?.rewards?.reward;
    if (typeof v === 'number') out.set(t, v);
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('fdiag harbor audit', () => {
  for (const [job, dir] of [
    ['h13-infra', INFRA],
    ['h03-job', H03],
  ] as const) {
    it(`${job}: the corrected mean differs from the naive one exactly by the infra-failed trials`, async () => {
      const r = fdiag('harbor', 'audit', dir, '--format', 'json');
      expect(r.code).toBe(0);
      const a = JSON.parse(r.out);
      const rewards = fixtureRewards(dir);
      const infra = [...rewards.keys()].filter((t) => {
        const cls = EXPECTED[job][t];
        return isFailureClass(cls) && categoryOf(cls) === 'infra';
      });
      expect(infra.length).toBeGreaterThan(0);
      const naive = mean([...rewards.values()]);
      const corrected = mean([...rewards].filter(([t]) => !infra.includes(t)).map(([, v]) => v));
      expect(a.harbor.naive.mean).toBeCloseTo(naive, 12);
      expect(a.harbor.naive.n).toBe(rewards.size);
      expect(a.corrected.mean).toBeCloseTo(corrected, 12);
      expect(a.corrected.n).toBe(rewards.size - infra.length);
      expect(a.corrected.mean).not.toBeCloseTo(a.harbor.naive.mean, 6);
      expect([...a.excludedFromCorrected].sort()).toEqual([...infra].sort());
      expect(a.infraRewardZero.map((x: any) => x.trial).sort()).toEqual(infra.filter((t) => rewards.get(t) === 0).sort());
    });
  }

  it('lists the reward-0 infra trials with their evidence, the infra rate by class, and unreadable trials', async () => {
    const a = JSON.parse(fdiag('harbor', 'audit', INFRA, '--format', 'json').out);
    const gw = a.infraRewardZero.find((x: any) => x.trial === 'count-dataset-tokens__Rz2hY6e');
    expect(gw).toMatchObject({ class: 'gateway.5xx', exception: 'AgentTimeoutError', reward: 0 });
    expect(gw.evidence.some((e: any) => e.file === 'harbor/agent/mini-swe-agent.txt' && /Error code: 503/.test(e.text))).toBe(true);
    expect(gw.evidence.some((e: any) => e.file === 'harbor/result.json' && /AgentTimeoutError/.test(e.text))).toBe(true);
    expect(a.infraRate).toMatchObject({ total: 12, n: 6 });
    expect(a.infraRate.byClass['sandbox.failure']).toEqual({ n: 2, rate: 2 / 12 });
    expect(a.unreadable.map((u: any) => [u.trial, u.status])).toEqual([
      ['openssl-selfsigned-cert__Dn6yF2i', 'missing'],
      ['regex-log__Ev1rH7j', 'garbled'],
    ]);
    expect(a.harbor.stats).toEqual({ completed: 10, errored: 7 });
    expect(a.harbor.metricMean).toBeCloseTo(0.2, 9);
    expect(a.byCategory).toEqual({ infra: 6, user: 0, outcome: 4, unknown: 2 });
  });

  it('markdown shows both figures side by side', async () => {
    const r = fdiag('harbor', 'audit', INFRA);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\| Harbor \(naive: every recorded reward\) \| 6 \| 0\.333 \|/);
    expect(r.out).toMatch(/\| corrected \(scored trials only\) \| 4 \| 0\.500 \|/);
    expect(r.out).toMatch(/## Reward-0 trials that are infrastructure failures/);
    expect(r.out).toMatch(/regex-log__Ev1rH7j: garbled/);
  });
});
