// exceptions.json: Python tracebacks found in the captured logs (per rank, even when ranks
// interleave their lines), torchrun's ChildFailedError root-cause block, and torchelastic error
// files (`@record`), root cause first: torchelastic failures by their timestamp (the earliest is
// what torchrun itself calls the root cause), then log tracebacks in log order, with the
// consequences of another failure (ChildFailedError, SignalException) last.
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';
import type { ExceptionRecord } from '../../bundle/schema.js';
import type { BundleFileInput } from '../../bundle/writer.js';
import type { Collector } from '../collector.js';
import { readSmall } from '../bounded.js';
import { safeName } from './logs.js';
import { isoOf, parseLogTime, splitPrefix as splitLinePrefix } from '../../logline.js';
import { parseRootCauseField, ROOT_CAUSE_HEADER, rootCauseExit, rootCauseRank, type RootCauseFieldName } from '../../torchelastic.js';

const MAX_RECORDS = 200;
const MAX_TRACEBACK_LINES = 400;

type Rec = ExceptionRecord & { order?: number; ts?: number | null };

const EXC_LINE = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:\([\w.]+\))?)(?::\s?(.*))?$/;
const EXC_SUFFIX = /(?:Error|Exception|Interrupt|Exit|Failure|Warning|Timeout|Fault|Abort|Killed)(?:\([\w.]+\))?$/;

/** Launcher prefixes (torchrun rank, Ray actor, vLLM logger) as the classifiers read them too. */
function splitPrefix(line: string): { key: string; rank: number | null; rest: string } {
  const p = splitLinePrefix(line);
  return { key: p.stream, rank: p.rank, rest: p.rest };
}

export function parseExceptionLine(s: string): { type: string; message: string } | null {
  const line = s.trimEnd();
  const m = EXC_LINE.exec(line);
  if (!m) return null;
  const type = m[1];
  const last = type.split('.').pop() ?? type;
  if (!/^[A-Z]/.test(last)) return null;
  if (m[2] === undefined && !EXC_SUFFIX.test(type)) return null;
  return { type, message: (m[2] ?? '').trim() };
}

function countNewlines(s: string, end: number): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0 && i < end; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** Python tracebacks in a log text. `file` is the bundle path recorded as the source. */
export function parseTracebacks(text: string, file: string): ExceptionRecord[] {
  const out: ExceptionRecord[] = [];
  // Most of a 10 MB log has no traceback: start at the first one instead of parsing every line.
  const first = text.indexOf('Traceback (most recent call last):');
  if (first < 0) return out;
  const lineOffset = countNewlines(text, text.lastIndexOf('\n', first) + 1);
  text = text.slice(text.lastIndexOf('\n', first) + 1);
  const open = new Map<string, { start: number; lines: string[]; rank: number | null; misses: number }>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    const { key, rank, rest } = splitPrefix(raw);
    // Anywhere in the line: a logging prefix (Hydra's `[time][name][ERROR] - `) may come before it.
    const tbAt = rest.indexOf('Traceback (most recent call last):');
    if (tbAt >= 0) {
      open.set(key, { start: i + 1, lines: [rest.slice(tbAt).trim()], rank, misses: 0 });
      continue;
    }
    const st = open.get(key);
    if (!st) continue;
    if (/^\s/.test(rest) || rest === '') {
      if (st.lines.length < MAX_TRACEBACK_LINES) st.lines.push(rest);
      continue;
    }
    const exc = parseExceptionLine(rest);
    if (exc) {
      st.lines.push(rest);
      out.push({ type: exc.type, message: exc.message, rank: st.rank, source: { file, line: lineOffset + i + 1 }, traceback: st.lines.join('\n') });
      open.delete(key);
      if (out.length >= MAX_RECORDS) break;
    } else if (++st.misses > 3) {
      open.delete(key); // an unprefixed traceback interleaved with other output: give up on it
    }
  }
  return out;
}

/** torchrun's summary stamps its failure `2026-11-30_03:00:00` in the host's (unnamed) zone. */
function torchrunTime(s: string): string | undefined {
  const t = parseLogTime(s);
  return t ? isoOf(t) : undefined;
}

