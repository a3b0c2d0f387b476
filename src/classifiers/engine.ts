// The streaming classification engine. Bytes arrive in chunks per file; one byte-level Aho–Corasick pass
// (ac.ts) over all rule keys finds the few candidate lines, only those are decoded, cut to a bounded
// window and tried against the rules whose keys they contain. Only a bounded number of signals is kept,
// so memory does not grow with the log. `finish` resolves the root cause from the signals plus any
// structured bundle evidence, which arrives as typed signals (signals.ts, structured.ts, resolve.ts).
import { parseFrame, parseGdbPyFrame, parseLogTime, parsePySpyFrame, parseRank, splitPrefix, visibleText, type LogTime } from '../logline.js';
import { parseRootCauseField, ROOT_CAUSE_HEADER, rootCauseExit, rootCauseFieldKey, rootCauseRank } from '../torchelastic.js';
import { FLAG_NEWLINE, keysIn } from './ac.js';
import { buildVocabulary, vocabularyGuess, type Vocabulary } from './fallback.js';
import { FailureLines, isInfoLine, SEVERITY_KEYS, type FailureLine } from './failure-lines.js';
import { WASM_BLOCK, WasmScanner } from './wasm-scan.js';
import { buildPrefilter, CandidateScratch } from './prefilter.js';
import { deriveKeys } from './keys.js';
import { PROGRESS_KEYS, ProgressTracker } from './progress.js';
import { resolveDiagnosis, type EngineContext } from './resolve.js';
import type { Extracted, RaisedIn, Rule, Section, Signal } from './rule.js';
import { reportsAbsence } from './rules/absence.js';
import { FACT_RULES, type FactRule } from './rules/facts.js';
import { RULES, type RuleId } from './rules/index.js';
import { LAST_ENQUEUED_RE, P2P_DISABLED_RE, P2P_TRANSPORT_RE } from './rules/nccl.js';
import { TOKENS_RE } from './rules/harbor.js';
import { isValidationSite } from './rules/validation.js';
import { isGraderFrame } from './rules/eval-harness.js';
import { isServerStart, SERVER_STARTS } from './rules/server-start.js';
import { RETRIED_STRENGTH, RETRYABLE, RETRYING_RE } from './rules/severity.js';
import { PY_SPY_FRAME_KEYS } from './rules/stall.js';
import { StackTracker } from './stacks.js';
import { logEnding, TAIL_LINES, TailBytes } from './tail.js';
import type { SignalKind, StructuredSignal } from './signals.js';
import { structuredSignals } from './structured.js';
import type { BundleInput, Diagnosis } from './types.js';
import { RULESET_VERSION } from './version.js';

export { ANSI_RE, parseRank } from '../logline.js';

/**
 * Under test (vitest, or FDIAG_STRICT=1) an exception inside the engine is a bug and is re-thrown. In
 * service a classifier never fails its caller: the piece it could not read contributes nothing.
 */
const STRICT = typeof process !== 'undefined' && (process.env.VITEST === 'true' || process.env.FDIAG_STRICT === '1');

function contained(f: () => void): void {
  if (STRICT) return f();
  try {
    f();
  } catch {
    /* see STRICT */
  }
}

/** Lines longer than this are only looked at in windows around prefilter hits. */
export const MAX_LINE = 4096;
const WINDOW_BEFORE = 512;
const MAX_WINDOWS_PER_LINE = 16;
/** A line without a newline is processed in pieces once it grows past this (a 1 GiB single line must not be held). */
const MAX_CARRY = 1 << 20;
const CARRY_OVERLAP = 4096;
const MAX_MATCHES_PER_LINE = 256;
const MAX_SIGNALS_PER_RULE = 4;
const MAX_RANKS_TRACKED = 4096;
/** Files whose server start is kept (a bundle holds a few logs; the bound keeps a hostile one small). */
const MAX_FILES_WITH_SERVER_START = 256;
/** A log that ends within this many lines of its last NCCL INFO line stopped during NCCL set-up. */
const NCCL_STALL_TAIL_LINES = 30;
/**
 * A traceback's exception line follows its innermost frame line within this many lines: the source line,
 * CPython ≥ 3.11's caret line, or IPython's few lines of context around the failing line.
 */
const TRACEBACK_TAIL_LINES = 12;

const NCCL_TESTS_RANK_RE = /^#\s+Rank\s+\d+\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)/;
/** What a context line tells (bits of a mask): the trackers in `byteContext` and `context` below. */
const CX = {
  p2pTransport: 1 << 0,
  p2pDisabled: 1 << 1,
  ncclInfo: 1 << 2,
  netTransport: 1 << 3,
  traceback: 1 << 4,
  enqueued: 1 << 5,
  ncclTestsHeader: 1 << 6,
  ncclTestsResults: 1 << 7,
  ncclTestsRank: 1 << 8,
  tokens: 1 << 9,
  agentFinished: 1 << 10,
  rootCause: 1 << 11,
  localRank: 1 << 12,
  header: 1 << 13,
  progress: 1 << 14,
  frame: 1 << 15,
  /** A producer's severity marker (rules/severity.ts): the line may be a failure line for the vocabulary fallback. */
  failure: 1 << 16,
  rootField: 1 << 17,
  stackHeader: 1 << 18,
  interrupt: 1 << 19,
  pySpyFrame: 1 << 20,
  gdbFrame: 1 << 21,
  p2pTestHeader: 1 << 22,
  p2pTestDone: 1 << 23,
  /** A server announcing its start (rules/server-start.ts): whose traceback follows it. */
  serverStart: 1 << 24,
} as const;

/**
 * The prefilter keys of a context vocabulary's patterns (the most specific derived group of each); a
 * pattern without a case-sensitive literal of 4+ characters fails the load, like a rule's.
 */
function contextKeysOf(patterns: readonly RegExp[], what: string): string[] {
  return [
    ...new Set(
      patterns.flatMap((re) => {
        const d = deriveKeys(re);
        if (!d || d.ignoreCase) throw new Error(`${what} /${re.source}/${re.flags} needs a case-sensitive literal of 4+ characters for the prefilter`);
        return d.groups[0]!;
      }),
    ),
  ];
}

