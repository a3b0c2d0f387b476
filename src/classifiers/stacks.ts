// Stacks that a plain log shows of a run that stopped making progress: a Ctrl-C (KeyboardInterrupt)
// traceback, a faulthandler dump (`Timeout (0:05:00)!` from dump_traceback_later, a registered signal),
// a `py-spy dump`. What matters is the main thread's innermost frames: blocked in a wait (a lock, a
// queue, a socket, a child process, a collective, the GPU) is a stall and the outermost frame of that
// wait chain names what the run waited for; innermost in the run's own code is a run that was busy
// (a Ctrl-C of a run that was progressing is not a stall). Helper threads and processes (DataLoader
// workers, a tqdm monitor, a watchdog thread) wait by design and are left out.
//
// The engine hands this tracker the lines that hold a stack key (traceback and dump headers, frame
// lines, KeyboardInterrupt, faulthandler banners); at the end it turns each finished main-thread stack
// into a typed `wait-stack` signal (signals.ts) that rules/facts.ts maps to rules/stall.ts. Memory is
// bounded by MAX_FRAMES per stack and MAX_STACKS per file, not by the log.
import type { PyFrame, PySpyFrame } from '../logline.js';
import { HELPER_BOTTOM, waitChainAt, type WaitKind } from './rules/stall.js';
import type { StructuredSignal } from './signals.js';

/** Frames kept at each end of one stack (innermost and outermost are what is read). */
const MAX_FRAMES = 12;
const MAX_STACKS = 8;
/** Interleaved streams (ranks, Ray actors) followed at once; a log naming more gets its first ones read. */
const MAX_STREAMS = 256;
/** A traceback's exception line follows its last frame within this many lines (source and caret lines). */
const TRACEBACK_TAIL = 12;
/** A frame further than this from the previous one of its stack belongs to something else (CPython prints a source and caret lines between frames). */
const FRAME_GAP = 8;

/** faulthandler also stands for the other innermost-first Python listings: gdb's py-bt. */
type Format = 'traceback' | 'faulthandler' | 'py-spy' | 'gdb';

interface Frame {
  line: number;
  /** The frame line as the log shows it (trimmed): the evidence. */
  text: string;
  fn: string | null;
  path: string;
  lineNo: number | null;
  native: boolean;
}

interface Stack {
  format: Format;
  stream: string;
  rank: number | undefined;
  header: number;
  headerText: string;
  /** A `^C` before the traceback header: the terminal's Ctrl-C. */
  interrupted: boolean;
  ended: 'interrupt' | null;
  /** faulthandler: what the dump was printed for (a timeout or signal dump vs a fatal error's). */
  dump: 'fatal' | 'dump' | null;
  /** py-spy's thread name. */
  thread: string | null;
  head: Frame[];
  tail: Frame[];
  count: number;
  last: number;
  /** The last NCCL INFO line of the file came this many lines before the stack (undefined: none). */
  afterNcclInfo: number | undefined;
}

export interface WaitStack {
  source: 'interrupt' | 'faulthandler' | 'py-spy' | 'gdb';
  /** null: the main thread was in its own code, not in a wait. */
  wait: WaitKind | null;
  /** The wait chain's outermost frame (what the run called), or the innermost frame when busy (null: a frame the tracker did not see, the run's own code). */
  at: string | null;
  caller: string | undefined;
  line: number;
  /** The line at `line`, as the log shows it (trimmed). */
  text: string;
  afterNcclInfo: number | undefined;
  rank: number | undefined;
}

const short = (f: Frame): string => `${f.fn ?? '?'} (${f.path.split('/').slice(-2).join('/')}${f.lineNo !== null ? `:${f.lineNo}` : ''})`;

const isHelperBottom = (f: Frame): boolean => f.fn !== null && HELPER_BOTTOM.test(f.fn) && /(?:^|\/)(?:threading|multiprocessing\/(?:process|spawn|popen_\w+|pool)|torch\/utils\/data\/_utils\/\w+|concurrent\/futures\/\w+)\.py$/.test(f.path);

// faulthandler's per-thread headers; gdb's Python 3 `py-bt` prints "Traceback (most recent call first):".
const FH_HEADER_RE = /^(?:Thread 0x[0-9a-fA-F]{1,16}|Current thread 0x[0-9a-fA-F]{1,16}|Stack|Traceback) \(most recent call first\):/;
// gdb: `thread apply all py-bt` heads each thread with "Thread 1 (Thread 0x7f384e2dc740 (LWP 237)):".
const GDB_THREAD_RE = /^Thread (\d{1,6}) \(Thread 0x[0-9a-fA-F]{1,16} \(LWP \d{1,10}\)\):/;
const GDB_PY_BT_RE = /^(?:\(gdb\) )?py-bt(?:-full)?\s*$/;
const PY_SPY_HEADER_RE = /^Thread (?:0x[0-9A-Fa-f]{1,16}|\d{1,10}) \((?:active|idle)(?:\+gil)?\): "([^"]{0,64})"/;

