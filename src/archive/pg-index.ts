// The FailureIndex on PostgreSQL (FDIAG_DB=postgres://…), shared by any number of `fdiag serve`
// replicas. What one writer could do by read-then-write is made safe for many: a failure is
// inserted with ON CONFLICT DO NOTHING (the same bundle sent to two replicas at once is one
// failure), a group row is created with ON CONFLICT and then locked (SELECT … FOR UPDATE) before
// its counters and status change, and the sweep and retention run under advisory locks (one leader).
// An ingest's write is one round trip: a function call (drizzle-pg/0002_ingest_functions.sql)
// doing those steps in the server; a round trip cost ~1 ms of this process's CPU on a busy host.
import { and, desc, eq, getTableColumns, gte, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Fingerprint } from '../classifiers/fingerprint.js';
import type { Diagnosis } from '../classifiers/index.js';
import { postgresDialect, numberedPlaceholders, type SqlReader } from '../db/dialect.js';
import { openPg, type PgDb } from '../db/pg-client.js';
import { failureFiles, failureGroups, failures, uiSessions } from '../db/pg-schema.js';
import type { FailureRow } from '../db/schema.js';
import { buildWeeklyExport, weeklyClassSeries } from './export.js';
import { decodeCursor, diagnosisColumns, encodeCursor, pageLimit, testCrashPoint, toDetail, toSummary, type ClassCount, type FailureDetail, type FailureIndex, type FailureQuery, type FailureSummary, type MetricCounts, type NewFailure, type PrunedRow, type UiSessionRow, MAX_UI_SESSIONS } from './failure-index.js';
import {
  GROUP_STATUSES,
  GroupInputError,
  GROUP_WEEKS_SQL,
  groupDetail,
  groupIdOf,
  groupTitle,
  toGroupSummary,
  type AssignInput,
  type GroupDetail,
  type GroupQuery,
  type GroupWeekRow,
  type GroupStatus,
  type GroupSummary,
  type SettableStatus,
} from './groups.js';
import { parseTimeBound } from './time.js';

type Tx = Parameters<Parameters<PgDb['transaction']>[0]>[0] | PgDb;

const ID_OF_KEY = /^blobs\/[0-9a-f]{2}\/([0-9a-f]{64})\.tar\.gz$/;

export class PgFailureIndex implements FailureIndex {
  readonly embedded = false;
  private readonly reader: SqlReader;

  private constructor(private readonly db: PgDb) {
    const pool = db.$client;
    this.reader = { dialect: postgresDialect, all: async <T>(q: string, params: readonly unknown[] = []) => (await pool.query(numberedPlaceholders(q), params as unknown[])).rows as T[] };
  }

  /** The connection pool, for tests that check stored rows directly. */
  get pool() {
    return this.db.$client;
  }

  static async open(url: string): Promise<PgFailureIndex> {
    return new PgFailureIndex(await openPg(url));
  }

  async ping(): Promise<void> {
    await this.db.$client.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.db.$client.end();
  }

  async brief(id: string) {
    const [r] = await this.db.select({ id: failures.id, class: failures.class, category: failures.category }).from(failures).where(eq(failures.id, id));
    return r ?? null;
  }

  async insertFailure(f: NewFailure): Promise<boolean> {
    // One round trip: the whole index write is one function call (drizzle-pg/0002_ingest_functions.sql),
    // atomic as a single statement, with the row and advisory semantics described there.
    const params = ingestParams(f);
    if (process.env.FDIAG_TEST_CRASH_AT !== 'in-transaction') return (await this.db.$client.query(INGEST_STATEMENT, params)).rows[0]!.inserted === true;
    // The crash test's path: the same statement in a transaction the process dies in before its commit.
    const client = await this.db.$client.connect();
    await client.query('BEGIN');
    await client.query(INGEST_STATEMENT, params);
    testCrashPoint('in-transaction');
    throw new Error('unreachable: the crash point kills the process');
  }

