// The Linux error numbers as data: every errno of asm-generic/errno-base.h and asm-generic/errno.h with
// the strerror text glibc prints for it, each put in a group that says what the error means for a run,
// plus the names other producers give the same errno (CPython's OSError subclasses, Rust's io::ErrorKind,
// Node's libuv texts). rules/errno.ts reads a log line through this table by the producers' print
// templates; the narrower rules written before it (disk.enospc, disk.write_failed, network.connection,
// network.dns, host.alloc_failure, config.fd_limit, config.port_in_use, config.path_permission) keep the
// wordings they had and stay first where both match (their strengths are higher).
//
// Sources read:
// - Linux include/uapi/asm-generic/errno-base.h (1..34) and errno.h (35..133), torvalds/linux as stored
//   in the code index (errno-base.h at 2cc2c3cb, errno.h at 01b944fe): names and numbers.
// - glibc sysdeps/gnu/errlist.h at bminor/glibc 04e750e7 (2026-01-20): the strerror texts (_S(E…, N_("…"))).
// - Go src/syscall/zerrors_linux_amd64.go (golang/go at 2bd616b1): the `errors` table, the texts
//   syscall.Errno.Error() prints: glibc's lower-cased, except ESTALE "stale NFS file handle" (an older
//   glibc text) and no EHWPOISON.
// - libuv include/uv.h UV_ERRNO_MAP (libuv/libuv at 6179e7af, 2026-05-15): the texts Node prints
//   (uv_strerror), which are libuv's own words, not glibc's, for about half the codes.
// - Node lib/internal/errors.js templates (uvException "CODE: text, syscall 'path'", uvExceptionWithHostPort
//   "syscall CODE: text address:port", exceptionWithHostPort / errnoException "syscall CODE[ address:port]"),
//   read in the Deno ports of that file in the code index (ext/node/polyfills/internal/errors.ts).
// - CPython Objects/exceptions.c: OSError_str ("[Errno %S] %S", "[Errno %S] %S: %R", "[Errno %S] %S: %R -> %R")
//   and _PyExc_InitState's errnomap (ADD_ERRNO: which errno raises which OSError subclass).
// - Rust library/std/src/sys/pal/unix/mod.rs decode_error_kind (errno → io::ErrorKind; older releases name
//   EDQUOT FilesystemQuotaExceeded), and io::Error's Debug `Os { code, kind, message }` / Display
//   "message (os error N)".

import type { FailureClass } from '../taxonomy.js';

/**
 * What an errno says about the run:
 * - disk: the filesystem has no room for the write (ENOSPC, EDQUOT) or will not take a file that large
 *   (EFBIG): disk.full;
 * - storage: the volume under a file failed (a stale NFS handle, a corrupted filesystem, an I/O error on a
 *   file): disk.full, weaker, the class fdiag uses for storage the run cannot write (as disk.write_failed).
 *   EIO and EREMOTEIO count only beside their file (IN_CONTEXT): "[Errno 5] Input/output error" alone is
 *   as often a terminal that went away as a disk; ENOTCONN beside a file is a FUSE mount whose daemon died;
 * - net: a connection could not be made or was lost at the transport (refused, reset, aborted, timed out,
 *   no route, network down): network.error;
 * - mem: the kernel refused memory (ENOMEM): host.oom, weak (an mmap or fork refused under overcommit
 *   limits is still the host's memory; a locked-memory limit under NCCL/ibverbs is NCCL's rules');
 * - fdlimit: the open-file limit of the process or the host (EMFILE, ENFILE): config.error, like
 *   config.fd_limit;
 * - port: the address is taken (EADDRINUSE): config.error, like config.port_in_use;
 * - rofs: a read-only mount (EROFS): config.error, like config.path_permission;
 * - exec: a file that is not an executable for this machine (ENOEXEC): config.error;
 * - echo: the other end of a pipe, socket or lock is already gone (EPIPE, ESHUTDOWN, ENOTCONN,
 *   EOWNERDEAD, ENOTRECOVERABLE) or the operation was cancelled (ECANCELED): the cause is whatever ended
 *   the other side, so it decides nothing; EPIPE and ESHUTDOWN on a socket's line are net, ENOTCONN beside
 *   a file storage (IN_CONTEXT);
 * - platform: the kernel, sandbox or hardware lacks or refuses a feature (ENOSYS, EOPNOTSUPP, the
 *   protocol/family "not supported" codes, EHWPOISON): whether the code asked for something it should not
 *   or the platform is wrong is not in the errno (and no class names a host hardware fault);
 * - generic: means nothing on its own: the operation and the path decide (ENOENT, EACCES, EPERM, EINTR,
 *   EAGAIN, EBADF, EINVAL, EEXIST, …) and the rules that know the operation read them;
 * - legacy: STREAMS, XENIX, RFS, a.out, ISDN-era and key-ring codes that no failure of a training or
 *   evaluation run returns in practice; kept so the table is the whole errno space.
 */
