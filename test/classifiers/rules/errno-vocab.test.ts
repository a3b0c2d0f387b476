// The Linux errno vocabulary (rules/errno-vocab.ts, rules errno.*): every errno is read as itself through
// each producer's print template (CPython, Go, C perror, Rust io::Error, Node, c10d), a deciding group
// gives its class whichever template printed it, the other groups decide nothing, and the groups order
// against real causes the way the messages mean.
import { describe, expect, it } from 'vitest';
import {
  byTextPrefix,
  ERRNO_READ_BY,
  ERRNO_TEXTS,
  type ErrnoGroup,
  groupIn,
  IN_CONTEXT,
  isDeciding,
  LIBUV_TEXTS,
  LINUX_ERRNOS,
  OTHER_TEXTS,
  PY_OSERROR_SUBCLASS,
  RUST_ERROR_KIND,
} from '../../../src/classifiers/rules/errno-vocab.js';
import { errnoRules, readErrno } from '../../../src/classifiers/rules/errno.js';
import { classifyText } from '../helpers.js';

/** What each group must mean for a run (TAXONOMY.md), stated here rather than read from the rules. */
const GROUP_CLASS: Partial<Record<ErrnoGroup, string>> = {
  disk: 'disk.full',
  storage: 'disk.full',
  net: 'network.error',
  mem: 'host.oom',
  fdlimit: 'config.error',
  port: 'config.error',
  rofs: 'config.error',
  exec: 'config.error',
};

const FILE = '/mnt/ckpt/run-17/step_4000/model-00002-of-00004.safetensors';
const errnoRulesOf = (text: string, path?: string) => classifyText(text, path).evidence.map((e) => e.rule).filter((r) => r.startsWith('errno.'));

interface Printed {
  producer: string;
  line: string;
  /** The errno's own file is printed beside it (what IN_CONTEXT's `file` reads). */
  file: boolean;
  /** The line is a socket's (IN_CONTEXT's `socket`). */
  socket: boolean;
}

/** How each producer prints errno `name` (number `num`, glibc text `text`), in its own template. */
function printed(num: number, name: string, text: string, group: ErrnoGroup): Printed[] {
  const net = group === 'net';
  // An errno a socket gives its meaning (EPIPE, ESHUTDOWN) is printed the way a socket prints it too.
  const sock = net || IN_CONTEXT[name]?.socket !== undefined;
  const pyClass = PY_OSERROR_SUBCLASS[name] ?? 'OSError';
  const out: Printed[] = [
    // CPython OSError_str with and without a filename.
    { producer: 'python', line: `${pyClass}: [Errno ${num}] ${text}: '${FILE}'`, file: true, socket: false },
    { producer: 'python, no filename', line: `${pyClass}: [Errno ${num}] ${text}`, file: false, socket: false },
    // GNU coreutils through perror/strerror.
    { producer: 'perror', line: `cp: error writing '${FILE}': ${text}`, file: true, socket: false },
    // Rust io::Error, Debug and Display.
    { producer: 'rust debug', line: `Error: Os { code: ${num}, kind: ${RUST_ERROR_KIND[name] ?? 'Uncategorized'}, message: "${text}" }`, file: false, socket: false },
    { producer: 'rust display', line: `Error: failed to write ${FILE}: ${text} (os error ${num})`, file: true, socket: false },
  ];
  // Go's syscall.Errno text (zerrors_linux_amd64.go has none for EHWPOISON) in os.PathError / net.OpError.
  if (name !== 'EHWPOISON') {
    const go = (OTHER_TEXTS[name]?.[0] ?? text).toLowerCase();
    out.push({ producer: 'go', line: `open ${FILE}: ${go}`, file: true, socket: false });
    if (net) out.push({ producer: 'go net', line: `dial tcp 10.42.0.17:8000: connect: ${go}`, file: false, socket: true });
    if (sock) out.push({ producer: 'go net', line: `write tcp 10.42.0.9:51234->10.42.0.17:8000: write: ${go}`, file: false, socket: true });
  }
  // Node prints the errnos libuv maps, with libuv's text (uvException) or the code after the syscall (net).
  const uv = LIBUV_TEXTS[name];
  if (uv) out.push({ producer: 'node', line: `Error: ${name}: ${uv}, open '${FILE}'`, file: true, socket: false });
  if (uv && net) out.push({ producer: 'node net', line: `Error: connect ${name} 10.42.0.17:8000`, file: false, socket: false });
  // PyTorch c10d's store client (socket.cpp) gives up on a connection.
  if (sock) out.push({ producer: 'c10d', line: `[E1202 10:11:12.345678 socket.cpp:1019] [c10d] The client socket has failed to connect to [trainer-0.trainer.svc]:29500 (errno: ${num} - ${text}).`, file: false, socket: true });
  return out;
}

