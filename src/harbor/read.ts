// Bounded file reads for Harbor folders. A trial folder holds whatever an agent left behind
// (multi-GB logs, recordings, images), so every read has a byte budget and keeps the head and the
// tail of a large text, saying what was cut, the way bundles do (DESIGN §1).
// agent/ and verifier/ are mounted into the sandbox, so the agent under evaluation writes there: a
// file is read only if its own name is not a link (O_NOFOLLOW: a link to /root/.ssh/id_rsa would
// resolve on the host at import) and it is a regular file (O_NONBLOCK and fstat: a FIFO cannot hang
// the import); folders met while listing are walked only when they are not links.
import { closeSync, existsSync, lstatSync, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { openRegularSync } from '../regular-file.js';

export const READ_LIMITS = {
  /** A log or verifier output: head + tail kept within this many bytes. */
  textBytes: 1024 * 1024,
  /** result.json can carry rollout token ids; read it whole up to this size. */
  resultBytes: 64 * 1024 * 1024,
  /** ATIF files are parsed whole up to this size. */
  trajectoryBytes: 32 * 1024 * 1024,
  /** Files taken from agent/ and verifier/ (and steps/) of one trial, and their total bytes. */
  maxAgentFiles: 200,
  agentTotalBytes: 8 * 1024 * 1024,
};

export interface BoundedText {
  text: string;
  bytes: number;
  truncated: boolean;
}

function readRange(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  let off = 0;
  while (off < len) {
    const n = readSync(fd, buf, off, len - off, pos + off);
    if (n === 0) break;
    off += n;
  }
  return buf.subarray(0, off);
}

/** A regular file opened without following a link at its name; null otherwise (missing, a link, a FIFO, a folder). */
function openFile(path: string): { fd: number; st: Stats } | null {
  try {
    return openRegularSync(path, { noFollow: true });
  } catch {
    return null;
  }
}

/** Whole file up to maxBytes; above it, the first quarter and the last three quarters of the budget. */
export function readBoundedText(path: string, maxBytes = READ_LIMITS.textBytes): BoundedText | null {
  try {
    const f = openFile(path);
    if (!f) return null;
    const { fd, st } = f;
    try {
      if (st.size <= maxBytes) return { text: readRange(fd, 0, st.size).toString('utf8'), bytes: st.size, truncated: false };
      const head = Math.floor(maxBytes / 4);
      const tail = maxBytes - head;
      const a = readRange(fd, 0, head).toString('utf8');
      const b = readRange(fd, st.size - tail, tail).toString('utf8');
      return { text: `${a}\n[fdiag: ${st.size - maxBytes} bytes cut from the middle of a ${st.size}-byte file]\n${b}`, bytes: st.size, truncated: true };
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** Whole file or nothing (null when missing, unreadable or above maxBytes). */
export function readWholeText(path: string, maxBytes: number): { text: string | null; bytes: number; tooLarge: boolean } {
  try {
    const f = openFile(path);
    if (!f) return { text: null, bytes: 0, tooLarge: false };
    const { fd, st } = f;
    try {
      if (st.size > maxBytes) return { text: null, bytes: st.size, tooLarge: true };
      return { text: readRange(fd, 0, st.size).toString('utf8'), bytes: st.size, tooLarge: false };
    } finally {
      closeSync(fd);
    }
  } catch {
    return { text: null, bytes: 0, tooLarge: false };
  }
}

export function looksBinary(path: string): boolean {
  try {
    const f = openFile(path);
    if (!f) return true;
    const { fd } = f;
    try {
      const b = readRange(fd, 0, 8192);
      return b.includes(0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return true;
  }
}

const SKIP_EXT = /\.(cast|png|jpe?g|gif|webp|bmp|ico|pdf|zip|gz|tgz|tar|xz|bz2|7z|whl|so|bin|pt|pth|safetensors|npy|npz|pkl|parquet|sqlite|db)$/i;

/** Regular text files under dir (relative POSIX paths, sorted), skipping binaries and known blobs. */
export function listTextFiles(dir: string, limit = READ_LIMITS.maxAgentFiles): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 8 || out.length >= limit) return;
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (out.length >= limit) return;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && !SKIP_EXT.test(e.name) && !looksBinary(p)) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  if (existsSync(dir)) walk(dir, 0);
  return out;
}

export function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A regular file whose own name is not a link (what the reads above will open). */
export function isFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}

export function readJsonSmall(path: string, maxBytes = 4 * 1024 * 1024): unknown {
  const r = readWholeText(path, maxBytes);
  if (r.text === null) return undefined;
  try {
    return JSON.parse(r.text);
  } catch {
    return undefined;
  }
}
