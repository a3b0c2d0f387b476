// Golden tests of the weekly export over a seeded two-week archive (real bundles, real ingest).
// Regenerate after an intended change: FDIAG_UPDATE_GOLDEN=1 npx vitest run test/archive/export.test.ts
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveInputError } from '../../src/archive/errors.js';
import { buildWeeklyExport, renderCsv, renderExport, weeklyClassSeries, type ExportFormat } from '../../src/archive/export.js';
import { isoWeekName, parseIsoWeek } from '../../src/archive/groups.js';
import { openArchive, type Archive } from '../../src/archive/index.js';
import { storageEnv, storageFor } from '../helpers/backends.js';
import { tempDir } from '../helpers/bundles.js';
import { CLI, ROOT } from '../helpers/server.js';
import { normalizeIds, seedTwoWeeks, WEEK1, WEEK2 } from './seed.js';

const GOLDEN = join(ROOT, 'fixtures', 'export');
let archive: Archive;
let dir: string;
let ids: Map<string, string>;

beforeAll(async () => {
  dir = tempDir('fdiag-export-');
  archive = await openArchive({ ...storageFor(dir), dataDir: dir });
  ids = await seedTwoWeeks(archive);
});
afterAll(async () => await archive.close());

function golden(name: string, actual: string): void {
  const p = join(GOLDEN, name);
  if (process.env.FDIAG_UPDATE_GOLDEN === '1' || !existsSync(p)) {
    if (process.env.CI) throw new Error(`golden ${name} missing in CI`);
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(p, actual);
  }
  // The export quotes the classifier's evidence and hints: a rule change shows up here on purpose.
  expect(actual, `${name} differs; after an intended change: FDIAG_UPDATE_GOLDEN=1 npx vitest run test/archive/export.test.ts`).toBe(readFileSync(p, 'utf8'));
}

describe('weekly export goldens', () => {
  for (const week of [WEEK1, WEEK2]) {
    for (const format of ['md', 'csv', 'json'] as ExportFormat[]) {
      it(`${week} as ${format}`, async () => {
        golden(`weekly-${week}.${format}`, normalizeIds(renderExport((await archive.weeklyExport(week)), format), ids));
      });
    }
  }

  it('is byte-for-byte stable across calls', async () => {
    const a = renderExport((await archive.weeklyExport(WEEK2)), 'json');
    const b = renderExport((await archive.weeklyExport(WEEK2)), 'json');
    expect(a).toBe(b);
  });

  it('the CLI prints the same export (fdiag export --week … --format md)', async () => {
    const out = execFileSync(process.execPath, [CLI, 'export', '--week', WEEK2, '--format', 'md', '--data', dir, '--db', storageFor(dir).dbFile], { encoding: 'utf8', env: { ...process.env, ...storageEnv(dir) } });
    expect(normalizeIds(out, ids)).toBe(readFileSync(join(GOLDEN, `weekly-${WEEK2}.md`), 'utf8'));
  });

  it('the CLI refuses a bad week or format with exit 2', async () => {
    for (const args of [['--week', '2026-48'], ['--week', '2026-W54'], ['--week', WEEK2, '--format', 'xml']]) {
      let code = 0;
      try {
        execFileSync(process.execPath, [CLI, 'export', ...args, '--data', dir], { stdio: 'pipe', env: { ...process.env, ...storageEnv(dir) } });
      } catch (err) {
        code = (err as { status: number }).status;
      }
      expect(code, args.join(' ')).toBe(2);
    }
  });
});

