// Failure groups (like Sentry issues): every failure with the same fingerprint is one group.
// Assignment runs inside the caller's transaction, next to the failure row it counts, so a group's
// count never disagrees with the failures that point at it.
//
// Status rules (stored; changed at ingest and by PATCH /v1/groups/{id}):
//   new        created by its first failure; stays new while all its failures fall in one ISO week (UTC)
//   ongoing    seen in a second ISO week (automatic from new), or set by an admin
//   resolved   set by an admin (resolvedAt = when); counts keep moving if late failures arrive
//   regressed  a resolved group got a failure that happened AFTER resolvedAt (regressedAt = its failed_at);
//              a failure from before the resolution arriving late does not reopen it
//   ignored    set by an admin; new failures are counted and never change the status
// Empty groups (after prune or reclassify moved their failures away) are deleted, except resolved and
// ignored ones: they keep the triage decision, so the same failure coming back is a regression.
import { and, desc, eq, gte, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Fingerprint } from '../classifiers/fingerprint.js';
import type { Diagnosis } from '../classifiers/types.js';
import type { Db } from '../db/client.js';
import { failureGroups, failures, type FailureGroupRow } from '../db/schema.js';
import { parseTimeBound } from './time.js';
import { ArchiveInputError } from './errors.js';
import { pageLimit } from './failure-index.js';

export const GROUP_STATUSES = ['new', 'ongoing', 'resolved', 'regressed', 'ignored'] as const;
export type GroupStatus = (typeof GROUP_STATUSES)[number];
/** What an admin may set. new and regressed are only ever set by the archive itself. */
export const SETTABLE_STATUSES = ['resolved', 'ignored', 'ongoing'] as const;
export type SettableStatus = (typeof SETTABLE_STATUSES)[number];

/** The transaction handle drizzle gives `db.transaction`'s callback (or the db itself). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export function groupIdOf(fingerprint: string): string {
  return fingerprint.slice(0, 16);
}

/** Monday 00:00 UTC of the ISO week holding t. */
export function isoWeekStart(t: number): number {
  const d = new Date(t);
  const day = (d.getUTCDay() + 6) % 7; // Monday = 0
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - day);
}

export interface AssignInput {
  failureId: string;
  runId: string;
  failedAt: number;
  diagnosis: Pick<Diagnosis, 'class' | 'category' | 'hint'>;
  fp: Fingerprint;
}

/** A group's title: its fingerprint's template, with the frame it was raised in (both backends file groups under it). */
export function groupTitle(fp: Fingerprint): string {
  return fp.frame ? `${fp.template} (in ${fp.frame})` : fp.template;
}

/**
 * Put one failure (already inserted, in this transaction) into its group, creating the group or
 * updating its counts and status. Sets failures.fingerprint and failures.group_id.
 */
