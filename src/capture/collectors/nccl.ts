// NCCL flight-recorder dumps (FORMATS §4.3): one pickle per rank at `<prefix><rank>`, written on a
// watchdog timeout when TORCH_NCCL_DUMP_ON_TIMEOUT=1. The raw files go into the bundle as they are
// (torchfrtrace reads them), and per rank and process group the last enqueued/started/completed
// collective sequence numbers are extracted into nccl/flight-recorder.json: a rank whose numbers lag
// the others never joined (deadlock); ranks whose last entries name different ops are desynced.
import { lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { openRegular, readWhole } from '../bounded.js';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Collector, CaptureContext } from '../collector.js';
import type { BundleFileInput } from '../../bundle/writer.js';
import { execBounded, findExecutable } from '../gpu/exec.js';
import { unpickle } from '../gpu/pickle.js';

export const DEFAULT_FR_PREFIX = '/tmp/nccl_trace_rank_';
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;
const LAST_ENTRIES = 20;

export interface FlightRecorderPg {
  pg: string;
  name?: string;
  desc?: string;
  ranks?: unknown;
  lastEnqueued: number | null;
  lastStarted: number | null;
  lastCompleted: number | null;
}

export interface FlightRecorderEntry {
  seq: number | null;
  op: string | null;
  state: string | null;
  pg?: string | null;
  p2pSeq?: number | null;
  recordId?: number | null;
  timeCreatedNs?: string | number | null;
  inputSizes?: unknown;
  timeoutMs?: number | null;
  isP2p?: boolean | null;
}

export interface FlightRecorderRank {
  rank: number;
  file: string;
  version: string | null;
  decodedBy: 'python3' | 'js' | null;
  pgs: FlightRecorderPg[];
  lastEntries: FlightRecorderEntry[];
  entryCount: number;
  error?: string;
}

export interface FlightRecorderPgSummary {
  pg: string;
  desc?: string;
  /** The highest collective any rank enqueued on this group. */
  maxEnqueued: number | null;
  /** Ranks whose last enqueued collective is below maxEnqueued: they never joined it (deadlock/straggler). */
  behind: Array<{ rank: number; lastEnqueued: number | null }>;
  /** Per rank, the op of the entry with seq = maxEnqueued (or null): different ops mean desync. */
  opsAtMax: Record<string, string | null>;
}

export interface FlightRecorderFile {
  prefix: string;
  ranks: FlightRecorderRank[];
  /** Across ranks, per process group. lastStarted is -1 in the dumps unless TORCH_NCCL_ENABLE_TIMING=1. */
  summary: FlightRecorderPgSummary[];
}

export function summarizeAcrossRanks(ranks: FlightRecorderRank[]): FlightRecorderPgSummary[] {
  const pgIds = [...new Set(ranks.flatMap((r) => r.pgs.map((p) => p.pg)))];
  return pgIds.map((pg) => {
    const rows = ranks.map((r) => ({ r, p: r.pgs.find((x) => x.pg === pg) })).filter((x) => x.p);
    const enq = rows.map((x) => x.p!.lastEnqueued).filter((v): v is number => v !== null);
    const maxEnqueued = enq.length ? Math.max(...enq) : null;
    const opsAtMax: Record<string, string | null> = {};
    for (const { r } of rows) {
      const e = [...r.lastEntries].reverse().find((x) => x.pg === pg && x.seq === maxEnqueued && !x.isP2p);
      opsAtMax[String(r.rank)] = e?.op ?? null;
    }
    const desc = rows.find((x) => x.p!.desc)?.p!.desc;
    return {
      pg,
      ...(desc ? { desc } : {}),
      maxEnqueued,
      behind: rows.filter((x) => maxEnqueued !== null && (x.p!.lastEnqueued ?? -1) < maxEnqueued).map((x) => ({ rank: x.r.rank, lastEnqueued: x.p!.lastEnqueued })),
      opsAtMax,
    };
  });
}

// Reads each pickle with the standard library only (globals refused, values bounded by the bytes:
// the same budget as src/capture/gpu/pickle.ts); torch's typed-list helpers are read as the
// identity of their argument so that torch need not be importable (or slow to import) here.
const PY_DECODE = String.raw`
import sys, json, pickle, base64
class U(pickle.Unpickler):
    def find_class(self, mod, name):
        if mod.startswith('torch'):
            return lambda *a, **k: (a[0] if a else None)
        raise pickle.UnpicklingError('global %s.%s not allowed' % (mod, name))
    def persistent_load(self, pid):
        return None
def plain(v, budget):
    budget[0] -= 1
    if budget[0] < 0: raise ValueError('pickle expands to more values than it has bytes (containers shared by reference)')
    if isinstance(v, dict): return {str(k): plain(x, budget) for k, x in v.items()}
    if isinstance(v, (list, tuple, set)): return [plain(x, budget) for x in v]
    if isinstance(v, (bytes, bytearray)): return base64.b64encode(bytes(v)).decode()
    if isinstance(v, float) and v != v: return None
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53: return str(v)
    if v is None or isinstance(v, (bool, int, float, str)): return v
    return str(v)
out = {}
for p in sys.argv[1:]:
    try:
        with open(p, 'rb') as f:
            data = f.read()
        import io
        out[p] = {'ok': plain(U(io.BytesIO(data)).load(), [len(data) + 1024])}
    except Exception as e:
        out[p] = {'error': '%s: %s' % (type(e).__name__, e)}
sys.stdout.write(json.dumps(out))
`;

