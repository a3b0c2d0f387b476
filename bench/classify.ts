// Classifier speed and memory, measured side by side in one run:
//  - the shared benchmark log (../shared/bench/make-big-log, 256 MiB: NCCL INFO chatter, verl/vLLM/httpx
//    lines, a CUDA OOM 90% in) classified by the streaming classifier vs `grep -E -n -f
//    ../shared/bench/grep-patterns.txt` on the same file (target ≤ 2×), in wall time and in CPU time
//    (the CPU ratio depends less on how busy the machine is); without ../shared/bench, a log made
//    here from corpus lines and the classifier's own keys as grep patterns;
//  - a 1 GiB log classified in a child process: its peak RSS (target < 512 MiB).
// `tsx bench/classify.ts` runs it standalone; bench/run.ts can import benchClassify().
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { classifyLogFile } from '../src/commands/classify.js';
import { prefilterKeys } from '../src/classifiers/engine.js';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline: number | null;
  ratio: number | null;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const MiB = 1024 * 1024;
/** Timed runs of each side (after one warm-up each); medians are reported. */
const REPEATS = 5;

function corpusDir(): string {
  const shared = resolve(ROOT, '../shared/corpus');
  return existsSync(join(shared, 'manifest.jsonl')) ? shared : resolve(ROOT, 'fixtures/corpus');
}

/** Real corpus lines that training logs repeat all run long (progress lines), none of them failures. */
function realProgressLines(): string[] {
  const dir = corpusDir();
  const real: string[] = [];
  for (const f of ['gpu-007.log', 'cl-010.log']) {
    const p = join(dir, f);
    if (!existsSync(p)) continue;
    for (const l of readFileSync(p, 'utf8').split('\n')) if (/iter:|Epoch:/.test(l) && !/Error|error|Watchdog|Timeout/.test(l)) real.push(l);
  }
  return real;
}

/** Start-up chatter as a run with NCCL_DEBUG=INFO prints it once: the NCCL INFO lines of a recorded run. */
function startupBlock(): string {
  const p = join(corpusDir(), 'h200-003.log');
  if (!existsSync(p)) return '';
  const lines = readFileSync(p, 'utf8').split('\n');
  const firstCollective = lines.findIndex((l) => l.includes('first all_reduce ok'));
  return `${lines.slice(0, firstCollective > 0 ? firstCollective : 100).join('\n')}\n`;
}

/** A block of training-progress noise, with real progress lines from the corpus mixed in. */
function noiseBlock(targetBytes: number): string {
  const real = realProgressLines();
  const out: string[] = [];
  let bytes = 0;
  let step = 0;
  let r = 0;
  while (bytes < targetBytes) {
    step += 1;
    const line =
      step % 20 === 0 && real.length
        ? real[r++ % real.length]!
        : `[2026-11-30 03:${String(step % 60).padStart(2, '0')}:${String((step * 7) % 60).padStart(2, '0')},${String(step % 1000).padStart(3, '0')}][train][INFO] step ${step} | loss ${(2 + Math.sin(step) * 0.5).toFixed(4)} | lr 3.0e-05 | grad_norm ${(1 + (step % 13) / 10).toFixed(2)} | tokens/s ${12000 + (step % 977)} | mem 61.2GB`;
    out.push(line);
    bytes += line.length + 1;
  }
  return `${out.join('\n')}\n`;
}