/** torchrun's ChildFailedError summary: the "Root Cause (first observed failure)" block (src/torchelastic.ts). */
export function parseChildFailedSummary(text: string, file: string): ExceptionRecord[] {
  const out: ExceptionRecord[] = [];
  if (!text.includes(`${ROOT_CAUSE_HEADER}:`)) return out;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].includes(`${ROOT_CAUSE_HEADER}:`)) continue;
    const fields: Partial<Record<RootCauseFieldName, string>> = {};
    let j = i + 1;
    for (; j < Math.min(lines.length, i + 40); j++) {
      const { rest } = splitPrefix(lines[j].replace(/\r$/, ''));
      if (/^\s*=+\s*$/.test(rest)) break;
      const f = parseRootCauseField(rest);
      if (f) fields[f.name] = f.value;
      else if (fields.traceback !== undefined && /^\s/.test(rest)) fields.traceback += '\n' + rest.trim();
    }
    const rank = rootCauseRank(fields.rank ?? '');
    const exit = rootCauseExit(fields.exitcode ?? '');
    const tb = fields.traceback ?? '';
    const sig = /Signal (\d+) \((SIG\w+)\) received by PID (\d+)/.exec(tb);
    const tbExc = tb
      .split('\n')
      .map((l) => parseExceptionLine(l.trim()))
      .filter((x): x is { type: string; message: string } => !!x)
      .pop();
    out.push({
      type: sig ? sig[2] : tbExc?.type ?? 'ChildFailedError',
      message: sig ? sig[0] : tbExc?.message ?? `exitcode ${fields.exitcode ?? '?'}: ${tb.split('\n')[0] ?? ''}`.trim(),
      rank: rank?.rank ?? null,
      time: fields.time ? (torchrunTime(fields.time) ?? null) : null,
      source: { file, line: i + 1 },
      ...(tb ? { traceback: tb } : {}),
      rootCause: true,
      localRank: rank?.localRank ?? null,
      exitcode: exit?.exitcode ?? null,
      pid: exit?.pid ?? null,
      host: fields.host ?? null,
      errorFile: fields.error_file && fields.error_file !== '<N/A>' ? fields.error_file : null,
      from: 'torchelastic-summary',
    });
    i = j;
  }
  return out;
}

/** Both torchelastic error-file formats (FORMATS §4.1). */
export function parseTorchelasticError(json: unknown, file: string, localRank: number | null): Rec | null {
  if (!json || typeof json !== 'object') return null;
  const j = json as Record<string, unknown>;
  const m = j.message;
  let text: string | undefined;
  let callstack: string | undefined;
  let tsRaw: unknown;
  let errorCode: unknown;
  if (m && typeof m === 'object') {
    const mm = m as Record<string, unknown>;
    text = typeof mm.message === 'string' ? mm.message : undefined;
    const extra = (mm.extraInfo ?? {}) as Record<string, unknown>;
    callstack = typeof extra.py_callstack === 'string' ? extra.py_callstack : undefined;
    tsRaw = extra.timestamp;
    errorCode = mm.errorCode;
  } else if (typeof m === 'string') {
    text = m;
    const extra = (j.extraInfo ?? {}) as Record<string, unknown>;
    callstack = typeof j.py_callstack === 'string' ? j.py_callstack : typeof extra.py_callstack === 'string' ? extra.py_callstack : undefined;
    tsRaw = j.timestamp ?? extra.timestamp;
  }
  if (text === undefined) return null;
  errorCode ??= j.errorCode;
  const ts = tsRaw === undefined || tsRaw === null ? null : Number(tsRaw);
  const first = text.split('\n')[0];
  const exc = parseExceptionLine(first) ?? (callstack ? callstack.trim().split('\n').map((l) => parseExceptionLine(l)).filter(Boolean).pop() : null);
  return {
    type: exc?.type ?? 'Error',
    message: exc && exc.message ? exc.message : text,
    rank: null,
    localRank,
    time: ts !== null && Number.isFinite(ts) ? new Date(ts * 1000).toISOString() : null,
    source: { file },
    ...(callstack ? { traceback: callstack } : {}),
    ...(errorCode !== undefined && errorCode !== null ? { errorCode: Number(errorCode) } : {}),
    from: 'torchelastic-error-file',
    ts: ts !== null && Number.isFinite(ts) ? ts : null,
  };
}

async function findErrorFiles(bases: string[], sinceMs: number, signal: AbortSignal): Promise<{ abs: string; rel: string }[]> {
  const found: { abs: string; rel: string }[] = [];
  let budget = 5000; // folders visited, so a /tmp with millions of entries cannot stall capture
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > 7 || budget-- <= 0 || found.length >= 256) return;
    signal.throwIfAborted();
    let ents;
    try {
      ents = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of ents) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p, `${rel}/${safeName(e.name)}`, depth + 1);
      else if (e.isFile() && e.name === 'error.json') {
        try {
          if ((await stat(p)).mtimeMs >= sinceMs) found.push({ abs: p, rel: `${rel}/error.json` });
        } catch {
          /* vanished */
        }
      }
    }
  };
  for (const base of bases) {
    let ents;
    try {
      ents = await readdir(base, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of ents) {
      if (e.isDirectory() && e.name.startsWith('torchelastic_')) await walk(join(base, e.name), `torchelastic/${safeName(e.name)}`, 1);
    }
  }
  return found;
}