/** Lines the context trackers read, by the literal each check starts from. */
const CONTEXT_KEYS: { key: string; bit: number }[] = [
  ...['via P2P/', 'P2P/IPC', 'P2P/CUMEM', 'P2P/direct pointer'].map((key) => ({ key, bit: CX.p2pTransport })),
  { key: 'NCCL_P2P_DISABLE', bit: CX.p2pDisabled },
  { key: 'NCCL INFO', bit: CX.ncclInfo },
  { key: 'via NET/', bit: CX.netTransport },
  { key: 'Traceback (most recent call last)', bit: CX.traceback },
  { key: 'last enqueued', bit: CX.enqueued },
  { key: 'Last enqueued', bit: CX.enqueued },
  { key: '# nThread', bit: CX.ncclTestsHeader },
  { key: '# Using devices', bit: CX.ncclTestsHeader },
  { key: 'Avg bus bandwidth', bit: CX.ncclTestsResults },
  // nccl-tests' `#  Rank  0 Group  0 Pid  1234 on host …` lines (NCCL_TESTS_RANK_RE; its PRINT format).
  { key: '#  Rank', bit: CX.ncclTestsRank },
  { key: 'input_tokens', bit: CX.tokens },
  { key: 'AgentState.FINISHED', bit: CX.agentFinished },
  { key: ROOT_CAUSE_HEADER, bit: CX.rootCause },
  { key: 'local_rank:', bit: CX.localRank },
  // The other fields of torchelastic's Root Cause entry (src/torchelastic.ts).
  { key: rootCauseFieldKey('time'), bit: CX.rootField },
  { key: rootCauseFieldKey('exitcode'), bit: CX.rootField },
  { key: '==> ', bit: CX.header },
  // Agent step loops and test sessions (progress.ts): keys derived from their vocabularies' patterns.
  ...PROGRESS_KEYS.map((key) => ({ key, bit: CX.progress })),
  // Python traceback frames (logline.parseFrame): CPython/faulthandler `File "…", line N`, IPython `File …:N, in f`.
  { key: 'File "', bit: CX.frame },
  { key: ', in ', bit: CX.frame },
  // Producers' severity markers (failure-lines.ts): keys derived from their patterns.
  ...SEVERITY_KEYS.map((key) => ({ key, bit: CX.failure })),
  // Stacks of a run that stopped (stacks.ts): faulthandler's thread headers and banners, py-spy's thread
  // headers (`Thread 4711 (idle): "MainThread"`) and frames, the KeyboardInterrupt that ends a Ctrl-C traceback.
  // gdb's CPython extension: `Thread 1 (Thread 0x… (LWP 237)):`, `(gdb) py-bt`, frames `#4 Frame 0x…, for file …`.
  ...['(most recent call first)', '(idle', '(active', 'Timeout (', 'Fatal Python error: ', '(LWP ', 'py-bt'].map((key) => ({ key, bit: CX.stackHeader })),
  { key: ', for file ', bit: CX.gdbFrame },
  // CUDA samples p2pBandwidthLatencyTest: its banner, and the note it prints once every matrix is done.
  { key: '[P2P (Peer-to-Peer) GPU Bandwidth Latency Test]', bit: CX.p2pTestHeader },
  { key: 'NOTE: The CUDA Samples are not meant for performance measurements', bit: CX.p2pTestDone },
  { key: 'KeyboardInterrupt', bit: CX.interrupt },
  ...contextKeysOf(SERVER_STARTS.map((s) => s.pattern), 'server start').map((key) => ({ key, bit: CX.serverStart })),
  ...PY_SPY_FRAME_KEYS.map((key) => ({ key, bit: CX.pySpyFrame })),
];
const NCCL_HOST_RE = /^\s*(?:\([^)]{0,80}\)\s*)?([\w.-]{1,80}):\d+:\d+ \[\d+\] NCCL INFO/d;

/** The one prefilter: every rule pattern's derived keys and the context keys. */
const PREFILTER = buildPrefilter(RULES, CONTEXT_KEYS);
const DFA = PREFILTER.dfa;
/**
 * The WebAssembly scan over DFA, one per thread, made with the automaton: an ingest worker's warm-up
 * imports this module, so the first bundle does not pay for it.
 */
const SCANNER = new WasmScanner(DFA);
/** Texts fed as strings are encoded through this buffer (one per thread), a piece at a time. */
const ENCODE_PIECE = 1 << 20;
let ENCODED: Buffer | undefined;
const ENCODER = new TextEncoder();
const STATE_SHIFT = Math.log2(DFA.width);
if (DFA.width < 4) throw new Error('the scan keeps two flags below the state');

/** The automaton's keys by id (ASCII lower case: it matches them in any case), as `onHitLine` reports them. */
export function automatonKeys(): readonly string[] {
  return DFA.keys;
}

/** Every literal key the rules and the context tracking need: what `grep -F -f` would get (case-insensitive ones in lower case). */
export function prefilterKeys(): string[] {
  return PREFILTER.keys;
}

const HEADER_RE = /^==> (.{1,400}) <==\s*$/;

/**
 * Harness layouts only (Harbor trial folders, Terminal-Bench trial pastes): a run's own log that merely
 * has "agent" or "test" in its name stays a run log.
 */