function failureTail(): string {
  const p = join(corpusDir(), 'gpu-017.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : "x [0] enqueue.cc:1085 NCCL WARN Cuda failure 'out of memory'\n";
}

/** Write `totalBytes` of log with the failure 95% of the way in. */
export function writeTrainingLog(file: string, totalBytes: number): void {
  const block = Buffer.from(noiseBlock(4 * MiB));
  const tail = Buffer.from(failureTail());
  const fd = openSync(file, 'w');
  try {
    const head = Buffer.from(startupBlock());
    writeSync(fd, head);
    let written = head.length;
    const failAt = Math.floor(totalBytes * 0.95);
    let failed = false;
    while (written < totalBytes) {
      if (!failed && written >= failAt) {
        writeSync(fd, tail);
        written += tail.length;
        failed = true;
        continue;
      }
      const n = Math.min(block.length, totalBytes - written);
      writeSync(fd, block, 0, n);
      written += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The shared workload folder (../shared/bench beside the checkout, or FDIAG_SHARED_BENCH). */
function sharedBench(): string | undefined {
  for (const d of [process.env.FDIAG_SHARED_BENCH, resolve(ROOT, '../shared/bench'), resolve(ROOT, '../../shared/bench')]) {
    if (d && existsSync(join(d, 'make-big-log')) && existsSync(join(d, 'grep-patterns.txt'))) return d;
  }
  return undefined;
}

interface Timed {
  seconds: number;
  cpu: number;
}

function grepTimed(patternsFile: string, file: string, mode: '-E' | '-F' = '-E'): Timed {
  // `grep -E -n -f`, the baseline ../shared/bench/README.md names (the matching lines with their numbers,
  // as a user greps a log; `-c` instead runs ~15% faster on the shared log), into `wc -l` so that output
  // size does not dominate; LC_ALL=C as any log-grepping script would. stdout must be a pipe: GNU grep
  // writing to /dev/null stops at the first match. bash's `time` gives the pipeline's own CPU time.
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%R %U %S"; time grep -n "$0" -f "$1" "$2" | wc -l', mode, patternsFile, file], { env: { ...process.env, LC_ALL: 'C' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const t = /([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  if (!t || (r.status !== 0 && r.status !== 1)) throw new Error(`grep failed: ${r.stderr || r.error?.message}`);
  return { seconds: Number(t[1]), cpu: Number(t[2]) + Number(t[3]) };
}

async function classifyTimed(file: string, classify: (file: string) => Promise<{ class: string }> = classifyLogFile): Promise<Timed & { cls: string }> {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const d = await classify(file);
  const c = process.cpuUsage(c0);
  return { seconds: Number(process.hrtime.bigint() - t0) / 1e9, cpu: (c.user + c.system) / 1e6, cls: d.class };
}

function childPeakRss(file: string): { rssMiB: number; cls: string } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', file], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
  const last = out.trim().split('\n').pop() ?? '{}';
  const j = JSON.parse(last) as { maxRSSKiB: number; cls: string };
  return { rssMiB: j.maxRSSKiB / 1024, cls: j.cls };
}

export async function benchClassify(opts: { speedBytes?: number; rssBytes?: number; log?: (s: string) => void } = {}): Promise<BenchRow[]> {
  const log = opts.log ?? (() => {});
  const speedBytes = opts.speedBytes ?? 256 * MiB;
  const rssBytes = opts.rssBytes ?? 1024 * MiB;
  const dir = mkdtempSync(join(tmpdir(), 'fdiag-bench-classify-'));
  const shared = sharedBench();
  const makeLog = (file: string, bytes: number) => {
    if (shared) execFileSync('python3', [join(shared, 'make-big-log'), file, String(bytes)], { stdio: 'ignore' });
    else writeTrainingLog(file, bytes);
  };
  try {
    let patterns: string;
    if (shared) patterns = join(shared, 'grep-patterns.txt');
    else {
      patterns = join(dir, 'patterns');
      writeFileSync(patterns, `${prefilterKeys().map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\n')}\n`);
    }
    const big = join(dir, 'train.log');
    makeLog(big, speedBytes);
    log(`wrote ${(speedBytes / MiB).toFixed(0)} MiB log (${shared ? `${shared}/make-big-log` : 'bench/classify.ts'}); grep patterns ${patterns}`);
    // Warm both (page cache, JIT) once, then five runs each, interleaved so that a busy machine slows
    // both alike; the medians are reported.
    // BENCH_CLASSIFY_OTHER=<another checkout>: that tree's streaming classifier is timed too, in
    // the same process and interleaved, as a baseline (e.g. main before a change).
    const otherTree = process.env.BENCH_CLASSIFY_OTHER;
    const other = otherTree ? ((await import(pathToFileURL(join(resolve(otherTree), 'src/commands/classify.ts')).href)) as { classifyLogFile: (f: string) => Promise<{ class: string }> }).classifyLogFile : null;
    grepTimed(patterns, big);
    await classifyTimed(big);
    if (other) await classifyTimed(big, other);
    const g: Timed[] = [];
    const c: Timed[] = [];
    const o: Timed[] = [];
    let cls = '';
    for (let i = 0; i < REPEATS; i++) {
      g.push(grepTimed(patterns, big));
      const r = await classifyTimed(big);
      c.push(r);
      cls = r.cls;
      if (other) {
        const r2 = await classifyTimed(big, other);
        if (r2.cls !== cls) throw new Error(`${otherTree} says ${r2.cls}, this tree ${cls}`);
        o.push(r2);
      }
    }
    const median = (xs: Timed[], k: keyof Timed) => xs.map((x) => x[k]).sort((a, b) => a - b)[xs.length >> 1]!;
    const grepS = median(g, 'seconds');
    const clsS = median(c, 'seconds');
    const grepCpu = median(g, 'cpu');
    const clsCpu = median(c, 'cpu');
    // For reference: the classifier's own keys as fixed strings, grep's fastest mode.
    const literal = join(dir, 'literal');
    writeFileSync(literal, `${prefilterKeys().join('\n')}\n`);
    const grepF = Math.min(grepTimed(literal, big, '-F').seconds, grepTimed(literal, big, '-F').seconds);
    log(`medians of ${REPEATS}: classify ${clsS.toFixed(2)} s wall, ${clsCpu.toFixed(2)} s CPU (${cls}) vs grep -E -n -f ${grepS.toFixed(2)} s wall, ${grepCpu.toFixed(2)} s CPU; grep -F -f keys ${grepF.toFixed(2)} s`);
    const rows: BenchRow[] = [
      { name: 'classify 256 MiB log (streaming) vs grep -E -n -f patterns, wall', value: round(clsS), unit: 's', baseline: round(grepS), ratio: round(clsS / grepS) },
      { name: 'classify 256 MiB log (streaming) vs grep -E -n -f patterns, CPU', value: round(clsCpu), unit: 's', baseline: round(grepCpu), ratio: round(clsCpu / grepCpu) },
      { name: 'classify throughput', value: round(speedBytes / MiB / clsS), unit: 'MiB/s', baseline: round(speedBytes / MiB / grepS), ratio: round(grepS / clsS) },
      { name: 'classify 256 MiB log vs grep -F -f keys (reference)', value: round(clsS), unit: 's', baseline: round(grepF), ratio: round(clsS / grepF) },
    ];
    if (other) {
      const otherCpu = median(o, 'cpu');
      log(`medians of ${REPEATS}: ${otherTree} classify ${median(o, 'seconds').toFixed(2)} s wall, ${otherCpu.toFixed(2)} s CPU`);
      rows.push({ name: `classify 256 MiB, this tree vs ${otherTree}, CPU`, value: round(clsCpu), unit: 's', baseline: round(otherCpu), ratio: round(clsCpu / otherCpu) });
    }
    rmSync(big, { force: true });
    const huge = join(dir, 'huge.log');
    makeLog(huge, rssBytes);
    log(`wrote ${(rssBytes / MiB).toFixed(0)} MiB log`);
    const rss = childPeakRss(huge);
    log(`1 GiB classify peak RSS ${rss.rssMiB.toFixed(0)} MiB (${rss.cls})`);
    rows.push({ name: `classify ${(rssBytes / MiB).toFixed(0)} MiB log: peak RSS (limit 512 MiB)`, value: round(rss.rssMiB), unit: 'MiB', baseline: 512, ratio: round(rss.rssMiB / 512) });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const self = fileURLToPath(import.meta.url);
if (process.argv[1] && resolve(process.argv[1]) === self) {
  const childIdx = process.argv.indexOf('--child');
  if (childIdx >= 0) {
    const d = await classifyLogFile(process.argv[childIdx + 1]!);
    process.stdout.write(`${JSON.stringify({ maxRSSKiB: process.resourceUsage().maxRSS, cls: d.class })}\n`);
  } else {
    const rows = await benchClassify({ log: (s) => process.stderr.write(`${s}\n`) });
    for (const r of rows) process.stdout.write(`${r.name.padEnd(62)} ${String(r.value).padStart(9)} ${r.unit.padEnd(6)} baseline ${r.baseline ?? '-'}  ratio ${r.ratio ?? '-'}\n`);
  }
}
