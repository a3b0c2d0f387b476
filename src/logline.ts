// How a log line is framed, read once for everyone: the capture agent (exceptions collector) and the
// classifiers both split prefixes, find ranks and read timestamps through this module, so a `[rank3]:`
// or a `(TaskRunner pid=2231)` means the same thing when a bundle is written and when it is classified.
// No dependencies: capture and classifiers may both import it.

/** CSI/OSC-less ANSI escapes that terminals, tqdm and coloured loggers put into lines. */
export const ANSI_RE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>]/g;

/**
 * The text a reader of the terminal saw: ANSI escapes removed and, for a line that returns the cursor
 * with \r (tmux panes, asciinema, tqdm), only its last non-empty segment, e.g. `\e[?2004l\rbash: x:
 * command not found` shows as `bash: x: command not found`, which anchored patterns must see.
 */
export function visibleText(s: string): string {
  let out = s;
  if (out.includes('\x1b')) out = out.replace(ANSI_RE, '');
  if (out.includes('\r')) {
    const segments = out.split('\r').filter((seg) => seg.trim() !== '');
    out = segments.length ? segments[segments.length - 1]! : '';
  }
  return out;
}

// torchrun --tee / --log-line-prefix-template: `[rank3]:`, `[default0]:`, `[trainer1]:`.
const PREFIX_RANK = /^\[(?:rank|default|trainer|worker|role)?(\d+)\]:\s?/i;
// Ray's worker output forwarding: `(TaskRunner pid=2231)`, `(WorkerDict pid=3120, ip=10.0.0.2)`, and
// for a worker not (yet) running a named task or actor, older releases' bare `(pid=2231)`.
const PREFIX_RAY = /^\((?:([\w.]+) )?pid=(\d+)(?:, ip=[^)]*)?\)\s?/;
// vLLM's logger prefixes every line of a logged traceback: `ERROR 11-30 04:00:00 [worker.py:123] `.
const PREFIX_VLLM = /^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[?[\w./-]+:\d+\]\s?/;

export interface LinePrefix {
  /** Which interleaved stream the line belongs to: `rank3`, `pid2231`, or '' for an unprefixed line. */
  stream: string;
  rank: number | null;
  /** Ray actor/task name and pid from a `(Name pid=N)` prefix. */
  actor: string | null;
  pid: number | null;
  /** The line after the prefixes. */
  rest: string;
}

/** Split the launcher prefixes (torchrun rank, Ray actor, vLLM logger) off a line. */
export function splitPrefix(line: string): LinePrefix {
  let stream = '';
  let rank: number | null = null;
  let actor: string | null = null;
  let pid: number | null = null;
  let rest = line;
  let m = PREFIX_RANK.exec(rest);
  if (m) {
    stream = `rank${m[1]}`;
    rank = Number(m[1]);
    rest = rest.slice(m[0].length);
  } else if ((m = PREFIX_RAY.exec(rest))) {
    actor = m[1] ?? null;
    pid = Number(m[2]);
    stream = `pid${m[2]}`;
    rest = rest.slice(m[0].length);
    // Ray forwards torchrun output too: `(WorkerDict pid=3120) [rank0]: Traceback …`.
    const r = PREFIX_RANK.exec(rest);
    if (r) {
      rank = Number(r[1]);
      rest = rest.slice(r[0].length);
    }
  }
  if ((m = PREFIX_VLLM.exec(rest))) rest = rest.slice(m[0].length);
  return { stream, rank, actor, pid, rest };
}

const RANK_RE = /\[rank(\d{1,6})\]|\[Rank (\d{1,6})\]|\bRank (\d{1,6})\]|\brank(\d{1,6})\]?:|\bRank (\d{1,6})\b/;

/** The rank a line speaks for, from its prefix or PyTorch's `[Rank N]` wording. */
export function parseRank(line: string): number | undefined {
  const m = RANK_RE.exec(line.length > 300 ? line.slice(0, 300) : line);
  if (!m) return undefined;
  const v = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
  return v === undefined ? undefined : Number(v);
}

/**
 * A point in time as a log stamp states it. Stamps differ in what they say: ISO stamps carry the year
 * (and sometimes the zone), glog/syslog/vLLM stamps only month and day, some only the time of day. Two
 * stamps compare on the finest clock both have (compareLogTimes), never by guessing a missing year.
 */
