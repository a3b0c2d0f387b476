// Redaction speed: the prefiltered redactor (the default) against the reference one (every rule
// over the whole text; createRedactor(..., { mode: 'reference' })), both in this run, on the shared
// benchmark training log (../shared/bench/make-big-log) at 2 MiB and 64 MiB, and on the 2 MiB log
// with a secret-bearing config block in it (the path where rules do run). Each figure is MB/s of
// `redactor.bytes`, median of several rounds, the two redactors interleaved; the ratio is
// prefiltered ÷ reference. Run: npx tsx bench/run.ts redact (or tsx bench/redact.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRedactor, type Redactor } from '../src/redact/index.js';
import { printRows, row, type BenchRow } from './lib.js';

const MiB = 1024 * 1024;
const MAKE_BIG_LOG = [process.env.FDIAG_SHARED_BENCH, join(import.meta.dirname, '..', '..', 'shared', 'bench'), join(import.meta.dirname, '..', '..', '..', 'shared', 'bench')]
  .filter((d): d is string => !!d)
  .map((d) => join(d, 'make-big-log'))
  .find((p) => existsSync(p));

/** A training log as the shared workload writes it; without ../shared, corpus lines repeated. */
function bigLog(dir: string, bytes: number): Buffer {
  const path = join(dir, `big-${bytes}.log`);
  if (MAKE_BIG_LOG) {
    execFileSync('python3', [MAKE_BIG_LOG, path, String(bytes)], { stdio: 'ignore' });
    return readFileSync(path);
  }
  const sample = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'corpus', 'gpu-007.log'));
  return Buffer.concat(Array.from({ length: Math.ceil(bytes / sample.length) }, () => sample)).subarray(0, bytes);
}

/** The log with an env dump and a W&B-style config in its middle: the rules that read keys run. */
function withSecrets(log: Buffer): Buffer {
  const block = [
    "config={'lr': 0.0001, 'api_key': 'zq8Lm2Pw9Rt4Vb6Nc8Xy', 'max_tokens': 512}",
    'export WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567',
    'HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
    '  password: hunter2hunter2',
    'python train.py --wandb_api_key 0123456789abcdef0123456789abcdef01234567 --lr 0.1',
  ].join('\n');
  const mid = log.indexOf(0x0a, log.length >> 1) + 1;
  return Buffer.concat([log.subarray(0, mid), Buffer.from(`${block}\n`), log.subarray(mid)]);
}

/** Median seconds of one `bytes` call, the two redactors interleaved round by round. */
function timeBoth(a: Redactor, b: Redactor, data: Buffer, rounds: number): [number, number] {
  const ta: number[] = [];
  const tb: number[] = [];
  a.bytes(data);
  b.bytes(data);
  for (let i = 0; i < rounds; i++) {
    for (const [r, t] of [[a, ta], [b, tb]] as const) {
      const t0 = process.hrtime.bigint();
      r.bytes(data);
      t.push(Number(process.hrtime.bigint() - t0) / 1e9);
    }
  }
  const median = (x: number[]) => x.sort((p, q) => p - q)[x.length >> 1];
  return [median(ta), median(tb)];
}

export async function benchRedact(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'fdiag-bench-redact-'));
  const fast = createRedactor({});
  const reference = createRedactor({}, [], { mode: 'reference' });
  const rows: BenchRow[] = [];
  try {
    const small = bigLog(dir, 2 * MiB);
    const cases: [string, Buffer, number][] = [
      ['2 MiB training log', small, 15],
      ['2 MiB training log with secrets', withSecrets(small), 15],
      ['64 MiB training log', bigLog(dir, 64 * MiB), 3],
    ];
    for (const [name, data, rounds] of cases) {
      const same = fast.bytes(data);
      const want = reference.bytes(data);
      if (same.count !== want.count || !same.data.equals(want.data)) throw new Error(`bench redact: outputs differ on ${name}`);
      const [tf, tr] = timeBoth(fast, reference, data, rounds);
      const mbps = (t: number) => data.length / MiB / t;
      rows.push(row(`redact ${name}`, mbps(tf), 'MiB/s', { name: 'reference redactor', value: mbps(tr) }, `${want.count} secrets; ${(tf * 1e3).toFixed(1)} ms vs ${(tr * 1e3).toFixed(1)} ms`));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows('redact', await benchRedact());
