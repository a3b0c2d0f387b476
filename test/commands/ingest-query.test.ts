import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageEnv } from '../helpers/backends.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { CLI } from '../helpers/server.js';

function fdiag(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, FDIAG_DATA: '', FDIAG_DB: '', ...storageEnv(join(cwd, '.fdiag')) } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('fdiag ingest / query on the local archive', () => {
  it('ingests a folder of bundles, dedups, keeps going past a bad file, and queries', async () => {
    const work = tempDir('fdiag-cli-');
    const bundles = join(work, 'bundles');
    await makeBundle({ outDir: bundles, runId: 'grpo-7', log: corpusLog('cl-010.log'), endedAt: new Date('2026-11-29T10:00:00Z'), labels: { team: 'rl' } });
    await makeBundle({ outDir: bundles, runId: 'grpo-8', log: corpusLog('cl-011.log'), endedAt: new Date('2026-11-29T11:00:00Z') });
    writeFileSync(join(bundles, 'zz-broken.tar.gz'), 'not a bundle');

    const first = fdiag(['ingest', bundles, '--format', 'json'], work);
    expect(first.code).toBe(2); // one input was bad
    const lines = first.out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines.filter((l) => l.id && !l.duplicate)).toHaveLength(2);
    expect(lines.find((l) => l.path.endsWith('zz-broken.tar.gz')).error).toMatch(/corrupt/);

    const again = fdiag(['ingest', bundles, '--format', 'json'], work);
    expect(again.out.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.duplicate)).toHaveLength(2);

    const q = fdiag(['query', '--format', 'json', '--since', '2026-11-01'], work);
    expect(q.code).toBe(0);
    const res = JSON.parse(q.out);
    expect(res.items.map((i: { runId: string }) => i.runId)).toEqual(['grpo-8', 'grpo-7']);
    const byLabel = JSON.parse(fdiag(['query', '--format', 'json', '--label', 'team=rl'], work).out);
    expect(byLabel.items.map((i: { runId: string }) => i.runId)).toEqual(['grpo-7']);
    const text = fdiag(['query', '--run-id', 'grpo-7'], work);
    expect(text.out).toContain('grpo-7');
    expect(text.out).not.toContain('grpo-8');
  });

  it('exits 2 with a clear message on bad usage', () => {
    const work = tempDir('fdiag-cli-');
    const r = fdiag(['query', '--since', 'last tuesday'], work);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not a time/);
    const r2 = fdiag(['query', '--label', 'novalue'], work);
    expect(r2.code).toBe(2);
    expect(fdiag(['no-such-command'], work).code).toBe(2);
  });
});