describe('the table is the whole Linux errno space', () => {
  it('holds every number of errno-base.h and errno.h once (41 and 58 are unassigned)', () => {
    const nums = LINUX_ERRNOS.map(([n]) => n);
    expect(new Set(nums).size).toBe(nums.length);
    const expected = Array.from({ length: 133 }, (_, i) => i + 1).filter((n) => n !== 41 && n !== 58);
    expect([...nums].sort((a, b) => a - b)).toEqual(expected);
    expect(new Set(LINUX_ERRNOS.map(([, name]) => name)).size).toBe(nums.length);
  });

  it("names only errnos of the table in the other producers' maps", () => {
    const names = new Set(LINUX_ERRNOS.map(([, n]) => n));
    for (const n of [...Object.keys(LIBUV_TEXTS), ...Object.keys(PY_OSERROR_SUBCLASS), ...Object.keys(RUST_ERROR_KIND), ...Object.keys(OTHER_TEXTS), ...Object.keys(IN_CONTEXT)])
      expect(names.has(n) || n === 'ENOTSUP', n).toBe(true);
  });

  it('reads a text as the longest errno text it starts with', () => {
    expect(byTextPrefix('Too many open files in system')?.name).toBe('ENFILE');
    expect(byTextPrefix('Too many open files')?.name).toBe('EMFILE');
    expect(byTextPrefix('Address family not supported by protocol')?.name).toBe('EAFNOSUPPORT');
    expect(ERRNO_TEXTS.length).toBeGreaterThan(LINUX_ERRNOS.length);
  });

  it('reads a number above 34 only with its Linux text (macOS and the BSDs number those differently)', () => {
    // macOS ETIMEDOUT is 60 "Operation timed out"; Linux 60 is ENOSTR: neither the text nor the number is Linux's.
    expect(readErrno('TimeoutError: [Errno 60] Operation timed out')).toBeUndefined();
    // macOS ECONNREFUSED is 61 (Linux ENODATA): the text says which.
    expect(readErrno('ConnectionRefusedError: [Errno 61] Connection refused')?.entry.name).toBe('ECONNREFUSED');
    // 1..34 are the same on every Unix: a localized text still reads by the number.
    expect(readErrno("OSError: [Errno 28] Espace disque insuffisant: '/data/x'")?.entry.name).toBe('ENOSPC');
  });
});

describe('every errno through the templates that print it', () => {
  it.each(LINUX_ERRNOS.map(([num, name, text, group]) => [`${num} ${name} (${group})`, num, name, text, group] as const))('%s', (_label, num, name, text, group) => {
    const classes = new Set<string>();
    for (const p of printed(num, name, text, group)) {
      // Each template is read as this errno (aliases aside: ENOTSUP is EOPNOTSUPP).
      expect(readErrno(p.line)?.entry.name, `${p.producer}: ${p.line}`).toBe(name);
      // The table's group, or the one the line's context gives it (IN_CONTEXT).
      const g = groupIn(name, p)!;
      if (isDeciding(g)) {
        const d = classifyText(p.line);
        expect(d.class, `${p.producer}: ${p.line}`).toBe(GROUP_CLASS[g]);
        classes.add(`${p.file}/${p.socket}:${d.class}`);
      } else {
        expect(errnoRulesOf(p.line), `${p.producer}: ${p.line}`).toEqual([]);
      }
    }
    // All templates of one errno agree, wherever its context is the same.
    expect(new Set([...classes].map((c) => c.split(':')[0])).size).toBe(classes.size);
  });
});