export interface NcclCollectorOptions {
  python?: string | null;
  pythonTimeoutMs?: number;
}

/**
 * Where the watchdog writes its dumps. An explicit prefix wins. Without one, PyTorch 2.11 writes
 * to ~/.cache/torch/comm_lib_trace_rank_<rank> (seen on the H200 run, fixtures/h200/README.md);
 * older releases used /tmp/nccl_trace_rank_<rank>. Both are looked at.
 */
export function frPrefixes(env: NodeJS.ProcessEnv): string[] {
  const p = [env.TORCH_FR_DUMP_TEMP_FILE, env.TORCH_NCCL_DEBUG_INFO_TEMP_FILE].filter((x): x is string => !!x);
  if (p.length) return [...new Set(p)];
  // XDG_CACHE_HOME is the usual override of ~/.cache; not seen on the H200 run, so both are looked at.
  const caches = [env.XDG_CACHE_HOME, env.HOME ? join(env.HOME, '.cache') : undefined].filter((x): x is string => !!x);
  return [...new Set([...caches.map((c) => join(c, 'torch', 'comm_lib_trace_rank_')), DEFAULT_FR_PREFIX])];
}

export async function findDumps(prefix: string, since: Date | null): Promise<Array<{ path: string; rank: number; bytes: number }>> {
  const dir = dirname(prefix);
  const base = basename(prefix);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: Array<{ path: string; rank: number; bytes: number }> = [];
  for (const n of names) {
    if (!n.startsWith(base)) continue;
    const rest = n.slice(base.length);
    if (!/^\d+$/.test(rest)) continue;
    const path = join(dir, n);
    try {
      // Not followed: the default prefix is in /tmp, where anyone may leave a link to a file of
      // the capturing user's (read as a shared file, checked again on the descriptor: readDump).
      const st = await lstat(path);
      if (!st.isFile()) continue;
      // Dumps left by earlier runs on the same node would point at the wrong collective.
      if (since && st.mtimeMs < since.getTime() - 2_000) continue;
      out.push({ path, rank: Number(rest), bytes: st.size });
    } catch {
      /* vanished */
    }
  }
  return out.sort((a, b) => a.rank - b.rank);
}

/** A dump's bytes, or why it is not read (the prefix is in /tmp: read as a shared file, src/capture/bounded.ts). */
export async function readDump(path: string, max: number): Promise<Buffer | string> {
  let fh;
  try {
    fh = await openRegular(path, { shared: true });
  } catch (e) {
    return (e as Error).message;
  }
  return (await readWhole(fh, max)) ?? `over ${max} bytes`;
}

function n(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return null;
}

/** The per-rank summary of one decoded dump. */
export function summarizeDump(rank: number, file: string, dump: unknown, decodedBy: FlightRecorderRank['decodedBy']): FlightRecorderRank {
  const d = (dump ?? {}) as Record<string, unknown>;
  const pgConfig = (d.pg_config ?? {}) as Record<string, Record<string, unknown>>;
  const pgStatus = (d.pg_status ?? {}) as Record<string, Record<string, unknown>>;
  const pgIds = [...new Set([...Object.keys(pgStatus), ...Object.keys(pgConfig)])];
  const pgs: FlightRecorderPg[] = pgIds.map((pg) => {
    const s = pgStatus[pg] ?? {};
    const c = pgConfig[pg] ?? {};
    return {
      pg,
      ...(typeof c.name === 'string' ? { name: c.name } : {}),
      ...(typeof c.desc === 'string' ? { desc: c.desc } : {}),
      ...(c.ranks !== undefined ? { ranks: c.ranks } : {}),
      lastEnqueued: n(s.last_enqueued_collective),
      lastStarted: n(s.last_started_collective),
      lastCompleted: n(s.last_completed_collective),
    };
  });
  const entries = Array.isArray(d.entries) ? (d.entries as Array<Record<string, unknown>>) : [];
  const lastEntries = entries.slice(-LAST_ENTRIES).map((e) => {
    const pgField = e.process_group as unknown;
    return {
      seq: n(e.collective_seq_id),
      op: typeof e.profiling_name === 'string' ? e.profiling_name : null,
      state: typeof e.state === 'string' ? e.state : null,
      pg: Array.isArray(pgField) ? String(pgField[0]) : e.pg_id !== undefined ? String(e.pg_id) : null,
      p2pSeq: n(e.p2p_seq_id),
      recordId: n(e.record_id),
      timeCreatedNs: (e.time_created_ns as number | string | undefined) ?? null,
      inputSizes: e.input_sizes ?? null,
      timeoutMs: n(e.timeout_ms),
      isP2p: typeof e.is_p2p === 'boolean' ? e.is_p2p : null,
    };
  });
  return { rank, file, version: typeof d.version === 'string' ? d.version : null, decodedBy, pgs, lastEntries, entryCount: entries.length };
}