export type ErrnoGroup = 'disk' | 'storage' | 'net' | 'mem' | 'fdlimit' | 'port' | 'rofs' | 'exec' | 'echo' | 'platform' | 'generic' | 'legacy';

/** Groups that decide a class; the others never fire the rule. */
export const DECIDING_GROUPS = ['disk', 'storage', 'net', 'mem', 'fdlimit', 'port', 'rofs', 'exec'] as const;
export type DecidingGroup = (typeof DECIDING_GROUPS)[number];
export const isDeciding = (g: ErrnoGroup): g is DecidingGroup => (DECIDING_GROUPS as readonly string[]).includes(g);

/** Linux errno: [number, name, glibc strerror text, group]. EWOULDBLOCK (= EAGAIN) and EDEADLOCK (= EDEADLK) are aliases. */
export const LINUX_ERRNOS: readonly (readonly [number, string, string, ErrnoGroup])[] = [
  [1, 'EPERM', 'Operation not permitted', 'generic'],
  [2, 'ENOENT', 'No such file or directory', 'generic'],
  [3, 'ESRCH', 'No such process', 'generic'],
  [4, 'EINTR', 'Interrupted system call', 'generic'],
  [5, 'EIO', 'Input/output error', 'storage'],
  [6, 'ENXIO', 'No such device or address', 'generic'],
  [7, 'E2BIG', 'Argument list too long', 'generic'],
  [8, 'ENOEXEC', 'Exec format error', 'exec'],
  [9, 'EBADF', 'Bad file descriptor', 'generic'],
  [10, 'ECHILD', 'No child processes', 'generic'],
  [11, 'EAGAIN', 'Resource temporarily unavailable', 'generic'],
  [12, 'ENOMEM', 'Cannot allocate memory', 'mem'],
  [13, 'EACCES', 'Permission denied', 'generic'],
  [14, 'EFAULT', 'Bad address', 'generic'],
  [15, 'ENOTBLK', 'Block device required', 'generic'],
  [16, 'EBUSY', 'Device or resource busy', 'generic'],
  [17, 'EEXIST', 'File exists', 'generic'],
  [18, 'EXDEV', 'Invalid cross-device link', 'generic'],
  [19, 'ENODEV', 'No such device', 'generic'],
  [20, 'ENOTDIR', 'Not a directory', 'generic'],
  [21, 'EISDIR', 'Is a directory', 'generic'],
  [22, 'EINVAL', 'Invalid argument', 'generic'],
  [23, 'ENFILE', 'Too many open files in system', 'fdlimit'],
  [24, 'EMFILE', 'Too many open files', 'fdlimit'],
  [25, 'ENOTTY', 'Inappropriate ioctl for device', 'generic'],
  [26, 'ETXTBSY', 'Text file busy', 'generic'],
  [27, 'EFBIG', 'File too large', 'disk'],
  [28, 'ENOSPC', 'No space left on device', 'disk'],
  [29, 'ESPIPE', 'Illegal seek', 'generic'],
  [30, 'EROFS', 'Read-only file system', 'rofs'],
  [31, 'EMLINK', 'Too many links', 'generic'],
  [32, 'EPIPE', 'Broken pipe', 'echo'],
  [33, 'EDOM', 'Numerical argument out of domain', 'generic'],
  [34, 'ERANGE', 'Numerical result out of range', 'generic'],
  [35, 'EDEADLK', 'Resource deadlock avoided', 'generic'],
  [36, 'ENAMETOOLONG', 'File name too long', 'generic'],
  [37, 'ENOLCK', 'No locks available', 'generic'],
  [38, 'ENOSYS', 'Function not implemented', 'platform'],
  [39, 'ENOTEMPTY', 'Directory not empty', 'generic'],
  [40, 'ELOOP', 'Too many levels of symbolic links', 'generic'],
  [42, 'ENOMSG', 'No message of desired type', 'generic'],
  [43, 'EIDRM', 'Identifier removed', 'generic'],
  [44, 'ECHRNG', 'Channel number out of range', 'legacy'],
  [45, 'EL2NSYNC', 'Level 2 not synchronized', 'legacy'],
  [46, 'EL3HLT', 'Level 3 halted', 'legacy'],
  [47, 'EL3RST', 'Level 3 reset', 'legacy'],
  [48, 'ELNRNG', 'Link number out of range', 'legacy'],
  [49, 'EUNATCH', 'Protocol driver not attached', 'legacy'],
  [50, 'ENOCSI', 'No CSI structure available', 'legacy'],
  [51, 'EL2HLT', 'Level 2 halted', 'legacy'],
  [52, 'EBADE', 'Invalid exchange', 'legacy'],
  [53, 'EBADR', 'Invalid request descriptor', 'legacy'],
  [54, 'EXFULL', 'Exchange full', 'legacy'],
  [55, 'ENOANO', 'No anode', 'legacy'],
  [56, 'EBADRQC', 'Invalid request code', 'legacy'],
  [57, 'EBADSLT', 'Invalid slot', 'legacy'],
  [59, 'EBFONT', 'Bad font file format', 'legacy'],
  [60, 'ENOSTR', 'Device not a stream', 'legacy'],
  [61, 'ENODATA', 'No data available', 'generic'],
  [62, 'ETIME', 'Timer expired', 'legacy'],
  [63, 'ENOSR', 'Out of streams resources', 'legacy'],
  [64, 'ENONET', 'Machine is not on the network', 'net'],
  [65, 'ENOPKG', 'Package not installed', 'legacy'],
  [66, 'EREMOTE', 'Object is remote', 'legacy'],
  [67, 'ENOLINK', 'Link has been severed', 'legacy'],
  [68, 'EADV', 'Advertise error', 'legacy'],
  [69, 'ESRMNT', 'Srmount error', 'legacy'],
  [70, 'ECOMM', 'Communication error on send', 'legacy'],
  [71, 'EPROTO', 'Protocol error', 'generic'],
  [72, 'EMULTIHOP', 'Multihop attempted', 'legacy'],
  [73, 'EDOTDOT', 'RFS specific error', 'legacy'],
  [74, 'EBADMSG', 'Bad message', 'generic'],
  [75, 'EOVERFLOW', 'Value too large for defined data type', 'generic'],
  [76, 'ENOTUNIQ', 'Name not unique on network', 'legacy'],
  [77, 'EBADFD', 'File descriptor in bad state', 'generic'],
  [78, 'EREMCHG', 'Remote address changed', 'legacy'],
  [79, 'ELIBACC', 'Can not access a needed shared library', 'legacy'],
  [80, 'ELIBBAD', 'Accessing a corrupted shared library', 'legacy'],
  [81, 'ELIBSCN', '.lib section in a.out corrupted', 'legacy'],
  [82, 'ELIBMAX', 'Attempting to link in too many shared libraries', 'legacy'],
  [83, 'ELIBEXEC', 'Cannot exec a shared library directly', 'legacy'],
  [84, 'EILSEQ', 'Invalid or incomplete multibyte or wide character', 'generic'],
  [85, 'ERESTART', 'Interrupted system call should be restarted', 'legacy'],
  [86, 'ESTRPIPE', 'Streams pipe error', 'legacy'],
  [87, 'EUSERS', 'Too many users', 'legacy'],
  [88, 'ENOTSOCK', 'Socket operation on non-socket', 'generic'],
  [89, 'EDESTADDRREQ', 'Destination address required', 'generic'],
  [90, 'EMSGSIZE', 'Message too long', 'generic'],
  [91, 'EPROTOTYPE', 'Protocol wrong type for socket', 'platform'],
  [92, 'ENOPROTOOPT', 'Protocol not available', 'platform'],
  [93, 'EPROTONOSUPPORT', 'Protocol not supported', 'platform'],
  [94, 'ESOCKTNOSUPPORT', 'Socket type not supported', 'platform'],
  [95, 'EOPNOTSUPP', 'Operation not supported', 'platform'],
  [96, 'EPFNOSUPPORT', 'Protocol family not supported', 'platform'],
  [97, 'EAFNOSUPPORT', 'Address family not supported by protocol', 'platform'],
  [98, 'EADDRINUSE', 'Address already in use', 'port'],
  // On bind an address that is not this host's (a launch setting), on connect the ephemeral ports used up
  // (the host's network): the errno alone does not say which.
  [99, 'EADDRNOTAVAIL', 'Cannot assign requested address', 'generic'],
  [100, 'ENETDOWN', 'Network is down', 'net'],
  [101, 'ENETUNREACH', 'Network is unreachable', 'net'],
  [102, 'ENETRESET', 'Network dropped connection on reset', 'net'],
  [103, 'ECONNABORTED', 'Software caused connection abort', 'net'],
  [104, 'ECONNRESET', 'Connection reset by peer', 'net'],
  [105, 'ENOBUFS', 'No buffer space available', 'net'],
  [106, 'EISCONN', 'Transport endpoint is already connected', 'generic'],
  // A socket whose peer is gone, or beside a file a FUSE mount whose daemon died (gcsfuse, s3fs): IN_CONTEXT.
  [107, 'ENOTCONN', 'Transport endpoint is not connected', 'echo'],
  [108, 'ESHUTDOWN', 'Cannot send after transport endpoint shutdown', 'echo'],
  [109, 'ETOOMANYREFS', 'Too many references: cannot splice', 'generic'],
  [110, 'ETIMEDOUT', 'Connection timed out', 'net'],
  [111, 'ECONNREFUSED', 'Connection refused', 'net'],
  [112, 'EHOSTDOWN', 'Host is down', 'net'],
  [113, 'EHOSTUNREACH', 'No route to host', 'net'],
  [114, 'EALREADY', 'Operation already in progress', 'generic'],
  [115, 'EINPROGRESS', 'Operation now in progress', 'generic'],
  [116, 'ESTALE', 'Stale file handle', 'storage'],
  [117, 'EUCLEAN', 'Structure needs cleaning', 'storage'],
  [118, 'ENOTNAM', 'Not a XENIX named type file', 'legacy'],
  [119, 'ENAVAIL', 'No XENIX semaphores available', 'legacy'],
  [120, 'EISNAM', 'Is a named type file', 'legacy'],
  [121, 'EREMOTEIO', 'Remote I/O error', 'storage'],
  [122, 'EDQUOT', 'Disk quota exceeded', 'disk'],
  [123, 'ENOMEDIUM', 'No medium found', 'legacy'],
  [124, 'EMEDIUMTYPE', 'Wrong medium type', 'legacy'],
  [125, 'ECANCELED', 'Operation canceled', 'echo'],
  [126, 'ENOKEY', 'Required key not available', 'legacy'],
  [127, 'EKEYEXPIRED', 'Key has expired', 'legacy'],
  [128, 'EKEYREVOKED', 'Key has been revoked', 'legacy'],
  [129, 'EKEYREJECTED', 'Key was rejected by service', 'legacy'],
  [130, 'EOWNERDEAD', 'Owner died', 'echo'],
  [131, 'ENOTRECOVERABLE', 'State not recoverable', 'echo'],
  [132, 'ERFKILL', 'Operation not possible due to RF-kill', 'legacy'],
  [133, 'EHWPOISON', 'Memory page has hardware error', 'platform'],
];