  async query(q: FailureQuery): Promise<{ items: FailureSummary[]; nextCursor: string | null }> {
    const limit = pageLimit(q.limit);
    const labels = Object.entries(q.labels ?? {});
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
    const rows = (
      await (joined as typeof base)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(t), desc(idCol))
        .limit(limit + 1)
    ).map((r) => ((r as { failures?: FailureRow }).failures ?? r) as FailureRow);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(toSummary), nextCursor: rows.length > limit && last ? encodeCursor(last.failedAt, last.id) : null };
  }

  async get(id: string): Promise<FailureDetail | null> {
    const [row] = await this.db.select().from(failures).where(eq(failures.id, id));
    if (!row) return null;
    const files = await this.db.select({ path: failureFiles.path, bytes: failureFiles.bytes, sha256: failureFiles.sha256 }).from(failureFiles).where(eq(failureFiles.failureId, id)).orderBy(failureFiles.path);
    return { ...toDetail(row), files };
  }

  async idsWithPrefix(prefix: string, limit: number): Promise<string[]> {
    // Every hex id that starts with `prefix` sorts between it and prefix + 'g' (C collation or not: hex only).
    const rows = await this.db.select({ id: failures.id }).from(failures).where(and(gte(failures.id, prefix), lt(failures.id, prefix + 'g'))).orderBy(failures.id).limit(limit);
    return rows.map((r) => r.id);
  }

  async bundleOf(id: string) {
    const [r] = await this.db.select({ blobPath: failures.blobPath, blobBytes: failures.blobBytes, runId: failures.runId }).from(failures).where(eq(failures.id, id));
    return r ?? null;
  }

  async fileOf(id: string, path: string) {
    const [r] = await this.db
      .select({ blobPath: failures.blobPath, bytes: failureFiles.bytes, content: failureFiles.content })
      .from(failureFiles)
      .innerJoin(failures, eq(failures.id, failureFiles.failureId))
      .where(and(eq(failureFiles.failureId, id), eq(failureFiles.path, path)));
    return r ?? null;
  }

  async classCounts(since?: string, until?: string): Promise<ClassCount[]> {
    const where: SQL[] = [];
    if (since) where.push(gte(failures.failedAt, parseTimeBound(since)));
    if (until) where.push(lte(failures.failedAt, parseTimeBound(until)));
    return this.db
      .select({ class: failures.class, category: failures.category, count: sql<number>`count(*)::int` })
      .from(failures)
      .where(where.length ? and(...where) : undefined)
      .groupBy(failures.class, failures.category)
      .orderBy(desc(sql`count(*)`), failures.class);
  }

  async toReclassify(current: string, all: boolean) {
    return this.db
      .select({ id: failures.id, blobPath: failures.blobPath, class: failures.class, harborReward: failures.harborReward })
      .from(failures)
      .where(all ? undefined : sql`${failures.rulesetVersion} <> ${current}`);
  }

  async updateDiagnosis(id: string, d: Diagnosis, harborReward: number | null, fp: Fingerprint): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.update(failures).set(diagnosisColumns(d, harborReward)).where(eq(failures.id, id));
      await reassignGroup(tx, { failureId: id, diagnosis: d, fp });
    });
  }

  async listGroups(q: GroupQuery): Promise<{ items: GroupSummary[]; nextCursor: string | null }> {
    const limit = pageLimit(q.limit);
    const where: SQL[] = [];
    if (q.status) where.push(eq(failureGroups.status, q.status));
    if (q.class) where.push(eq(failureGroups.class, q.class));
    if (q.category) where.push(eq(failureGroups.category, q.category));
    if (q.since) where.push(gte(failureGroups.lastSeen, parseTimeBound(q.since)));
    if (q.cursor) {
      const m = /^(\d+):([0-9a-f]{16})$/.exec(Buffer.from(q.cursor, 'base64url').toString());
      if (!m) throw new GroupInputError('invalid cursor');
      const t = Number(m[1]);
      where.push(or(lt(failureGroups.lastSeen, t), and(eq(failureGroups.lastSeen, t), lt(failureGroups.id, m[2]!)))!);
    }
    const rows = await this.db
      .select()
      .from(failureGroups)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(failureGroups.lastSeen), desc(failureGroups.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(toGroupSummary), nextCursor: rows.length > limit && last ? Buffer.from(`${last.lastSeen}:${last.id}`).toString('base64url') : null };
  }

  async getGroup(id: string): Promise<GroupDetail | null> {
    const [g] = await this.db.select().from(failureGroups).where(eq(failureGroups.id, id));
    if (!g) return null;
    const recent = await this.db
      .select({ id: failures.id, runId: failures.runId, host: failures.host, failedAt: failures.failedAt, kind: failures.kind })
      .from(failures)
      .where(eq(failures.groupId, id))
      .orderBy(desc(failures.failedAt), desc(failures.id))
      .limit(50);
    const weekRows = await this.reader.all<GroupWeekRow>(GROUP_WEEKS_SQL, [id]);
    const [ex] = g.exampleFailureId ? await this.db.select({ evidence: failures.evidence }).from(failures).where(eq(failures.id, g.exampleFailureId)) : [];
    return groupDetail(g, recent, weekRows, ex?.evidence);
  }

  async setGroupStatus(id: string, status: SettableStatus, now = Date.now()): Promise<GroupSummary | null> {
    // One statement: the row lock it takes orders it against an ingest counting into the group.
    const [g] = await this.db.update(failureGroups).set({ status, resolvedAt: status === 'resolved' ? now : null }).where(eq(failureGroups.id, id)).returning();
    return g ? toGroupSummary(g) : null;
  }

  async weeklyExport(week: string) {
    return buildWeeklyExport(this.reader, week);
  }

  async weeklyClassSeries(lastWeek: string, weeks: number) {
    return weeklyClassSeries(this.reader, lastWeek, weeks);
  }

  async metricCounts(): Promise<MetricCounts> {
    const rows = await this.reader.all<MetricCounts['failures'][number]>(
      `SELECT class, coalesce(category, 'unknown') AS category, kind, count(*) AS n FROM failures GROUP BY class, coalesce(category, 'unknown'), kind ORDER BY class, category, kind`,
    );
    const [b] = await this.reader.all<{ n: number; bytes: number }>('SELECT count(*) AS n, coalesce(sum(blob_bytes), 0) AS bytes FROM failures');
    const groups = Object.fromEntries(GROUP_STATUSES.map((s) => [s, 0])) as Record<GroupStatus, number>;
    for (const r of await this.reader.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM failure_groups GROUP BY status')) {
      if (r.status in groups) groups[r.status as GroupStatus] = r.n;
    }
    return { failures: rows, bundles: b!.n, bundleBytes: b!.bytes, groups };
  }

  async deleteBefore(cutoffMs: number): Promise<{ rows: PrunedRow[]; groupsTouched: number }> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.delete(failures).where(lt(failures.failedAt, cutoffMs)).returning({ id: failures.id, blobPath: failures.blobPath, blobBytes: failures.blobBytes, groupId: failures.groupId });
      if (!rows.length) return { rows: [], groupsTouched: 0 };
      const groups = new Set(rows.map((r) => r.groupId).filter((g): g is string => g !== null));
      await refreshGroups(tx, groups);
      return { rows: rows.map(({ id, blobPath, blobBytes }) => ({ id, blobPath, blobBytes })), groupsTouched: groups.size };
    });
  }

  async isBlobReferenced(blobPath: string): Promise<boolean> {
    // The key names its failure (content addressing): a primary-key lookup, not a scan.
    const m = ID_OF_KEY.exec(blobPath);
    const where = m ? and(eq(failures.id, m[1]!), eq(failures.blobPath, blobPath)) : eq(failures.blobPath, blobPath);
    return (await this.db.select({ one: sql`1` }).from(failures).where(where).limit(1)).length > 0;
  }

  async putSession(s: UiSessionRow): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(uiSessions).where(lt(uiSessions.expiresAt, s.createdAt));
      await tx.insert(uiSessions).values(s);
      const [edge] = await tx.select({ t: uiSessions.createdAt }).from(uiSessions).orderBy(desc(uiSessions.createdAt)).limit(1).offset(MAX_UI_SESSIONS - 1);
      if (edge) await tx.delete(uiSessions).where(lt(uiSessions.createdAt, edge.t));
    });
  }

  async sessionToken(idHash: string, now: number): Promise<string | null> {
    const [r] = await this.db.select({ tokenDigest: uiSessions.tokenDigest, expiresAt: uiSessions.expiresAt }).from(uiSessions).where(eq(uiSessions.idHash, idHash));
    return r && r.expiresAt > now ? r.tokenDigest : null;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.delete(uiSessions).where(eq(uiSessions.idHash, idHash));
  }

  /** A session-level advisory lock on one pooled connection, held while `fn` runs. */
  async tryWithLock<T>(name: string, fn: () => Promise<T>): Promise<T | null> {
    const client = await this.db.$client.connect();
    try {
      const got = (await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`fdiag:${name}`])).rows[0]?.ok === true;
      if (!got) return null;
      try {
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`fdiag:${name}`]);
      }
    } finally {
      client.release();
    }
  }
}

