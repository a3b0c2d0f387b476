// How a log ends. A run that hangs prints no failure line: its log just stops, and its last lines are
// what it printed while it waited — a poll ("Waiting for output from MQLLMEngine."), a barrier's status
// ("Waiting in store based barrier …"), a heartbeat that repeats unchanged, an inference server's metrics
// with requests running, a progress bar short of its total. The engine keeps the last TAIL_BYTES of each
// file while it streams (TailBytes: bounded, and the same bytes however the log was cut into chunks), and
// `logEnding` reads the last lines into one typed `log-ending` signal (signals.ts), which rules/facts.ts
// maps to the rules/stall.ts rows. The vocabulary of waits is LOG_ENDINGS (rules/stall.ts), from the
// producers' source. A log whose last line is a failure line, a success line or plain prose ends in no wait.
import { parseLogTime, splitPrefix, visibleText } from '../logline.js';
import { holdsFailureMarker, isFailureLine } from './failure-lines.js';
import { LOG_ENDINGS, SUCCESS_ENDINGS } from './rules/stall.js';
import type { SignalOf } from './signals.js';

/** Bytes kept of the end of each file: enough for TAIL_LINES lines of ordinary length. */
export const TAIL_BYTES = 16 * 1024;
/** Lines read from the end. */
export const TAIL_LINES = 40;
/** Characters kept of one line (the same cut as a failure line's). */
const MAX_TEXT = 500;
/** A periodic line counts as a heartbeat when it repeats at least this often at the very end. */
export const MIN_REPEATS = 3;
/** A serving-metrics line counts when it is among this many last meaningful lines. */
const METRICS_TAIL = 3;

export interface TailLine {
  line: number;
  /** Visible text after the stream prefix (`[rank0]:`, `(Worker pid=N)`, vLLM's logger), trimmed and cut. */
  text: string;
  /** Visible text as printed (for the evidence). */
  shown: string;
}

/** The last TAIL_BYTES bytes of one file's stream, whatever the chunks were. */
export class TailBytes {
  private buf: Buffer | null = null;
  private len = 0;
  private total = 0;

  push(chunk: Uint8Array): void {
    const n = chunk.length;
    if (n === 0) return;
    const buf = (this.buf ??= Buffer.allocUnsafe(TAIL_BYTES));
    this.total += n;
    if (n >= TAIL_BYTES) {
      buf.set(chunk.subarray(n - TAIL_BYTES));
      this.len = TAIL_BYTES;
      return;
    }
    const keep = Math.min(this.len, TAIL_BYTES - n);
    if (keep < this.len) buf.copyWithin(0, this.len - keep, this.len);
    buf.set(chunk, keep);
    this.len = keep + n;
  }

  /** The last lines, numbered so that the file's last line is `lastLine` (the engine's count after its final flush). */
  lines(lastLine: number): TailLine[] {
    if (!this.buf || this.len === 0) return [];
    const parts = this.buf.toString('utf8', 0, this.len).split('\n');
    if (parts[parts.length - 1] === '') parts.pop();
    // The first piece is cut at its head when the file was longer than what is kept.
    if (this.total > this.len && parts.length > 1) parts.shift();
    const from = Math.max(0, parts.length - TAIL_LINES);
    const out: TailLine[] = [];
    for (let i = from; i < parts.length; i++) {
      const shown = visibleText(parts[i]!).slice(0, 4 * MAX_TEXT);
      out.push({ line: lastLine - (parts.length - 1 - i), text: splitPrefix(shown).rest.trim().slice(0, MAX_TEXT), shown: shown.trim().slice(0, MAX_TEXT) });
    }
    return out;
  }
}

