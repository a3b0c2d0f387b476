// Every Linux errno, read through the print templates of the producers that report one (the table and
// its sources are in errno-vocab.ts). The rules here sit below the narrower rules that already knew a
// wording (disk.enospc, disk.write_failed, network.connection, host.alloc_failure, config.fd_limit,
// config.port_in_use, config.path_permission): their strengths are higher, so where both match those
// decide, and these add the wordings and producers they did not list (Go's lower-case texts, Rust's
// io::Error, Node's codes, c10d's "errno: N - text", the errnos no rule named).
import { defineRules, type Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import { byAnswerer } from './answerer.js';
import {
  byName,
  byNumber,
  byRustKind,
  byText,
  byTextPrefix,
  byTextSuffix,
  type DecidingGroup,
  decidingNames,
  decidingTexts,
  ERRNO_READ_BY,
  type ErrnoEntry,
  type ErrnoGroup,
  isDeciding,
  LINUX_ERRNOS,
  groupIn,
  textsOf,
} from './errno-vocab.js';
import { NCCL_SOCKET_LINE } from './nccl.js';
import { C10D_WARNING, TRACKER_NOISE } from './network.js';
import { RUN_LOG_ONLY } from './sections.js';
import { escapeRegExp } from './regex-text.js';


/** The print templates, in the order they are read (the first that yields an errno decides). */
// CPython OSError_str: "[Errno 28] No space left on device", "…: '/path'", "…: '/a' -> '/b'".
const PY_ERRNO = /\[Errno (\d{1,4})\] ([^\n]{2,160})/;
// Rust io::Error Debug: Os { code: 28, kind: StorageFull, message: "No space left on device" }.
const RUST_DEBUG = /\bOs \{ code: (\d{1,4}), kind: (\w{2,40}), message: "([^"\n]{2,120})" \}/;
// Rust io::Error Display: "No space left on device (os error 28)".
const RUST_DISPLAY = /([^\n]{2,160}?) \(os error (\d{1,4})\)/;
// PyTorch c10d socket.cpp: "(errno: 111 - Connection refused)".
const C10D_ERRNO = /\berrno: (\d{1,4}) - ([^)\n]{2,120})/;
// Go (syscall.Errno.Error() inside os.PathError / net.OpError: "open /x: no space left on device",
// "dial tcp 10.0.0.5:8000: connect: connection refused"), C perror / strerror ("x: No space left on device"),
// and any wrapper that quotes them: the text right after ": ", ending the line or a quoted/bracketed part.
const ALL_GROUPS: readonly ErrnoGroup[] = [...new Set(LINUX_ERRNOS.map(([, , , g]) => g))];
// `own`: leave out the errnos an older rule reads (ERRNO_READ_BY), for the rules' patterns; readErrno reads them all.
const ownText = (t: string) => !ERRNO_READ_BY[byText(t)!.name];
const colonText = (groups: readonly ErrnoGroup[], own = false) =>
  new RegExp(`: (${decidingTexts(groups).filter((t) => !own || ownText(t)).map(escapeRegExp).join('|')})(?=\\s*$|["'),;\\]}\\\\]| \\(|\\.(?:\\s|$))`, 'i');
