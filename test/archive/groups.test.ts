// Group assignment at ingest, status rules, reclassification and retention, on a real archive.
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveInputError } from '../../src/archive/errors.js';
import { getGroup, listGroups, setGroupStatus } from '../../src/archive/groups.js';
import { openArchive, SWEEP_GRACE_MS, type Archive } from '../../src/archive/index.js';
import { parseRetention, pruneBefore } from '../../src/archive/prune.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { CLI } from '../helpers/server.js';
import { blobKeysOf, countRows, ON_POSTGRES, rawRows, storageEnv, storageFor } from '../helpers/backends.js';

let dir: string;
let archive: Archive;
const open = () => openArchive({ ...storageFor(dir), dataDir: dir });
/**
 * The sweep `fdiag serve` runs at start. Alone on its folder store it removes every orphan at once;
 * on a shared bucket another replica may be mid-ingest, so an orphan goes once past the grace period.
 */
const startupSweep = (a: Archive) => (ON_POSTGRES ? a.sweep(SWEEP_GRACE_MS, Date.now() + 2 * SWEEP_GRACE_MS) : a.sweep());

beforeEach(async () => {
  dir = tempDir('fdiag-groups-');
  archive = await open();
});
afterEach(async () => {
  try {
    await archive.close();
  } catch {
    /* closed by the test */
  }
});

async function ingest(log: string, runId: string, at: string, extra: Record<string, string> = {}): Promise<string> {
  const b = await makeBundle({ runId, endedAt: new Date(at), log, labels: extra });
  const r = await archive.ingestBundleFile(b.path);
  expect(r.duplicate).toBe(false);
  return r.id;
}
const groupOf = async (id: string) => (await archive.get(id))!.groupId!;

/** Every failure is in a group; every group's stored counts equal what its failures say. */
async function expectConsistent(a: Archive = archive): Promise<void> {
  expect(await countRows(a, 'SELECT count(*) AS n FROM failures WHERE group_id IS NULL')).toBe(0);
  const bad = await rawRows(
    a,
    `SELECT g.id FROM failure_groups g LEFT JOIN failures f ON f.group_id = g.id GROUP BY g.id, g.count, g.runs_affected, g.first_seen, g.last_seen
     HAVING g.count <> count(f.id) OR g.runs_affected <> count(DISTINCT f.run_id) OR (count(f.id) > 0 AND (g.first_seen <> min(f.failed_at) OR g.last_seen <> max(f.failed_at)))`,
  );
  expect(bad).toEqual([]);
  expect(await countRows(a, 'SELECT count(*) AS n FROM failures f LEFT JOIN failure_groups g ON g.id = f.group_id WHERE g.id IS NULL')).toBe(0);
}

const blobCount = async () => (await blobKeysOf(dir)).length;

const NCCL = corpusLog('gpu-005.log');
const shifted = (by: number) => NCCL.replace(/\[Rank (\d+)\]/g, (_m, r) => `[Rank ${Number(r) + by}]`);