describe('what the table adds and what it leaves to the narrower rules', () => {
  it('leaves the wordings the narrower rules knew to them (first place by strength)', () => {
    const first = (t: string) => classifyText(t).evidence[0]?.rule;
    expect(first(`OSError: [Errno 28] No space left on device: '${FILE}'`)).toBe('disk.enospc');
    expect(first('ConnectionRefusedError: [Errno 111] Connection refused')).toBe('network.connection');
    expect(first('OSError: [Errno 24] Too many open files')).toBe('config.fd_limit');
    expect(first('OSError: [Errno 98] Address already in use')).toBe('config.port_in_use');
    expect(first('OSError: [Errno 12] Cannot allocate memory')).toBe('host.alloc_failure');
  });

  it("decides the lower-case texts of Go and the codes of Node no rule listed", () => {
    expect(classifyText('write /scratch/u123/ckpt/step_3000/optimizer.pt: disk quota exceeded').evidence[0]?.rule).toBe('errno.disk');
    expect(classifyText('http: Accept error: accept tcp [::]:8080: accept4: too many open files; retrying in 5ms').class).toBe('config.error');
    expect(classifyText('open /data/out/metrics.json: read-only file system').class).toBe('config.error');
    expect(classifyText('Error: spawn ENOMEM').class).toBe('host.oom');
    expect(classifyText('ConnectionAbortedError: [Errno 103] Software caused connection abort').evidence[0]?.rule).toBe('errno.network');
    expect(classifyText("OSError: [Errno 116] Stale file handle: '/nfs/ckpt/latest'").evidence[0]?.rule).toBe('errno.disk');
    expect(classifyText("{ errno: -110, code: 'ETIMEDOUT', syscall: 'connect', address: '10.42.0.17', port: 443 }").class).toBe('network.error');
  });

  it('an I/O error decides only beside its file (alone it is as often a terminal that went away)', () => {
    expect(errnoRulesOf('OSError: [Errno 5] Input/output error')).toEqual([]);
    // A path elsewhere on the line is not the errno's file.
    expect(errnoRulesOf('POST /v1/chat/completions failed: [Errno 5] Input/output error')).toEqual([]);
    expect(classifyText("OSError: [Errno 5] Input/output error: '/mnt/gcs/datasets/shard-00017.arrow'").class).toBe('disk.full');
    expect(classifyText('tar: /ckpt/step_9000.tar: Cannot write: Input/output error').class).toBe('disk.full');
  });

  it('a broken pipe is the peer on a socket and nothing on a pipe; a dead FUSE mount is the volume', () => {
    expect(classifyText('write tcp 10.42.0.9:51234->10.42.0.17:8000: write: broken pipe').evidence[0]?.rule).toBe('errno.network');
    expect(errnoRulesOf('write /dev/stdout: broken pipe')).toEqual([]);
    expect(classifyText("OSError: [Errno 107] Transport endpoint is not connected: '/mnt/gcs/datasets'").evidence[0]?.rule).toBe('errno.disk');
    expect(errnoRulesOf('OSError: [Errno 107] Transport endpoint is not connected')).toEqual([]);
  });

  it("a generic, echo or platform errno decides nothing on its own", () => {
    expect(errnoRulesOf('OSError: [Errno 38] Function not implemented')).toEqual([]);
    expect(errnoRulesOf('OSError: [Errno 130] Owner died')).toEqual([]);
    expect(errnoRulesOf("FileNotFoundError: [Errno 2] No such file or directory: '/data/train.jsonl'")).toEqual([]);
  });

  it("source lines of a traceback, c10d's per-address warnings and NCCL's socket layer are no errno of the run", () => {
    expect(errnoRulesOf('    if exc.errno == errno.ENOSPC:')).toEqual([]);
    expect(errnoRulesOf('    except ConnectionAbortedError:')).toEqual([]);
    expect(errnoRulesOf('[W1202 10:11:12.345678 socket.cpp:697] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 111 - Connection refused).')).toEqual([]);
    expect(errnoRulesOf('node3:4711:4790 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.7<43321> failed : Software caused connection abort')).toEqual([]);
  });

  it("host limits count in the run's own logs, not in an agent's session (the task's own output)", () => {
    const line = 'accept tcp [::]:8080: accept4: too many open files';
    expect(errnoRulesOf(line)).toEqual(['errno.host_limits']);
    expect(errnoRulesOf(line, 'agent/claude-code.txt')).toEqual([]);
  });
});