/** A line that says nothing about where the run was: blank, a Markdown fence, only punctuation or box drawing. */
const NOISE = /^(?:`{3}\w*|[\W_]*)$/;

// vLLM V0 engine/metrics.py and V1 v1/metrics/loggers.py LoggingStatLogger ("Avg prompt throughput: %.1f
// tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, …"; some releases say "prefill").
const VLLM_METRICS = /Avg (?:prompt|prefill) throughput: ([\d.]+) tokens\/s, Avg generation throughput: ([\d.]+) tokens\/s, Running: (\d+) reqs/;
// SGLang scheduler (managers/scheduler.py log_decode_stats): "Decode batch. #running-req: %d, … gen throughput (token/s): %.2f".
const SGLANG_DECODE = /Decode batch[.,] #running-req: (\d+),.{0,300}?gen throughput \(token\/s\): ([\d.]+)/;
// The other periodic stats lines of the same loggers (vLLM SpecDecodingLogging "SpeculativeDecoding metrics" /
// "SpecDecoding metrics", SGLang "Prefill batch. #new-seq: …").
const SERVING_STATS = /Spec(?:ulative)?Decoding metrics|Prefill batch[.,] #new-seq|Prefix cache hit rate/;
// An HTTP access log line with a success status (uvicorn `"GET /health HTTP/1.1" 200 OK`, nginx/gunicorn
// combined format): a health check answered is a server doing its job, not a stall.
const ACCESS_OK = /"(?:GET|POST|PUT|HEAD|DELETE|PATCH|OPTIONS) \S{1,400} HTTP\/[\d.]{1,3}"? [23]\d\d\b/;
// tqdm's default format (tqdm/std.py format_meter): "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]";
// with an unknown total (Lightning's validation bar) no percentage: "{desc}: |{bar}| {n}/? [...]".
const TQDM_BAR = /(?:(\d{1,3})%|:) ?\|[^|]{0,200}\| ?(\d+(?:\.\d+)?[kMG]?|\?)\/(\d+(?:\.\d+)?[kMG]?|\?) \[/;

/** Clock and numbers out: what stays of a periodic line when only its time moves. */
const TIME_PARTS = /\b\d{1,4}[-/]\d{1,2}[-/]\d{1,4}\b|\b\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,9})?Z?\b|\b[IWEF]\d{4}\b|\b\d+(?:\.\d+)? ?(?:ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?)\b/g;
const untimed = (s: string): string => s.replace(TIME_PARTS, '#').replace(/\s+/g, ' ');
const template = (s: string): string => untimed(s).replace(/\d+(?:\.\d+)?/g, '0');

type Ending = Omit<SignalOf<'log-ending'>, 'kind' | 'at'>;

/**
 * How the log `file` ends, from its last lines, or null when it ends in no wait (a failure line, a
 * success line, prose, or too few lines to tell).
 */
export function logEnding(file: string, lines: readonly TailLine[]): SignalOf<'log-ending'> | null {
  const meaningful = lines.filter((l) => !NOISE.test(l.text));
  const last = meaningful[meaningful.length - 1];
  if (!last || isFailureLine(last.text) || finished(last)) return null;
  const at = (l: TailLine) => ({ kind: 'log-ending' as const, at: { file, line: l.line } });
  const ending = endingOf(meaningful);
  return ending ? { ...at(ending.l), ...ending.e } : null;
}

/** The run's own words for having finished (SUCCESS_ENDINGS) end the log: no stall. */
const finished = (l: TailLine): boolean => SUCCESS_ENDINGS.some((re) => re.test(l.text));

function endingOf(meaningful: readonly TailLine[]): { l: TailLine; e: Ending } | null {
  const last = meaningful[meaningful.length - 1]!;
  // An inference server's periodic metrics with requests running (idle metrics say the server waits for clients: no stall).
  for (let i = meaningful.length - 1; i >= Math.max(0, meaningful.length - METRICS_TAIL); i--) {
    const l = meaningful[i]!;
    const v = VLLM_METRICS.exec(l.text);
    const s = v ? null : SGLANG_DECODE.exec(l.text);
    if (!v && !s) {
      // Only the servers' other periodic stats may follow it (a shutdown or any other line ends the search).
      if (SERVING_STATS.test(l.text)) continue;
      break;
    }
    const running = Number(v ? v[3] : s![1]);
    const generated = Number(v ? v[2] : s![2]);
    const prompted = v ? Number(v[1]) : 0;
    if (running === 0) return null;
    return { l, e: { ending: 'serving', text: l.shown, repeats: 1, running, generating: generated > 0 || prompted > 0 } };
  }
  const message = messageOf(last.text);
  for (const w of LOG_ENDINGS) {
    const m = w.re.exec(w.atHead ? message : last.text);
    if (!m) continue;
    const awaits = w.awaits.replace('$1', (m[1] ?? '').trim() || 'something');
    return { l: last, e: { ending: 'waiting', text: last.shown, repeats: repeatsAtEnd(meaningful), awaits, producer: w.producer, ...(w.cls ? { cls: w.cls } : {}) } };
  }
  const repeats = repeatsAtEnd(meaningful);
  // A repeated warning that says something failed is a retry loop, for the rules and the fallback; a
  // repeated health check answered is a server doing its job.
  if (repeats >= MIN_REPEATS && !holdsFailureMarker(last.text) && !ACCESS_OK.test(last.text)) {
    const run = meaningful.slice(-repeats);
    // Nothing but the clock moves: every line of the run is the same once times are out.
    const same = run.every((l) => untimed(l.text) === untimed(last.text));
    if (same && timesAscend(run)) return { l: last, e: { ending: 'repeating', text: last.shown, repeats } };
  }
  const bar = TQDM_BAR.exec(last.text);
  if (bar) {
    const pct = bar[1] !== undefined ? Number(bar[1]) : undefined;
    const unfinished = pct !== undefined ? pct < 100 : bar[3] === '?' || bar[2] !== bar[3];
    if (unfinished) return { l: last, e: { ending: 'mid-progress', text: last.shown, repeats: 1 } };
  }
  return null;
}

// What a logger puts before the message: a time stamp, a level, a bracketed field, a logger or source name.
const HEAD_PIECE = /^(?:(?:INFO|DEBUG|WARNING|WARN|NOTICE):[\w.]{1,60}:|[\w.]{1,60}:(?:INFO|DEBUG|WARNING|WARN|NOTICE):|\[[^\]]{0,80}\]|\d[\d:T.,/ Z+-]{4,40}(?=\s|\]|$)|(?:INFO|DEBUG|NOTICE|TRACE|WARN|WARNING|I|D|W)\b:?|[\w.<>-]{1,60}(?::\d+)?\]|[\w.<>-]{1,60}(?::\d+)? ?(?:[:|]|-{1,2})(?=\s)|\||-{1,2}(?=\s)|[A-Z][a-z]{2} {1,2}\d{1,2}(?= ))\s*/;

/** The message of a log line: its leading time stamp, level, logger and source fields cut off (at most 8 of them). */
export function messageOf(text: string): string {
  let rest = text;
  for (let i = 0; i < 8; i++) {
    const m = HEAD_PIECE.exec(rest);
    if (!m || m[0].length === 0) break;
    rest = rest.slice(m[0].length);
  }
  return rest;
}

/** How many lines at the very end share the last line's template (digits and times aside). */
function repeatsAtEnd(meaningful: readonly TailLine[]): number {
  const t = template(meaningful[meaningful.length - 1]!.text);
  let n = 0;
  for (let i = meaningful.length - 1; i >= 0 && template(meaningful[i]!.text) === t; i--) n++;
  return n;
}

/** Stamped lines never go back in time (a periodic line's stamps increase; unstamped lines say nothing). */
function timesAscend(run: readonly TailLine[]): boolean {
  let prev: number | undefined;
  for (const l of run) {
    const t = parseLogTime(l.shown);
    if (!t) continue;
    const v = t.ms ?? t.md ?? t.tod;
    if (prev !== undefined && v < prev) return false;
    prev = v;
  }
  return true;
}