export class StackTracker {
  private readonly open = new Map<string, Stack>();
  /** Per stream: the faulthandler banner that the dump's thread headers belong to. */
  private readonly banner = new Map<string, 'fatal' | 'dump'>();
  /** Per stream: the gdb thread number the next py-bt listing is of. */
  private readonly gdbThread = new Map<string, string>();
  private readonly done: WaitStack[] = [];

  constructor(private readonly file: string) {}

  /** `Traceback (most recent call last):`, with `^C` before it when the terminal echoed a Ctrl-C. */
  traceback(stream: string, rank: number | undefined, line: number, text: string, afterNcclInfo: number | undefined): void {
    this.close(stream, line);
    this.banner.delete(stream);
    if (!this.room(stream)) return;
    this.open.set(stream, this.stack('traceback', stream, rank, line, text, /\^C\s*Traceback/.test(text), null, null, afterNcclInfo));
  }

  /** A faulthandler or py-spy thread header, or a faulthandler banner (`Timeout (…)!`, `Fatal Python error: …`). */
  header(stream: string, rank: number | undefined, line: number, rest: string, afterNcclInfo: number | undefined): void {
    if (!this.room(stream)) return;
    if (/^Fatal Python error: /.test(rest)) {
      this.close(stream, line);
      this.banner.set(stream, 'fatal');
      return;
    }
    if (/^Timeout \(\d+:\d\d:\d\d(?:\.\d{1,6})?\)!\s*$/.test(rest)) {
      this.close(stream, line);
      this.banner.set(stream, 'dump');
      return;
    }
    const gt = GDB_THREAD_RE.exec(rest);
    if (gt) {
      this.close(stream, line);
      this.gdbThread.set(stream, gt[1]!);
      return;
    }
    if (GDB_PY_BT_RE.test(rest)) {
      this.close(stream, line);
      // Thread 1 is the main thread (its LWP is the process id); a listing without a thread header is the current one.
      const t = this.gdbThread.get(stream);
      this.open.set(stream, this.stack('gdb', stream, rank, line, rest, false, 'dump', t === undefined || t === '1' ? null : `gdb thread ${t}`, afterNcclInfo));
      return;
    }
    const fh = FH_HEADER_RE.test(rest);
    const ps = fh ? null : PY_SPY_HEADER_RE.exec(rest);
    if (!fh && !ps) return;
    this.close(stream, line);
    this.open.set(stream, this.stack(fh ? 'faulthandler' : 'py-spy', stream, rank, line, rest, false, fh ? (this.banner.get(stream) ?? 'dump') : null, ps ? ps[1]! : null, afterNcclInfo));
  }

  /** A CPython or faulthandler frame line (logline.parseFrame). */
  pyFrame(stream: string, line: number, text: string, f: PyFrame): void {
    const s = this.open.get(stream);
    if (!s || s.format === 'py-spy') return;
    // gdb's listing may start with source lines and C frames: its first Python frame is the innermost.
    if (s.format === 'gdb' && s.count === 0) s.last = line;
    this.add(s, { line, text: text.trim(), fn: f.fn, path: f.path, lineNo: f.line, native: false });
  }

  /** A py-spy frame line (logline.parsePySpyFrame). */
  pySpyFrame(stream: string, line: number, text: string, f: PySpyFrame): void {
    const s = this.open.get(stream);
    if (!s || s.format !== 'py-spy') return;
    this.add(s, { line, text: text.trim(), fn: f.fn, path: f.path, lineNo: f.line, native: f.line === null });
  }

  /** The `KeyboardInterrupt` line that ends a traceback. */
  interrupt(stream: string, line: number): void {
    const s = this.open.get(stream);
    if (!s || s.format !== 'traceback' || line - s.last > TRACEBACK_TAIL) return;
    s.ended = 'interrupt';
    this.close(stream, line);
  }

  /** Whether `stream` is followed (already, or there is room for one more): memory is bounded by MAX_STREAMS. */
  private room(stream: string): boolean {
    if (this.open.has(stream) || this.banner.has(stream) || this.gdbThread.has(stream)) return true;
    return this.open.size + this.banner.size + this.gdbThread.size < MAX_STREAMS && this.done.length < MAX_STACKS;
  }