export interface LogTime {
  /** Epoch milliseconds, when the stamp has a year: UTC when `zoned`, else the naive wall clock read as UTC. */
  ms?: number;
  /** Month/day wall clock without the year (comparable across ISO, glog, syslog and vLLM stamps). */
  md?: number;
  /** Milliseconds since midnight. */
  tod: number;
  /** The stamp named its zone (Z, ±hh:mm, UTC) or was epoch-based, so `ms` is true UTC. */
  zoned: boolean;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const fracMs = (frac: string | undefined): number => (frac ? Number(`0.${frac}`) * 1000 : 0);

function fromFields(mo: number, d: number, h: number, mi: number, s: number, ms: number, year?: number, offsetMin?: number): LogTime {
  if (year !== undefined) {
    const epoch = Date.UTC(year, mo - 1, d, h, mi, s) + ms - (offsetMin ?? 0) * 60_000;
    if (offsetMin !== undefined) {
      // The month/day and time-of-day clocks of a zoned stamp are UTC's, like those of epoch stamps.
      const u = new Date(epoch);
      return { ms: epoch, ...wallClocks(u.getUTCMonth() + 1, u.getUTCDate(), u.getUTCHours(), u.getUTCMinutes(), u.getUTCSeconds(), u.getUTCMilliseconds()), zoned: true };
    }
    return { ms: epoch, ...wallClocks(mo, d, h, mi, s, ms), zoned: false };
  }
  return { ...wallClocks(mo, d, h, mi, s, ms), zoned: false };
}

function wallClocks(mo: number, d: number, h: number, mi: number, s: number, ms: number): { md: number; tod: number } {
  const tod = ((h * 60 + mi) * 60 + s) * 1000 + ms;
  return { md: (mo * 31 + d) * 86_400_000 + tod, tod };
}

function zoneOffset(z: string | undefined): number | undefined {
  if (!z) return undefined;
  const t = z.trim();
  if (t === 'Z' || t === 'UTC') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(t);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : undefined;
}

const TIME_FORMATS: [RegExp, (m: RegExpExecArray) => LogTime][] = [
  // ISO 8601 and Python logging: 2026-11-30T03:00:00.123Z, 2026-11-30 03:00:00,123, torchrun's 2026-11-30_03:00:00.
  [/(\d{4})-(\d{2})-(\d{2})[T _](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2}\b| ?UTC\b)?/, (m) => fromFields(+m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!, fracMs(m[7]), +m[1]!, zoneOffset(m[8]))],
  // glog (PyTorch C++, Ray): I1130 03:00:00.123456
  [/\b[IWEF](\d{2})(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?/, (m) => fromFields(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, fracMs(m[6]))],
  // vLLM: INFO 11-30 03:00:00
  [/\b(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL) (\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/, (m) => fromFields(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, 0)],
  // syslog / dmesg -T: Nov 30 03:00:00 (a year after it is kept: "Nov 30 03:00:00 2026")
  [/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?: (\d{4})\b)?/, (m) => fromFields(MONTHS.indexOf(m[1]!) + 1, +m[2]!, +m[3]!, +m[4]!, +m[5]!, 0, m[6] ? +m[6] : undefined)],
];
const TOD_RE = /(?:^|[\s[])(\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,6}))?\b/;

/** The timestamp at the head of a log line (first 160 characters), if it has one. */
export function parseLogTime(line: string): LogTime | undefined {
  const head = line.length > 160 ? line.slice(0, 160) : line;
  for (const [re, f] of TIME_FORMATS) {
    const m = re.exec(head);
    if (m) return f(m);
  }
  const t = TOD_RE.exec(head);
  if (t) return { tod: ((+t[1]! * 60 + +t[2]!) * 60 + +t[3]!) * 1000 + fracMs(t[4]), zoned: false };
  return undefined;
}

/** A time in a structured file: epoch seconds or milliseconds (number or digit string), or a stamp string. */
export function logTimeOf(v: unknown): LogTime | undefined {
  const n = typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+(?:\.\d+)?$/.test(v.trim()) ? Number(v) : undefined;
  if (n !== undefined) {
    const ms = n > 1e12 ? n : n * 1000;
    const d = new Date(ms);
    if (Number.isNaN(d.getTime())) return undefined;
    return { ms, ...wallClocks(d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()), zoned: true };
  }
  return typeof v === 'string' ? parseLogTime(v) : undefined;
}

