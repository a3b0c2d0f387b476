// Failure fingerprints: what makes two failures "the same problem" (a group, like a Sentry issue).
// fingerprint = sha256(class, the rule that saw the key evidence line, the masked template of that line,
// the top frame of its traceback when there is one). Masking removes what changes between two
// occurrences of one cause (numbers, ranks, hosts, IPs, paths, ids, times, sizes) and keeps what tells
// causes apart (words, exception types, errno values, HTTP status codes, exit codes, signals).
// Pure: no I/O; the caller hands in the bundle's texts.
import { createHash } from 'node:crypto';
import type { Diagnosis } from './types.js';
import { ANSI_RE } from './engine.js';
import { readHarborResult } from './harbor-result.js';

export const FINGERPRINT_VERSION = 'fp1';
/** A template longer than this is cut: the head of a line names the failure, the tail is payload. */
const MAX_TEMPLATE = 240;
/** Characters of a raw line looked at (masking shortens text, so a bit more than the template). */
const MAX_INPUT = 1000;
/** How far above the evidence line a traceback header may be. */
const TRACEBACK_LOOKBACK = 400;

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';

// Kept verbatim (they separate causes): errno, HTTP status, exit status, signal numbers.
const KEEP_RES: RegExp[] = [
  /\bErrno \d+/g,
  /\berrno[ =:]+\d+/gi,
  /\b(?:HTTP(?:\/\d(?:\.\d)?)?|status(?:[ _]code)?|Error code|response code)["' :=]*[1-5]\d\d\b/gi,
  /\b(?:exit(?:ed)?(?: with)?(?: code| status)?|exitcode|exit_code|returncode|return code)[ :=]*-?\d{1,3}\b/gi,
  /\bsignal[ :=]*\d{1,2}\b/gi,
  /\bSIG[A-Z]{2,6}\b/g,
  // claude-code / codex style provider errors ("API Error: 500 Internal server error").
  /\bAPI Error: [1-5]\d\d\b/g,
  // Model names and ids (gpt-4o-mini, claude-sonnet-4-5, qwen3-coder-480b, openai/gpt-4.1): the digits
  // name the model, and a failure on one model is not the same problem as on another.
  /\b(?:[a-z][\w-]*\/)?(?:gpt|claude|qwen|llama|gemini|gemma|mistral|mixtral|codestral|deepseek|phi|glm|kimi|grok|o[134](?=-)|command-r)[a-z0-9._:-]*[a-z0-9]/gi,
];

// Applied in order; each placeholder is a fixed word in angle brackets.
const MASKS: [RegExp, string][] = [
  // Times: ISO and space-separated datetimes, glog (I1130 04:55:01.123), syslog (Nov 30 04:55:01), bare clock times, epoch ms/s.
  [/\d{4}-\d{2}-\d{2}[T _]\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<ts>'],
  [/\b[IWEF]\d{4} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})?/g, '<ts>'],
  [new RegExp(`\\b${MONTH} {1,2}\\d{1,2}(?:,? \\d{4})? \\d{2}:\\d{2}:\\d{2}`, 'g'), '<ts>'],
  [/\b\d{4}-\d{2}-\d{2}\b/g, '<date>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?\b/g, '<time>'],
  // Identifiers.
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\bhttps?:\/\/[^\s'"<>)\]]+/gi, '<url>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g, '<ip>'],
  [/\[?\b(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{1,4}\b\]?(?::\d{1,5})?/gi, '<ip>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // Kubernetes generated names: <deployment>-<replicaset hash>-<5 chars>, <job>-<5 chars>.
  [/\b([a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)*)-[a-z0-9]{8,10}-[a-z0-9]{5}\b/g, '$1-<pod>'],
  // host=…, hostname: …, node_name=… (the value is a machine).
  [/\b(host(?:name)?|node(?:_?name)?|nodeName)(=|: ?)("?)[\w.-]+/gi, '$1$2$3<host>'],
  // NCCL's line prefix is host:pid:tid.
  [/^\s*[\w.-]+:\d+:\d+ (?=\[)/, '<host>:<pid>:<tid> '],
  // Paths: keep a source file's name (it locates the code); anything else is run-specific.
  [/(?:[A-Za-z]:\\|~?\/)?(?:[\w.@+-]+[/\\]){1,}[\w.@+-]+[/\\]?/g, '\u0001'],
  [/\b(?=[0-9]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  // Provider request and call ids with a type prefix (req_011CVhX9…, toolu_01…, chatcmpl-9x…).
  [/\b(?:req|toolu|msg|call|chatcmpl|resp|run|sess)[_-](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}\b/g, '<id>'],
  // Long tokens with several digits are generated ids (pod suffixes, run ids, hostnames like ins-7df6eoj…).
  [/\b(?=[A-Za-z0-9]*\d[A-Za-z0-9]*\d[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{10,}\b/g, '<id>'],
  // Sizes before plain numbers, so "8.00 GiB" and "512MB" read alike.
  [/\b\d+(?:\.\d+)?\s?(?:[KMGTP]i?B|[kKMGTP]B?|bytes|B)\b/g, '<size>'],
  [/\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi, '<n>'],
];

const SOURCE_EXT = /\.(?:py|pyx|cc|cpp|cu|cuh|c|h|hpp|rs|go|js|mjs|ts|java|scala|sh)$/;

function maskPath(p: string): string {
  const trimmed = p.replace(/[/\\]+$/, '');
  const base = trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
  // A dotted module name ("torch.cuda.OutOfMemoryError") has no slash and never gets here.
  if (SOURCE_EXT.test(base)) return `<path>/${base.replace(/\d+/g, '<n>')}`;
  return '<path>';
}

/**
 * A placeholder the masks cannot touch: no digits, no word characters (a private-use code point carries
 * the index). Lines have far fewer than 6400 kept tokens; past that the rest is masked like any text.
 */
function slot(mark: string, i: number): string {
  return i < 0x18ff ? `${mark}${String.fromCharCode(0xe000 + i)}${mark}` : '';
}

/** The masked template of one log line. Stable: the same cause on another rank, host or day gives the same text. */
export function maskLine(line: string): string {
  // Slot marks in the input itself would be read back as slots: drop them first.
  // Only the head names the failure, and several masks are quadratic in a token's length: cut first.
  let s = line.slice(0, MAX_INPUT).replace(ANSI_RE, '').replace(/[\r\u0000\u0001\ue000-\uf8ff]/g, '').trim();
  const kept: string[] = [];
  for (const re of KEEP_RES) {
    s = s.replace(re, (m) => {
      kept.push(m);
      return slot('\u0000', kept.length - 1);
    });
  }
  const paths: string[] = [];
  for (const [re, repl] of MASKS) {
    if (repl === '\u0001') {
      s = s.replace(re, (m) => {
        // A path needs a slash at a segment start; "a/b" inside words like "n/a" or "I/O" stay.
        if (!/^(?:[A-Za-z]:\\|~?\/)/.test(m) && m.split(/[/\\]/).length < 3) return m;
        paths.push(maskPath(m));
        return slot('\u0001', paths.length - 1);
      });
    } else {
      s = s.replace(re, repl);
    }
  }
  s = s.replace(/\u0001([\ue000-\uf8ff])\u0001/g, (_m, c: string) => paths[c.charCodeAt(0) - 0xe000]!);
  s = s.replace(/\u0000([\ue000-\uf8ff])\u0000/g, (_m, c: string) => kept[c.charCodeAt(0) - 0xe000]!);
  s = s.replace(/\s+/g, ' ');
  // Runs of the same placeholder (e.g. "<n>, <n>, <n>") are one list whatever its length.
  s = s.replace(/(<[a-z]+>)(?:[ ,:x×/-]*\1)+/g, '$1');
  s = stripDecorations(s);
  return s.length > MAX_TEMPLATE ? s.slice(0, MAX_TEMPLATE) : s;
}

// What launchers and loggers put in front of a line (torchrun's [rankN]:, Ray's (Actor pid=N, ip=…),
// a timestamp and level), applied to the masked text. The same error printed with and without them
// is the same failure.
const DECORATION_RES: RegExp[] = [
  /^\[rank<n>\]:\s*/i,
  /^\((?:[\w.]+ )?pid=<n>(?:, ip=<ip>)?\)\s*/,
  /^(?:<ts>|<time>|<date>)\s*(?:[|:,-]\s*)?/,
  /^\[(?:<ts>|<time>|<date>)[^\]]{0,40}\]\s*/,
  /^(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)\b:?\s*(?:<n>\s*)?(?:<time>\s*)?(?:\|\s*)?/,
];
/** A Python exception name followed by its message: where the failure's own words start. */
const EXCEPTION_ANCHOR = /(?:^|[\s:\](])((?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt)):\s/;

function stripDecorations(s: string): string {
  for (let changed = true; changed; ) {
    changed = false;
    for (const re of DECORATION_RES) {
      const t = s.replace(re, '');
      if (t !== s && t.length) {
        s = t;
        changed = true;
      }
    }
  }
  const m = EXCEPTION_ANCHOR.exec(s);
  if (m && m.index > 0) s = s.slice(m.index + m[0].indexOf(m[1]!));
  return s;
}

const FRAME_RE = /^\s*File "([^"]+)", line \d+, in (\S+)/;
const TRACEBACK_RE = /^\s*(?:\[[^\]]*\]:?\s*)?Traceback \(most recent call last\):/;

/** `module.py:function` of a frame, the file reduced to its name. */
function frameOf(m: RegExpExecArray): string {
  const file = m[1]!;
  const base = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  return `${base.replace(/\d+/g, '<n>')}:${m[2]}`;
}

/**
 * The innermost frame of the Python traceback that ends at (or just before) `lineNo` (1-based) in `text`,
 * or null when the line is not the end of a traceback.
 */
export function topFrameAt(text: string, lineNo: number): string | null {
  if (lineNo < 1) return null;
  // Where each of the last TRACEBACK_LOOKBACK + 1 lines up to lineNo starts (a ring), found with
  // indexOf: splitting a log of MiBs into lines to read a few hundred of them cost more than the scan.
  const span = TRACEBACK_LOOKBACK + 1;
  const starts = new Array<number>(span);
  let count = 0;
  for (let at = 0; count < lineNo; count++) {
    starts[count % span] = at;
    const nl = text.indexOf('\n', at);
    if (nl < 0) {
      count += 1;
      break;
    }
    at = nl + 1;
  }
  // `count` lines are known (fewer than lineNo when the text ends first); read back from the last.
  let frame: string | null = null;
  for (let i = count - 1; i >= 0 && i >= count - span; i--) {
    const start = starts[i % span]!;
    const nl = text.indexOf('\n', start);
    const l = text.slice(start, nl < 0 ? text.length : nl).replace(ANSI_RE, '');
    if (TRACEBACK_RE.test(l)) return frame;
    const m = FRAME_RE.exec(l);
    if (m && frame === null) frame = frameOf(m);
  }
  return null;
}

/** The innermost frame of a traceback given as one text (exceptions.json, Harbor exception_info). */
export function topFrameOfTraceback(tb: string): string | null {
  let frame: string | null = null;
  for (const l of tb.split('\n')) {
    const m = FRAME_RE.exec(l);
    if (m) frame = frameOf(m);
  }
  return frame;
}

/**
 * A Harbor trial's group key and title: class, exception type and the masked message template
 * (FORMATS §1.3). Its evidence lines are JSON fragments of result.json ("reward": 0.0,
 * "exception_type": …), which say nothing about which problem it was.
 */
function harborTemplate(files: Map<string, string> | undefined): string | null {
  const text = files?.get('harbor/result.json');
  if (text === undefined) {
    if (files?.has('harbor/trial.log') || files?.has('harbor/config.json')) return 'no result.json';
    return null;
  }
  const r = readHarborResult(text);
  if (r.status === 'garbled') return 'result.json unreadable';
  const e = r.exception;
  if (!e) return r.reward === null ? 'no exception, no reward' : r.reward > 0 ? 'no exception, scored' : 'no exception, reward 0';
  return `${e.type}: ${maskLine(messageLine(e.message))}`;
}

/** The line of an exception message that names the failure: for "Command failed (exit N): <cmd>", the agent's error. */
function messageLine(message: string): string {
  const lines = message.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length === 0) return '';
  const cmd = /^Command failed \((exit -?\d+)\)/.exec(lines[0]);
  if (!cmd) return lines[0];
  // The agent CLI's own error text, where Harbor's ERROR_PATTERNS found it (its last words win).
  const err = [...lines].reverse().find((l) => /API Error|Error:|error|Not logged in|Cannot use this model|limit/i.test(l) && !/^Command failed/.test(l));
  const inJson = err ? /"(?:result|error|message)"\s*:\s*"((?:[^"\\]|\\.){1,300})/.exec(err) : null;
  let said = inJson ? inJson[1] : (err ?? '');
  if (inJson) {
    try {
      said = JSON.parse(`"${inJson[1]}"`) as string;
    } catch {
      /* a cut escape: keep the raw text */
    }
  }
  return `Command failed (${cmd[1]}): ${said.replace(/^(?:stdout|stderr):\s*/, '')}`;
}

export interface FingerprintInput {
  diagnosis: Pick<Diagnosis, 'class' | 'evidence'>;
  /** The bundle's texts by path, to find the traceback behind the evidence line. */
  files?: Map<string, string>;
  /** Used when there is no evidence at all: the exit status is then all that tells failures apart. */
  exit?: { code: number | null; signal: string | null };
}

export interface Fingerprint {
  /** sha256 hex. */
  fingerprint: string;
  /** The masked key evidence line: the group's title. */
  template: string;
  /** `file.py:function`, or null. */
  frame: string | null;
  rule: string | null;
}

function rootTraceback(files: Map<string, string> | undefined): string | null {
  const t = files?.get('exceptions.json');
  if (!t) return null;
  try {
    const list = JSON.parse(t) as unknown;
    const first = Array.isArray(list) ? list[0] : undefined;
    const tb = first && typeof first === 'object' ? (first as { traceback?: unknown }).traceback : undefined;
    return typeof tb === 'string' ? tb : null;
  } catch {
    return null;
  }
}

/**
 * The fingerprint of a diagnosis. The key evidence line is the first one: the classifier orders
 * evidence root cause first. Later lines (other ranks repeating it, secondary symptoms) vary in number
 * and order between occurrences, so they are left out.
 */
export function fingerprintOf(input: FingerprintInput): Fingerprint {
  const d = input.diagnosis;
  const key = d.evidence[0];
  let template: string;
  let frame: string | null = null;
  let rule: string | null = null;
  const harbor = harborTemplate(input.files);
  if (harbor !== null) {
    // Class + exception type + message template.
    const title = `${d.class} · ${harbor}`;
    template = title.length > MAX_TEMPLATE ? title.slice(0, MAX_TEMPLATE) : title;
    rule = 'harbor.trial';
  } else if (key) {
    template = maskLine(key.text);
    rule = key.rule;
    const text = input.files?.get(key.file);
    if (text !== undefined && key.line > 0) frame = topFrameAt(text, key.line);
    if (frame === null) {
      const tb = rootTraceback(input.files);
      if (tb) frame = topFrameOfTraceback(tb);
    }
  } else {
    const e = input.exit;
    template = e ? (e.signal ? `no evidence; signal ${e.signal}` : `no evidence; exit ${e.code ?? '?'}`) : 'no evidence';
  }
  const fingerprint = createHash('sha256')
    .update([FINGERPRINT_VERSION, d.class, rule ?? '', template, frame ?? ''].join('\n'))
    .digest('hex');
  return { fingerprint, template, frame, rule };
}
