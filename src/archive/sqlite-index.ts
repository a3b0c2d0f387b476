// The embedded FailureIndex: one SQLite file (WAL) through drizzle's better-sqlite3 driver. Calls
// are synchronous underneath; the async interface is what PostgreSQL needs and costs nothing here.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { and, desc, eq, gte, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Fingerprint } from '../classifiers/fingerprint.js';
import type { Diagnosis } from '../classifiers/index.js';
import { openDb, type Db } from '../db/client.js';
import { sqliteDialect, type SqlReader } from '../db/dialect.js';
import { failureFiles, failureLabels, failures, uiSessions, type FailureRow } from '../db/schema.js';
import { buildWeeklyExport, weeklyClassSeries } from './export.js';
import { decodeCursor, diagnosisColumns, encodeCursor, pageLimit, testCrashPoint, toDetail, toSummary, type ClassCount, type FailureDetail, type FailureIndex, type FailureQuery, type FailureSummary, type MetricCounts, type NewFailure, type PrunedRow, type UiSessionRow, MAX_UI_SESSIONS } from './failure-index.js';
import { assignGroup, getGroup, groupStatusCounts, listGroups, reassignGroup, refreshGroups, setGroupStatus, type GroupQuery, type SettableStatus } from './groups.js';
import { parseTimeBound } from './time.js';
import { pidAlive } from './pid.js';

export class SqliteFailureIndex implements FailureIndex {
  readonly embedded = true;
  private readonly db: Db;
  private readonly reader: SqlReader;

  constructor(private readonly file: string) {
    this.db = openDb(file);
    const client = this.db.$client;
    this.reader = { dialect: sqliteDialect, all: async <T>(q: string, params: readonly unknown[] = []) => client.prepare(q).all(...params) as T[] };
  }

  /** The underlying connection, for tests that check stored rows directly. */
  get connection() {
    return this.db.$client;
  }

  /** The drizzle handle, for benches that seed rows in bulk. */
  get drizzle(): Db {
    return this.db;
  }

  async ping(): Promise<void> {
    this.db.$client.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db.$client.close();
  }

  async brief(id: string) {
    return this.db.select({ id: failures.id, class: failures.class, category: failures.category }).from(failures).where(eq(failures.id, id)).get() ?? null;
  }

  async insertFailure(f: NewFailure): Promise<boolean> {
    const { row } = f;
    return this.db.transaction((tx) => {
      // A concurrent ingest of the same bytes may have won the race; the blob is identical.
      const again = tx.select({ id: failures.id }).from(failures).where(eq(failures.id, row.id)).get();
      if (again) return false;
      tx.insert(failures).values(row).run();
      const labelRows = Object.entries(f.labels).map(([key, value]) => ({ failureId: row.id, key, value, failedAt: row.failedAt }));
      if (labelRows.length) tx.insert(failureLabels).values(labelRows).run();
      const fileRows = f.files.map((x) => ({ failureId: row.id, path: x.path, bytes: x.bytes, sha256: x.sha256, content: x.content }));
      for (let i = 0; i < fileRows.length; i += 200) tx.insert(failureFiles).values(fileRows.slice(i, i + 200)).run();
      // triage: the failure joins its group (src/archive/groups.ts) in this same transaction.
      assignGroup(tx, { failureId: row.id, runId: row.runId, failedAt: row.failedAt, diagnosis: f.group.diagnosis, fp: f.group.fp });
      testCrashPoint('in-transaction');
      return true;
    });
  }