/** Texts an errno is printed with besides glibc's (lower-cased comparison): Go's table where it differs. */
export const OTHER_TEXTS: Readonly<Record<string, readonly string[]>> = {
  // Go zerrors_linux_*.go keeps the older glibc text.
  ESTALE: ['stale NFS file handle'],
};

/** Node's libuv texts (include/uv.h UV_ERRNO_MAP) for the errnos libuv maps; the others print "unknown error". */
export const LIBUV_TEXTS: Readonly<Record<string, string>> = {
  E2BIG: 'argument list too long', EACCES: 'permission denied', EADDRINUSE: 'address already in use', EADDRNOTAVAIL: 'address not available',
  EAFNOSUPPORT: 'address family not supported', EAGAIN: 'resource temporarily unavailable', EALREADY: 'connection already in progress',
  EBADF: 'bad file descriptor', EBUSY: 'resource busy or locked', ECANCELED: 'operation canceled', ECONNABORTED: 'software caused connection abort',
  ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset by peer', EDESTADDRREQ: 'destination address required', EEXIST: 'file already exists',
  EFAULT: 'bad address in system call argument', EFBIG: 'file too large', EHOSTUNREACH: 'host is unreachable', EINTR: 'interrupted system call',
  EINVAL: 'invalid argument', EIO: 'i/o error', EISCONN: 'socket is already connected', EISDIR: 'illegal operation on a directory',
  ELOOP: 'too many symbolic links encountered', EMFILE: 'too many open files', EMSGSIZE: 'message too long', ENAMETOOLONG: 'name too long',
  ENETDOWN: 'network is down', ENETUNREACH: 'network is unreachable', ENFILE: 'file table overflow', ENOBUFS: 'no buffer space available',
  ENODEV: 'no such device', ENOENT: 'no such file or directory', ENOMEM: 'not enough memory', ENONET: 'machine is not on the network',
  ENOPROTOOPT: 'protocol not available', ENOSPC: 'no space left on device', ENOSYS: 'function not implemented', ENOTCONN: 'socket is not connected',
  ENOTDIR: 'not a directory', ENOTEMPTY: 'directory not empty', ENOTSOCK: 'socket operation on non-socket', ENOTSUP: 'operation not supported on socket',
  EOVERFLOW: 'value too large for defined data type', EPERM: 'operation not permitted', EPIPE: 'broken pipe', EPROTO: 'protocol error',
  EPROTONOSUPPORT: 'protocol not supported', EPROTOTYPE: 'protocol wrong type for socket', ERANGE: 'result too large', EROFS: 'read-only file system',
  ESHUTDOWN: 'cannot send after transport endpoint shutdown', ESPIPE: 'invalid seek', ESRCH: 'no such process', ETIMEDOUT: 'connection timed out',
  ETXTBSY: 'text file is busy', EXDEV: 'cross-device link not permitted', ENXIO: 'no such device or address', EMLINK: 'too many links',
  EHOSTDOWN: 'host is down', EREMOTEIO: 'remote I/O error', ENOTTY: 'inappropriate ioctl for device', EILSEQ: 'illegal byte sequence',
  ESOCKTNOSUPPORT: 'socket type not supported', ENODATA: 'no data available', EUNATCH: 'protocol driver not attached', ENOEXEC: 'exec format error',
};

