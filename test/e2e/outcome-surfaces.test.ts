// Plain run logs whose harness printed an outcome (an agent's exhausted budget, an lm-eval table of zero
// scores) beside an infrastructure failure: after `fdiag ingest`, no surface records them as an outcome
// (API list and detail, the CLI's JSON, the web page, the weekly export), while the same outcome alone is
// one. The classifier's guard (resolve.ts guardOutcome) is what decides; this checks every reader agrees.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBundle } from '../helpers/bundles.js';
import { fdiagCli, openSurfaces, type CliResult } from '../helpers/surfaces.js';

const TOKEN = 'outcome-surfaces-token-01';
const ENDED = new Date('2026-12-01T12:00:00Z');

// The harnesses' own templates (rules/outcome.ts) and upstream-worded failure lines.
const BUDGET = 'Conversation run failed for id=1bc5f1b8-c88f-46b6-8ec5-401f5ec0758f: Run timed out after 3600.0 seconds. The conversation may still be running on the server.';
const ZEROS = [
  '|           Tasks            |Version|Filter|n-shot|  Metric   |   |Value|   |Stderr|',
  '|----------------------------|------:|------|-----:|-----------|---|----:|---|-----:|',
  '|formal_logic                |      2|none  |     0|exact_match|↑  |    0|±  |     0|',
  '|jurisprudence               |      2|none  |     0|exact_match|↑  |    0|±  |     0|',
].join('\n');
const GATEWAY_503 = 'openai.InternalServerError: Error code: 503 - {\'error\': {\'message\': \'Service Unavailable\', \'type\': \'server_error\'}}';
const CUDA_FAULT = 'torch.AcceleratorError: CUDA error: an illegal memory access was encountered';
const BOTOCORE = '2026-12-01 11:59:15,118 ERROR checkpoint.py:88 -- upload of step_4000 failed: botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: "https://s3.us-west-2.amazonaws.com/ckpt/step_4000.pt"';

const RUNS: Record<string, { log: string; cls: string }> = {
  'budget-with-503': { log: `${GATEWAY_503}\n${BUDGET}\n`, cls: 'gateway.5xx' },
  'zeros-after-cuda-fault': { log: `${CUDA_FAULT}\n${ZEROS}\n`, cls: 'cuda.error' },
  'budget-with-s3-words': { log: `${BOTOCORE}\n${BUDGET}\n`, cls: 'network.error' },
  'zeros-alone': { log: `${ZEROS}\n`, cls: 'outcome.reward_zero' },
  'budget-alone': { log: `${BUDGET}\n`, cls: 'outcome.agent_timeout' },
};

type Item = { id: string; runId: string; class: string; category: string | null; reward: number | null };
let api: Item[];
let cli: CliResult;
let get: (path: string) => Promise<Response>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ api, cli, get, close } = await openSurfaces<Item>({
    prefix: 'fdiag-outcome-surfaces-',
    token: TOKEN,
    limit: 50,
    load: async (data) => {
      const bundles = join(data, 'in');
      for (const [runId, r] of Object.entries(RUNS)) await makeBundle({ outDir: bundles, runId, log: r.log, endedAt: ENDED, exitCode: 0 });
      const ing = fdiagCli('ingest', bundles, '--data', data, '--format', 'json');
      expect(ing.code, ing.err).toBe(0);
    },
  }));
}, 120_000);

afterAll(async () => {
  await close?.();
});

describe('an outcome template beside an infra failure is never recorded as an outcome, on any surface', () => {
  it('API list and detail: the infra class, no reward; the outcome alone stays an outcome', async () => {
    expect(api.map((i) => i.runId).sort()).toEqual(Object.keys(RUNS).sort());
    for (const i of api) {
      expect(i.class, i.runId).toBe(RUNS[i.runId]!.cls);
      expect(i.reward, i.runId).toBeNull();
      const d = await (await get(`/v1/failures/${i.id}`)).json();
      expect(d.class, i.runId).toBe(RUNS[i.runId]!.cls);
      expect(d.reward, i.runId).toBeNull();
    }
    expect(api.filter((i) => i.category === 'outcome').map((i) => i.runId).sort()).toEqual(['budget-alone', 'zeros-alone']);
  });

  it('CLI JSON (fdiag query --format json) agrees', () => {
    expect(cli.code, cli.err).toBe(0);
    const items: Item[] = JSON.parse(cli.out).items;
    expect(Object.fromEntries(items.map((i) => [i.runId, i.class]))).toEqual(Object.fromEntries(Object.entries(RUNS).map(([k, v]) => [k, v.cls])));
  });

  it('web page: the infra records name their infra class and no outcome', async () => {
    for (const i of api.filter((x) => x.category === 'infra')) {
      const html = await (await get(`/ui/failures/${i.id}`)).text();
      expect(html, i.runId).toContain(RUNS[i.runId]!.cls);
      expect(html, i.runId).not.toMatch(/outcome\.(?:reward_zero|agent_timeout|scored)/);
      expect(html, i.runId).not.toMatch(/<th>reward<\/th>/);
    }
  });

  it('weekly export: only the outcomes alone count as outcomes; the others count as infra', async () => {
    const j = await (await get('/v1/export/weekly?week=2026-W49&format=json')).json();
    expect(j.totals.count).toBe(5);
    expect(j.outcomes).toMatchObject({ rewardZero: 1, agentTimeout: 1, scored: 0 });
    expect(j.infraRate.infra).toBe(3);
  });
});