  async query(q: FailureQuery): Promise<{ items: FailureSummary[]; nextCursor: string | null }> {
    const limit = pageLimit(q.limit);
    const labels = Object.entries(q.labels ?? {});
    // With a label filter, the first label's (key, value, failed_at) index drives the walk in
    // time order; other filters are checked on the joined row.
    const driver = labels[0];
    const t = driver ? sql`l0.failed_at` : sql`${failures.failedAt}`;
    const idCol = driver ? sql`l0.failure_id` : sql`${failures.id}`;
    const where: SQL[] = [];
    if (q.class) where.push(eq(failures.class, q.class));
    // `unknown` names the category of a diagnosis that has none (stored as NULL), as /v1/classes and /metrics do.
    if (q.category) where.push(q.category === 'unknown' ? isNull(failures.category) : eq(failures.category, q.category));
    if (q.runId) where.push(eq(failures.runId, q.runId));
    if (q.since) where.push(sql`${t} >= ${parseTimeBound(q.since)}`);
    if (q.until) where.push(sql`${t} <= ${parseTimeBound(q.until)}`);
    if (driver) where.push(sql`l0.key = ${driver[0]} AND l0.value = ${driver[1]}`);
    for (const [k, v] of labels.slice(1)) {
      where.push(sql`EXISTS (SELECT 1 FROM failure_labels l WHERE l.failure_id = ${failures.id} AND l.key = ${k} AND l.value = ${v})`);
    }
    if (q.cursor) {
      const c = decodeCursor(q.cursor);
      where.push(sql`(${t} < ${c.t} OR (${t} = ${c.t} AND ${idCol} < ${c.id}))`);
    }
    const base = this.db.select().from(failures);
    const joined = driver ? base.innerJoin(sql`failure_labels l0`, sql`l0.failure_id = ${failures.id}`) : base;
    const rows = (joined as typeof base)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(t), desc(idCol))
      .limit(limit + 1)
      .all()
      .map((r) => ((r as { failures?: FailureRow }).failures ?? r) as FailureRow);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toSummary),
      nextCursor: rows.length > limit && last ? encodeCursor(last.failedAt, last.id) : null,
    };
  }

  async get(id: string): Promise<FailureDetail | null> {
    const row = this.db.select().from(failures).where(eq(failures.id, id)).get();
    if (!row) return null;
    const files = this.db.select({ path: failureFiles.path, bytes: failureFiles.bytes, sha256: failureFiles.sha256 }).from(failureFiles).where(eq(failureFiles.failureId, id)).orderBy(failureFiles.path).all();
    return { ...toDetail(row), files };
  }

  async idsWithPrefix(prefix: string, limit: number): Promise<string[]> {
    // Every hex id that starts with `prefix` sorts between it and prefix + 'g'.
    return this.db.select({ id: failures.id }).from(failures).where(and(gte(failures.id, prefix), lt(failures.id, prefix + 'g'))).orderBy(failures.id).limit(limit).all().map((r) => r.id);
  }

  async bundleOf(id: string) {
    return this.db.select({ blobPath: failures.blobPath, blobBytes: failures.blobBytes, runId: failures.runId }).from(failures).where(eq(failures.id, id)).get() ?? null;
  }

  async fileOf(id: string, path: string) {
    const r = this.db
      .select({ blobPath: failures.blobPath, bytes: failureFiles.bytes, content: failureFiles.content })
      .from(failureFiles)
      .innerJoin(failures, eq(failures.id, failureFiles.failureId))
      .where(and(eq(failureFiles.failureId, id), eq(failureFiles.path, path)))
      .get();
    return r ?? null;
  }

  async classCounts(since?: string, until?: string): Promise<ClassCount[]> {
    const where: SQL[] = [];
    if (since) where.push(gte(failures.failedAt, parseTimeBound(since)));
    if (until) where.push(lte(failures.failedAt, parseTimeBound(until)));
    return this.db
      .select({ class: failures.class, category: failures.category, count: sql<number>`count(*)` })
      .from(failures)
      .where(where.length ? and(...where) : undefined)
      .groupBy(failures.class, failures.category)
      .orderBy(desc(sql`count(*)`), failures.class)
      .all();
  }

  async toReclassify(current: string, all: boolean) {
    return this.db
      .select({ id: failures.id, blobPath: failures.blobPath, class: failures.class, harborReward: failures.harborReward })
      .from(failures)
      .where(all ? undefined : sql`${failures.rulesetVersion} <> ${current}`)
      .all();
  }

  async updateDiagnosis(id: string, d: Diagnosis, harborReward: number | null, fp: Fingerprint): Promise<void> {
    this.db.transaction((tx) => {
      tx.update(failures).set(diagnosisColumns(d, harborReward)).where(eq(failures.id, id)).run();
      // triage: a new diagnosis may move the failure to another group (src/archive/groups.ts).
      reassignGroup(tx, { failureId: id, diagnosis: d, fp });
    });
  }

  async listGroups(q: GroupQuery) {
    return listGroups(this.db, q);
  }

  async getGroup(id: string) {
    return getGroup(this.db, id);
  }

  async setGroupStatus(id: string, status: SettableStatus, now?: number) {
    return setGroupStatus(this.db, id, status, now);
  }

  async weeklyExport(week: string) {
    return buildWeeklyExport(this.reader, week);
  }

  async weeklyClassSeries(lastWeek: string, weeks: number) {
    return weeklyClassSeries(this.reader, lastWeek, weeks);
  }

  async metricCounts(): Promise<MetricCounts> {
    const c = this.db.$client;
    const rows = c.prepare(`SELECT class, coalesce(category, 'unknown') AS category, kind, count(*) AS n FROM failures GROUP BY class, category, kind ORDER BY class, category, kind`).all() as MetricCounts['failures'];
    const b = c.prepare('SELECT count(*) AS n, coalesce(sum(blob_bytes), 0) AS bytes FROM failures').get() as { n: number; bytes: number };
    return { failures: rows, bundles: b.n, bundleBytes: b.bytes, groups: groupStatusCounts(this.db) };
  }

  async deleteBefore(cutoffMs: number): Promise<{ rows: PrunedRow[]; groupsTouched: number }> {
    return this.db.transaction((tx) => {
      const rows = tx.select({ id: failures.id, blobPath: failures.blobPath, blobBytes: failures.blobBytes, groupId: failures.groupId }).from(failures).where(lt(failures.failedAt, cutoffMs)).all();
      if (!rows.length) return { rows: [], groupsTouched: 0 };
      tx.delete(failures).where(lt(failures.failedAt, cutoffMs)).run();
      const groups = new Set(rows.map((r) => r.groupId).filter((g): g is string => g !== null));
      refreshGroups(tx, groups);
      return { rows: rows.map(({ id, blobPath, blobBytes }) => ({ id, blobPath, blobBytes })), groupsTouched: groups.size };
    });
  }

  async isBlobReferenced(blobPath: string): Promise<boolean> {
    return this.db.$client.prepare('SELECT 1 FROM failures WHERE blob_path = ? LIMIT 1').get(blobPath) !== undefined;
  }

  async putSession(s: UiSessionRow): Promise<void> {
    this.db.transaction((tx) => {
      tx.delete(uiSessions).where(lt(uiSessions.expiresAt, s.createdAt)).run();
      tx.insert(uiSessions).values(s).run();
      const edge = tx.select({ t: uiSessions.createdAt }).from(uiSessions).orderBy(desc(uiSessions.createdAt)).limit(1).offset(MAX_UI_SESSIONS - 1).get();
      if (edge) tx.delete(uiSessions).where(lt(uiSessions.createdAt, edge.t)).run();
    });
  }

  async sessionToken(idHash: string, now: number): Promise<string | null> {
    const r = this.db.select({ tokenDigest: uiSessions.tokenDigest, expiresAt: uiSessions.expiresAt }).from(uiSessions).where(eq(uiSessions.idHash, idHash)).get();
    return r && r.expiresAt > now ? r.tokenDigest : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    this.db.delete(uiSessions).where(eq(uiSessions.idHash, idHash)).run();
  }

  /** A lock file beside the database; a holder that died (its pid is gone) does not block forever. */
  async tryWithLock<T>(name: string, fn: () => Promise<T>): Promise<T | null> {
    if (this.file === ':memory:') return fn();
    const lockFile = `${this.file}.${name}.lock`;
    if (!takeLockFile(lockFile)) return null;
    try {
      return await fn();
    } finally {
      try {
        unlinkSync(lockFile);
      } catch {
        /* already gone */
      }
    }
  }
}

function takeLockFile(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSafe(path));
      if (Number.isSafeInteger(pid) && pid > 0 && pidAlive(pid)) return false;
      // The holder is gone (killed mid-sweep): take over its lock.
      try {
        unlinkSync(path);
      } catch {
        /* someone else took over first */
      }
    }
  }
  return false;
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