describe('a symptom read through the table does not outrank its cause', () => {
  it('a full quota on the writer is the cause of the reset its reader sees afterwards', () => {
    const log = [
      'time="2026-12-02T10:00:01Z" level=error msg="checkpoint upload failed" error="write /scratch/u123/ckpt/step_3000/optimizer.pt: disk quota exceeded"',
      'time="2026-12-02T10:00:03Z" level=error msg="stream closed" error="read tcp 10.42.0.9:51234->10.42.0.17:8000: read: connection reset by peer"',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('disk.full');
    expect(d.evidence[0]?.rule).toBe('errno.disk');
  });

  it('the OOM killer ending a peer is the cause of the connection abort', () => {
    const log = [
      '[Tue Dec  2 10:01:02 2026] Out of memory: Killed process 4711 (python3) total-vm:98765432kB, anon-rss:61234567kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:123456kB oom_score_adj:0',
      'Traceback (most recent call last):',
      '  File "/opt/venv/lib/python3.11/site-packages/multiprocessing/connection.py", line 412, in _send_bytes',
      '    self._send(header + buf)',
      'ConnectionAbortedError: [Errno 103] Software caused connection abort',
    ].join('\n');
    expect(classifyText(log).class).toBe('host.oom');
  });

  it("a broken pipe in Go's lower-case words after the peer's own exception is that exception (peer-gone)", () => {
    const pipe = 'time="2026-12-02T10:00:03Z" level=error msg="forward failed" error="write tcp 10.42.0.9:51234->10.42.0.17:8000: write: broken pipe"';
    const bug = ['Traceback (most recent call last):', '  File "/srv/app/worker.py", line 88, in handle', '    item = batch[key]', "KeyError: 'input_ids'"];
    expect(classifyText([...bug, pipe].join('\n')).class).toBe('user.code_error');
    expect(classifyText(pipe).class).toBe('network.error');
  });

  it('a refusal after the server crashed is the crash (peer-not-listening counts errno.network too)', () => {
    // The server's start line says the traceback after it is the server's (relations.ts, rules/server-start.ts).
    const log = [
      'INFO:     Started server process [4711]',
      'Traceback (most recent call last):',
      '  File "/srv/app/server.py", line 41, in load_routes',
      '    handler = ROUTES[name]',
      "KeyError: 'generate'",
      '[E1202 10:11:12.345678 socket.cpp:1019] [c10d] The client socket has failed to connect to [127.0.0.1]:8000 (errno: 111 - Connection refused).',
    ].join('\n');
    expect(classifyText(log).class).toBe('user.code_error');
  });
});

describe('the errnos an older rule reads in the same class (ERRNO_READ_BY)', () => {
  // Upstream-worded lines of each form; the expected rule and class are written out, not read from the table.
  const lines: [string, string, string][] = [
    ["OSError: [Errno 28] No space left on device: '/ckpt/step_3000/model.safetensors'", 'disk.enospc', 'disk.full'],
    ['write /scratch/ckpt/optimizer.pt: no space left on device', 'disk.enospc', 'disk.full'],
    ['Error: Os { code: 28, kind: StorageFull, message: "No space left on device" }', 'disk.enospc', 'disk.full'],
    ["Error: ENOSPC: no space left on device, write", 'disk.enospc', 'disk.full'],
    ['OSError: [Errno 98] Address already in use', 'config.port_in_use', 'config.error'],
    ['listen tcp :8000: bind: address already in use', 'config.port_in_use', 'config.error'],
    ['Error: listen EADDRINUSE: address already in use :::3000', 'config.port_in_use', 'config.error'],
    ['ConnectionRefusedError: [Errno 111] Connection refused', 'network.connection', 'network.error'],
    ['dial tcp 10.42.0.17:8000: connect: connection refused', 'network.connection', 'network.error'],
    ['Error: connect ECONNREFUSED 127.0.0.1:8000', 'network.connection', 'network.error'],
    ['ConnectionResetError: [Errno 104] Connection reset by peer', 'network.connection', 'network.error'],
    ['read tcp 10.42.0.9:51234->10.42.0.17:8000: read: connection reset by peer', 'network.connection', 'network.error'],
    ['Error: Connection reset by peer (os error 104)', 'network.connection', 'network.error'],
  ];
  it('marks exactly these', () => {
    expect(Object.keys(ERRNO_READ_BY).sort()).toEqual(['EADDRINUSE', 'ECONNREFUSED', 'ECONNRESET', 'ENOSPC']);
  });
  it.each(lines)('%s is %s', (line, rule, klass) => {
    const d = classifyText(line);
    expect(d.class).toBe(klass);
    expect(d.evidence[0]?.rule).toBe(rule);
    // The evidence keeps one rule per line, so what must not happen is an errno rule reading it at all.
    for (const r of errnoRules) expect(r.extract!(line, /x/.exec('x')!).classOverride, r.id).toBeNull();
  });
});