/** CPython's OSError subclass for an errno (Objects/exceptions.c errnomap); any other errno raises OSError itself. */
export const PY_OSERROR_SUBCLASS: Readonly<Record<string, string>> = {
  EAGAIN: 'BlockingIOError', EALREADY: 'BlockingIOError', EINPROGRESS: 'BlockingIOError',
  EPIPE: 'BrokenPipeError', ESHUTDOWN: 'BrokenPipeError',
  ECHILD: 'ChildProcessError',
  ECONNABORTED: 'ConnectionAbortedError', ECONNREFUSED: 'ConnectionRefusedError', ECONNRESET: 'ConnectionResetError',
  EEXIST: 'FileExistsError', ENOENT: 'FileNotFoundError', EISDIR: 'IsADirectoryError', ENOTDIR: 'NotADirectoryError',
  EINTR: 'InterruptedError', EACCES: 'PermissionError', EPERM: 'PermissionError', ESRCH: 'ProcessLookupError',
  ETIMEDOUT: 'TimeoutError',
};

/** Rust's io::ErrorKind for an errno (decode_error_kind); any other errno is Uncategorized. */
export const RUST_ERROR_KIND: Readonly<Record<string, string>> = {
  E2BIG: 'ArgumentListTooLong', EADDRINUSE: 'AddrInUse', EADDRNOTAVAIL: 'AddrNotAvailable', EBUSY: 'ResourceBusy',
  ECONNABORTED: 'ConnectionAborted', ECONNREFUSED: 'ConnectionRefused', ECONNRESET: 'ConnectionReset', EDEADLK: 'Deadlock',
  EDQUOT: 'QuotaExceeded', EEXIST: 'AlreadyExists', EFBIG: 'FileTooLarge', EHOSTUNREACH: 'HostUnreachable', EINTR: 'Interrupted',
  EINVAL: 'InvalidInput', EISDIR: 'IsADirectory', ELOOP: 'FilesystemLoop', ENOENT: 'NotFound', ENOMEM: 'OutOfMemory',
  ENOSPC: 'StorageFull', ENOSYS: 'Unsupported', EMLINK: 'TooManyLinks', ENAMETOOLONG: 'InvalidFilename', ENETDOWN: 'NetworkDown',
  ENETUNREACH: 'NetworkUnreachable', ENOTCONN: 'NotConnected', ENOTDIR: 'NotADirectory', ENOTEMPTY: 'DirectoryNotEmpty',
  EPIPE: 'BrokenPipe', EROFS: 'ReadOnlyFilesystem', ESPIPE: 'NotSeekable', ESTALE: 'StaleNetworkFileHandle', ETIMEDOUT: 'TimedOut',
  ETXTBSY: 'ExecutableFileBusy', EXDEV: 'CrossesDevices', EINPROGRESS: 'InProgress', EOPNOTSUPP: 'Unsupported', EACCES: 'PermissionDenied',
  EPERM: 'PermissionDenied', EAGAIN: 'WouldBlock',
};