// Node (lib/internal/errors.js): the code as printed, "Error: ENOSPC: no space left on device, write",
// "connect ECONNREFUSED 127.0.0.1:8000", "read ECONNRESET", util.inspect's "code: 'ETIMEDOUT'"; the names of
// the deciding errnos only (a generic code decides nothing, so it need not wake a rule). EIO is three
// letters: its Node form carries libuv's text.
const errnoName = (groups: readonly ErrnoGroup[], own = false) => {
  const names = decidingNames(groups).filter((n) => !own || !ERRNO_READ_BY[n]);
  const long = names.filter((n) => n.length >= 4);
  return new RegExp(`\\b(${long.join('|')})\\b${names.includes('EIO') ? '|\\b(EIO): i/o error' : ''}`);
};
// readErrno reads every errno (a generic one on the line is that line's errno, and decides nothing); the
// rules wake only on the deciding ones.
const COLON_TEXT = colonText(ALL_GROUPS);
const ERRNO_NAME = errnoName(ALL_GROUPS);
// CPython's OSError subclasses that only one deciding errno raises (Objects/exceptions.c errnomap), as an
// exception name on a line without the errno ("ConnectionResetError: Connection lost"). TimeoutError is
// not read: Python raises it for every time-out (socket.timeout, asyncio), not only ETIMEDOUT.
const PY_SUBCLASS = /\b(ConnectionAbortedError|ConnectionRefusedError|ConnectionResetError)\b/;
// ConnectionRefusedError and ConnectionResetError are network.connection's (ERRNO_READ_BY): no pattern here.
const PY_OWN_SUBCLASS = /\bConnectionAbortedError\b/;
const SUBCLASS_ERRNO: Record<string, string> = { ConnectionAbortedError: 'ECONNABORTED', ConnectionRefusedError: 'ECONNREFUSED', ConnectionResetError: 'ECONNRESET' };

/** The errno's own file printed beside its text: CPython's "text: '/path'", Node's "text, open '/path'", Go's and perror's "/path: text". */
function fileBeside(line: string, name: string): boolean {
  const l = line.toLowerCase();
  for (const t of textsOf(name)) {
    for (let i = l.indexOf(t); i >= 0; i = l.indexOf(t, i + 1)) {
      const after = l.slice(i + t.length, i + t.length + 40);
      const before = l.slice(Math.max(0, i - 200), i);
      if (/^(?:: |, \w{2,20} )['"]?\//.test(after) || /\/[^\s'":]+['"]?: (?:[\w ]{1,40}: )?$/.test(before)) return true;
    }
  }
  return false;
}

/** A socket's line: Go's net.OpError ("write tcp 10.0.0.2:5->10.0.0.5:80: …", "read unix …", "accept4 …"). */
const SOCKET_LINE = /\b(?:read|write|dial|accept4?|sendmsg|sendto|recvfrom|readfrom|writeto) (?:tcp|udp|unix)[46]?\b/;

/** errno-base.h (1..34) is the same on every Unix; above it Linux, macOS and the BSDs differ, so only the text counts there. */
const portableNumber = (n: string): ErrnoEntry | undefined => (Number(n) <= 34 ? byNumber(Number(n)) : undefined);

export interface ErrnoRead {
  entry: ErrnoEntry;
  /** Which template it was read from. */
  via: 'python' | 'rust' | 'c10d' | 'text' | 'name' | 'subclass';
}

/** The errno a line reports, by the first producer template that names one. */
export function readErrno(line: string): ErrnoRead | undefined {
  let m: RegExpExecArray | null;
  if ((m = PY_ERRNO.exec(line))) {
    const e = byTextPrefix(m[2]!) ?? portableNumber(m[1]!);
    if (e) return { entry: e, via: 'python' };
  }
  if ((m = RUST_DEBUG.exec(line))) {
    const e = byText(m[3]!) ?? byRustKind(m[2]!) ?? portableNumber(m[1]!);
    if (e) return { entry: e, via: 'rust' };
  }
  if ((m = RUST_DISPLAY.exec(line))) {
    const e = byTextSuffix(m[1]!) ?? portableNumber(m[2]!);
    if (e) return { entry: e, via: 'rust' };
  }
  if ((m = C10D_ERRNO.exec(line))) {
    const e = byTextPrefix(m[2]!) ?? portableNumber(m[1]!);
    if (e) return { entry: e, via: 'c10d' };
  }
  if ((m = COLON_TEXT.exec(line))) {
    const e = byText(m[1]!);
    if (e) return { entry: e, via: 'text' };
  }
  if ((m = ERRNO_NAME.exec(line))) {
    const e = byName(m[1] ?? m[2]!);
    if (e) return { entry: e, via: 'name' };
  }
  if ((m = PY_SUBCLASS.exec(line))) {
    const e = byName(SUBCLASS_ERRNO[m[1]!]!);
    if (e) return { entry: e, via: 'subclass' };
  }
  return undefined;
}

