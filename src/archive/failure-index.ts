// The FailureIndex seam: everything the archive asks of its index (rows about failures, their
// labels and files, groups, aggregates). The Archive talks only to this interface; SQL lives in the
// implementations (sqlite-index.ts for the embedded default).
import type { Fingerprint } from '../classifiers/fingerprint.js';
import { ArchiveInputError } from './errors.js';
import type { Diagnosis } from '../classifiers/index.js';
import type { Manifest } from '../bundle/schema.js';
import type { FailureRow, failures } from '../db/schema.js';
import type { WeeklyExport } from './export.js';
import type { GroupDetail, GroupQuery, GroupStatus, GroupSummary, SettableStatus } from './groups.js';

export type FailureInsert = typeof failures.$inferInsert;

export interface NewFailure {
  row: FailureInsert;
  labels: Record<string, string>;
  files: StoredFile[];
  /** What groups.ts needs to file the failure under its group. */
  group: { diagnosis: Pick<Diagnosis, 'class' | 'category' | 'hint'>; fp: Fingerprint };
}

export interface FileEntry {
  path: string;
  bytes: number;
  sha256: string;
}

/** A file as the index keeps it: small JSON files carry their text. */
export interface StoredFile extends FileEntry {
  content: string | null;
}

/** Page sizes of failure and group listings: the API's and CLI's `limit` range, and what every index clamps to. */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 500;

/** The page size an index serves for a requested `limit` (default when absent or not a whole number, else clamped to 1..PAGE_LIMIT_MAX). */
export function pageLimit(limit: number | undefined): number {
  return limit === undefined || !Number.isInteger(limit) ? PAGE_LIMIT_DEFAULT : Math.min(Math.max(limit, 1), PAGE_LIMIT_MAX);
}

export interface FailureQuery {
  class?: string;
  category?: string;
  runId?: string;
  labels?: Record<string, string>;
  since?: string;
  until?: string;
  limit?: number;
  cursor?: string;
}

export interface FailureSummary {
  id: string;
  runId: string;
  kind: string;
  host: string;
  failedAt: string;
  class: string;
  category: string | null;
  confidence: number;
  exceptionType: string | null;
  exitCode: number | null;
  signal: string | null;
  /** The reward that counts: null unless the failure is an outcome (never 0 on an infra failure). */
  reward: number | null;
  /** What Harbor recorded in result.json, kept even where it is not a score. */
  harborReward: number | null;
  /** An outcome.scored trial's infra error, when it had one (infra-affected). */
  infraClass: string | null;
  hint: string;
  labels: Record<string, string>;
  groupId: string | null;
}

export type FailureDetail = FailureSummary & { diagnosis: Diagnosis; manifest: Manifest; files: FileEntry[] };

export interface ClassCount {
  class: string;
  category: string | null;
  count: number;
}

export interface MetricCounts {
  /** Failures by class, category (null → 'unknown') and kind. */
  failures: { class: string; category: string; kind: string; n: number }[];
  bundles: number;
  bundleBytes: number;
  groups: Record<GroupStatus, number>;
}

export interface PrunedRow {
  id: string;
  blobPath: string;
  blobBytes: number;
}

/** A web UI session as the index keeps it: digests only (src/api/web/session.ts). */
export interface UiSessionRow {
  idHash: string;
  tokenDigest: string;
  createdAt: number;
  expiresAt: number;
}

/** Open web sessions kept at most; past it a login drops the oldest (every one still needs a valid token to start). */
export const MAX_UI_SESSIONS = 10_000;

export interface FailureIndex {
  /** True for the embedded SQLite file: one machine, and the API may run without FDIAG_TOKENS. */
  readonly embedded: boolean;
  /** A round trip to the index (health checks). Throws when it is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;

  /** The stored diagnosis of a failure, or null: the duplicate check before any work. */
  brief(id: string): Promise<{ id: string; class: string; category: string | null } | null>;
  /**
   * Insert the failure, its labels and files and file it under its group, in one transaction.
   * False when a failure with this id is already there (a concurrent ingest of the same bytes).
   */
  insertFailure(f: NewFailure): Promise<boolean>;
  query(q: FailureQuery): Promise<{ items: FailureSummary[]; nextCursor: string | null }>;
  get(id: string): Promise<FailureDetail | null>;
  /** Ids that start with `prefix` (lower-case hex), in order, at most `limit`. */
  idsWithPrefix(prefix: string, limit: number): Promise<string[]>;
  /** Where a failure's bundle lives, its size and run; null when there is no such failure. */
  bundleOf(id: string): Promise<{ blobPath: string; blobBytes: number; runId: string } | null>;
  /** Where a listed file of a failure lives: the blob, and the file's size. Null when either is unknown. */
  fileOf(id: string, path: string): Promise<{ blobPath: string; bytes: number; content: string | null } | null>;
  classCounts(since?: string, until?: string): Promise<ClassCount[]>;