type Clock = 'ms' | 'md' | 'tod';

/** The finest clock every one of `times` has, or undefined when one of them has no clock in common. */
export function commonClock(times: LogTime[]): Clock | undefined {
  if (times.length === 0) return undefined;
  if (times.every((t) => t.ms !== undefined)) return 'ms';
  if (times.every((t) => t.md !== undefined)) return 'md';
  // A bare time of day only compares with another bare time of day (a date may be another day).
  if (times.every((t) => t.md === undefined)) return 'tod';
  return undefined;
}

export function clockValue(t: LogTime, clock: Clock): number {
  return clock === 'ms' ? t.ms! : clock === 'md' ? t.md! : t.tod;
}

/** Negative when a is earlier, positive when later, 0 when equal, undefined when the stamps cannot be compared. */
export function compareLogTimes(a: LogTime, b: LogTime): number | undefined {
  const c = commonClock([a, b]);
  return c === undefined ? undefined : clockValue(a, c) - clockValue(b, c);
}

/** ISO 8601 text for a stamp with a year (Z when zoned), or undefined. */
export function isoOf(t: LogTime): string | undefined {
  if (t.ms === undefined) return undefined;
  const iso = new Date(t.ms).toISOString();
  const base = t.ms % 1000 === 0 ? iso.slice(0, 19) : iso.slice(0, 23);
  return t.zoned ? `${base}Z` : base;
}

/** One frame line of a Python traceback, as CPython, faulthandler or IPython print it. */
export interface PyFrame {
  path: string;
  line: number;
  /** The function, when the format names it (`<module>` at the top level). */
  fn: string | null;
  /** The frame is in installed or standard-library code, not the run's own (isLibraryPath). */
  library: boolean;
  /** The frame is in a framework's source checkout (isFrameworkCheckoutPath): not installed, not the run's own either. */
  checkout: boolean;
}