  /** `lines`: how many lines the file had. */
  finish(lines: number): WaitStack[] {
    for (const stream of [...this.open.keys()]) this.close(stream, lines);
    return this.done;
  }

  /** The finished stacks as typed signals. */
  signals(lines: number): StructuredSignal[] {
    return this.finish(lines).map((w) => ({ kind: 'wait-stack', at: { file: this.file, line: w.line }, ...(w.rank !== undefined ? { rank: w.rank } : {}), stack: w }));
  }

  private stack(format: Format, stream: string, rank: number | undefined, header: number, headerText: string, interrupted: boolean, dump: Stack['dump'], thread: string | null, afterNcclInfo: number | undefined): Stack {
    return { format, stream, rank, header, headerText: headerText.trim(), interrupted, ended: null, dump, thread, head: [], tail: [], count: 0, last: header, afterNcclInfo };
  }

  private add(s: Stack, f: Frame): void {
    if (f.line - s.last > FRAME_GAP) {
      // Far from its stack: the stack ended (its end line was not one the tracker sees).
      this.close(s.stream, f.line);
      return;
    }
    s.last = f.line;
    s.count += 1;
    if (s.head.length < MAX_FRAMES) s.head.push(f);
    else {
      s.tail.push(f);
      if (s.tail.length > MAX_FRAMES) s.tail.shift();
    }
  }

  /** A main thread that was running, not waiting: at its innermost frame, when the tracker saw it (else its header). */
  private busy(s: Stack, inner: Frame | null): WaitStack {
    const source = s.format === 'traceback' ? 'interrupt' : s.format;
    return { source, wait: null, at: inner ? short(inner) : null, caller: undefined, line: inner?.line ?? s.header, text: inner?.text ?? s.headerText, afterNcclInfo: s.afterNcclInfo, rank: s.rank };
  }

  /** `endLine`: the line that ended the stack (the next header, the exception line) or the file's last line. */
  private close(stream: string, endLine: number): void {
    const s = this.open.get(stream);
    if (!s) return;
    this.open.delete(stream);
    if (this.done.length >= MAX_STACKS) return;
    const w = this.read(s, endLine);
    if (w) this.done.push(w);
  }

  /** The main thread's stack as a wait (or a busy thread), or null when it says nothing about a stall. */
  private read(s: Stack, endLine: number): WaitStack | null {
    const frames = [...s.head, ...s.tail];
    // A dump whose frames carry no key at all: every frame is the run's own code.
    // No frame with a key: every frame is the run's own code, if there was any line under the header.
    if (!frames.length) return s.format === 'py-spy' && (s.thread === null || s.thread === 'MainThread') && endLine > s.header + 1 ? this.busy(s, null) : null;
    let source: WaitStack['source'];
    let chain: Frame[];
    if (s.format === 'traceback') {
      // Only a traceback of an interrupt: any other exception is a failure, not a wait.
      if (s.ended !== 'interrupt' && !s.interrupted) return null;
      source = 'interrupt';
      if (isHelperBottom(frames[0]!)) return null;
      chain = frames.slice().reverse();
    } else {
      if (s.dump === 'fatal') return null;
      if (s.thread !== null && s.thread !== 'MainThread') return null;
      const bottom = [...frames].reverse().find((f) => !f.native);
      if (bottom && isHelperBottom(bottom)) return null;
      source = s.format;
      chain = frames;
      // Dumps list the innermost frame first, right under the header; py-spy's native frames come before
      // the Python ones. A first frame not on the next line is one the tracker did not see (no key): a
      // frame of the run's own code.
      if (s.format === 'py-spy') {
        let expect = s.header + 1;
        let i = 0;
        while (i < chain.length && chain[i]!.line === expect && chain[i]!.native) (i += 1), (expect += 1);
        if (i >= chain.length || chain[i]!.line !== expect) return this.busy(s, null);
        chain = chain.slice(i).filter((f) => !f.native);
      }
    }
    const inner = chain[0]!;
    // py-spy frames outside the vocabulary have no key: a gap is a frame the tracker did not see.
    const joined = s.format === 'py-spy' ? (i: number) => Math.abs(chain[i]!.line - chain[i - 1]!.line) === 1 : undefined;
    const wait = waitChainAt(chain, 0, joined);
    if (!wait) return this.busy(s, inner);
    const api = chain[wait.api]!;
    const caller = wait.caller !== undefined ? chain[wait.caller] : undefined;
    const kind = wait.kind;
    return { source, wait: kind, at: short(api), caller: caller ? short(caller) : undefined, line: api.line, text: api.text, afterNcclInfo: s.afterNcclInfo, rank: s.rank };
  }
}
