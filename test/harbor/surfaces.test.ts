// After `fdiag harbor import` of a generated Harbor 0.22 job, no infra record shows reward 0 on any
// surface: the API (list and detail), the CLI's JSON, the web page and the weekly export, all read from
// the same archive. Harbor's own value stays visible as harborReward, named as not a score.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fdiagCli, openSurfaces, type CliResult } from '../helpers/surfaces.js';
import { FIX } from './helpers.js';

const TOKEN = 'surfaces-read-token-01';
type Item = { id: string; class: string; category: string | null; reward: number | null; harborReward: number | null; infraClass: string | null; labels: Record<string, string> };
let api: Item[];
let cli: CliResult;
let get: (path: string) => Promise<Response>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ api, cli, get, close } = await openSurfaces<Item>({
    prefix: 'fdiag-harbor-surfaces-',
    token: TOKEN,
    limit: 500,
    load: (data) => {
      const imp = fdiagCli('harbor', 'import', join(FIX, 'h22-exceptions'), '--data', data, '--format', 'json');
      expect(imp.code, imp.err).toBe(0);
    },
  }));
}, 120_000);

afterAll(async () => {
  await close?.();
});

describe('no infra record shows reward 0 (generated 0.22 job, imported)', () => {
  it('the job holds infra trials on which Harbor itself recorded reward 0', () => {
    expect(api.length).toBe(44);
    const infraZero = api.filter((i) => i.category === 'infra' && i.harborReward === 0);
    expect(infraZero.length).toBeGreaterThanOrEqual(14);
  });

  it('API: list and detail say reward null for every infra record, Harbor\'s 0 as harborReward', async () => {
    for (const i of api.filter((x) => x.category === 'infra')) {
      expect(i.reward, i.labels['harbor.trial']).toBeNull();
      const d = await (await get(`/v1/failures/${i.id}`)).json();
      expect(d.reward, i.labels['harbor.trial']).toBeNull();
    }
    // Outcomes keep the reward that counts; a scored trial with an infra error names it beside.
    const scored = api.find((i) => i.labels['harbor.trial']?.startsWith('api-overloaded-but-scored__'))!;
    expect(scored).toMatchObject({ class: 'outcome.scored', reward: 1, harborReward: 1, infraClass: 'gateway.5xx' });
    const multi = api.find((i) => i.labels['harbor.trial']?.startsWith('multi-step-scored__'))!;
    expect(multi.reward).toBeCloseTo(2 / 3, 10);
  });

  it('CLI JSON (fdiag query --format json) agrees', () => {
    expect(cli.code, cli.err).toBe(0);
    const items: Item[] = JSON.parse(cli.out).items;
    expect(items.length).toBe(api.length);
    for (const i of items) if (i.category === 'infra') expect(i.reward, i.labels['harbor.trial']).toBeNull();
    expect(items.filter((i) => i.category === 'infra' && i.harborReward === 0).length).toBe(api.filter((i) => i.category === 'infra' && i.harborReward === 0).length);
  });

  it('web page: an infra record shows Harbor\'s 0 as "not a score", never as its reward; the list keeps scored trials apart', async () => {
    const infraZero = api.filter((i) => i.category === 'infra' && i.harborReward === 0);
    for (const i of infraZero) {
      const html = await (await get(`/ui/failures/${i.id}`)).text();
      expect(html, i.labels['harbor.trial']).not.toMatch(/<th>reward<\/th>\s*<td>0/i);
      expect(html).toMatch(/Harbor(?:'|&#39;|&apos;)s reward/);
    }
    const list = await (await get('/ui')).text();
    expect(list).not.toMatch(/REWARD 0/i);
  });

  it('weekly export: reward-0 outcomes count only outcome records, infra records carry no reward', async () => {
    const rewardZero = api.filter((i) => i.class === 'outcome.reward_zero').length;
    const j = await (await get('/v1/export/weekly?week=2026-W49&format=json')).json();
    expect(j.totals.count).toBe(api.length);
    expect(j.outcomes.rewardZero).toBe(rewardZero);
    expect(j.infraRate.infra).toBe(api.filter((i) => i.category === 'infra').length);
    expect(JSON.stringify(j)).not.toMatch(/"(?:reward|harborReward)"\s*:\s*0\b/);
    const md = await (await get('/v1/export/weekly?week=2026-W49&format=md')).text();
    expect(md).toContain(`Reward-0 outcomes (scored, not infra): **${rewardZero}**`);
    // Scored trials are no problem to triage: none of their groups is listed.
    expect(md).not.toMatch(/outcome\.scored \(outcome, (?:new|ongoing|regressed)\)/);
  });
});
