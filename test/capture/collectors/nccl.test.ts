// The NCCL flight-recorder collector on the dumps written by PyTorch 2.11's watchdog on a 2×H200
// machine (fixtures/h200/fr: rank 0 timed out in all_reduce #5 that rank 1 never joined).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNcclCollector, findDumps, frPrefixes, type FlightRecorderFile } from '../../../src/capture/collectors/nccl.js';
import { unpickle } from '../../../src/capture/gpu/pickle.js';
import { NcclFlightRecorder } from '../../../src/bundle/schema.js';
import type { CaptureContext } from '../../../src/capture/collector.js';
import { captureContext } from '../../helpers/capture-context.js';

const H = resolve('fixtures/h200');
const tmp = mkdtempSync(join(tmpdir(), 'fdiag-nccl-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function dumpsDir(name: string, from = 'fr'): string {
  const d = join(tmp, name);
  mkdirSync(d, { recursive: true });
  for (const r of [0, 1]) copyFileSync(join(H, from, `nccl_trace_rank_${r}`), join(d, `nccl_trace_rank_${r}`));
  return d;
}

function ctx(env: NodeJS.ProcessEnv, startedAt = new Date(Date.now() - 60_000)): CaptureContext {
  return captureContext({ options: { runId: 'h200-timeout' }, command: ['torchrun', '--nproc-per-node=2', 'timeout.py'], env, startedAt });
}

async function collect(env: NodeJS.ProcessEnv, python?: string | null) {
  const r = await createNcclCollector(python === undefined ? {} : { python }).collect(ctx(env), new AbortController().signal);
  if ('skipped' in r) throw new Error(`skipped: ${r.skipped}`);
  const files = new Map(r.files.map((f) => [f.path, f.data]));
  return { files, fr: JSON.parse(String(files.get('nccl/flight-recorder.json'))) as FlightRecorderFile, labels: r.labels };
}

describe('flight-recorder dumps', () => {
  it('finds <prefix><rank> files from this run only', async () => {
    const d = dumpsDir('find');
    writeFileSync(join(d, 'nccl_trace_rank_0.tmp'), 'x');
    copyFileSync(join(d, 'nccl_trace_rank_1'), join(d, 'nccl_trace_rank_7'));
    const old = new Date(Date.now() - 3600_000);
    utimesSync(join(d, 'nccl_trace_rank_7'), old, old);
    const found = await findDumps(join(d, 'nccl_trace_rank_'), new Date(Date.now() - 60_000));
    expect(found.map((f) => f.rank)).toEqual([0, 1]);
    expect(frPrefixes({})).toEqual(['/tmp/nccl_trace_rank_']);
    expect(frPrefixes({ TORCH_NCCL_DEBUG_INFO_TEMP_FILE: '/a/t_', TORCH_FR_DUMP_TEMP_FILE: '/b/t_' })).toEqual(['/b/t_', '/a/t_']);
    expect(frPrefixes({ HOME: '/home/u' })).toEqual(['/home/u/.cache/torch/comm_lib_trace_rank_', '/tmp/nccl_trace_rank_']);
  });

  it('finds dumps at PyTorch 2.11\'s default place when no prefix is set', async () => {
    // logs/default-prefix-console.log: "dumping nccl trace to /root/.cache/torch/comm_lib_trace_rank_0"
    expect(readFileSync(join(H, 'logs/default-prefix-console.log'), 'utf8')).toContain('Finished writing Flight Recorder debug info to /root/.cache/torch/comm_lib_trace_rank_1');
    const home = join(tmp, 'home');
    const cache = join(home, '.cache', 'torch');
    mkdirSync(cache, { recursive: true });
    for (const r of [0, 1]) copyFileSync(join(H, 'fr', `nccl_trace_rank_${r}`), join(cache, `comm_lib_trace_rank_${r}`));
    const { files, fr } = await collect({ HOME: home });
    expect([...files.keys()]).toEqual(['nccl/comm_lib_trace_rank_0', 'nccl/comm_lib_trace_rank_1', 'nccl/flight-recorder.json']);
    expect(fr.prefix).toBe(`${join(cache, 'comm_lib_trace_rank_')},/tmp/nccl_trace_rank_`);
    expect(fr.ranks.map((r) => r.rank)).toEqual([0, 1]);
  });

  it('keeps the raw dumps and extracts per-rank, per-group sequence numbers (python3)', async () => {
    const d = dumpsDir('py');
    const { files, fr, labels } = await collect({ TORCH_NCCL_DEBUG_INFO_TEMP_FILE: join(d, 'nccl_trace_rank_') });
    expect(files.get('nccl/nccl_trace_rank_0')).toEqual(readFileSync(join(H, 'fr/nccl_trace_rank_0')));
    expect(labels).toEqual({ 'nccl.fr_ranks': '0,1' });
    NcclFlightRecorder.parse(fr);
    const [r0, r1] = fr.ranks;
    expect(r0).toMatchObject({ rank: 0, version: '2.10', decodedBy: 'python3', entryCount: 6 });
    expect(r0.pgs).toEqual([
      { pg: '0', name: '0', desc: 'default_pg', ranks: '[0, 1]', lastEnqueued: 5, lastStarted: -1, lastCompleted: 4 },
      { pg: '1', name: '1', desc: 'undefined', ranks: '[0, 1]', lastEnqueued: 1, lastStarted: -1, lastCompleted: 1 },
    ]);
    expect(r1.pgs.map((p) => [p.pg, p.lastEnqueued, p.lastCompleted])).toEqual([
      ['0', 4, 4],
      ['1', 1, 1],
    ]);
    expect(r0.lastEntries.map((e) => [e.pg, e.seq, e.op, e.state])).toEqual([
      ['0', 1, 'nccl:all_reduce', 'completed'],
      ['0', 2, 'nccl:all_reduce', 'completed'],
      ['0', 3, 'nccl:all_reduce', 'completed'],
      ['1', 1, 'nccl:broadcast', 'completed'],
      ['0', 4, 'nccl:_all_gather_base', 'completed'],
      ['0', 5, 'nccl:all_reduce', 'scheduled'],
    ]);
    // Nanosecond stamps exceed 2^53 and stay exact as strings.
    expect(r0.lastEntries[5].timeCreatedNs).toBe('1796014939226654721');
    expect(r0.lastEntries[5]).toMatchObject({ timeoutMs: 20000, isP2p: false, inputSizes: [[1048576]] });
    expect(r1.lastEntries.at(-1)).toMatchObject({ seq: 4, op: 'nccl:_all_gather_base', state: 'completed' });
    // Across ranks: rank 1 never enqueued collective 5 of the default group (the hang).
    expect(fr.summary).toEqual([
      { pg: '0', desc: 'default_pg', maxEnqueued: 5, behind: [{ rank: 1, lastEnqueued: 4 }], opsAtMax: { '0': 'nccl:all_reduce', '1': null } },
      { pg: '1', desc: 'undefined', maxEnqueued: 1, behind: [], opsAtMax: { '0': 'nccl:broadcast', '1': 'nccl:broadcast' } },
    ]);
  });

  it('gives the same result with the built-in unpickler when there is no python3', async () => {
    const d = dumpsDir('js');
    const env = { TORCH_FR_DUMP_TEMP_FILE: join(d, 'nccl_trace_rank_') };
    const py = await collect(env);
    const js = await collect(env, null);
    expect(js.fr.ranks.every((r) => r.decodedBy === 'js')).toBe(true);
    const strip = (f: FlightRecorderFile) => ({ ...f, ranks: f.ranks.map(({ decodedBy: _d, ...r }) => r) });
    expect(strip(js.fr)).toEqual(strip(py.fr));
  });

  it('reads the dumps taken through the Python API (no stack frames)', async () => {
    const dump = unpickle(readFileSync(join(H, 'fr-manual/nccl_trace_rank_1'))) as Record<string, unknown>;
    expect(Object.keys(dump).sort()).toEqual(['comm_lib_version', 'entries', 'pg_config', 'pg_status', 'version']);
    expect(dump.pg_status).toEqual({
      '0': { last_enqueued_collective: 4, last_started_collective: -1, last_completed_collective: 4 },
      '1': { last_enqueued_collective: 1, last_started_collective: -1, last_completed_collective: 1 },
    });
    const full = unpickle(readFileSync(join(H, 'fr/nccl_trace_rank_0'))) as { entries: Array<{ frames: Array<{ name: string; filename: string; line: number }> }> };
    expect(full.entries[5].frames.at(-1)).toEqual({ name: '<module>', filename: '/work/run/timeout.py', line: expect.any(Number) });
  });

  it('keeps an undecodable dump raw and says why', async () => {
    const d = join(tmp, 'bad');
    mkdirSync(d);
    writeFileSync(join(d, 'trace_3'), Buffer.from([0x80, 0x02, 0x63, 0x6f, 0x73]));
    const { files, fr } = await collect({ TORCH_NCCL_DEBUG_INFO_TEMP_FILE: join(d, 'trace_') });
    expect(files.has('nccl/trace_3')).toBe(true);
    expect(fr.ranks[0]).toMatchObject({ rank: 3, decodedBy: null, pgs: [] });
    expect(fr.ranks[0].error).toMatch(/^undecodable: /);
  });

  it('is skipped when no rank dumped', async () => {
    const r = await createNcclCollector().collect(ctx({ TORCH_NCCL_DEBUG_INFO_TEMP_FILE: join(tmp, 'none', 'x_') }), new AbortController().signal);
    expect(r).toEqual({ skipped: `no flight-recorder dumps at ${join(tmp, 'none', 'x_')}<rank>` });
  });
});

describe('a desync recorded on 2×H200', () => {
  it('shows both ranks at the same sequence number with different collectives', async () => {
    const d = join(tmp, 'desync');
    mkdirSync(d);
    for (const r of [0, 1]) copyFileSync(join(H, 'fr-desync', `trace_${r}`), join(d, `trace_${r}`));
    const { fr } = await collect({ TORCH_FR_DUMP_TEMP_FILE: join(d, 'trace_') });
    expect(fr.ranks.map((r) => r.pgs[0].lastEnqueued)).toEqual([5, 5]);
    // Mismatched kernels need not both hang: rank 1's all_gather finished against rank 0's all_reduce.
    expect(fr.ranks.map((r) => r.lastEntries.at(-1)!.state)).toEqual(['scheduled', 'completed']);
    expect(fr.summary[0]).toMatchObject({ maxEnqueued: 5, behind: [], opsAtMax: { '0': 'nccl:all_reduce', '1': 'nccl:_all_gather_base' } });
  });
});