/** Rust kinds of older releases for the same errno. */
export const RUST_OLD_KINDS: Readonly<Record<string, string>> = { FilesystemQuotaExceeded: 'EDQUOT' };

/**
 * Errnos whose meaning the line around them decides: `file` is the group when the errno's own file is
 * printed beside its text (CPython's filename, Go's os.PathError, Node's path, perror's operand), `socket`
 * when the line is a socket's (Go's net.OpError "write tcp a->b: …", c10d's store socket), and every other
 * line gets `otherwise`.
 * - EIO / EREMOTEIO on a named file are the volume failing; alone, "[Errno 5] Input/output error" is as
 *   often a terminal or pty that went away.
 * - EPIPE / ESHUTDOWN on a socket are the peer closing the connection (network.error, a peer-gone symptom
 *   where the peer's own failure is in the bundle, as BrokenPipeError is); on a pipe (stdout into `head`) or
 *   alone, nothing.
 * - ENOTCONN on a named file is a FUSE mount whose daemon died (gcsfuse, s3fs, Drive): the run's volume is
 *   gone; on a socket it is a peer already gone.
 */
export const IN_CONTEXT: Readonly<Record<string, { file?: ErrnoGroup; socket?: ErrnoGroup; otherwise: ErrnoGroup }>> = {
  EIO: { file: 'storage', otherwise: 'echo' },
  EREMOTEIO: { file: 'storage', otherwise: 'echo' },
  EPIPE: { socket: 'net', otherwise: 'echo' },
  ESHUTDOWN: { socket: 'net', otherwise: 'echo' },
  ENOTCONN: { file: 'storage', otherwise: 'echo' },
};