export function assignGroup(tx: Tx, input: AssignInput): { groupId: string; created: boolean; status: GroupStatus } {
  const id = groupIdOf(input.fp.fingerprint);
  const g = tx.select().from(failureGroups).where(eq(failureGroups.fingerprint, input.fp.fingerprint)).get();
  if (!g) {
    tx.insert(failureGroups)
      .values({
        id,
        fingerprint: input.fp.fingerprint,
        class: input.diagnosis.class,
        category: input.diagnosis.category,
        title: groupTitle(input.fp),
        firstSeen: input.failedAt,
        lastSeen: input.failedAt,
        count: 1,
        runsAffected: 1,
        status: 'new',
        resolvedAt: null,
        regressedAt: null,
        exampleFailureId: input.failureId,
        hint: input.diagnosis.hint,
      })
      .run();
    tx.update(failures).set({ fingerprint: input.fp.fingerprint, groupId: id }).where(eq(failures.id, input.failureId)).run();
    return { groupId: id, created: true, status: 'new' };
  }
  const runSeen = tx
    .select({ one: sql<number>`1` })
    .from(failures)
    .where(and(eq(failures.groupId, g.id), eq(failures.runId, input.runId), ne(failures.id, input.failureId)))
    .limit(1)
    .get();
  const firstSeen = Math.min(g.firstSeen, input.failedAt);
  const lastSeen = Math.max(g.lastSeen, input.failedAt);
  let status = g.status as GroupStatus;
  let regressedAt = g.regressedAt;
  if (status === 'new' && isoWeekStart(firstSeen) !== isoWeekStart(lastSeen)) status = 'ongoing';
  if (status === 'resolved' && g.resolvedAt !== null && input.failedAt > g.resolvedAt) {
    status = 'regressed';
    regressedAt = input.failedAt;
  }
  const newest = input.failedAt >= g.lastSeen;
  tx.update(failureGroups)
    .set({
      count: g.count + 1,
      runsAffected: g.runsAffected + (runSeen ? 0 : 1),
      firstSeen,
      lastSeen,
      status,
      regressedAt,
      ...(newest ? { exampleFailureId: input.failureId, hint: input.diagnosis.hint } : {}),
    })
    .where(eq(failureGroups.id, g.id))
    .run();
  tx.update(failures).set({ fingerprint: input.fp.fingerprint, groupId: g.id }).where(eq(failures.id, input.failureId)).run();
  return { groupId: g.id, created: false, status };
}

/**
 * Recompute counts, runs, first/last seen and the example of groups from their failures, after
 * failures left them (prune, reclassify). Empty groups are deleted unless resolved or ignored.
 */
export function refreshGroups(tx: Tx, ids: Iterable<string>): void {
  for (const id of new Set(ids)) {
    const g = tx.select().from(failureGroups).where(eq(failureGroups.id, id)).get();
    if (!g) continue;
    const agg = tx
      .select({ count: sql<number>`count(*)`, runs: sql<number>`count(DISTINCT ${failures.runId})`, first: sql<number | null>`min(${failures.failedAt})`, last: sql<number | null>`max(${failures.failedAt})` })
      .from(failures)
      .where(eq(failures.groupId, id))
      .get()!;
    if (!agg.count) {
      if (g.status === 'resolved' || g.status === 'ignored') {
        tx.update(failureGroups).set({ count: 0, runsAffected: 0, exampleFailureId: null }).where(eq(failureGroups.id, id)).run();
      } else {
        tx.delete(failureGroups).where(eq(failureGroups.id, id)).run();
      }
      continue;
    }
    const ex = tx.select({ id: failures.id, hint: failures.hint }).from(failures).where(eq(failures.groupId, id)).orderBy(desc(failures.failedAt), desc(failures.id)).limit(1).get()!;
    tx.update(failureGroups)
      .set({ count: agg.count, runsAffected: agg.runs, firstSeen: agg.first!, lastSeen: agg.last!, exampleFailureId: ex.id, hint: ex.hint })
      .where(eq(failureGroups.id, id))
      .run();
  }
}

/**
 * Move one failure to the group of its (new) fingerprint, after reclassification changed its
 * diagnosis; the group it left is recounted. Run inside the transaction that updates the failure.
 */
export function reassignGroup(tx: Tx, input: Omit<AssignInput, 'runId' | 'failedAt'>): void {
  const cur = tx.select({ groupId: failures.groupId, fingerprint: failures.fingerprint, runId: failures.runId, failedAt: failures.failedAt }).from(failures).where(eq(failures.id, input.failureId)).get();
  if (!cur) return;
  if (cur.fingerprint === input.fp.fingerprint && cur.groupId) {
    // Same group: the hint may have changed with the rules.
    tx.update(failureGroups).set({ hint: input.diagnosis.hint }).where(and(eq(failureGroups.id, cur.groupId), eq(failureGroups.exampleFailureId, input.failureId))).run();
    return;
  }
  // Leave the old group first so it is recounted without this failure.
  tx.update(failures).set({ groupId: null, fingerprint: null }).where(eq(failures.id, input.failureId)).run();
  if (cur.groupId) refreshGroups(tx, [cur.groupId]);
  assignGroup(tx, { ...input, runId: cur.runId, failedAt: cur.failedAt });
}