function localRankFromPath(p: string): number | null {
  const parts = p.split(sep);
  const i = parts.length - 2;
  return i >= 1 && /^attempt_\d+$/.test(parts[i - 1]) && /^\d+$/.test(parts[i]) ? Number(parts[i]) : null;
}

const CONSEQUENCE = /(?:^|\.)(?:ChildFailedError|SignalException)$/;

export const exceptionsCollector: Collector = {
  name: 'exceptions',
  after: ['logs'],
  timeoutMs: 10_000,
  async collect(ctx, signal) {
    const files: BundleFileInput[] = [];
    const fromLogs: ExceptionRecord[] = [];
    const summaries: ExceptionRecord[] = [];
    const logTexts = [...ctx.produced.entries()].filter(([p]) => p.startsWith('logs/'));
    for (const [p, text] of logTexts) {
      signal.throwIfAborted();
      fromLogs.push(...parseTracebacks(text, p));
      summaries.push(...parseChildFailedSummary(text, p));
    }

    // torchelastic error files written during this run (FORMATS §4.1).
    const since = (ctx.startedAt?.getTime() ?? ctx.endedAt.getTime() - 3600_000) - 5_000;
    const bases = [...new Set([ctx.env.TMPDIR, '/tmp'].filter((x): x is string => !!x).map((b) => resolve(b)))];
    const errFiles = await findErrorFiles(bases, since, signal);
    const envFile = ctx.env.TORCHELASTIC_ERROR_FILE;
    const envAbs = envFile ? resolve(ctx.cwd, envFile) : null;
    if (envAbs && !errFiles.some((f) => f.abs === envAbs)) errFiles.push({ abs: envAbs, rel: `torchelastic/error_file/${safeName(basename(envAbs))}` });
    const fromFiles: Rec[] = [];
    const errors: string[] = [];
    const seenRel = new Set<string>();
    for (const f of errFiles) {
      signal.throwIfAborted();
      let buf: Buffer | null;
      try {
        // Files found under /tmp (or $TMPDIR) are anyone's to plant: read as shared files (no link,
        // owned by this user: src/capture/bounded.ts). The file the run named is the run's own.
        buf = await readSmall(f.abs, undefined, { shared: f.abs !== envAbs });
      } catch (err) {
        // The file the run named is written only when a rank fails: its absence is no error.
        if (f.abs !== envAbs) errors.push(`${f.abs}: ${(err as Error).message}`);
        continue;
      }
      if (!buf) continue;
      let rel = f.rel;
      for (let i = 1; seenRel.has(rel); i++) rel = `${f.rel.replace(/\.json$/, '')}-${i}.json`;
      seenRel.add(rel);
      files.push({ path: rel, data: buf });
      try {
        const rec = parseTorchelasticError(JSON.parse(buf.toString('utf8')), rel, localRankFromPath(f.abs));
        if (rec) fromFiles.push({ ...rec, originalPath: f.abs });
      } catch (err) {
        errors.push(`${f.abs}: not JSON (${(err as Error).message})`);
      }
    }
    fromFiles.sort((a, b) => (a.ts ?? Infinity) - (b.ts ?? Infinity));

    // The same traceback often appears twice (teed stdout and the --log file): keep the first.
    const seen = new Set<string>();
    const dedup = (r: ExceptionRecord) => {
      const k = `${r.type}\u0000${r.message}\u0000${r.rank ?? ''}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    };
    const logFirst = fromLogs.filter((r) => !CONSEQUENCE.test(r.type));
    const logLast = fromLogs.filter((r) => CONSEQUENCE.test(r.type));
    const ordered = [
      ...fromFiles.map(({ ts: _ts, order: _o, ...r }) => r),
      ...summaries,
      ...logFirst.filter(dedup),
      ...logLast.filter(dedup),
    ].slice(0, MAX_RECORDS);
    files.push({ path: 'exceptions.json', data: JSON.stringify(ordered, null, 2) + '\n' });
    return { files, meta: { count: ordered.length, torchelasticFiles: fromFiles.length, ...(errors.length ? { errors } : {}) } };
  },
};