/**
 * Errnos an older, stronger rule already reads in the same class on every line shape the errno rules
 * would read (pkg-vocab.ts's `readBy` convention): its text, any case (glibc's, Go's and libuv's), its
 * name, CPython's number and subclass. The errno rules build no pattern from them and decide nothing on
 * them, so such a line has one rule. Not here: the errnos an older rule reads in some shapes only (EDQUOT
 * and EMFILE by glibc's capitalised text but not Go's lower-case one, EHOSTUNREACH / ENETUNREACH likewise,
 * ENOMEM not by Node's "not enough memory", ETIMEDOUT on connect only, ECONNABORTED by another text).
 */
export const ERRNO_READ_BY: Readonly<Record<string, { rule: string; class: FailureClass }>> = {
  ENOSPC: { rule: 'disk.enospc', class: 'disk.full' },
  EADDRINUSE: { rule: 'config.port_in_use', class: 'config.error' },
  ECONNREFUSED: { rule: 'network.connection', class: 'network.error' },
  ECONNRESET: { rule: 'network.connection', class: 'network.error' },
};

/** The group of an errno on a line: the table's, or its context's (IN_CONTEXT). */
export function groupIn(name: string, ctx: { file: boolean; socket: boolean }): ErrnoGroup | undefined {
  const e = BY_NAME.get(name);
  if (!e) return undefined;
  const c = IN_CONTEXT[e.name];
  if (!c) return e.group;
  if (ctx.socket && c.socket) return c.socket;
  if (ctx.file && !ctx.socket && c.file) return c.file;
  return c.otherwise;
}