  /** Failures whose diagnosis came from another rule-set version than `current` (all when `all`). */
  toReclassify(current: string, all: boolean): Promise<{ id: string; blobPath: string; class: string; harborReward: number | null }[]>;
  /** Store a new diagnosis and move the failure to the group of its new fingerprint, in one transaction. */
  updateDiagnosis(id: string, d: Diagnosis, harborReward: number | null, fp: Fingerprint): Promise<void>;

  listGroups(q: GroupQuery): Promise<{ items: GroupSummary[]; nextCursor: string | null }>;
  getGroup(id: string): Promise<GroupDetail | null>;
  setGroupStatus(id: string, status: SettableStatus, now?: number): Promise<GroupSummary | null>;

  weeklyExport(week: string): Promise<WeeklyExport>;
  weeklyClassSeries(lastWeek: string, weeks: number): Promise<{ weeks: string[]; classes: { class: string; counts: number[] }[] }>;
  metricCounts(): Promise<MetricCounts>;

  /** Delete every failure before the cutoff (groups recounted) in one transaction; the deleted rows. */
  deleteBefore(cutoffMs: number): Promise<{ rows: PrunedRow[]; groupsTouched: number }>;
  /** Does any failure row point at this blob? (the sweep's and prune's check) */
  isBlobReferenced(blobPath: string): Promise<boolean>;
  /**
   * Run `fn` while holding the named cluster-wide lock, or return null at once when another
   * process holds it (one sweeper, one retention leader).
   */
  tryWithLock<T>(name: string, fn: () => Promise<T>): Promise<T | null>;

  /** Store a new web session; expired ones go, and the oldest beyond MAX_UI_SESSIONS. */
  putSession(s: UiSessionRow): Promise<void>;
  /** The token digest of the session with this id hash, or null when it is unknown or expired at `now`. */
  sessionToken(idHash: string, now: number): Promise<string | null>;
  /** Remove a session (logout); absent is fine. */
  deleteSession(idHash: string): Promise<void>;
}

export { ArchiveInputError };

// ---- row shapes shared by the index implementations ----------------------------------------------

/**
 * The reward that counts (DESIGN §3): Harbor's value only when the diagnosis is an outcome. An infra
 * failure's "reward 0" is not a score, so no surface reading `reward` can show it.
 */
export function countedReward(d: Pick<Diagnosis, 'category'>, harborReward: number | null): number | null {
  return d.category === 'outcome' ? harborReward : null;
}

export function diagnosisColumns(d: Diagnosis, harborReward: number | null) {
  return {
    reward: countedReward(d, harborReward),
    harborReward,
    infraClass: d.infraClass ?? null,
    class: d.class,
    category: d.category,
    confidence: d.confidence,
    hint: d.hint,
    evidence: JSON.stringify(d.evidence),
    rulesetVersion: d.rulesetVersion,
  };
}

export function toSummary(r: FailureRow): FailureSummary {
  return {
    id: r.id,
    runId: r.runId,
    kind: r.kind,
    host: r.host,
    failedAt: new Date(r.failedAt).toISOString(),
    class: r.class,
    category: r.category,
    confidence: r.confidence,
    exceptionType: r.exceptionType,
    exitCode: r.exitCode,
    signal: r.signal,
    reward: r.reward,
    harborReward: r.harborReward,
    infraClass: r.infraClass,
    hint: r.hint,
    labels: JSON.parse(r.labels),
    groupId: r.groupId,
  };
}

export function toDetail(row: FailureRow): Omit<FailureDetail, 'files'> {
  return {
    ...toSummary(row),
    diagnosis: {
      class: row.class as Diagnosis['class'],
      category: row.category as Diagnosis['category'],
      confidence: row.confidence,
      evidence: JSON.parse(row.evidence),
      hint: row.hint,
      rulesetVersion: row.rulesetVersion,
      ...(row.infraClass ? { infraClass: row.infraClass as Diagnosis['class'] } : {}),
    },
    manifest: JSON.parse(row.manifest),
  };
}

export function encodeCursor(t: number, id: string): string {
  return Buffer.from(`${t}:${id}`).toString('base64url');
}

export function decodeCursor(c: string): { t: number; id: string } {
  const m = /^(\d+):([0-9a-f]{64})$/.exec(Buffer.from(c, 'base64url').toString());
  if (!m) throw new ArchiveInputError('invalid cursor');
  return { t: Number(m[1]), id: m[2]! };
}

/** Test hook: FDIAG_TEST_CRASH_AT=<point> kills the process there, to prove crash consistency. */
export function testCrashPoint(point: string): void {
  if (process.env.FDIAG_TEST_CRASH_AT === point) process.kill(process.pid, 'SIGKILL');
}