// ---- groups (the rules of groups.ts, for many writers) --------------------------------------------

/** The one copy of the ingest-time group rules on PostgreSQL: fdiag_assign_group_v1 (drizzle-pg/0002). */
async function assignGroup(tx: Tx, input: AssignInput): Promise<void> {
  await tx.execute(sql`SELECT fdiag_assign_group_v1(${input.failureId}, ${input.runId}, ${input.failedAt}, ${JSON.stringify(groupParam(input.diagnosis, input.fp))}::jsonb)`);
}

/** What fdiag_assign_group_v1 files a failure under (groups.ts computes the id and the title). */
function groupParam(diagnosis: AssignInput['diagnosis'], fp: Fingerprint) {
  return { id: groupIdOf(fp.fingerprint), fingerprint: fp.fingerprint, class: diagnosis.class, category: diagnosis.category, title: groupTitle(fp), hint: diagnosis.hint };
}

const INGEST_STATEMENT = { name: 'fdiag_ingest_failure_v1', text: 'SELECT fdiag_ingest_failure_v1($1::jsonb, $2::jsonb, $3::jsonb, $4::jsonb) AS inserted' };
const FAILURE_COLUMNS = Object.entries(getTableColumns(failures)).map(([key, col]) => [key, col.name] as const);

/** The failure row under its column names, its labels, its files and its group, as the function's jsonb arguments. */
function ingestParams(f: NewFailure): string[] {
  const row: Record<string, unknown> = {};
  for (const [key, name] of FAILURE_COLUMNS) {
    const v = (f.row as Record<string, unknown>)[key];
    if (v !== undefined) row[name] = v;
  }
  const files = f.files.map((x) => ({ path: x.path, bytes: x.bytes, sha256: x.sha256, content: x.content }));
  return [jsonParam(row), jsonParam(f.labels), jsonParam(files), jsonParam(groupParam(f.group.diagnosis, f.group.fp))];
}