describe('group assignment at ingest', () => {
  it('puts the same failure from other ranks, runs and hosts in one group and counts runs', async () => {
    const a = await ingest(NCCL, 'run-a', '2026-11-10T10:00:00Z');
    const b = await ingest(shifted(8), 'run-b', '2026-11-10T11:00:00Z');
    const c = await ingest(shifted(16), 'run-a', '2026-11-11T11:00:00Z');
    const other = await ingest(corpusLog('cl-010.log'), 'run-a', '2026-11-11T12:00:00Z');
    expect((await groupOf(a))).toBe((await groupOf(b)));
    expect((await groupOf(a))).toBe((await groupOf(c)));
    expect((await groupOf(other))).not.toBe((await groupOf(a)));
    const g = (await archive.getGroup((await groupOf(a))))!;
    expect(g).toMatchObject({ class: 'nccl.timeout', category: 'infra', count: 3, runsAffected: 2, status: 'new', firstSeen: '2026-11-10T10:00:00.000Z', lastSeen: '2026-11-11T11:00:00.000Z', exampleFailureId: c });
    expect(g.title).toContain('Watchdog caught collective operation timeout');
    expect(g.title).not.toMatch(/Rank \d/);
    expect(g.weeks).toEqual([{ week: '2026-W46', count: 3 }]);
    expect(g.failures.map((f) => f.id)).toEqual([c, b, a]);
    expect((await archive.get(a))!.groupId).toBe(g.id);
    await expectConsistent();
  });

  it('a group becomes ongoing once seen in a second ISO week, in either order of arrival', async () => {
    const a = await ingest(NCCL, 'run-a', '2026-11-17T10:00:00Z');
    expect((await archive.getGroup((await groupOf(a))))!.status).toBe('new');
    await ingest(shifted(1), 'run-b', '2026-11-22T23:59:00Z'); // still W47
    expect((await archive.getGroup((await groupOf(a))))!.status).toBe('new');
    await ingest(shifted(2), 'run-c', '2026-11-12T10:00:00Z'); // arrives late, from W46
    const g = (await archive.getGroup((await groupOf(a))))!;
    expect(g.status).toBe('ongoing');
    expect(g.firstSeen).toBe('2026-11-12T10:00:00.000Z');
    await expectConsistent();
  });

  it('a resolved group regresses on a failure after the resolution, not on a late older one', async () => {
    const a = await ingest(NCCL, 'run-a', '2026-11-10T10:00:00Z');
    const gid = (await groupOf(a));
    (await archive.setGroupStatus(gid, 'resolved', Date.parse('2026-11-12T00:00:00Z')));
    await ingest(shifted(1), 'run-b', '2026-11-11T10:00:00Z'); // happened before the fix was declared
    expect((await archive.getGroup(gid))).toMatchObject({ status: 'resolved', count: 2, regressedAt: null });
    await ingest(shifted(2), 'run-c', '2026-11-13T10:00:00Z');
    expect((await archive.getGroup(gid))).toMatchObject({ status: 'regressed', count: 3, regressedAt: '2026-11-13T10:00:00.000Z' });
    // An admin can resolve it again; an ignored group stays ignored whatever comes.
    (await archive.setGroupStatus(gid, 'ignored'));
    await ingest(shifted(3), 'run-d', '2026-11-20T10:00:00Z');
    expect((await archive.getGroup(gid))).toMatchObject({ status: 'ignored', count: 4, resolvedAt: null });
    await expectConsistent();
  });

  it('lists groups by last seen with filters and a cursor', async () => {
    await ingest(NCCL, 'r1', '2026-11-10T10:00:00Z');
    await ingest(corpusLog('cl-010.log'), 'r2', '2026-11-11T10:00:00Z');
    await ingest(corpusLog('sv-013.log'), 'r3', '2026-11-12T10:00:00Z');
    const p1 = (await archive.listGroups({ limit: 2 }));
    expect(p1.items.map((g) => g.class)).toEqual(['config.error', 'disk.full']);
    const p2 = (await archive.listGroups({ limit: 2, cursor: p1.nextCursor! }));
    expect(p2.items.map((g) => g.class)).toEqual(['nccl.timeout']);
    expect(p2.nextCursor).toBeNull();
    expect((await archive.listGroups({ category: 'user' })).items.map((g) => g.class)).toEqual(['config.error']);
    expect((await archive.listGroups({ class: 'disk.full' })).items).toHaveLength(1);
    expect((await archive.listGroups({ since: '2026-11-11T12:00:00Z' })).items.map((g) => g.class)).toEqual(['config.error']);
    expect((await archive.listGroups({ status: 'resolved' })).items).toEqual([]);
    await expect(archive.listGroups({ cursor: 'nope' })).rejects.toThrow(/cursor/);
  });

  it('a crash inside the ingest transaction leaves neither the failure nor its group', async () => {
    const b = await makeBundle({ runId: 'crash', log: NCCL });
    const r = spawnSync(process.execPath, [CLI, 'ingest', b.path, '--data', dir], { env: { ...process.env, ...storageEnv(dir), FDIAG_TEST_CRASH_AT: 'in-transaction' }, encoding: 'utf8' });
    expect(r.signal).toBe('SIGKILL');
    await archive.close();
    archive = await open();
    expect(await countRows(archive, 'SELECT count(*) AS n FROM failures')).toBe(0);
    expect(await countRows(archive, 'SELECT count(*) AS n FROM failure_groups')).toBe(0);
    // The blob stored before the crash is an orphan; the sweep removes it.
    expect(await blobCount()).toBe(1);
    await startupSweep(archive);
    expect(await blobCount()).toBe(0);
  });
});

describe('reclassify reassigns groups', () => {
  it('moves a failure whose stored diagnosis came from older rules back to its group and drops the emptied group', async () => {
    const a = await ingest(NCCL, 'run-a', '2026-11-10T10:00:00Z');
    const b = await ingest(shifted(4), 'run-b', '2026-11-10T11:00:00Z');
    const right = (await groupOf(a));
    // What an older rule set would have left: b diagnosed as something else, in a group of its own.
    const tb = Date.parse('2026-11-10T11:00:00Z');
    await rawRows(archive, `INSERT INTO failure_groups (id, fingerprint, class, category, title, first_seen, last_seen, count, runs_affected, status, hint) VALUES ('00000000000000aa', 'stale', 'unknown', NULL, 'old', ?, ?, 1, 1, 'new', '')`, [tb, tb]);
    await rawRows(archive, `UPDATE failures SET class = 'unknown', category = NULL, ruleset_version = 'old', fingerprint = 'stale', group_id = '00000000000000aa' WHERE id = ?`, [b]);
    await rawRows(archive, `UPDATE failure_groups SET count = 1, runs_affected = 1, last_seen = first_seen WHERE id = ?`, [right]);
    await expectConsistent();
    const r = await archive.reclassify();
    expect(r).toEqual({ checked: 1, changed: 1 });
    expect((await archive.get(b))).toMatchObject({ class: 'nccl.timeout', groupId: right });
    expect((await archive.getGroup('00000000000000aa'))).toBeNull();
    expect((await archive.getGroup(right))).toMatchObject({ count: 2, runsAffected: 2 });
    await expectConsistent();
    // Nothing to do the second time; --all keeps every group as it is.
    expect(await archive.reclassify()).toEqual({ checked: 0, changed: 0 });
    await archive.reclassify({ all: true });
    expect((await archive.getGroup(right))).toMatchObject({ count: 2 });
    await expectConsistent();
  });
});

