import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isPostgresUrl } from '../db/pg-client.js';

/**
 * Archive locations shared by serve, ingest, query, reclassify and harbor import (DESIGN §3):
 * the index (a SQLite file or a postgres:// URL), the blobs (a folder or s3://bucket/prefix) and the
 * data folder (scratch space, and the blobs by default).
 */
export function archivePaths(opts: { db?: string; data?: string; blobs?: string }): { dbFile: string; dataDir: string; blobs?: string } {
  const dataDir = opts.data || process.env.FDIAG_DATA || '.fdiag';
  const dbFile = opts.db || process.env.FDIAG_DB || join(dataDir, 'fdiag.db');
  const blobs = opts.blobs || process.env.FDIAG_BLOBS || undefined;
  return { dbFile, dataDir, ...(blobs ? { blobs } : {}) };
}

/**
 * Is there an archive to read? A reading command must not create a SQLite file where there is none;
 * a PostgreSQL database is there by its URL (opening it brings the schema up to date).
 */
export function archiveExists(dbFile: string): boolean {
  return isPostgresUrl(dbFile) || existsSync(dbFile);
}

/** A postgres:// URL without its password, for messages (a file path is unchanged). */
export function redactUrl(s: string): string {
  return s.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@]*@/i, '$1:***@');
}

/** A one-line progress counter on a terminal; silent when stderr is piped or JSON is asked for. */
export function createProgress(label: string, total: number, enabled: boolean) {
  const on = enabled && process.stderr.isTTY === true;
  return {
    tick(done: number) {
      if (on) process.stderr.write(`\r${label} ${done}/${total}`);
    },
    end() {
      if (on) process.stderr.write('\n');
    },
  };
}

export class UsageError extends Error {
  readonly exitCode = 2;
}

// Log text, file names, run ids and labels come from uploaders: in text output to a terminal an
// OSC sequence could set the window title, write the clipboard (OSC 52) or forge a hyperlink
// (OSC 8), and a CSI sequence could hide or rewrite lines. Text formats print them inert.
const TERMINAL_ESCAPES = /\x1b\][\s\S]*?(?:\x07|\x1b\\|$)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[PX^_][\s\S]*?(?:\x1b\\|$)|\x1b[@-Z\\-_]?|[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g;

/** Text with every terminal control sequence and control character removed (\n and \t kept). */
export function terminalSafe(s: string): string {
  return s.replace(TERMINAL_ESCAPES, '');
}