const BY_NAME = new Map(LINUX_ERRNOS.map(([num, name, text, group]) => [name, { num, name, text, group }] as const));
// Aliases: the same number under a second name (asm-generic/errno.h, libuv's ENOTSUP = EOPNOTSUPP on Linux).
for (const [alias, of] of [['EWOULDBLOCK', 'EAGAIN'], ['EDEADLOCK', 'EDEADLK'], ['ENOTSUP', 'EOPNOTSUPP']] as const) BY_NAME.set(alias, BY_NAME.get(of)!);
const BY_NUM = new Map(LINUX_ERRNOS.map(([num, name]) => [num, name] as const));

export interface ErrnoEntry {
  num: number;
  name: string;
  text: string;
  group: ErrnoGroup;
}

/** glibc's and Go's texts, lower-cased, with the errno's name: what C, Go, Rust and Python print after the errno. */
const OS_TEXTS = new Map<string, string>();
for (const [, name, text] of LINUX_ERRNOS) OS_TEXTS.set(text.toLowerCase(), name);
for (const [name, texts] of Object.entries(OTHER_TEXTS)) for (const t of texts) OS_TEXTS.set(t.toLowerCase(), name);

/**
 * Every text an errno is printed with, lower-cased, with its name, longest first: glibc, Go, then libuv's
 * where it says something else (Node always prints the code beside libuv's text, so the code decides there).
 */