const HINTS: Record<DecidingGroup, { cls: FailureClass; strength: number; hint: string }> = {
  disk: { cls: 'disk.full', strength: 89, hint: 'A write failed because the filesystem has no room (ENOSPC), the user or project quota is used up (EDQUOT), or the filesystem will not hold a file that large (EFBIG). Find which volume (df -h, quota -s; the checkpoint, cache and /tmp directories), free space or write to a larger volume, and keep fewer checkpoints.' },
  storage: { cls: 'disk.full', strength: 56, hint: 'The storage under a file failed rather than the run: an I/O error on the volume, a stale NFS file handle (the server restarted or the export changed), or a filesystem that needs fsck ("Structure needs cleaning"). Check the mount (dmesg, the NFS/FUSE daemon, the disk health) and retry on healthy storage.' },
  net: { cls: 'network.error', strength: 56, hint: 'A connection failed at the transport (refused, reset, aborted, timed out, no route, network down): check that the other side is running and listening on that host/port, firewalls and NetworkPolicies, proxies (HTTP(S)_PROXY / NO_PROXY) and the node\'s network.' },
  mem: { cls: 'host.oom', strength: 55, hint: 'The kernel refused memory (ENOMEM: "Cannot allocate memory"): the process or its cgroup is out of RAM, or a fork/mmap was refused under the overcommit limit. Check the memory limit and what holds memory (DataLoader workers, a large fork).' },
  fdlimit: { cls: 'config.error', strength: 76, hint: "The open-file limit is too low for the run (EMFILE per process, ENFILE for the host): raise it (ulimit -n 65536, the container's nofile ulimit, fs.file-max), or for PyTorch DataLoader workers use torch.multiprocessing.set_sharing_strategy('file_system')." },
  port: { cls: 'config.error', strength: 78, hint: 'The port is already in use on this host (EADDRINUSE): an earlier run still holds it or two jobs share one port. Pick a free port per job and make sure old processes are gone.' },
  rofs: { cls: 'config.error', strength: 60, hint: 'The run writes to a read-only mount (EROFS): point the output, cache or checkpoint directory at a writable volume, or mount it read-write. If the volume was writable before, the kernel may have remounted it read-only after disk errors (dmesg).' },
  exec: { cls: 'config.error', strength: 50, hint: 'A file was executed that is not an executable for this machine (ENOEXEC "Exec format error"): a binary for another CPU architecture, a truncated download, or a script without a #! line. Install the build for this platform.' },
};

/** Where network trouble is another rule's or no failure (as network.connection): NCCL's own socket layer, trackers' background retries, c10d's per-address warnings, a kubelet probe. */
const NET_ELSEWHERE = [/NCCL WARN/, NCCL_SOCKET_LINE, TRACKER_NOISE, C10D_WARNING, /\b(?:Liveness|Readiness|Startup) probe failed: /];
/**
 * ENOMEM under NCCL / ibverbs is a locked-memory limit or a registration NCCL's rules read; a CUDA error
 * with strerror's text after it (a C++ server appending errno to a CUDA status) is the CUDA rules'.
 */
const MEM_ELSEWHERE = [/\bNCCL\b|\bibv_\w+|NET\/IB/, /\bCUDA (?:error|Error|ERROR)\b|\bcuda\w*(?:Error|_ERROR)/];

