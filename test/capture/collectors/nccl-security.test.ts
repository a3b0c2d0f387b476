// Hostile flight-recorder dumps. The default prefix is /tmp/nccl_trace_rank_, where every user of
// the node may leave files: links there must not put the capturing user's other files into a
// bundle, other users' files are not evidence, and a pickle of a few hundred bytes must not expand
// into 2^40 values (the capture would hang, or take the failing node's memory, until killed).
import { chmodSync, chownSync, copyFileSync, linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNcclCollector, type FlightRecorderFile } from '../../../src/capture/collectors/nccl.js';
import { unpickle, UnpickleError } from '../../../src/capture/gpu/pickle.js';
import { findExecutable } from '../../../src/capture/gpu/exec.js';
import type { CaptureContext } from '../../../src/capture/collector.js';
import { captureContext } from '../../helpers/capture-context.js';

const H = resolve('fixtures/h200');
const tmp = mkdtempSync(join(tmpdir(), 'fdiag-nccl-sec-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const PYTHON = findExecutable('python3', process.env.PATH);

/** Protocol-2 pickle of {"entries": t40} where t_i = (t_{i-1}, t_{i-1}): 2^40 leaves, ~300 bytes. */
function sharedTuplePickle(depth = 40): Buffer {
  const op: number[] = [0x80, 2, 0x5d, 0x71, 0, 0x30]; // PROTO 2, EMPTY_LIST, BINPUT 0, POP
  for (let i = 1; i <= depth; i++) op.push(0x68, i - 1, 0x68, i - 1, 0x86, 0x71, i, 0x30); // BINGET, BINGET, TUPLE2, BINPUT i, POP
  op.push(0x7d, 0x55, 7, ...Buffer.from('entries'), 0x68, depth, 0x73, 0x2e); // EMPTY_DICT, SHORT_BINSTRING, BINGET, SETITEM, STOP
  return Buffer.from(op);
}

function ctx(env: NodeJS.ProcessEnv): CaptureContext {
  return captureContext({ options: { runId: 'fr-hostile' }, command: ['torchrun', 'train.py'], cwd: tmp, env });
}

async function collect(dir: string, python: string | null) {
  const r = await createNcclCollector({ python, pythonTimeoutMs: 20_000 }).collect(ctx({ TORCH_FR_DUMP_TEMP_FILE: join(dir, 'trace_') }), new AbortController().signal);
  if ('skipped' in r) throw new Error(`skipped: ${r.skipped}`);
  const files = new Map(r.files.map((f) => [f.path, Buffer.from(f.data)]));
  return { files, fr: JSON.parse(String(files.get('nccl/flight-recorder.json'))) as FlightRecorderFile };
}

const dir = (name: string): string => mkdtempSync(join(tmp, `${name}-`));

describe('a pickle whose containers are shared by reference', () => {
  it('the JS unpickler refuses it instead of expanding 2^40 values', () => {
    expect(() => unpickle(sharedTuplePickle())).toThrow(UnpickleError);
    expect(() => unpickle(sharedTuplePickle())).toThrow(/shared by reference/);
    // a small DAG within the budget is still read
    expect(unpickle(sharedTuplePickle(3))).toEqual({ entries: [[[[], []], [[], []]], [[[], []], [[], []]]] });
  });

  it.each([['python3', PYTHON], ['the JS unpickler', null]] as const)('the collector (%s) keeps the raw file, marks it undecodable and still reads the real dump beside it', async (_name, python) => {
    const d = dir(`bomb-${python ? 'py' : 'js'}`);
    writeFileSync(join(d, 'trace_0'), sharedTuplePickle());
    copyFileSync(join(H, 'fr', 'nccl_trace_rank_1'), join(d, 'trace_1'));
    // before: python and then the JS fallback walked every value; the collector never returned
    const { files, fr } = await collect(d, python);
    expect(files.get('nccl/trace_0')).toEqual(sharedTuplePickle());
    const r0 = fr.ranks.find((r) => r.rank === 0)!;
    expect(r0.decodedBy).toBeNull();
    expect(r0.error).toMatch(/undecodable/);
    expect(fr.ranks.find((r) => r.rank === 1)!.pgs.length).toBeGreaterThan(0);
  });
});

describe('dumps in a folder anyone may write to', () => {
  it('a symbolic link at the dump prefix is not followed: the file it points at stays out of the bundle', async () => {
    const d = dir('symlink');
    const secret = join(tmp, 'bash_history');
    writeFileSync(secret, 'export WANDB_API_KEY=planted-history-line-0123456789\n');
    symlinkSync(secret, join(d, 'trace_0'));
    copyFileSync(join(H, 'fr', 'nccl_trace_rank_1'), join(d, 'trace_1'));
    // before: stat() followed the link, and the target (recently written) went in as nccl/trace_0
    const { files, fr } = await collect(d, PYTHON);
    expect([...files.keys()]).toEqual(['nccl/trace_1', 'nccl/flight-recorder.json']);
    for (const data of files.values()) expect(data.toString('latin1')).not.toContain('planted-history-line');
    expect(fr.ranks.map((r) => r.rank)).toEqual([1]);
  });

  it('a hard link to a file (two names) is not read', async () => {
    const d = dir('hardlink');
    const secret = join(d, 'elsewhere');
    writeFileSync(secret, 'aws_secret_access_key = planted-hardlink-0123456789\n');
    linkSync(secret, join(d, 'trace_0'));
    const { files, fr } = await collect(d, PYTHON);
    expect(files.has('nccl/trace_0')).toBe(false);
    expect(fr.ranks[0]!.error).toMatch(/2 links/);
  });

  // Giving a file to another user takes root; as anyone else this cannot be set up.
  it.skipIf(process.getuid?.() !== 0)("another user's file at the prefix is not evidence of this run", async () => {
    const d = dir('foreign');
    copyFileSync(join(H, 'fr', 'nccl_trace_rank_0'), join(d, 'trace_0'));
    chownSync(join(d, 'trace_0'), 65534, 65534);
    chmodSync(join(d, 'trace_0'), 0o644);
    copyFileSync(join(H, 'fr', 'nccl_trace_rank_1'), join(d, 'trace_1'));
    const { files, fr } = await collect(d, PYTHON);
    expect(files.has('nccl/trace_0')).toBe(false);
    expect(files.get('nccl/trace_1')).toEqual(readFileSync(join(H, 'fr', 'nccl_trace_rank_1')));
    expect(fr.ranks.find((r) => r.rank === 0)!.error).toMatch(/owned by uid 65534/);
  });
});