// ---- reading -------------------------------------------------------------------------------------

export interface GroupQuery {
  status?: GroupStatus;
  class?: string;
  category?: string;
  /** lastSeen at or after. */
  since?: string;
  limit?: number;
  cursor?: string;
}

export interface GroupSummary {
  id: string;
  fingerprint: string;
  class: string;
  category: string | null;
  title: string;
  firstSeen: string;
  lastSeen: string;
  count: number;
  runsAffected: number;
  status: GroupStatus;
  resolvedAt: string | null;
  regressedAt: string | null;
  exampleFailureId: string | null;
  hint: string;
}

export class GroupInputError extends ArchiveInputError {}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export function toGroupSummary(g: FailureGroupRow): GroupSummary {
  return {
    id: g.id,
    fingerprint: g.fingerprint,
    class: g.class,
    category: g.category,
    title: g.title,
    firstSeen: iso(g.firstSeen)!,
    lastSeen: iso(g.lastSeen)!,
    count: g.count,
    runsAffected: g.runsAffected,
    status: g.status as GroupStatus,
    resolvedAt: iso(g.resolvedAt),
    regressedAt: iso(g.regressedAt),
    exampleFailureId: g.exampleFailureId,
    hint: g.hint,
  };
}

/** Groups, most recently seen first; cursor pagination on (lastSeen, id). */
export function listGroups(db: Db, q: GroupQuery): { items: GroupSummary[]; nextCursor: string | null } {
  const limit = pageLimit(q.limit);
  const where: SQL[] = [];
  if (q.status) where.push(eq(failureGroups.status, q.status));
  if (q.class) where.push(eq(failureGroups.class, q.class));
  if (q.category) where.push(q.category === 'unknown' ? isNull(failureGroups.category) : eq(failureGroups.category, q.category));
  if (q.since) where.push(gte(failureGroups.lastSeen, parseTimeBound(q.since)));
  if (q.cursor) {
    const m = /^(\d+):([0-9a-f]{16})$/.exec(Buffer.from(q.cursor, 'base64url').toString());
    if (!m) throw new GroupInputError('invalid cursor');
    const t = Number(m[1]);
    where.push(or(lt(failureGroups.lastSeen, t), and(eq(failureGroups.lastSeen, t), lt(failureGroups.id, m[2]!)))!);
  }
  const rows = db
    .select()
    .from(failureGroups)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(failureGroups.lastSeen), desc(failureGroups.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toGroupSummary),
    nextCursor: rows.length > limit && last ? Buffer.from(`${last.lastSeen}:${last.id}`).toString('base64url') : null,
  };
}

export interface GroupDetail extends GroupSummary {
  /** The most recent failures of the group (at most 50). */
  failures: { id: string; runId: string; host: string; failedAt: string; kind: string }[];
  /** Failures per ISO week (Monday, UTC), oldest first. */
  weeks: { week: string; count: number }[];
  /** The example failure's evidence lines. */
  evidence: { file: string; line: number; text: string; rule: string }[];
}

export function getGroup(db: Db, id: string): GroupDetail | null {
  const g = db.select().from(failureGroups).where(eq(failureGroups.id, id)).get();
  if (!g) return null;
  const recent = db
    .select({ id: failures.id, runId: failures.runId, host: failures.host, failedAt: failures.failedAt, kind: failures.kind })
    .from(failures)
    .where(eq(failures.groupId, id))
    .orderBy(desc(failures.failedAt), desc(failures.id))
    .limit(50)
    .all();
  const weekRows = db.$client.prepare(GROUP_WEEKS_SQL).all(id) as GroupWeekRow[];
  const ex = g.exampleFailureId ? db.select({ evidence: failures.evidence }).from(failures).where(eq(failures.id, g.exampleFailureId)).get() : undefined;
  return groupDetail(g, recent, weekRows, ex?.evidence);
}

