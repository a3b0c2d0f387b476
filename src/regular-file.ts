// Opening a file for reading only if it is a regular file, checked on the opened descriptor: one place
// for the capture agent (src/capture/bounded.ts) and the Harbor reader (src/harbor/read.ts), which both
// read folders that others write. A leaf module (node:fs only), so either may import it.
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export class NotRegularFile extends Error {}

export interface OpenOptions {
  /** A link at the name itself is not followed (O_NOFOLLOW): the folder is written by someone else (a trial's agent/). */
  noFollow?: boolean;
  /**
   * The file is at a place every user of the node may write to (/tmp/nccl_trace_rank_<N>,
   * /tmp/ray/session_latest/logs): a link there, symbolic or hard (protected_hardlinks off), would
   * put another file of the capturing user's into the bundle, and another user's file would be
   * evidence they chose. So the last name is not followed (O_NOFOLLOW), and the opened file must
   * have one link and be owned by the capturing user.
   */
  shared?: boolean;
}

/**
 * Non-blocking, so a FIFO (`--log fifo`, a FIFO at wandb/latest-run/files/output.log) or a device cannot
 * hang open() or read(); never the controlling terminal.
 */
function flags(opts: OpenOptions): number {
  return constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0) | (opts.shared || opts.noFollow ? constants.O_NOFOLLOW : 0);
}

function refused(path: string, err: unknown, opts: OpenOptions): unknown {
  if ((opts.shared || opts.noFollow) && (err as NodeJS.ErrnoException).code === 'ELOOP') {
    return new NotRegularFile(`${path} is a symbolic link${opts.shared ? ' in a shared folder' : ''}; not followed (skipped)`);
  }
  return err;
}

/** The checks on the opened descriptor's fstat, so nothing can be swapped in between the check and the read. */
function check(path: string, st: Stats, opts: OpenOptions): void {
  if (!st.isFile()) {
    const what = st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSocket() ? 'a socket' : st.isDirectory() ? 'a folder' : 'not a regular file';
    throw new NotRegularFile(`${path} is ${what}; only regular files are read (skipped)`);
  }
  if (opts.shared) {
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid) throw new NotRegularFile(`${path} is owned by uid ${st.uid}, not by this user (uid ${uid}); skipped`);
    if (st.nlink !== 1) throw new NotRegularFile(`${path} has ${st.nlink} links (a hard link to it may be anyone's); skipped`);
  }
}

/** Opens a file for reading only if it is a regular file (and, for `shared`, owned by this user with one link); else NotRegularFile. */
export async function openRegular(path: string, opts: OpenOptions = {}): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(path, flags(opts));
  } catch (err) {
    throw refused(path, err, opts);
  }
  try {
    check(path, await fh.stat(), opts);
    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

/** openRegular for synchronous readers: the descriptor and its fstat. */
export function openRegularSync(path: string, opts: OpenOptions = {}): { fd: number; st: Stats } {
  let fd: number;
  try {
    fd = openSync(path, flags(opts));
  } catch (err) {
    throw refused(path, err, opts);
  }
  try {
    const st = fstatSync(fd);
    check(path, st, opts);
    return { fd, st };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
