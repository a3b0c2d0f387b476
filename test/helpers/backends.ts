// The storage set-ups the archive runs on, for tests: embedded (a SQLite file + a blob folder in the
// data folder) and shared (a PostgreSQL database on the run's cluster + a prefix of the run's s3rver
// bucket, both started once by global-setup.ts).
//
// Which one a test file gets is the run's: vitest.config.ts runs the archive- and API-level files
// twice, once as they are and once in the `postgres` project (FDIAG_TEST_BACKEND=pg). Those files
// ask this module where an archive lives (`storageFor(dataDir)` in process, `storageEnv(dataDir)`
// for a spawned `fdiag`), so one data folder is one archive on either backend: a fresh folder gets a
// fresh database and prefix, and a second process on the same folder finds the first one's data.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import type { Archive } from '../../src/archive/index.js';
import { PgFailureIndex } from '../../src/archive/pg-index.js';
import { S3BlobStore } from '../../src/archive/s3-store.js';
import { SqliteFailureIndex } from '../../src/archive/sqlite-index.js';
import { numberedPlaceholders } from '../../src/db/dialect.js';
import { PG_BIN } from '../backing-services.js';
import { tempDir } from './bundles.js';
import { tgzText } from './secrets.js';

export type BackendName = 'sqlite' | 'postgres';

/** The backend this test run checks: FDIAG_TEST_BACKEND=pg (the `postgres` project) or the embedded default. */
export const TEST_BACKEND: BackendName = process.env.FDIAG_TEST_BACKEND === 'pg' ? 'postgres' : 'sqlite';
export const ON_POSTGRES = TEST_BACKEND === 'postgres';

export interface Backend {
  name: BackendName;
  /** FDIAG_DB */
  db: string;
  /** FDIAG_BLOBS (undefined: the data folder) */
  blobs?: string;
  /** What a process needs in its environment to reach this backend. */
  env: Record<string, string>;
}

/** A new, empty PostgreSQL database on the run's cluster; its URL. Synchronous (createdb), so spawn helpers stay simple. */
export function freshPgDatabase(): string {
  const admin = inject('pgUrl');
  if (!admin || !PG_BIN) throw new Error('no PostgreSQL for this run: name a backends/replicas test file, run the postgres project, or the whole suite');
  const u = new URL(admin);
  const name = `fdiag_${randomBytes(6).toString('hex')}`;
  execFileSync(join(PG_BIN, 'createdb'), ['-h', u.hostname, '-p', u.port, '-U', u.username, name], { stdio: 'pipe' });
  return admin.replace(/\/postgres$/, `/${name}`);
}

export function s3Env(): Record<string, string> {
  return { AWS_ENDPOINT_URL: inject('s3Endpoint'), AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_REGION: 'us-east-1' };
}

function freshS3Prefix(): string {
  return `s3://${inject('s3Bucket')}/${randomBytes(6).toString('hex')}`;
}

export async function makeBackend(name: BackendName): Promise<Backend> {
  if (name === 'sqlite') return { name, db: join(tempDir('fdiag-backend-'), 'fdiag.db'), env: {} };
  const env = s3Env();
  Object.assign(process.env, env); // the S3 client in this process reads them too
  return { name, db: freshPgDatabase(), blobs: freshS3Prefix(), env };
}

// On PostgreSQL the S3 client of this process (and every child spawned with process.env) reads these.
if (ON_POSTGRES) Object.assign(process.env, s3Env());

const shared = new Map<string, { dbFile: string; blobs: string }>();

/**
 * Where the archive of this data folder keeps its index and blobs on the run's backend: the
 * embedded default (`sqliteFile`, blobs in the folder), or this folder's own database and prefix.
 */
export function storageFor(dataDir: string, sqliteFile = join(dataDir, 'fdiag.db')): { dbFile: string; blobs?: string } {
  if (!ON_POSTGRES) return { dbFile: sqliteFile };
  const key = resolve(dataDir);
  let s = shared.get(key);
  if (!s) shared.set(key, (s = { dbFile: freshPgDatabase(), blobs: freshS3Prefix() }));
  return s;
}

/** The same, as the environment of a spawned `fdiag` (nothing on the embedded default: --data decides). */
export function storageEnv(dataDir: string): Record<string, string> {
  if (!ON_POSTGRES) return {};
  const s = storageFor(dataDir);
  return { FDIAG_DB: s.dbFile, FDIAG_BLOBS: s.blobs!, ...s3Env() };
}

/** storageEnv for the data folder an `fdiag` command line names with --data (relative to cwd); nothing without one. */
export function storageEnvOfArgs(args: readonly string[], cwd = process.cwd()): Record<string, string> {
  const i = args.indexOf('--data');
  return i >= 0 && args[i + 1] ? storageEnv(resolve(cwd, args[i + 1]!)) : {};
}

/** Rows of an SQL statement run on the archive's index (a test's check, or the state it sets up) (`?` placeholders; counts come back as numbers). */
export async function rawRows<T = Record<string, unknown>>(a: Archive, query: string, params: unknown[] = []): Promise<T[]> {
  if (a.index instanceof SqliteFailureIndex) {
    const st = a.index.connection.prepare(query);
    if (st.reader) return st.all(...params) as T[];
    st.run(...params);
    return [];
  }
  if (a.index instanceof PgFailureIndex) return (await a.index.pool.query(numberedPlaceholders(query), params)).rows as T[];
  throw new Error('unknown index');
}

/** `SELECT count(*) …` as a number. */
export async function countRows(a: Archive, query: string, params: unknown[] = []): Promise<number> {
  const [r] = await rawRows<{ n: number | string }>(a, query, params);
  return Number(r!.n);
}

/**
 * Every byte the shared backend holds for this data folder's archive, as text: a pg_dump of its
 * database and each blob's unpacked text ('' on the embedded default: the data folder is all there is).
 */
export async function sharedStoreText(dataDir: string): Promise<string> {
  const s = storageFor(dataDir);
  if (!s.blobs) return '';
  const u = new URL(s.dbFile);
  let out = execFileSync(join(PG_BIN!, 'pg_dump'), ['-h', u.hostname, '-p', u.port, '-U', u.username, u.pathname.slice(1)], { encoding: 'latin1', maxBuffer: 1 << 30 });
  const store = new S3BlobStore(s.blobs);
  try {
    for await (const b of store.list()) {
      const chunks: Buffer[] = [];
      for await (const c of (await store.read(b.key))!) chunks.push(c as Buffer);
      const local = join(tempDir(), 'blob.tar.gz');
      writeFileSync(local, Buffer.concat(chunks));
      out += `\n${b.key}\n${tgzText(local)}`;
    }
  } finally {
    store.close?.();
  }
  return out;
}

/** The keys of every stored blob of this data folder's archive (its folder, or its bucket prefix). */
export async function blobKeysOf(dataDir: string): Promise<string[]> {
  const s = storageFor(dataDir);
  if (!s.blobs) {
    const root = join(dataDir, 'blobs');
    return readdirSync(root).flatMap((shard) => readdirSync(join(root, shard)).map((f) => `blobs/${shard}/${f}`));
  }
  const store = new S3BlobStore(s.blobs);
  try {
    const keys: string[] = [];
    for await (const b of store.list()) keys.push(b.key);
    return keys;
  } finally {
    store.close?.();
  }
}