describe('weekly export semantics', () => {
  it('counts by category and class with the change against the week before', async () => {
    const e = (await archive.weeklyExport(WEEK2));
    expect(e.previousWeek).toBe(WEEK1);
    const oom = e.byClass.find((r) => r.class === 'cuda.oom')!;
    expect(oom).toMatchObject({ count: 2, previous: 1, change: 1, changePct: 1 });
    const disk = e.byClass.find((r) => r.class === 'disk.full')!;
    expect(disk).toMatchObject({ count: 0, previous: 1, change: -1 });
    expect(e.byCategory.reduce((s, r) => s + r.count, 0)).toBe(e.totals.count);
    expect(e.totals.count).toBe(10);
  });

  it('keeps the infra failure rate apart from reward-0 outcomes', async () => {
    const e = (await archive.weeklyExport(WEEK2));
    // 6 infra of 10 recorded; the two Harbor reward-0/scored trials never enter the infra figure…
    expect(e.infraRate).toMatchObject({ infra: 6, total: 10, rate: 0.6 });
    // …and the rate-limited trial (Harbor recorded reward 0) is infra, not a reward-0 outcome.
    expect(e.outcomes).toMatchObject({ rewardZero: 1, scored: 1, rewardZeroRate: 0.5 });
    expect(e.harborTrials.byCategory.find((c) => c.category === 'infra')!.count).toBe(1);
    expect(e.harborTrials.byCategory.find((c) => c.category === 'outcome')!.count).toBe(2);
  });

  it('reports GPU-hours where the bundle knows GPUs and duration', async () => {
    const e = (await archive.weeklyExport(WEEK2));
    // oom-e 8 GPUs × 2 h + oom-f 4 × 0.5 h; nccl-g 8 × 4 h.
    expect(e.gpuHoursLost.byClass).toEqual([
      { class: 'nccl.timeout', gpuHours: 32 },
      { class: 'cuda.oom', gpuHours: 18 },
    ]);
    expect(e.gpuHoursLost).toMatchObject({ total: 50, failuresCounted: 3, failuresWithoutGpuData: 7 });
  });

  it('lists new and regressed groups, and top groups with evidence, runs and hint', async () => {
    const e = (await archive.weeklyExport(WEEK2));
    const nccl = (await archive.get(ids.get('nccl-g')!))!;
    expect(e.regressedGroups.map((g) => g.id)).toEqual([nccl.groupId]);
    expect(e.regressedGroups[0]!.regressedAt).toBe('2026-11-17T03:00:00.000Z');
    const newClasses = e.newGroups.map((g) => g.class).sort();
    expect(newClasses).toEqual(['api.timeout', 'config.error', 'gateway.4xx', 'user.code_error']);
    const oom = e.topGroups.find((g) => g.class === 'cuda.oom')!;
    expect(oom).toMatchObject({ count: 2, runs: 1, totalCount: 3, status: 'ongoing' });
    expect(oom.evidence[0]!.text).toContain('torch.OutOfMemoryError');
    expect(oom.hint).toMatch(/micro-batch/);
    expect(e.topGroups.some((g) => g.class === 'outcome.scored')).toBe(false);
    // W46 has no new-group entry for a group first seen in W47.
    const w1 = (await archive.weeklyExport(WEEK1));
    expect(w1.newGroups.map((g) => g.class).sort()).toEqual(['cuda.oom', 'disk.full', 'gateway.5xx', 'nccl.timeout', 'outcome.reward_zero']);
    expect(w1.regressedGroups).toEqual([]);
  });

  it('defuses spreadsheet formulas and keeps hostile text inert in csv and md', async () => {
    const e = (await archive.weeklyExport(WEEK2));
    const top = e.topGroups[0]!;
    const forged = { ...e, topGroups: [{ ...top, title: '=HYPERLINK("http://evil")', hint: '@SUM(A1)', evidence: [{ file: '-x', line: 1, text: '+1' }] }] };
    const csv = renderCsv(forged);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(csv).toContain(`'@SUM(A1)`);
    expect(csv).toContain(`'-x:1 +1`);
    expect(csv).not.toMatch(/(^|,)"?[=+@-][A-Za-z]/m);
    const md = renderExport(e, 'md');
    for (const l of md.split('\n').filter((x) => x.includes('<script>'))) expect(l, 'raw <script> only inside code spans').toMatch(/`[^`]*<script>[^`]*`/);
  });

  it('the chart series covers the last N ISO weeks in order', async () => {
    const s = (await archive.weeklyClassSeries(WEEK2, 3));
    expect(s.weeks).toEqual(['2026-W45', WEEK1, WEEK2]);
    expect(s.classes.find((c) => c.class === 'cuda.oom')!.counts).toEqual([0, 1, 2]);
  });
});

describe('ISO weeks (UTC)', () => {
  it('names and bounds weeks, across year ends', async () => {
    expect(isoWeekName(Date.parse('2026-11-16T00:00:00Z'))).toBe('2026-W47');
    expect(isoWeekName(Date.parse('2026-11-15T23:59:59.999Z'))).toBe('2026-W46');
    expect(isoWeekName(Date.parse('2021-01-03T12:00:00Z'))).toBe('2020-W53');
    expect(isoWeekName(Date.parse('2024-12-30T00:00:00Z'))).toBe('2025-W01');
    expect(parseIsoWeek('2026-W47')).toEqual({ start: Date.parse('2026-11-16T00:00:00Z'), end: Date.parse('2026-11-23T00:00:00Z') });
    expect(parseIsoWeek('2020-W53').start).toBe(Date.parse('2020-12-28T00:00:00Z'));
    expect(parseIsoWeek('2026-W53').start).toBe(Date.parse('2026-12-28T00:00:00Z'));
    expect(() => parseIsoWeek('2025-W53')).toThrow(ArchiveInputError);
    expect(() => parseIsoWeek('2026-W00')).toThrow(ArchiveInputError);
  });
});
