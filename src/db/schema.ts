// The archive index. Blobs (the bundles themselves) live in the data folder under a
// content-addressed name; these tables only index them. Times are epoch milliseconds (UTC).
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const failures = sqliteTable(
  'failures',
  {
    /** sha256 of the bundle bytes: the same bytes twice are the same failure. */
    id: text('id').primaryKey(),
    bundleId: text('bundle_id').notNull(),
    runId: text('run_id').notNull(),
    /** 'run' for captured runs, 'harbor_trial' for imported Harbor trials. */
    kind: text('kind').notNull(),
    host: text('host').notNull(),
    /** When the run ended (manifest.endedAt, else createdAt): the time queries filter on. */
    failedAt: integer('failed_at').notNull(),
    startedAt: integer('started_at'),
    ingestedAt: integer('ingested_at').notNull(),
    exitCode: integer('exit_code'),
    signal: text('signal'),
    class: text('class').notNull(),
    category: text('category'),
    confidence: real('confidence').notNull(),
    hint: text('hint').notNull(),
    evidence: text('evidence').notNull(),
    rulesetVersion: text('ruleset_version').notNull(),
    exceptionType: text('exception_type'),
    /** The reward that counts: null for every infra (and user/unknown) failure, Harbor's value for an outcome. */
    reward: real('reward'),
    /** The reward Harbor recorded in result.json (even for an infra failure, where it is not a score). */
    harborReward: real('harbor_reward'),
    /** An outcome.scored trial that still hit an infra error: that infra class (TAXONOMY). */
    infraClass: text('infra_class'),
    gpuCount: integer('gpu_count'),
    labels: text('labels').notNull(),
    manifest: text('manifest').notNull(),
    blobPath: text('blob_path').notNull(),
    blobBytes: integer('blob_bytes').notNull(),
    fingerprint: text('fingerprint'),
    groupId: text('group_id'),
  },
  (t) => [
    index('failures_time').on(t.failedAt, t.id),
    index('failures_class_time').on(t.class, t.failedAt, t.id),
    index('failures_category_time').on(t.category, t.failedAt, t.id),
    index('failures_run_time').on(t.runId, t.failedAt, t.id),
    index('failures_group').on(t.groupId),
    // Triage (groups.ts): "has this run already hit this group?" at ingest, without scanning the group.
    index('failures_group_run').on(t.groupId, t.runId),
    // Triage (export.ts): the weekly export reads a week's rows from this index alone, never the table.
    index('failures_triage_week').on(t.failedAt, t.class, t.category, t.kind, t.groupId, t.runId, t.gpuCount, t.startedAt),
  ],
);

export const failureLabels = sqliteTable(
  'failure_labels',
  {
    failureId: text('failure_id').notNull().references(() => failures.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    /** Copy of failures.failed_at so a label filter walks one index in time order. */
    failedAt: integer('failed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.failureId, t.key] }), index('failure_labels_kv_time').on(t.key, t.value, t.failedAt, t.failureId)],
);

export const failureFiles = sqliteTable(
  'failure_files',
  {
    failureId: text('failure_id').notNull().references(() => failures.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** The file's text for small JSON files (exceptions.json, gpu/*.json, …), kept at ingest so pages never inflate the blob. */
    content: text('content'),
  },
  (t) => [primaryKey({ columns: [t.failureId, t.path] })],
);

// --- triage: failure groups (src/archive/groups.ts) ---
/**
 * A failure group: every failure with the same fingerprint (class + masked key evidence + top frame,
 * src/classifiers/fingerprint.ts). Counts are kept in step with `failures.group_id` by groups.ts.
 * status: new | ongoing | resolved | regressed | ignored (rules in groups.ts).
 */
export const failureGroups = sqliteTable(
  'failure_groups',
  {
    /** The first 16 hex digits of the fingerprint: stable across archives, short enough for a URL. */
    id: text('id').primaryKey(),
    fingerprint: text('fingerprint').notNull().unique(),
    class: text('class').notNull(),
    category: text('category'),
    /** The masked template of the key evidence line (and the top frame). */
    title: text('title').notNull(),
    firstSeen: integer('first_seen').notNull(),
    lastSeen: integer('last_seen').notNull(),
    count: integer('count').notNull(),
    runsAffected: integer('runs_affected').notNull(),
    status: text('status').notNull(),
    resolvedAt: integer('resolved_at'),
    /** failed_at of the failure that brought a resolved group back. */
    regressedAt: integer('regressed_at'),
    exampleFailureId: text('example_failure_id'),
    hint: text('hint').notNull(),
  },
  (t) => [index('failure_groups_last_seen').on(t.lastSeen, t.id), index('failure_groups_status').on(t.status, t.lastSeen), index('failure_groups_class').on(t.class, t.lastSeen)],
);

export type FailureGroupRow = typeof failureGroups.$inferSelect;
// --- end triage ---

export type FailureRow = typeof failures.$inferSelect;

// --- web UI sessions (src/api/web/session.ts) ---
/**
 * A login of the web page, kept in the index so every replica honours a session any of them
 * issued, and a logout on one is a logout on all. Only digests are stored: a copy of this table
 * opens no session and reveals no token.
 */
export const uiSessions = sqliteTable(
  'ui_sessions',
  {
    /** sha256 (hex) of the random session id the cookie carries. */
    idHash: text('id_hash').primaryKey(),
    /** sha256 (hex) of the token that logged in: the session has that token's scopes while it is still accepted. */
    tokenDigest: text('token_digest').notNull(),
    createdAt: integer('created_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('ui_sessions_expires').on(t.expiresAt)],
);