// CPython: `  File "/x/train.py", line 12, in main`; faulthandler: `  File "/x/train.py", line 12 in main`.
const PY_FRAME_RE = /^\s*File "([^"]{1,1000})", line (\d{1,9})(?:,? in (\S{1,200}))?/;
// IPython ≥ 8: `File ~/venv/lib/python3.11/site-packages/openai/_base_client.py:1029, in SyncAPIClient._request(self)`.
const IPY_FRAME_RE = /^\s*File ([^\s"][^"]{0,1000}?):(\d{1,9}), in ([^\s(]{1,200})/;

/**
 * Where installed packages and the standard library live: pip's site-packages, Debian's dist-packages,
 * the interpreter's own lib/pythonX.Y (stdlib, and conda/venv prefixes under it), Windows' Lib\,
 * eggs, and frozen modules. Everything else (a relative path, the project's checkout, `<stdin>`, a
 * notebook cell) is the run's own code.
 */
const LIBRARY_PATH_RE = /[\\/](?:site-packages|dist-packages)[\\/]|[\\/]lib(?:64)?[\\/]python\d(?:\.\d{1,2})?[\\/]|[\\/]Lib[\\/]|\.egg[\\/]|^<frozen /;

export function isLibraryPath(path: string): boolean {
  return LIBRARY_PATH_RE.test(path);
}

/**
 * A training framework run from a clone of its repository rather than installed (`pip install -e`, a
 * container image's /opt/megatron-lm, verl's /workspace/verl): a folder named as the framework's repository
 * is cloned (optionally -main, -master or a version), with its package folder right under it or under its
 * src/: /opt/megatron-lm/megatron/core/…, /workspace/verl/verl/trainer/…, ~/OpenRLHF/openrlhf/…,
 * ~/transformers/src/transformers/…. A project folder that only contains a framework's name
 * (~/nemo-asr-finetune/nemo/) is the run's own. The run's own code rarely lives inside a clone, so a
 * framework's check raised there is the framework's.
 */
const FRAMEWORK_CHECKOUT_RE = /[\\/](megatron-lm|megatron|verl|vllm|sglang|trl|peft|deepspeed|nemo|openrlhf|accelerate|transformers|torchtitan|torchtune|pytorch-lightning|lightning)(?:[-_.](?:main|master|v?\d[\w.]{0,20}))?[\\/](?:src[\\/])?(megatron|verl|vllm|sglang|trl|peft|deepspeed|nemo|openrlhf|accelerate|transformers|torchtitan|torchtune|pytorch_lightning|lightning)[\\/]/i;

/** The package folder each repository's clone holds (the repository's name when it is not listed). */
const CLONE_PACKAGE: Record<string, readonly string[]> = { 'megatron-lm': ['megatron'], 'pytorch-lightning': ['lightning', 'pytorch_lightning'], lightning: ['lightning', 'pytorch_lightning'] };

export function isFrameworkCheckoutPath(path: string): boolean {
  if (LIBRARY_PATH_RE.test(path)) return false;
  const m = FRAMEWORK_CHECKOUT_RE.exec(path);
  if (!m) return false;
  const repo = m[1]!.toLowerCase();
  return (CLONE_PACKAGE[repo] ?? [repo]).includes(m[2]!.toLowerCase());
}

/** The frame a traceback line names, after any launcher prefix; null for any other line. */
export function parseFrame(line: string): PyFrame | null {
  const m = PY_FRAME_RE.exec(line) ?? IPY_FRAME_RE.exec(line);
  if (!m) return null;
  const path = m[1]!;
  return { path, line: Number(m[2]), fn: m[3] ?? null, library: isLibraryPath(path), checkout: isFrameworkCheckoutPath(path) };
}

/**
 * The innermost frame of a traceback given as text (most recent call last, so the last frame line),
 * skipping the import machinery's `<frozen importlib…>` frames, which only pass an import on.
 */
export function innermostFrame(traceback: string): PyFrame | null {
  let last: PyFrame | null = null;
  for (const l of traceback.split('\n')) {
    const f = parseFrame(splitPrefix(l).rest);
    if (f && !f.path.startsWith('<frozen ')) last = f;
  }
  return last;
}

/** One frame line of a `py-spy dump`: `    get (queue.py:170)`, or a native frame `    read (libc.so.6)` (--native). */
export interface PySpyFrame {
  fn: string;
  /** py-spy's short file name (sys.path prefixes stripped: `torch/distributed/distributed_c10d.py`), or the native library. */
  path: string;
  /** null for a native frame (a shared object or the interpreter binary, no line). */
  line: number | null;
}

// py-spy src/dump.rs prints `    {name} ({filename}:{line})` per Python frame and `    {name} ({module})` per native one.
const PY_SPY_FRAME_RE = /^\s{2,8}(\S{1,200}) \(([^()\s]{1,400}):(\d{1,9})\)\s*$/;
const PY_SPY_NATIVE_RE = /^\s{2,8}(\S.{0,400}?) \(([^()\s:]{1,200})\)\s*$/;

/** A py-spy dump frame line (after any launcher prefix); null for any other line. */
export function parsePySpyFrame(line: string): PySpyFrame | null {
  const m = PY_SPY_FRAME_RE.exec(line);
  if (m) return { fn: m[1]!, path: m[2]!, line: Number(m[3]) };
  const n = PY_SPY_NATIVE_RE.exec(line);
  // A native frame names a shared object (libc.so.6, libtorch_cpu.so) or the interpreter (python3.12).
  if (n && /\.so(?:\.[\d.]+)?$|^python\d/.test(n[2]!)) return { fn: n[1]!, path: n[2]!, line: null };
  return null;
}

/**
 * One frame of gdb's CPython extension (Tools/gdb/libpython.py) in its `py-bt-full` / Python 2 `py-bt`
 * form: `#4 Frame 0x7f3484000910, for file /usr/lib/python2.7/threading.py, line 358, in wait (self=…)`.
 * (Python 3's `py-bt` prints CPython's own `  File "…", line N, in f` under "Traceback (most recent call first):".)
 */
const GDB_PY_FRAME_RE = /^#\d{1,4} Frame 0x[0-9a-fA-F]{1,16}, for file (.{1,1000}?), line (\d{1,9}), in ([^\s(]{1,200})/;

export function parseGdbPyFrame(line: string): PyFrame | null {
  const m = GDB_PY_FRAME_RE.exec(line.trimStart());
  if (!m) return null;
  return { path: m[1]!, line: Number(m[2]), fn: m[3]!, library: isLibraryPath(m[1]!), checkout: isFrameworkCheckoutPath(m[1]!) };
}