/**
 * Decodes the bytes that were read and kept (private copies in a 0700 folder), not the files at the
 * dump paths: what python reads is what the bundle holds, whatever is at the path by then.
 */
async function decodeWithPython(python: string, dumps: Buffer[], timeoutMs: number, signal: AbortSignal): Promise<Array<{ ok?: unknown; error?: string } | undefined> | null> {
  const dir = await mkdtemp(join(tmpdir(), 'fdiag-fr-'));
  try {
    const paths = dumps.map((_, i) => join(dir, `dump_${i}`));
    await Promise.all(dumps.map((d, i) => writeFile(paths[i]!, d, { mode: 0o600, flag: 'wx' })));
    const r = await execBounded(python, ['-I', '-c', PY_DECODE, ...paths], timeoutMs, signal);
    if (r.status !== 'ok') return null;
    const out = JSON.parse(r.stdout) as Record<string, { ok?: unknown; error?: string }>;
    return paths.map((p) => out[p]);
  } catch {
    return null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function createNcclCollector(opts: NcclCollectorOptions = {}): Collector {
  return {
    name: 'nccl',
    // On a stall the dumps are asked for first (fr-dump); at exit that collector is not in the list.
    after: ['fr-dump'],
    timeoutMs: 60_000,
    async collect(ctx: CaptureContext, signal) {
      const prefixes = frPrefixes(ctx.env);
      const dumps = (await Promise.all(prefixes.map((p) => findDumps(p, ctx.startedAt)))).flat();
      if (!dumps.length) return { skipped: `no flight-recorder dumps at ${prefixes.map((p) => `${p}<rank>`).join(', ')}` };
      const files: BundleFileInput[] = [];
      const kept: Array<{ path: string; rank: number; data: Buffer; bundlePath: string }> = [];
      const ranks: FlightRecorderRank[] = [];
      let total = 0;
      for (const d of dumps) {
        const bundlePath = `nccl/${basename(d.path)}`;
        if (d.bytes > MAX_FILE_BYTES || total + d.bytes > MAX_TOTAL_BYTES || kept.some((k) => k.bundlePath === bundlePath)) {
          ranks.push({ rank: d.rank, file: bundlePath, version: null, decodedBy: null, pgs: [], lastEntries: [], entryCount: 0, error: `not kept: ${d.bytes} bytes over the bundle budget or a duplicate name` });
          continue;
        }
        const data = await readDump(d.path, MAX_FILE_BYTES);
        if (typeof data === 'string') {
          ranks.push({ rank: d.rank, file: bundlePath, version: null, decodedBy: null, pgs: [], lastEntries: [], entryCount: 0, error: `not kept: ${data}` });
          continue;
        }
        total += data.length;
        files.push({ path: bundlePath, data });
        kept.push({ path: d.path, rank: d.rank, data, bundlePath });
      }
      const python = opts.python === undefined ? findExecutable('python3', process.env.PATH, ['/usr/bin', '/usr/local/bin']) : opts.python;
      const byPy = python && kept.length ? await decodeWithPython(python, kept.map((k) => k.data), opts.pythonTimeoutMs ?? 30_000, signal) : null;
      for (const [i, k] of kept.entries()) {
        const py = byPy?.[i];
        if (py && 'ok' in py) {
          ranks.push(summarizeDump(k.rank, k.bundlePath, py.ok, 'python3'));
          continue;
        }
        try {
          ranks.push(summarizeDump(k.rank, k.bundlePath, unpickle(k.data), 'js'));
        } catch (e) {
          ranks.push({ rank: k.rank, file: k.bundlePath, version: null, decodedBy: null, pgs: [], lastEntries: [], entryCount: 0, error: `undecodable: ${py?.error ?? ''} ${(e as Error).message}`.trim() });
        }
      }
      ranks.sort((a, b) => a.rank - b.rank);
      const fr: FlightRecorderFile = { prefix: prefixes.join(','), ranks, summary: summarizeAcrossRanks(ranks) };
      files.push({ path: 'nccl/flight-recorder.json', data: JSON.stringify(fr, null, 2) + '\n' });
      return { files, labels: { 'nccl.fr_ranks': ranks.map((r) => r.rank).join(',') } };
    },
  };
}

export const ncclCollector: Collector = createNcclCollector();