export const ERRNO_TEXTS: readonly (readonly [string, string])[] = (() => {
  const out = new Map(OS_TEXTS);
  for (const [name, t] of Object.entries(LIBUV_TEXTS)) if (!out.has(t.toLowerCase())) out.set(t.toLowerCase(), BY_NAME.get(name)!.name);
  return [...out.entries()].sort((a, b) => b[0].length - a[0].length);
})();

export function byName(name: string): ErrnoEntry | undefined {
  return BY_NAME.get(name);
}

/** A Linux errno number. Numbers above 34 differ on macOS and the BSDs; callers read the text first. */
export function byNumber(num: number): ErrnoEntry | undefined {
  const name = BY_NUM.get(num);
  return name ? BY_NAME.get(name) : undefined;
}

/** The entry whose text (glibc, Go or libuv) `s` is, whole, case aside. */
export function byText(s: string): ErrnoEntry | undefined {
  const k = s.trim().toLowerCase();
  const hit = ERRNO_TEXTS.find(([t]) => t === k);
  return hit ? BY_NAME.get(hit[1]) : undefined;
}

/** The entry whose text `s` starts with (the longest such text: "Too many open files in system" before "Too many open files"). */
export function byTextPrefix(s: string): ErrnoEntry | undefined {
  const k = s.trimStart().toLowerCase();
  const hit = ERRNO_TEXTS.find(([t]) => k.startsWith(t));
  return hit ? BY_NAME.get(hit[1]) : undefined;
}

/** The entry whose text `s` ends with (what precedes Rust's " (os error N)", after the caller's own words). */
export function byTextSuffix(s: string): ErrnoEntry | undefined {
  const k = s.trimEnd().toLowerCase();
  const hit = ERRNO_TEXTS.find(([t]) => k.endsWith(t) && (k.length === t.length || /[\s:(]/.test(k[k.length - t.length - 1]!)));
  return hit ? BY_NAME.get(hit[1]) : undefined;
}

/** Every text the errno is printed with (glibc, Go, libuv), lower-cased. */
export function textsOf(name: string): string[] {
  const e = BY_NAME.get(name);
  if (!e) return [];
  return ERRNO_TEXTS.filter(([, n]) => n === e.name).map(([t]) => t);
}

/** The errno a Rust io::ErrorKind stands for (only kinds that one errno maps to). */
export function byRustKind(kind: string): ErrnoEntry | undefined {
  if (RUST_OLD_KINDS[kind]) return BY_NAME.get(RUST_OLD_KINDS[kind]!);
  const names = Object.entries(RUST_ERROR_KIND).filter(([, k]) => k === kind).map(([n]) => n);
  return names.length === 1 ? BY_NAME.get(names[0]!) : undefined;
}

/** Whether an errno can be in one of `groups`: by the table, or on some line by IN_CONTEXT. */
function reaches(name: string, group: ErrnoGroup, groups: readonly ErrnoGroup[]): boolean {
  const c = IN_CONTEXT[name];
  return groups.includes(group) || (!!c && [c.file, c.socket, c.otherwise].some((g) => g !== undefined && groups.includes(g)));
}

/** The names of the errnos that can be in `groups` (the deciding ones by default), for the rules' patterns (their literals are the prefilter keys). */
export function decidingNames(groups: readonly ErrnoGroup[] = DECIDING_GROUPS): string[] {
  return LINUX_ERRNOS.filter(([, n, , g]) => reaches(n, g, groups)).map(([, n]) => n);
}

/** glibc's and Go's texts of the errnos that can be in `groups` (the deciding ones by default), longest first (libuv's come with Node's code beside them). */
export function decidingTexts(groups: readonly ErrnoGroup[] = DECIDING_GROUPS): string[] {
  return [...OS_TEXTS.entries()].filter(([, n]) => reaches(n, BY_NAME.get(n)!.group, groups)).map(([t]) => t).sort((a, b) => b.length - a.length);
}
