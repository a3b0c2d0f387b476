// The archive's behaviour, the same on both storage set-ups: the embedded default (SQLite + blob
// folder) and the shared one (PostgreSQL + an S3 bucket, here a real cluster and s3rver started for
// the run by global-setup.ts). The weekly export of the seeded two weeks must match the very goldens
// the SQLite export test checks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive, type Archive } from '../../src/archive/index.js';
import { pruneBefore } from '../../src/archive/prune.js';
import { makeBackend, type Backend } from '../helpers/backends.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { ROOT } from '../helpers/server.js';
import { normalizeIds, seedTwoWeeks, WEEK1, WEEK2 } from './seed.js';

const NCCL = corpusLog('gpu-005.log');

describe.each(['sqlite', 'postgres'] as const)('archive on %s', (name) => {
  let backend: Backend;
  const opened: Archive[] = [];
  const open = async (workers = 0, be = backend) => {
    const a = await openArchive({ dbFile: be.db, blobs: be.blobs, dataDir: tempDir('fdiag-scratch-'), ingestWorkers: workers });
    opened.push(a);
    return a;
  };
  beforeAll(async () => {
    backend = await makeBackend(name);
  });
  afterAll(async () => {
    for (const a of opened) await a.close();
  });

  it('ingests, deduplicates, filters, pages and serves files', async () => {
    const a = await open();
    const exc = JSON.stringify([{ type: 'RuntimeError', message: 'boom', source: { file: 'logs/stdout.log', line: 2 }, traceback: 'Traceback (most recent call last):\nRuntimeError: boom' }]);
    const b1 = await makeBundle({ runId: 'r1', labels: { team: 'rl', exp: 'e1' }, files: [{ path: 'logs/stdout.log', data: corpusLog('cl-010.log') }, { path: 'exceptions.json', data: exc }], endedAt: new Date('2026-11-10T10:00:00Z') });
    const b2 = await makeBundle({ runId: 'r2', labels: { team: 'rl', exp: 'e2' }, log: NCCL, endedAt: new Date('2026-11-10T11:00:00Z') });
    const b3 = await makeBundle({ runId: 'r3', labels: { team: 'infra' }, log: NCCL + '\n', endedAt: new Date('2026-11-10T12:00:00Z') });
    const r1 = await a.ingestBundleFile(b1.path);
    const r2 = await a.ingestBundleFile(b2.path);
    const r3 = await a.ingestBundleFile(b3.path);
    expect(await a.ingestBundleFile(b1.path)).toEqual({ ...r1, duplicate: true });
    expect(r2.class).toBe('nccl.timeout');

    expect((await a.query({})).items.map((f) => f.runId)).toEqual(['r3', 'r2', 'r1']);
    expect((await a.query({ class: 'nccl.timeout' })).items.map((f) => f.runId)).toEqual(['r3', 'r2']);
    expect((await a.query({ labels: { team: 'rl' } })).items.map((f) => f.runId)).toEqual(['r2', 'r1']);
    expect((await a.query({ labels: { team: 'rl', exp: 'e1' } })).items.map((f) => f.runId)).toEqual(['r1']);
    expect((await a.query({ since: '2026-11-10T10:30:00Z', until: '2026-11-10T11:30:00Z' })).items.map((f) => f.runId)).toEqual(['r2']);
    const p1 = await a.query({ limit: 2 });
    const p2 = await a.query({ limit: 2, cursor: p1.nextCursor! });
    expect([...p1.items, ...p2.items].map((f) => f.runId)).toEqual(['r3', 'r2', 'r1']);
    expect(p2.nextCursor).toBeNull();
    await expect(a.query({ cursor: 'bogus' })).rejects.toThrow(/cursor/);

    const d = (await a.get(r1.id))!;
    expect(d.files.map((f) => f.path)).toEqual(['exceptions.json', 'logs/stdout.log', 'manifest.json']);
    expect(d.labels).toEqual({ team: 'rl', exp: 'e1' });
    expect((await a.readFile(r1.id, 'exceptions.json'))!.data.toString()).toBe(exc);
    expect((await a.readFile(r1.id, 'logs/stdout.log'))!.data.toString()).toBe(corpusLog('cl-010.log'));
    expect(await a.readFile(r1.id, 'nope.txt')).toBeNull();
    expect((await a.openBundle(r2.id))!.bytes).toBe(readFileSync(b2.path).length);
    const counts = await a.classCounts();
    expect(counts.find((c) => c.class === 'nccl.timeout')?.count).toBe(2);

    // Two NCCL failures of the same shape, two runs: one group.
    const g = (await a.getGroup((await a.get(r2.id))!.groupId!))!;
    expect(g).toMatchObject({ count: 2, runsAffected: 2, status: 'new' });
    expect(g.failures.map((f) => f.runId)).toEqual(['r3', 'r2']);
    expect(g.weeks).toEqual([{ week: '2026-W46', count: 2 }]);
    expect((await a.metricCounts()).bundles).toBe(3);
    expect(r3.duplicate).toBe(false);
  });

  it('group status: resolved, then a later failure of the group regresses it; prune recounts', async () => {
    const a = await open(0, await makeBackend(name));
    const first = await a.ingestBundleFile((await makeBundle({ runId: 'g1', log: NCCL, endedAt: new Date('2026-08-01T10:00:00Z') })).path);
    const gid = (await a.get(first.id))!.groupId!;
    expect(await a.setGroupStatus(gid, 'resolved', Date.parse('2026-09-01T00:00:00Z'))).toMatchObject({ status: 'resolved' });
    await a.ingestBundleFile((await makeBundle({ runId: 'g2', log: NCCL + '\n\n', endedAt: new Date('2026-09-02T10:00:00Z') })).path);
    expect(await a.getGroup(gid)).toMatchObject({ status: 'regressed', count: 2, runsAffected: 2, regressedAt: '2026-09-02T10:00:00.000Z' });
    expect((await a.listGroups({ status: 'regressed' })).items.map((x) => x.id)).toContain(gid);
    expect(await a.setGroupStatus('ffffffffffffffff', 'ignored')).toBeNull();

    const pruned = await pruneBefore(a, Date.parse('2026-08-15T00:00:00Z'));
    expect(pruned).toMatchObject({ failures: 1, blobsRemoved: 1 });
    expect(await a.get(first.id)).toBeNull();
    expect(await a.openBundle(first.id)).toBeNull();
    expect(await a.getGroup(gid)).toMatchObject({ count: 1, runsAffected: 1, firstSeen: '2026-09-02T10:00:00.000Z' });
    expect(await a.reclassify()).toEqual({ checked: 0, changed: 0 });
    expect(await a.reclassify({ all: true })).toMatchObject({ checked: 1, changed: 0 });
  });

  it('the same bundle ingested by two archives at once is one failure', async () => {
    const a = await open(1);
    const b = await open(1);
    const bundle = await makeBundle({ runId: 'race', log: NCCL, endedAt: new Date('2026-11-20T10:00:00Z') });
    const rs = await Promise.all([a.ingestBundleFile(bundle.path), b.ingestBundleFile(bundle.path), a.ingestBundleFile(bundle.path), b.ingestBundleFile(bundle.path)]);
    expect(new Set(rs.map((r) => r.id)).size).toBe(1);
    expect(rs.filter((r) => !r.duplicate)).toHaveLength(1);
    expect((await a.query({ runId: 'race' })).items).toHaveLength(1);
    const g = (await b.getGroup((await b.get(rs[0]!.id))!.groupId!))!;
    expect(g.failures.filter((f) => f.runId === 'race')).toHaveLength(1);
  });

  it('concurrent ingests into one group from two archives keep its counts exact', async () => {
    // Several nodes of one run fail alike and send at once: the group's count, runs and example
    // must come out as if they had arrived one by one (the run check runs after the group's lock).
    const be = await makeBackend(name);
    const [a, b] = [await open(1, be), await open(1, be)];
    const shifted = (by: number) => NCCL.replace(/\[Rank (\d+)\]/g, (_m, r) => `[Rank ${Number(r) + by}]`);
    const bundles = await Promise.all(
      Array.from({ length: 12 }, (_, i) => makeBundle({ runId: `node-run-${i % 3}`, log: shifted(i * 8), endedAt: new Date(Date.parse('2026-11-18T10:00:00Z') + i * 60e3) })),
    );
    const rs = await Promise.all(bundles.map((x, i) => (i % 2 ? a : b).ingestBundleFile(x.path)));
    expect(rs.filter((r) => r.duplicate)).toEqual([]);
    const gids = new Set(await Promise.all(rs.map(async (r) => (await a.get(r.id))!.groupId)));
    expect(gids.size).toBe(1);
    const g = (await b.getGroup([...gids][0]!))!;
    expect(g).toMatchObject({ count: 12, runsAffected: 3, status: 'new', firstSeen: '2026-11-18T10:00:00.000Z', lastSeen: '2026-11-18T10:11:00.000Z', exampleFailureId: rs[11]!.id });
  });

  it('stores a bundle whose manifest strings hold a lone surrogate, found by its label', async () => {
    // JSON.parse turns "\ud800" into a lone surrogate; neither index may refuse the bundle for it.
    const a = await open();
    const r = await a.ingestBundleFile((await makeBundle({ runId: 'surrogate', labels: { note: 'half \ud800 pair' }, log: NCCL })).path);
    expect(r.duplicate).toBe(false);
    expect((await a.get(r.id))!.runId).toBe('surrogate');
    expect((await a.query({ labels: { note: 'half \ud800 pair' } })).items.map((f) => f.id)).toEqual([r.id]);
  });

  it('keeps web sessions, by digest, for every archive on the index until they expire or are deleted', async () => {
    const be = await makeBackend(name);
    const [a, b] = [await open(0, be), await open(0, be)];
    const [h1, h2, d] = ['1', '2', 'd'].map((c) => c.repeat(64));
    await a.putSession({ idHash: h1!, tokenDigest: d!, createdAt: 1_000, expiresAt: 5_000 });
    expect(await b.sessionToken(h1!, 4_999)).toBe(d);
    expect(await b.sessionToken(h1!, 5_000)).toBeNull();
    // A later login removes the expired session, whatever clock asks afterwards.
    await b.putSession({ idHash: h2!, tokenDigest: d!, createdAt: 6_000, expiresAt: 9_000 });
    expect(await a.sessionToken(h1!, 0)).toBeNull();
    expect(await a.sessionToken(h2!, 6_000)).toBe(d);
    await a.deleteSession(h2!);
    expect(await b.sessionToken(h2!, 6_000)).toBeNull();
    await a.deleteSession(h2!); // absent is fine
  });

  it('the weekly export of the seeded weeks matches the goldens', async () => {
    const a = await open(0, await makeBackend(name));
    const ids = await seedTwoWeeks(a);
    for (const week of [WEEK1, WEEK2]) {
      for (const format of ['md', 'json'] as const) {
        const { renderExport } = await import('../../src/archive/export.js');
        const got = normalizeIds(renderExport(await a.weeklyExport(week), format), ids);
        expect(got, `${week}.${format}`).toBe(readFileSync(join(ROOT, 'fixtures', 'export', `weekly-${week}.${format}`), 'utf8'));
      }
    }
    const series = await a.weeklyClassSeries(WEEK2, 2);
    expect(series.weeks).toEqual([WEEK1, WEEK2]);
  });
});