/**
 * JSON for a jsonb parameter. A manifest may carry a lone surrogate (`"\ud800"` parses to one),
 * which jsonb refuses; as a text parameter it became U+FFFD on its way to UTF-8, and it does here.
 */
function jsonParam(v: unknown): string {
  // String.prototype.toWellFormed: Node 20 has it; the ES2022 lib this project compiles against does not name it.
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' ? (x as string & { toWellFormed(): string }).toWellFormed() : x));
}

async function refreshGroups(tx: Tx, ids: Iterable<string>): Promise<void> {
  for (const id of [...new Set(ids)].sort()) {
    const [g] = await tx.select().from(failureGroups).where(eq(failureGroups.id, id)).for('update');
    if (!g) continue;
    const [agg] = await tx
      .select({ count: sql<number>`count(*)::int`, runs: sql<number>`count(DISTINCT ${failures.runId})::int`, first: sql<number | null>`min(${failures.failedAt})`, last: sql<number | null>`max(${failures.failedAt})` })
      .from(failures)
      .where(eq(failures.groupId, id));
    if (!agg!.count) {
      if (g.status === 'resolved' || g.status === 'ignored') await tx.update(failureGroups).set({ count: 0, runsAffected: 0, exampleFailureId: null }).where(eq(failureGroups.id, id));
      else await tx.delete(failureGroups).where(eq(failureGroups.id, id));
      continue;
    }
    const [ex] = await tx.select({ id: failures.id, hint: failures.hint }).from(failures).where(eq(failures.groupId, id)).orderBy(desc(failures.failedAt), desc(failures.id)).limit(1);
    await tx
      .update(failureGroups)
      .set({ count: agg!.count, runsAffected: agg!.runs, firstSeen: Number(agg!.first), lastSeen: Number(agg!.last), exampleFailureId: ex!.id, hint: ex!.hint })
      .where(eq(failureGroups.id, id));
  }
}

async function reassignGroup(tx: Tx, input: Omit<AssignInput, 'runId' | 'failedAt'>): Promise<void> {
  const [cur] = await tx.select({ groupId: failures.groupId, fingerprint: failures.fingerprint, runId: failures.runId, failedAt: failures.failedAt }).from(failures).where(eq(failures.id, input.failureId));
  if (!cur) return;
  if (cur.fingerprint === input.fp.fingerprint && cur.groupId) {
    await tx.update(failureGroups).set({ hint: input.diagnosis.hint }).where(and(eq(failureGroups.id, cur.groupId), eq(failureGroups.exampleFailureId, input.failureId)));
    return;
  }
  await tx.update(failures).set({ groupId: null, fingerprint: null }).where(eq(failures.id, input.failureId));
  if (cur.groupId) await refreshGroups(tx, [cur.groupId]);
  await assignGroup(tx, { ...input, runId: cur.runId, failedAt: cur.failedAt });
}
