// `fdiag harbor import` (the real CLI, dist/cli.js) of the fixture jobs into an archive, read back
// through the archive: every trial with its labels and class, nothing twice, a killed trial kept.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/index.js';
import { storageEnvOfArgs, storageFor } from '../helpers/backends.js';
import { tempDir } from '../helpers/bundles.js';
import { EXPECTED, H03, INFRA } from './helpers.js';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.js');

function fdiag(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FDIAG_DB: '', FDIAG_DATA: '', ...storageEnvOfArgs(args) } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('fdiag harbor import', () => {
  it('puts every trial into the archive with its labels and class; importing again adds nothing', async () => {
    const data = tempDir('fdiag-harbor-import-');
    const r = fdiag('harbor', 'import', INFRA, '--data', data, '--format', 'json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const rows = r.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row.error).toBeNull();
      expect(row.duplicate).toBe(false);
    }
    const byTrial = Object.fromEntries(rows.map((x: any) => [x.trial, x.class]));
    // The killed trial (no result.json) included: classifyBundle decides it from its logs, never as an outcome.
    for (const [t, cls] of Object.entries(EXPECTED['h13-infra'])) expect(byTrial[t], t).toBe(cls);

    const archive = await openArchive({ ...storageFor(data), dataDir: data });
    try {
      const all = (await archive.query({ labels: { 'harbor.job': '2026-11-13__14-02-11' }, limit: 100 })).items;
      expect(all).toHaveLength(12);
      const gw = (await archive.query({ labels: { 'harbor.trial': 'count-dataset-tokens__Rz2hY6e' } })).items[0];
      expect(gw).toMatchObject({ runId: '2026-11-13__14-02-11', class: 'gateway.5xx', category: 'infra', reward: null, harborReward: 0, exceptionType: 'AgentTimeoutError', kind: 'harbor_trial' });
      expect(gw.labels).toMatchObject({
        'harbor.task': 'count-dataset-tokens',
        'harbor.agent': 'mini-swe-agent',
        'harbor.model': 'openai/qwen3-coder-480b',
        'harbor.atif': 'valid',
        'harbor.result': 'ok',
        'harbor.exception': 'AgentTimeoutError',
        'harbor.recorded_rewards': '{"reward":0}',
        'harbor.version': '0.13',
      });
      expect(Number(gw.labels['harbor.agent_sec'])).toBeCloseTo(912.5, 2);
      expect((await archive.query({ labels: { 'harbor.trial': 'sqlite-with-gcov__Gs3uC5k' } })).items[0].labels['harbor.atif']).toBe('invalid');
      expect((await archive.query({ labels: { 'harbor.trial': 'regex-log__Ev1rH7j' } })).items[0].labels['harbor.result']).toBe('garbled');
    } finally {
      await archive.close();
    }

    const again = fdiag('harbor', 'import', INFRA, '--data', data, '--format', 'json');
    expect(again.code).toBe(0);
    expect(again.out.trim().split('\n').map((l) => JSON.parse(l).duplicate)).toEqual(Array(12).fill(true));
  });

  it('a killed trial (config.json and trial.log, no result.json) is stored as a harbor_trial without an outcome class', async () => {
    const data = tempDir('fdiag-harbor-import-');
    const killed = 'openssl-selfsigned-cert__Dn6yF2i';
    const r = fdiag('harbor', 'import', INFRA, '--data', data, '--format', 'json');
    expect(r.code).toBe(0);
    const row = r.out.trim().split('\n').map((l) => JSON.parse(l)).find((x: any) => x.trial === killed);
    expect(row).toBeDefined();
    expect(row.error).toBeNull();
    expect(row.class).toBe('unknown');
    const archive = await openArchive({ ...storageFor(data), dataDir: data });
    try {
      const items = (await archive.query({ labels: { 'harbor.trial': killed } })).items;
      expect(items).toHaveLength(1);
      const item = items[0];
      expect(item.kind).toBe('harbor_trial');
      expect(item.class).toBe('unknown');
      expect(item.class.startsWith('outcome.')).toBe(false);
      expect(item.category).not.toBe('outcome');
      expect(item.reward).toBeNull();
      expect(item.labels['harbor.result']).toBe('missing');
      // Dated by its job (result.json started_at), not by the import: it does not sort to "now".
      expect(item.failedAt).toBe('2026-11-13T14:02:11.870Z');
      // The trial whose sandbox Pod was left behind keeps its part of the job's Pod evidence.
      const left = (await archive.query({ labels: { 'harbor.trial': 'git-multibranch__Uc9gJ3g' } })).items[0];
      const detail = await archive.get(left.id);
      expect(detail!.files.map((f) => f.path)).toContain('k8s/pods.json');
      const pods = JSON.parse((await archive.readFile(left.id, 'k8s/pods.json'))!.data.toString('utf8'));
      expect(pods.pods.map((p: { name: string }) => p.name)).toEqual(['git-multibranch--uc9gj3g']);
    } finally {
      await archive.close();
    }
  });

  it('--run-id names the records', async () => {
    const data = tempDir('fdiag-harbor-import-');
    expect(fdiag('harbor', 'import', H03, '--data', data, '--run-id', 'rllm-step-120').code).toBe(0);
    const archive = await openArchive({ ...storageFor(data), dataDir: data });
    try {
      const items = (await archive.query({ runId: 'rllm-step-120' })).items;
      expect(items.map((i) => i.class).sort()).toEqual(Object.values(EXPECTED['h03-job']).sort());
      expect(items.every((i) => i.labels['harbor.version'] === '0.3')).toBe(true);
    } finally {
      await archive.close();
    }
  });
});
