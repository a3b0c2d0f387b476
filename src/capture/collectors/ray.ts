// Ray's own logs from the node's session folder (FORMATS §5.1): the raylet and GCS logs say why a
// worker died (memory monitor kills, node death, lost object owners), the newest worker logs hold the
// task's traceback. Only bounded head+tail slices are kept, within one budget for all files.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Collector, CaptureContext, CollectorResultValue } from '../collector.js';
import type { BundleFileInput } from '../../bundle/writer.js';
import { readHeadTail } from '../bounded.js';

export const RAY_SYSTEM_LOGS = ['raylet.out', 'raylet.err', 'gcs_server.out', 'gcs_server.err', 'monitor.log', 'monitor.out', 'monitor.err', 'dashboard_agent.log'];

/** How many of the newest files of each kind to keep. */
const NEWEST: Array<{ re: RegExp; n: number }> = [
  { re: /^worker-.*\.err$/, n: 4 },
  { re: /^worker-.*\.out$/, n: 4 },
  { re: /^python-core-worker-.*\.log$/, n: 3 },
  { re: /^python-core-driver-.*\.log$/, n: 2 },
  { re: /^job-driver-.*\.log$/, n: 2 },
];

export interface RayCollectorOptions {
  /** A session folder (holding logs/); default: FDIAG_RAY_SESSION_DIR, else ${RAY_TMPDIR:-/tmp/ray}/session_latest. */
  sessionDir?: string;
  headBytes?: number;
  tailBytes?: number;
  budgetBytes?: number;
}

export function raySessionDir(env: NodeJS.ProcessEnv): string {
  if (env.FDIAG_RAY_SESSION_DIR) return env.FDIAG_RAY_SESSION_DIR;
  const tmp = env.RAY_TMPDIR ? join(env.RAY_TMPDIR, 'ray') : '/tmp/ray';
  return join(tmp, 'session_latest');
}

interface Candidate {
  name: string;
  path: string;
  size: number;
  mtimeMs: number;
}

export function createRayCollector(opts: RayCollectorOptions = {}): Collector {
  return {
    name: 'ray',
    timeoutMs: 20_000,
    async collect(ctx: CaptureContext): Promise<CollectorResultValue> {
      const session = opts.sessionDir ?? raySessionDir({ ...process.env, ...ctx.env });
      const logsDir = join(session, 'logs');
      let names: string[];
      let resolved: string;
      try {
        resolved = await realpath(session);
        names = await readdir(logsDir);
      } catch {
        return { skipped: `no Ray session folder at ${session}` };
      }
      const entries: Candidate[] = [];
      for (const name of names) {
        try {
          // /tmp/ray is anyone's to make: links in it are not followed, files are read as shared ones.
          const st = await lstat(join(logsDir, name));
          if (st.isFile()) entries.push({ name, path: join(logsDir, name), size: st.size, mtimeMs: st.mtimeMs });
        } catch {
          /* rotated away */
        }
      }
      const picked: Candidate[] = [];
      for (const n of RAY_SYSTEM_LOGS) {
        const e = entries.find((x) => x.name === n);
        if (e) picked.push(e);
      }
      for (const { re, n } of NEWEST) {
        // Empty worker files are the norm (one per idle worker); prefer those that say something.
        const group = entries.filter((e) => re.test(e.name)).sort((a, b) => Number(b.size > 0) - Number(a.size > 0) || b.mtimeMs - a.mtimeMs);
        picked.push(...group.slice(0, n));
      }
      const head = opts.headBytes ?? 16 * 1024;
      const tail = opts.tailBytes ?? 256 * 1024;
      let budget = opts.budgetBytes ?? 4 * 1024 * 1024;
      const files: BundleFileInput[] = [];
      const index: Array<{ name: string; bytes: number; keptBytes: number; cutBytes: number; modifiedAt: string }> = [];
      const left: string[] = [];
      for (const c of picked) {
        const want = Math.min(c.size, head + tail);
        if (want > budget) {
          left.push(c.name);
          continue;
        }
        try {
          const b = await readHeadTail(c.path, head, tail, { shared: true });
          budget -= b.data.length;
          files.push({ path: `ray/${c.name}`, data: b.data });
          index.push({ name: c.name, bytes: b.totalBytes, keptBytes: b.data.length, cutBytes: b.cutBytes, modifiedAt: new Date(c.mtimeMs).toISOString() });
        } catch {
          left.push(c.name);
        }
      }
      const sessionName = basename(resolved);
      // A session_latest from an earlier Ray cluster on the same node is not this run's.
      const stale = ctx.startedAt ? entries.every((e) => e.mtimeMs < ctx.startedAt!.getTime() - 60_000) : false;
      files.push({
        path: 'ray/session.json',
        data: JSON.stringify({ session: sessionName, logFiles: entries.length, kept: index, leftOut: left, staleSession: stale }, null, 2) + '\n',
      });
      return { files, labels: { 'ray.session': sessionName } };
    },
  };
}

export const rayCollector: Collector = createRayCollector();