function verdict(line: string, groups: readonly DecidingGroup[]): Extracted {
  const r = readErrno(line);
  if (!r) return { classOverride: null };
  const { entry } = r;
  // An older, stronger rule reads this errno in the same class wherever these would (ERRNO_READ_BY).
  if (ERRNO_READ_BY[entry.name]) return { classOverride: null };
  const group = groupIn(entry.name, { file: fileBeside(line, entry.name), socket: r.via === 'c10d' || SOCKET_LINE.test(line) });
  if (!group || !isDeciding(group) || !groups.includes(group)) return { classOverride: null };
  if (group === 'net' && NET_ELSEWHERE.some((re) => re.test(line))) return { classOverride: null };
  if (group === 'mem' && MEM_ELSEWHERE.some((re) => re.test(line))) return { classOverride: null };
  const v = HINTS[group];
  return { classOverride: v.cls, strength: v.strength, hint: v.hint, errno: entry.name, errnoGroup: group, errnoVia: r.via };
}

/** Source lines a traceback prints ("except ConnectionResetError:", "if e.errno == errno.ENOSPC:") name an errno without one happening. */
const CODE_LINES = [/\bexcept\b/, /\berrno\.E[A-Z]{2,}/];

/**
 * The patterns a rule for `groups` wakes on: the templates that carry a number or a Rust kind (shared), and
 * the texts and names of its own errnos only, so that each key belongs to the class its rule gives it (the
 * vocabulary fallback counts a rule's keys for the rule's class).
 */
function patternsFor(groups: readonly DecidingGroup[]): RegExp[] {
  const out = [PY_ERRNO, RUST_DEBUG, RUST_DISPLAY, C10D_ERRNO, colonText(groups, true), errnoName(groups, true)];
  if (groups.includes('net')) out.push(PY_OWN_SUBCLASS);
  return out;
}

export const errnoRules = defineRules([
  {
    id: 'errno.disk',
    class: 'disk.full',
    patterns: patternsFor(['disk', 'storage']),
    unless: CODE_LINES,
    strength: 89,
    extract: (line) => verdict(line, ['disk', 'storage']),
    why: 'a system call failed because the filesystem is full, over quota, or the storage under it failed (errno ENOSPC, EDQUOT, EFBIG, ESTALE, EUCLEAN, EIO on a file)',
    hint: HINTS.disk.hint,
  },
  {
    id: 'errno.network',
    class: 'network.error',
    patterns: patternsFor(['net']),
    unless: CODE_LINES,
    strength: 56,
    // The kube-apiserver failing to reach a Pod's kubelet is the Pod's node (answerer.ts), as for network.connection.
    extract: (line, m) => {
      const v = verdict(line, ['net']);
      return v.classOverride === null ? v : byAnswerer(() => v, ['kubelet'])(line, m);
    },
    why: 'a system call failed because a connection could not be made or was lost at the transport (errno ECONNREFUSED, ECONNRESET, ECONNABORTED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, ENETDOWN, …)',
    hint: HINTS.net.hint,
  },
  {
    id: 'errno.host_memory',
    class: 'host.oom',
    patterns: patternsFor(['mem']),
    unless: CODE_LINES,
    strength: 55,
    sections: RUN_LOG_ONLY,
    extract: (line) => verdict(line, ['mem']),
    why: 'a system call failed because the kernel refused memory (errno ENOMEM)',
    hint: HINTS.mem.hint,
  },
  {
    id: 'errno.host_limits',
    class: 'config.error',
    patterns: patternsFor(['fdlimit', 'port', 'rofs', 'exec']),
    unless: CODE_LINES,
    strength: 76,
    sections: RUN_LOG_ONLY,
    extract: (line) => verdict(line, ['fdlimit', 'port', 'rofs', 'exec']),
    why: "a system call hit a limit or a setting of the run's host: the open-file limit, a port in use, a read-only mount, a file that is no executable for this machine (errno EMFILE, ENFILE, EADDRINUSE, EROFS, ENOEXEC)",
    hint: "An operating-system error (errno) names a limit or a setting of the run's host: raise the limit or change the setting it names.",
  },
]);