describe('retention', () => {
  it('parses periods', async () => {
    expect(parseRetention('90d')).toBe(90 * 86400e3);
    expect(parseRetention('12w')).toBe(84 * 86400e3);
    expect(parseRetention('36h')).toBe(36 * 3600e3);
    for (const bad of ['90', '0d', '-1d', '1y', 'd', '']) expect(() => parseRetention(bad), bad).toThrow(ArchiveInputError);
  });

  it('removes rows and blobs together and recounts groups; a resolved group survives empty', async () => {
    const old1 = await ingest(NCCL, 'run-a', '2026-08-01T10:00:00Z');
    await ingest(shifted(1), 'run-b', '2026-11-10T10:00:00Z');
    const oldDisk = await ingest(corpusLog('cl-010.log'), 'run-c', '2026-08-02T10:00:00Z');
    const oldCfg = await ingest(corpusLog('sv-013.log'), 'run-d', '2026-08-03T10:00:00Z');
    const ncclGroup = (await groupOf(old1));
    const diskGroup = (await groupOf(oldDisk));
    const cfgGroup = (await groupOf(oldCfg));
    (await archive.setGroupStatus(diskGroup, 'resolved', Date.parse('2026-08-05T00:00:00Z')));
    expect(await blobCount()).toBe(4);
    const r = await pruneBefore(archive, Date.parse('2026-09-01T00:00:00Z'));
    expect(r).toMatchObject({ failures: 3, blobsRemoved: 3, groupsTouched: 3 });
    expect(await blobCount()).toBe(1);
    expect((await archive.get(old1))).toBeNull();
    expect(await countRows(archive, 'SELECT count(*) AS n FROM failure_labels l LEFT JOIN failures f ON f.id = l.failure_id WHERE f.id IS NULL')).toBe(0);
    expect(await countRows(archive, 'SELECT count(*) AS n FROM failure_files l LEFT JOIN failures f ON f.id = l.failure_id WHERE f.id IS NULL')).toBe(0);
    expect((await archive.getGroup(ncclGroup))).toMatchObject({ count: 1, runsAffected: 1, firstSeen: '2026-11-10T10:00:00.000Z' });
    expect((await archive.getGroup(diskGroup))).toMatchObject({ count: 0, status: 'resolved' });
    expect((await archive.getGroup(cfgGroup))).toBeNull();
    await expectConsistent();
    // The same disk failure coming back is a regression, not a new group.
    await ingest(corpusLog('cl-010.log') + '\n', 'run-e', '2026-11-20T10:00:00Z');
    expect((await archive.getGroup(diskGroup))).toMatchObject({ count: 1, status: 'regressed' });
    expect(await pruneBefore(archive, Date.parse('2026-09-01T00:00:00Z'))).toMatchObject({ failures: 0, blobsRemoved: 0 });
  });

  it('a crash between the row delete and the blob unlink leaves orphan blobs that the start-up sweep removes', async () => {
    await ingest(NCCL, 'run-a', '2026-08-01T10:00:00Z');
    await ingest(corpusLog('cl-010.log'), 'run-b', '2026-08-02T10:00:00Z');
    const keep = await ingest(shifted(1), 'run-c', '2026-11-10T10:00:00Z');
    await archive.close();
    const r = spawnSync(process.execPath, [CLI, 'prune', '--older-than', '30d', '--data', dir], { env: { ...process.env, ...storageEnv(dir), FDIAG_TEST_CRASH_AT: 'prune-after-rows' }, encoding: 'utf8' });
    expect(r.signal).toBe('SIGKILL');
    expect(await blobCount()).toBe(3); // rows gone, blobs still there
    archive = await open();
    await startupSweep(archive);
    expect(await countRows(archive, 'SELECT count(*) AS n FROM failures')).toBe(1);
    const [kept] = await rawRows<{ p: string }>(archive, 'SELECT blob_path AS p FROM failures WHERE id = ?', [keep]);
    expect(await blobKeysOf(dir)).toEqual([kept!.p]);
    await expectConsistent();
  });

  it('fdiag prune prints what it removed and refuses a bad period', async () => {
    await ingest(NCCL, 'run-a', '2020-01-01T10:00:00Z');
    await archive.close();
    const ok = spawnSync(process.execPath, [CLI, 'prune', '--older-than', '90d', '--data', dir, '--format', 'json'], { encoding: 'utf8', env: { ...process.env, ...storageEnv(dir) } });
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ failures: 1, blobsRemoved: 1 });
    const bad = spawnSync(process.execPath, [CLI, 'prune', '--older-than', 'forever', '--data', dir], { encoding: 'utf8', env: { ...process.env, ...storageEnv(dir) } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/retention period/);
  });
});