/** Failures of one group per ISO week (Monday 00:00 UTC, in ms), in SQL both dialects run as it is. */
export const GROUP_WEEKS_SQL = `SELECT (failed_at - ((failed_at / 86400000 + 3) % 7) * 86400000) / 86400000 * 86400000 AS wk, count(*) AS n
       FROM failures WHERE group_id = ? GROUP BY 1 ORDER BY 1`;
export interface GroupWeekRow {
  wk: number;
  n: number;
}

/** A group's page from its row, its latest failures, its weekly counts and the example's evidence (JSON). */
export function groupDetail(
  g: Parameters<typeof toGroupSummary>[0],
  recent: { id: string; runId: string; host: string; failedAt: number; kind: string }[],
  weekRows: GroupWeekRow[],
  exampleEvidence: string | undefined,
): GroupDetail {
  return {
    ...toGroupSummary(g),
    failures: recent.map((r) => ({ ...r, failedAt: new Date(r.failedAt).toISOString() })),
    weeks: weekRows.map((w) => ({ week: isoWeekName(w.wk), count: w.n })),
    evidence: exampleEvidence ? JSON.parse(exampleEvidence) : [],
  };
}

/** An admin's triage decision. Returns the updated group, or null when there is no such group. */
export function setGroupStatus(db: Db, id: string, status: SettableStatus, now = Date.now()): GroupSummary | null {
  const g = db.select().from(failureGroups).where(eq(failureGroups.id, id)).get();
  if (!g) return null;
  db.update(failureGroups)
    .set({ status, resolvedAt: status === 'resolved' ? now : null })
    .where(eq(failureGroups.id, id))
    .run();
  return toGroupSummary(db.select().from(failureGroups).where(eq(failureGroups.id, id)).get()!);
}

/** Groups by status (for /metrics). */
export function groupStatusCounts(db: Db): Record<GroupStatus, number> {
  const out = Object.fromEntries(GROUP_STATUSES.map((s) => [s, 0])) as Record<GroupStatus, number>;
  for (const r of db.select({ status: failureGroups.status, n: sql<number>`count(*)` }).from(failureGroups).groupBy(failureGroups.status).all()) {
    if (r.status in out) out[r.status as GroupStatus] = r.n;
  }
  return out;
}

// ---- ISO weeks -----------------------------------------------------------------------------------

/** `2026-W48` for the ISO week holding t (UTC). */
export function isoWeekName(t: number): string {
  const d = new Date(isoWeekStart(t));
  // The ISO year is the year of the week's Thursday.
  const thu = new Date(d.getTime() + 3 * 86400000);
  const year = thu.getUTCFullYear();
  const jan4 = Date.UTC(year, 0, 4);
  const week1 = isoWeekStart(jan4);
  const n = Math.round((d.getTime() - week1) / (7 * 86400000)) + 1;
  return `${year}-W${String(n).padStart(2, '0')}`;
}

/** Start (Monday 00:00 UTC, inclusive) and end (next Monday, exclusive) of `YYYY-Www`. */
export function parseIsoWeek(week: string): { start: number; end: number } {
  const m = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!m) throw new ArchiveInputError(`not an ISO week: ${JSON.stringify(week)} (use YYYY-Www, e.g. 2026-W48)`);
  const year = Number(m[1]);
  const n = Number(m[2]);
  const start = isoWeekStart(Date.UTC(year, 0, 4)) + (n - 1) * 7 * 86400000;
  if (n < 1 || isoWeekName(start) !== week) throw new ArchiveInputError(`${year} has no week ${n}`);
  return { start, end: start + 7 * 86400000 };
}