export function sectionOfPath(path: string): Section {
  const p = path.toLowerCase();
  if (/(?:^|\/)verifier\/|(?:^|\/)panes\/post-test|(?:^|\/)test-std(?:out|err)\.txt$/.test(p)) return 'verifier';
  if (/(?:^|\/)results?\.json$/.test(p)) return 'result';
  if (/(?:^|\/)(?:harbor\/(?:steps\/[^/]+\/)?)?agent\/|(?:^|\/)sessions\/|(?:^|\/)agent-logs\//.test(p)) return p.startsWith('logs/') ? 'log' : 'agent';
  return 'log';
}

interface FileState {
  /** Bytes of the current line that arrived in earlier chunks (bounded by MAX_CARRY + a chunk). */
  carry: Buffer | null;
  /** DFA state at the end of the last chunk (keys may span chunks, never lines). */
  state: number;
  /** Prefilter hits in the current line: byte offset of the hit's end from the line start. */
  hitEnds: number[];
  /** How many of hitEnds / hitIds (and hitAt) belong to the current line: the arrays are reused, never cut. */
  hitN: number;
  idN: number;
  /** DFA key ids seen in the current line, each once, and where (end offset from the line start) each was first seen. */
  hitIds: number[];
  hitAt: number[];
  /** Lines fully consumed. */
  lineNo: number;
  section: Section;
  inRootCause: boolean;
  /** Inside torchelastic's Root Cause entry: its time, and its rank once read (the exit code follows it). */
  rootEntry?: { time?: LogTime; rank?: number };
  /** The last NCCL INFO line: its number, and its bytes (copied once per chunk, decoded only at the end). */
  lastNcclInfo?: { line: number; bytes: Buffer | null; pending?: { buf: Buffer; start: number; end: number } };
  /** Bytes a line starts with when its NCCL INFO prefix names a host already counted (`vm:`). */
  ncclHostPrefix?: Buffer;
  /** Agent step loops and test sessions per section (progress.ts). */
  progress: ProgressTracker;
  /** Stacks of the main thread printed in this file (stacks.ts), made on the first stack line. */
  stacks?: StackTracker;
  /** Per interleaved stream (logline.splitPrefix), the last Python traceback frame line and whose code it is. */
  frames?: Map<string, FrameMark>;
  /**
   * The number of the line that grew past MAX_CARRY and was looked at in pieces: it is no failure line (a
   * piece is not the line). A number, not a flag: a line without hits ends without endLine.
   */
  longLine?: number;
  /** The file's last bytes (tail.ts): how the log ends. */
  tail: TailBytes;
  /** Numbers of the last JUDGED_KEPT lines a rule judged: not the fallback's to read again from the tail. */
  judged: number[];
}

/** Judged line numbers kept per file: as many as the tail has lines. */
const JUDGED_KEPT = TAIL_LINES;

export interface LogClassifier {
  /** Feed the next piece of `file` (a bundle path such as logs/stdout.log). Never throws. */
  feed(file: string, chunk: string | Buffer): void;
  /** Resolve the diagnosis; `structured` adds bundle evidence (exceptions.json, pods, exit status…). */
  finish(structured?: BundleInput): Diagnosis;
}

interface LineExtra {
  rank?: number;
  time?: LogTime;
  rootHint?: boolean;
  /** Known from a structured record: the exception was raised in the run's own or in library code… */
  raisedIn?: 'own' | 'library';
  /** …and in a validation site (rules/validation.ts). */
  validationSite?: boolean;
}

/** FACT_RULES by the signal kind they read. */
const FACTS_BY_KIND = new Map<SignalKind, FactRule[]>();
for (const f of FACT_RULES) FACTS_BY_KIND.set(f.on, [...(FACTS_BY_KIND.get(f.on) ?? []), f]);
const RULE_BY_ID = new Map<string, Rule<RuleId>>(RULES.map((r) => [r.id, r]));
for (const f of FACT_RULES) if (!RULE_BY_ID.has(f.rule)) throw new Error(`fact rule on ${f.on} names unknown rule ${f.rule}`);

export interface EngineOptions {
  /**
   * The JS automaton, one stream, over the whole chunk instead of the WebAssembly block scan
   * (blockLines): the reference the block scan is tested against (same hits, same verdicts).
   */
  fullScan?: boolean;
  /** Tests: called for each line that had prefilter hits, before it is evaluated (DFA key ids in order of first hit, hit ends). */
  onHitLine?: (file: string, line: number, keyIds: readonly number[], hitEnds: readonly number[]) => void;
}

export class Engine implements LogClassifier {
  private readonly fullScan: boolean;
  private readonly onHitLine: EngineOptions['onHitLine'];
  constructor(opts: EngineOptions = {}) {
    this.fullScan = opts.fullScan ?? false;
    this.onHitLine = opts.onHitLine;
  }

  private files = new Map<string, FileState>();
  private readonly scratch = new CandidateScratch(PREFILTER);
  private perRule = new Map<string, Signal[]>();
  private perRuleCount = new Map<string, number>();
  private order = 0;
  private readonly failures = new FailureLines();
  /** Lines that hold a rule's words (a prefilter key) that no rule judged and no producer flagged: the fallback's reading when no line is flagged. */
  private readonly wordLines = new FailureLines(() => true);
  readonly ctx: EngineContext = {
    p2pTransport: undefined,
    p2pDisabled: false,
    progress: new Map(),
    rootRank: undefined,
    rootFailure: undefined,
    maxInputTokens: undefined,
    agentFinished: false,
    ncclTests: { header: undefined, results: false, hosts: new Set() },
    p2pTest: { header: undefined, done: false },
    ncclInfoSeen: false,
    ncclHosts: new Set(),
    ncclStall: undefined,
    netTransport: false,
    tracebackSeen: false,
    ruleCounts: this.perRuleCount,
    oomRanks: [],
    collectiveMismatch: undefined,
    kernelOom: undefined,
    serverStarts: new Map(),
  };

  feed(file: string, chunk: string | Buffer): void {
    contained(() => {
      const fs = this.state(file);
      if (typeof chunk !== 'string') {
        if (chunk.length) this.scan(file, fs, chunk);
        return;
      }
      // A text is encoded a piece at a time into one reused buffer: a fresh buffer the size of a
      // log (MiBs) costs more in page faults and collection than the encoding itself.
      const scratch = (ENCODED ??= Buffer.allocUnsafe(ENCODE_PIECE));
      for (let rest = chunk; rest.length; ) {
        const { read, written } = ENCODER.encodeInto(rest, scratch);
        if (written) this.scan(file, fs, scratch.subarray(0, written));
        rest = rest.slice(read);
      }
    });
  }

  /** One piece of structured evidence (signals.ts). `finish(bundle)` adds the bundle's own; a caller may add more. */
  addSignal(s: StructuredSignal): void {
    contained(() => {
      switch (s.kind) {
        case 'text':
          return this.textSignal(s.at.file, s.at.line, s.text, 'log', { rank: s.rank, time: s.time, rootHint: s.rootHint, raisedIn: s.raisedIn, validationSite: s.validationSite });
        case 'env':
          if (s.name === 'NCCL_P2P_DISABLE' && /^(1|true|yes)$/i.test(s.value.trim())) this.ctx.p2pDisabled = true;
          return;
        case 'agent-tokens':
          this.ctx.maxInputTokens = Math.max(this.ctx.maxInputTokens ?? 0, s.inputTokens);
          return;
        case 'oom-rank':
          this.ctx.oomRanks.push(s.report);
          return;
        case 'nccl-progress':
          this.ctx.progress.set(s.key, s.progress);
          return;
        case 'collective-mismatch':
          this.ctx.collectiveMismatch ??= s.mismatch;
          return;
        case 'kernel-scope':
          this.ctx.kernelOom = { runKilled: s.runKilled, runPids: new Set(s.runPids) };
          return;
        default:
          for (const f of FACTS_BY_KIND.get(s.kind) ?? []) {
            if (!f.when(s)) continue;
            const rule = RULE_BY_ID.get(f.rule)!;
            const extracted = f.extract ? f.extract(s) : {};
            if (extracted.classOverride === null) continue;
            this.record(rule, extracted, s.at.file, s.at.line, f.text(s), f.section ?? 'log', { rank: s.rank, time: s.time, rootHint: s.rootHint });
          }
      }
    });
  }

  /** Producer wording from a structured file (an exception message, a kernel line), read as if it were at file:line. */
  private textSignal(file: string, line: number, text: string, section: Section, extra: LineExtra): void {
    const cut = text.length > MAX_LINE ? text.slice(0, MAX_LINE) : text;
    for (const piece of cut.split('\n')) {
      const bytes = Buffer.from(piece, 'utf8');
      const keys = keysIn(DFA, bytes);
      if (!keys.size) continue;
      const c = this.scratch.candidates(bytes, keys);
      const context = c.context & ~CX.failure;
      if (c.patterns.length || context) this.evalLine(file, line, visibleText(piece), section, c.patterns, context, extra);
    }
  }

  /**
   * `fallback: false`: no vocabulary guess when no rule decided (a Harbor trial or a live bundle is
   * decided from its own records; the ablation measures the rules alone).
   */
  finish(structured?: BundleInput, opts: { fallback?: boolean } = {}): Diagnosis {
    for (const [file, fs] of this.files) {
      contained(() => {
        if (fs.carry && fs.carry.length) this.endLine(file, fs, fs.carry, 0, fs.carry.length);
        fs.carry = null;
        settleNcclInfo(fs);
      });
    }
    // A log whose last lines are NCCL set-up chatter stopped there: the run hung in NCCL.
    for (const [file, fs] of this.files) {
      const last = fs.lastNcclInfo;
      if (last && fs.lineNo - last.line <= NCCL_STALL_TAIL_LINES) this.ctx.ncclStall ??= { file, line: last.line, text: visibleText((last.bytes ?? Buffer.alloc(0)).toString('utf8')).trim().slice(0, 500) };
    }
    // Where each section's agent loop and test session stopped: typed signals, after every line was seen.
    for (const fs of this.files.values()) {
      let progress: StructuredSignal[] = [];
      contained(() => {
        progress = fs.progress.finish(fs.lineNo);
      });
      for (const s of progress) this.addSignal(s);
      let stacks: StructuredSignal[] = [];
      contained(() => {
        stacks = fs.stacks?.signals(fs.lineNo) ?? [];
      });
      for (const s of stacks) this.addSignal(s);
    }
    // How each of the run's logs ends (tail.ts): only where the logs alone decide, like the vocabulary guess.
    if (opts.fallback !== false) {
      for (const [file, fs] of this.files) {
        if (fs.section !== 'log') continue;
        let ending: StructuredSignal | null = null;
        contained(() => {
          ending = logEnding(file, fs.tail.lines(fs.lineNo));
        });
        if (ending) this.addSignal(ending);
      }
    }
    if (structured) {
      let signals: StructuredSignal[] = [];
      contained(() => {
        signals = structuredSignals(structured);
      });
      for (const s of signals) this.addSignal(s);
    }
    const signals = this.signals();
    // Where the logs alone decide, the outcome guard (resolve.ts) also reads the failure lines' vocabulary.
    const failureVocabulary = (exclude: ReadonlySet<string>): Diagnosis | null => {
      let guess: Diagnosis | null = null;
      contained(() => {
        guess = vocabularyGuess(this.failures.lines().filter((l) => !exclude.has(`${l.file}:${l.line}`)), vocabulary(), RULESET_VERSION);
      });
      return guess;
    };
    const d = resolveDiagnosis(signals, this.ctx, opts.fallback === false ? {} : { failureVocabulary });
    if (opts.fallback === false) return d;
    // Only the catch-all "an exception ended a traceback" decided: a library's own exception type that no
    // rule knows. Its failure lines may still speak one producer's vocabulary (an infra class); the
    // catch-all says only that some exception happened.
    const catchAllOnly = d.class === 'user.code_error' && signals.length > 0 && signals.every((s) => CATCH_ALL_RULES.has(s.rule.id));
    if (d.class !== 'unknown' && !catchAllOnly) return d;
    // No rule decided: the producers' vocabulary in the failure lines may still point to a class (fallback.ts).
    let guess: Diagnosis | null = null;
    const flagged = this.failures.lines();
    contained(() => {
      guess = vocabularyGuess(flagged, vocabulary(), RULESET_VERSION);
    });
    if (catchAllOnly) return guess && (guess as Diagnosis).category === 'infra' ? guess : d;
    // No line flagged as a failure: the words of the logs' last lines and of their other lines that hold a
    // rule's words, as a weaker guess (fallback.ts UNFLAGGED_*).
    if (!guess && flagged.length === 0) {
      contained(() => {
        guess = vocabularyGuess(this.unflaggedLines(), vocabulary(), RULESET_VERSION, 'unflagged');
      });
    }
    if (guess) return guess;
    return d;
  }

  /** The lines the fallback reads when none is flagged: the kept worded lines and the run logs' last lines, once each, in order. */
  private unflaggedLines(): FailureLine[] {
    const out = new Map<string, FailureLine>();
    for (const l of this.wordLines.lines()) out.set(`${l.file}:${l.line}`, l);
    for (const [file, fs] of this.files) {
      if (fs.section !== 'log') continue;
      for (const l of fs.tail.lines(fs.lineNo)) if (l.text && !fs.judged.includes(l.line) && !loggedAsInfo(l.shown)) out.set(`${file}:${l.line}`, { file, line: l.line, text: l.text });
    }
    return [...out.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  }

  /** The failure lines kept so far (failure-lines.ts): the first and the last ones the producers flagged, in order. */
  failureLines(): FailureLine[] {
    return this.failures.lines();
  }

  signals(): Signal[] {
    const out: Signal[] = [];
    for (const list of this.perRule.values()) out.push(...list);
    return out.sort((a, b) => a.order - b.order);
  }

  private state(file: string): FileState {
    let fs = this.files.get(file);
    if (!fs) {
      const section = sectionOfPath(file);
      fs = { carry: null, state: 0, hitEnds: [], hitN: 0, hitIds: [], hitAt: [], idN: 0, lineNo: 0, section, inRootCause: false, progress: new ProgressTracker(file, section), tail: new TailBytes(), judged: [] };
      this.files.set(file, fs);
    }
    return fs;
  }

  /**
   * A chunk: a line continued from the last chunk and the line left open at its end go through
   * `exactRange` (one stream, with the carried bytes); the complete lines between through
   * `blockLines`. Keys never span a newline, so each line is scanned from the automaton's root.
   */
  private scan(file: string, fs: FileState, buf: Buffer): void {
    const n = buf.length;
    if (fs.section === 'log') fs.tail.push(buf);
    let from = 0;
    if (fs.carry !== null) {
      const nl = buf.indexOf(10);
      from = nl < 0 ? n : nl + 1;
      this.exactRange(file, fs, buf, 0, from);
    }
    if (from < n) {
      const last = buf.lastIndexOf(10);
      const whole = last >= from ? last + 1 : from;
      if (whole > from) {
        if (this.fullScan) this.exactRange(file, fs, buf, from, whole);
        else this.blockLines(file, fs, buf, from, whole);
      }
      if (whole < n) this.exactRange(file, fs, buf, whole, n);
    }
    // The caller may reuse its buffer: keep what must outlive it.
    settleNcclInfo(fs);
    if (fs.carry && fs.carry.length > MAX_CARRY) this.flushLongLine(file, fs);
  }

  /**
   * Complete lines buf[from, to) through the WebAssembly scan (wasm-scan.ts), a block at a time: four
   * streams in step give each hit's position, state and line; the lines with hits are handled here,
   * in order, as `exactRange` would. A line longer than a block goes through `exactRange` itself.
   */
  private blockLines(file: string, fs: FileState, buf: Buffer, from: number, to: number): void {
    const scanner = SCANNER;
    const { outputsAt } = DFA;
    const { rec, streams } = scanner;
    for (let at = from; at < to; ) {
      let end = to - at <= WASM_BLOCK ? to : buf.lastIndexOf(10, at + WASM_BLOCK - 1) + 1;
      if (end <= at) {
        end = buf.indexOf(10, at + WASM_BLOCK) + 1;
        this.exactRange(file, fs, buf, at, end);
        at = end;
        continue;
      }
      scanner.scan(buf, at, end);
      for (const st of streams) {
        const base = fs.lineNo;
        // A stream without a carriage return or an escape byte: no line of it needs checking for one.
        const plain = !st.crOrEscape;
        let line = -1;
        let lineStart = 0;
        let lineEnd = 0;
        for (let r = st.from; r < st.to; r += 3) {
          const pos = rec[r]!;
          if (rec[r + 2] !== line) {
            if (line >= 0) this.endLine(file, fs, buf, lineStart, lineEnd, plain);
            line = rec[r + 2]!;
            fs.lineNo = base + line;
            lineStart = buf.lastIndexOf(10, pos) + 1;
            if (lineStart < st.start) lineStart = st.start;
            lineEnd = buf.indexOf(10, pos);
          }
          if (fs.hitN < MAX_MATCHES_PER_LINE) {
            const hitEnd = pos + 1 - lineStart;
            fs.hitEnds[fs.hitN++] = hitEnd;
            noteKeys(fs, outputsAt[rec[r + 1]!]!, hitEnd);
          }
        }
        if (line >= 0) this.endLine(file, fs, buf, lineStart, lineEnd, plain);
        fs.lineNo = base + st.lines;
      }
      at = end;
    }
  }

  /**
   * The automaton over buf[from, to), which starts a line or continues the open one (fs.carry): one
   * table step per byte (byte class → next state, with flags for a key end or a newline), and a line
   * handed on only when it had a hit. A line still open at `to` becomes fs.carry.
   */
  private exactRange(file: string, fs: FileState, buf: Buffer, from: number, to: number, lineStart = from): void {
    const { byteClass, table, outputsAt } = DFA;
    let st = fs.state;
    let base = fs.carry ? fs.carry.length : 0;
    for (let i = from; i < to; i++) {
      const t = table[st + byteClass[buf[i]!]!]!;
      st = t & ~3;
      if ((t & 3) === 0) continue;
      if (t & FLAG_NEWLINE) {
        if (fs.hitN) {
          if (fs.carry) {
            const line = Buffer.concat([fs.carry, buf.subarray(lineStart, i)]);
            this.endLine(file, fs, line, 0, line.length);
          } else {
            this.endLine(file, fs, buf, lineStart, i);
          }
        } else {
          fs.lineNo += 1;
        }
        fs.carry = null;
        base = 0;
        lineStart = i + 1;
        continue;
      }
      if (fs.hitN < MAX_MATCHES_PER_LINE) {
        const at = base + (i + 1 - lineStart);
        fs.hitEnds[fs.hitN++] = at;
        noteKeys(fs, outputsAt[st >> STATE_SHIFT]!, at);
      }
    }
    fs.state = st;
    if (lineStart < to) {
      const rest = buf.subarray(lineStart, to);
      fs.carry = fs.carry ? Buffer.concat([fs.carry, rest]) : Buffer.from(rest);
    }
  }

  /** A line still without a newline past MAX_CARRY: look at its hits so far, keep only an overlap. */
  private flushLongLine(file: string, fs: FileState): void {
    const carry = fs.carry!;
    if (fs.hitN) this.onHitLine?.(file, fs.lineNo + 1, fs.hitIds.slice(0, fs.idN), fs.hitEnds.slice(0, fs.hitN));
    if (fs.hitN) this.evalWindows(file, fs, carry, 0, carry.length, fs.lineNo + 1);
    const keep = Math.min(CARRY_OVERLAP, carry.length);
    fs.carry = Buffer.from(carry.subarray(carry.length - keep));
    fs.longLine = fs.lineNo + 1;
    fs.hitN = 0;
    fs.idN = 0;
  }

  /**
   * The line [start, end) of `buf` is complete and had prefilter hits. `plain`: it is known to hold no
   * carriage return and no escape byte (its visible text is its bytes).
   */
  private endLine(file: string, fs: FileState, buf: Buffer, start: number, end: number, plain = false): void {
    const lineNumber = fs.lineNo + 1;
    if (fs.hitN) {
      this.onHitLine?.(file, lineNumber, fs.hitIds.slice(0, fs.idN), fs.hitEnds.slice(0, fs.hitN));
      if (end - start <= MAX_LINE) {
        const c = this.scratch.candidatesAt(buf, start, end, fs.hitIds, fs.hitAt, fs.idN);
        const rest = c.context & ~CX.failure;
        const context = rest ? this.byteContext(rest, fs, lineNumber, buf, start, end, plain) : 0;
        const failure = (c.context & CX.failure) !== 0 && fs.section === 'log' && fs.longLine !== lineNumber;
        if (c.patterns.length || context || failure) {
          const text = visibleText(buf.toString('utf8', start, end));
          const judged = c.patterns.length || context ? this.evalLine(file, lineNumber, text, fs.section, c.patterns, context, {}, fs, failure) : false;
          // A line a rule has judged (fired on, or ruled out) is not the fallback's to read again; a run
          // log's line with a rule's words that no producer flagged is kept for a log with no failure line.
          if (judged) {
            if (fs.judged.length >= JUDGED_KEPT) fs.judged.shift();
            fs.judged.push(lineNumber);
          } else if (!(failure && this.failures.note(file, lineNumber, text)) && c.patterns.length && fs.section === 'log' && fs.longLine !== lineNumber && !loggedAsInfo(text)) this.wordLines.note(file, lineNumber, text);
        }
      } else {
        this.evalWindows(file, fs, buf, start, end, lineNumber);
      }
    }
    fs.lineNo = lineNumber;
    fs.hitN = 0;
    fs.idN = 0;
  }

  /** Very long lines: a bounded window of text around each of the first hits. */
  private evalWindows(file: string, fs: FileState, buf: Buffer, start: number, end: number, lineNumber: number, given?: { patterns: number[]; context: number }): void {
    let lastEnd = -1;
    let windows = 0;
    const found = given ?? this.scratch.candidatesAt(buf, start, end, fs.hitIds, fs.hitAt, fs.idN);
    // A line this long is no failure line (failure-lines.ts keeps whole lines up to MAX_LINE only).
    const c = { patterns: found.patterns, context: found.context & ~CX.failure };
    if (!c.patterns.length && !c.context) return;
    for (let h = 0; h < fs.hitN; h++) {
      const hitEnd = fs.hitEnds[h]!;
      if (windows >= MAX_WINDOWS_PER_LINE) break;
      const hit = start + hitEnd;
      if (hit <= lastEnd) continue;
      const ws = Math.max(start, hit - WINDOW_BEFORE);
      const we = Math.min(end, ws + MAX_LINE);
      this.evalLine(file, lineNumber, visibleText(buf.toString('utf8', ws, we)), fs.section, c.patterns, c.context, {}, fs);
      lastEnd = we - 64;
      windows += 1;
    }
  }

  /**
   * Try the candidate patterns (indices into PREFILTER.patterns, ascending) on one visible line. Returns
   * whether a rule judged it: fired on it, or matched it and ruled it out (`unless`, an extract's null
   * class, a section the rule does not count in; with `judgeAll` the last is tested too). A traceback
   * position it is not in (`raisedIn`) and the bare-exception catch-all only place a line, they do not judge it.
   */
  private evalLine(file: string, lineNumber: number, line: string, section: Section, patterns: number[], context: number, extra: LineExtra, fs?: FileState, judgeAll = false): boolean {
    if (fs && line.startsWith('==> ')) {
      const h = HEADER_RE.exec(line);
      if (h) {
        const path = h[1]!.trim();
        fs.section = sectionOfPath(path);
        fs.inRootCause = false;
        fs.rootEntry = undefined;
        fs.progress.section(path, fs.section, lineNumber);
        return false;
      }
    }
    if (context) this.context(context, line, file, lineNumber, fs);
    if (patterns.length === 0) return false;
    let judged = false;
    let rankCache: number | undefined | null = null;
    let timeCache: LogTime | undefined | null = null;
    let raisedCache: TracebackEnd | undefined | null = null;
    const all = PREFILTER.patterns;
    for (let i = 0; i < patterns.length; ) {
      const ri = all[patterns[i]!]!.rule;
      // A rule's candidate patterns are consecutive; the first that matches is the one its extract sees.
      let m: RegExpExecArray | null = null;
      const rule = RULES[ri]!;
      const allowed = (rule.sections ?? DEFAULT_SECTIONS).includes(section);
      const tried = allowed || (judgeAll && !judged);
      for (; i < patterns.length && all[patterns[i]!]!.rule === ri; i++) if (tried && !m) m = all[patterns[i]!]!.re.exec(line);
      if (!m) continue;
      if (!allowed) {
        judged = true;
        continue;
      }
      if (rule.raisedIn) {
        if (raisedCache === null) raisedCache = extra.raisedIn ? { whose: extra.raisedIn, site: extra.validationSite === true } : fs ? tracebackEndAt(fs, lineNumber, line) : undefined;
        if (!raisedInMatches(rule.raisedIn, raisedCache)) continue;
      }
      // A checklist or key-value report naming the condition only to say it is absent (rules/absence.ts).
      if (rule.unless?.some((u) => u.test(line)) || reportsAbsence(line, m.index, m.index + m[0].length)) {
        judged = true;
        continue;
      }
      const extracted: Extracted = rule.extract ? safeExtract(rule, line, m) : {};
      judged ||= !rule.catchAll;
      if (extracted.classOverride === null) continue;
      if (rankCache === null) rankCache = extra.rank ?? extracted.rank ?? parseRank(line);
      if (timeCache === null) timeCache = extra.time ?? parseLogTime(line);
      this.record(rule, extracted, file, lineNumber, line, section, { ...extra, rank: rankCache, time: timeCache });
    }
    return judged;
  }

  /** Keep a signal: the first few of each rule and its latest. */
  private record(rule: Rule<RuleId>, extracted: Extracted, file: string, lineNumber: number, text: string, section: Section, extra: LineExtra): void {
    const list = this.perRule.get(rule.id) ?? [];
    this.perRuleCount.set(rule.id, (this.perRuleCount.get(rule.id) ?? 0) + 1);
    const last = list[list.length - 1];
    if (last && last.file === file && last.line === lineNumber) return;
    let strength = typeof extracted.strength === 'number' ? extracted.strength : rule.strength;
    // A request error the client is about to retry is not yet a failure: it only wins when nothing else does.
    if (RETRYABLE.has(rule.class) && RETRYING_RE.test(text)) strength = Math.min(strength, RETRIED_STRENGTH);
    const sig: Signal = {
      rule,
      class: extracted.classOverride ?? rule.class,
      strength,
      file,
      line: lineNumber,
      text: text.trim().slice(0, 500),
      section,
      time: extra.time,
      rank: extra.rank ?? (typeof extracted.rank === 'number' ? extracted.rank : undefined),
      extracted,
      order: this.order++,
      rootHint: extra.rootHint,
    };
    if (list.length < MAX_SIGNALS_PER_RULE) list.push(sig);
    // Keep the earliest signals and the latest one: the first show when it began, the last how it ended.
    else list[MAX_SIGNALS_PER_RULE - 1] = sig;
    this.perRule.set(rule.id, list);
  }

  /**
   * The context checks that need no text (most lines of a long log are NCCL INFO chatter): done on the
   * bytes; returns the bits still to be read from the decoded line.
   */
  private byteContext(mask: number, fs: FileState, lineNumber: number, buf: Buffer, start: number, end: number, plain: boolean): number {
    const ctx = this.ctx;
    let rest = mask;
    if (mask & CX.ncclInfo) {
      ctx.ncclInfoSeen = true;
      // Most lines of a long log are NCCL INFO chatter: note the latest without allocating for each.
      const last = fs.lastNcclInfo;
      if (last?.pending) {
        last.line = lineNumber;
        last.pending.buf = buf;
        last.pending.start = start;
        last.pending.end = end;
      } else fs.lastNcclInfo = { line: lineNumber, bytes: null, pending: { buf, start, end } };
      const p = fs.ncclHostPrefix;
      if (ctx.ncclHosts.size >= 64) rest &= ~CX.ncclInfo;
      else if (p && end - start >= p.length && startsWith(buf, start, p)) {
        // What the line shows could differ from its bytes only through a carriage return or an escape.
        if (plain || !holdsCrOrEscape(buf, start, end)) rest &= ~CX.ncclInfo;
      }
    }
    if (mask & CX.p2pTransport && ctx.p2pTransport) rest &= ~CX.p2pTransport;
    if (mask & CX.netTransport) (ctx.netTransport = true), (rest &= ~CX.netTransport);
    // The traceback header is read from the text (context): its stream marks where a traceback starts.
    if (mask & CX.ncclTestsResults) (ctx.ncclTests.results = true), (rest &= ~CX.ncclTestsResults);
    if (mask & CX.agentFinished) (ctx.agentFinished = true), (rest &= ~CX.agentFinished);
    if (mask & CX.ncclTestsHeader && ctx.ncclTests.header) rest &= ~CX.ncclTestsHeader;
    if (mask & CX.ncclTestsRank && !ctx.ncclTests.header) rest &= ~CX.ncclTestsRank;
    if (mask & CX.localRank && !(fs.inRootCause || mask & CX.rootCause)) rest &= ~CX.localRank;
    if (mask & CX.rootField && !fs.rootEntry) rest &= ~CX.rootField;
    return rest;
  }

  /** A line of a stack (stacks.ts): a traceback or dump header, a frame, the KeyboardInterrupt that ends it. */
  private stackLine(mask: number, line: string, file: string, lineNumber: number, fs: FileState): void {
    const p = splitPrefix(line);
    const rank = p.rank ?? undefined;
    const nccl = fs.lastNcclInfo ? lineNumber - fs.lastNcclInfo.line : undefined;
    if (mask & CX.traceback && p.rest.includes('Traceback (most recent call last)')) (fs.stacks ??= new StackTracker(file)).traceback(p.stream, rank, lineNumber, p.rest, nccl);
    if (mask & CX.stackHeader) (fs.stacks ??= new StackTracker(file)).header(p.stream, rank, lineNumber, p.rest.trim(), nccl);
    if (!fs.stacks) return;
    if (mask & CX.frame) {
      const f = parseFrame(p.rest);
      if (f && !f.path.startsWith('<frozen ')) fs.stacks.pyFrame(p.stream, lineNumber, line, f);
    }
    if (mask & CX.gdbFrame) {
      const f = parseGdbPyFrame(p.rest);
      if (f) fs.stacks.pyFrame(p.stream, lineNumber, line, f);
    }
    if (mask & CX.pySpyFrame) {
      const f = parsePySpyFrame(p.rest);
      if (f) fs.stacks.pySpyFrame(p.stream, lineNumber, line, f);
    }
    if (mask & CX.interrupt && /^KeyboardInterrupt\b/.test(p.rest.trim())) fs.stacks.interrupt(p.stream, lineNumber);
  }

  /** Non-failure facts that the resolution reads (NCCL transport and progress, harness token counts…), from the line's text. */
  private context(mask: number, line: string, file: string, lineNumber: number, fs?: FileState): void {
    const ctx = this.ctx;
    if (mask & CX.p2pTransport && !ctx.p2pTransport && P2P_TRANSPORT_RE.test(line)) ctx.p2pTransport = { file, line: lineNumber, text: line.trim().slice(0, 500) };
    if (mask & CX.p2pDisabled && P2P_DISABLED_RE.test(line)) ctx.p2pDisabled = true;
    if (mask & CX.ncclInfo) {
      ctx.ncclInfoSeen = true;
      const host = NCCL_HOST_RE.exec(line);
      if (host && ctx.ncclHosts.size < 64) {
        ctx.ncclHosts.add(host[1]!);
        // Later lines that start with the same bytes up to the host's colon name the same host.
        if (fs) fs.ncclHostPrefix = Buffer.from(line.slice(0, host.indices![1]![1] + 1), 'utf8');
      }
      if (fs && !fs.lastNcclInfo?.pending) fs.lastNcclInfo = { line: lineNumber, bytes: Buffer.from(line, 'utf8') };
    }
    if (mask & CX.netTransport) ctx.netTransport = true;
    if (fs && mask & (CX.traceback | CX.stackHeader | CX.interrupt | CX.pySpyFrame | CX.frame | CX.gdbFrame)) this.stackLine(mask, line, file, lineNumber, fs);
    if (mask & CX.traceback) {
      ctx.tracebackSeen = true;
      fs?.progress.traceback(lineNumber);
      // A traceback printed with its frames cut out ("Traceback …:", "...", "FooError: x") still ends
      // at its exception line; whose code raised it is then unknown.
      if (fs) markFrame(fs, splitPrefix(line).stream, lineNumber, null, false);
    }
    if (mask & CX.enqueued) {
      const m = LAST_ENQUEUED_RE.exec(line);
      const rank = parseRank(line);
      if (m && ctx.progress.size < MAX_RANKS_TRACKED) {
        const pg = /\[PG(?: ID)? (\d+)/.exec(line)?.[1] ?? '';
        ctx.progress.set(`${pg}:${rank ?? '?'}`, { rank, pg, enqueued: Number(m[1]), completed: m[2] !== undefined ? Number(m[2]) : undefined, file, line: lineNumber, text: line.trim().slice(0, 500) });
      }
    }
    if (mask & CX.p2pTestHeader) ctx.p2pTest.header ??= { file, line: lineNumber, text: line.trim().slice(0, 500) };
    if (mask & CX.p2pTestDone) ctx.p2pTest.done = true;
    if (mask & CX.serverStart && !ctx.serverStarts.has(file) && ctx.serverStarts.size < MAX_FILES_WITH_SERVER_START && isServerStart(line)) ctx.serverStarts.set(file, lineNumber);
    if (mask & CX.ncclTestsHeader) ctx.ncclTests.header ??= { file, line: lineNumber, text: line.trim().slice(0, 500) };
    if (mask & CX.ncclTestsResults) ctx.ncclTests.results = true;
    if (mask & CX.ncclTestsRank && ctx.ncclTests.header) {
      const h = NCCL_TESTS_RANK_RE.exec(line);
      if (h && ctx.ncclTests.hosts.size < 64) ctx.ncclTests.hosts.add(h[1]!);
    }
    if (mask & CX.tokens) {
      const t = TOKENS_RE.exec(line);
      if (t && t[1] !== 'null') ctx.maxInputTokens = Math.max(ctx.maxInputTokens ?? 0, Number(t[1]));
    }
    if (mask & CX.agentFinished) ctx.agentFinished = true;
    if (mask & CX.progress && fs) fs.progress.line(line, lineNumber);
    if (mask & CX.frame && fs) {
      const p = splitPrefix(line);
      const f = parseFrame(p.rest);
      // The import machinery's frozen frames only pass an import on: the frame before them is where it happened.
      if (f && !f.path.startsWith('<frozen ')) markFrame(fs, p.stream, lineNumber, f.library, isValidationSite(f.path, f.fn), f.checkout, isGraderFrame(f.path));
    }
    if (fs) {
      if (mask & CX.rootCause) (fs.inRootCause = true), (fs.rootEntry = {});
      else if (mask & CX.localRank && fs.inRootCause) {
        const f = parseRootCauseField(splitPrefix(line).rest);
        const r = f?.name === 'rank' ? rootCauseRank(f.value) : null;
        if (r) {
          ctx.rootRank ??= r.rank;
          fs.inRootCause = false;
          if (fs.rootEntry) fs.rootEntry.rank = r.rank;
        }
      } else if (mask & CX.rootField && fs.rootEntry) {
        const f = parseRootCauseField(splitPrefix(line).rest);
        if (f?.name === 'time' && fs.rootEntry.rank === undefined) fs.rootEntry.time = parseLogTime(f.value);
        const e = f?.name === 'exitcode' && fs.rootEntry.rank !== undefined ? rootCauseExit(f.value) : null;
        if (e) {
          ctx.rootFailure ??= { rank: fs.rootEntry.rank!, exitCode: e.exitcode, time: fs.rootEntry.time, file, line: lineNumber, text: line.trim().slice(0, 500) };
          fs.rootEntry = undefined;
        }
      }
    }
  }
}

/**
 * The catch-all rows (Rule.catchAll): "a traceback ended in an exception no rule knows". They only place
 * a line (a bare `RuntimeError:` counts at the end of a traceback, the engine's gate decides), so the
 * line's words stay the fallback's to read; and when only they decided, a clear infra vocabulary in the
 * failure lines (the exception line included) is the better guess (finish).
 */
const CATCH_ALL_RULES = new Set<string>(RULES.filter((r) => r.catchAll).map((r) => r.id));

// A harness's result JSON and a verifier's test output quote task text and graded tracebacks: not failures of the run.
const DEFAULT_SECTIONS: Section[] = ['log', 'agent'];


/**
 * Whether `line` (number `lineNumber`) is the exception line that ends a Python traceback of its stream,
 * and whose code the innermost frame is: an unindented line shortly after that stream's last frame line.
 */
function tracebackEndAt(fs: FileState, lineNumber: number, line: string): TracebackEnd | undefined {
  if (!fs.frames) return undefined;
  const p = splitPrefix(line);
  if (p.rest === '' || /^\s/.test(p.rest)) return undefined;
  const mark = fs.frames.get(p.stream);
  if (!mark || lineNumber <= mark.line || lineNumber - mark.line > TRACEBACK_TAIL_LINES) return undefined;
  return { whose: mark.library === null ? 'unattributed' : mark.library ? 'library' : 'own', site: mark.site, checkout: mark.checkout, grader: mark.grader };
}

/** The last traceback line of a stream: where it is, whose code its frame is (null: the header), and whether that frame is a validation site. */
interface FrameMark {
  line: number;
  library: boolean | null;
  site: boolean;
  /** The frame is in a framework's source checkout (logline.isFrameworkCheckoutPath). */
  checkout: boolean;
  /** The frame is an evaluation harness's grading code (rules/eval-harness.ts GRADER_FRAME). */
  grader: boolean;
}

/** How a traceback ended: whose code its innermost frame is (unattributed: a header with its frames cut), and whether that frame is a validation site. */
interface TracebackEnd {
  whose: 'own' | 'library' | 'unattributed';
  site: boolean;
  /** The innermost frame is in a framework's source checkout: 'own' by path, but not the run's own code for 'not-own'. */
  checkout?: boolean;
  /** The innermost frame is an evaluation harness's grading code. */
  grader?: boolean;
}

/** `got` undefined: the line ends no traceback. */
function raisedInMatches(want: RaisedIn, got: TracebackEnd | undefined): boolean {
  if (want === 'not-own') return got?.whose !== 'own' || got.checkout === true;
  if (got === undefined) return false;
  if (want === 'validation-site') return got.site;
  if (want === 'grader') return got.grader === true;
  return want === 'any' || want === got.whose;
}

/** Note the last traceback line of a stream that says where the traceback is: a frame (library or own) or its header (null). */
function markFrame(fs: FileState, stream: string, lineNumber: number, library: boolean | null, site: boolean, checkout = false, grader = false): void {
  const frames = (fs.frames ??= new Map());
  if (frames.size < MAX_RANKS_TRACKED || frames.has(stream)) frames.set(stream, { line: lineNumber, library, site, checkout, grader });
}

/** Logged at an information level, before or after its stream prefix (vLLM's `INFO 12-02 10:00:00 [x.py:1]` is cut off with the prefix). */
function loggedAsInfo(visible: string): boolean {
  return isInfoLine(visible.trim()) || isInfoLine(splitPrefix(visible).rest.trim());
}

function startsWith(buf: Uint8Array, start: number, prefix: Uint8Array): boolean {
  for (let j = 0; j < prefix.length; j++) if (buf[start + j] !== prefix[j]) return false;
  return true;
}

function holdsCrOrEscape(buf: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i] === 13 || buf[i] === 27) return true;
  return false;
}

/** The keys that end at a hit (outputs entry `out`, 1-based), noted once per line with where they were first seen. */
function noteKeys(fs: FileState, out: number, at: number): void {
  const ids = fs.hitIds;
  for (const k of DFA.outputs[out - 1]!) {
    let seen = false;
    for (let j = 0; j < fs.idN; j++) if (ids[j] === k) (seen = true), (j = fs.idN);
    if (seen) continue;
    ids[fs.idN] = k;
    fs.hitAt[fs.idN] = at;
    fs.idN += 1;
  }
}

/** Copy the last NCCL INFO line's bytes out of a chunk before the caller may reuse it. */
function settleNcclInfo(fs: FileState): void {
  const last = fs.lastNcclInfo;
  if (!last?.pending) return;
  const { buf, start, end } = last.pending;
  fs.lastNcclInfo = { line: last.line, bytes: Buffer.from(buf.subarray(start, Math.min(end, start + 2048))) };
}

function safeExtract(rule: Rule, line: string, m: RegExpExecArray): Extracted {
  let out: Extracted = {};
  contained(() => {
    out = rule.extract!(line, m) ?? {};
  });
  return out;
}

let VOCABULARY: Vocabulary | undefined;
/** The vocabulary of the rules in force and the lexicon, built on first use. */
function vocabulary(): Vocabulary {
  return (VOCABULARY ??= buildVocabulary(RULES));
}

export function createLogClassifier(): LogClassifier {
  return new Engine();
}
