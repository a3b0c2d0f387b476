// Ingest in the worker pool: a bundle's verdict (class, or the 4xx reason for a bad one) is the
// same as inline; small JSON files are kept in the index, so reading them never opens the blob.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openArchive, type Archive } from '../../src/archive/index.js';
import { BundleError } from '../../src/bundle/errors.js';
import { storageFor } from '../helpers/backends.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';

const opened: Archive[] = [];
afterAll(async () => {
  for (const a of opened) await a.close();
});

async function open(workers: number) {
  const dir = tempDir('fdiag-ingest-');
  const a = await openArchive({ ...storageFor(dir), dataDir: dir, ingestWorkers: workers });
  opened.push(a);
  return a;
}

const EXCEPTIONS = JSON.stringify([{ type: 'RuntimeError', message: 'CUDA error: an illegal memory access was encountered', source: { file: 'logs/stdout.log', line: 3 }, traceback: 'Traceback (most recent call last):\n  File "/work/train.py", line 9, in main\nRuntimeError: CUDA error' }]);

/** Nice value of every thread of this process, by thread id (Linux /proc; field 19 of stat). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    out.set(Number(t), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return out;
}

describe('ingest through the worker pool', () => {
  it.runIf(process.platform === 'linux')('with FDIAG_INGEST_NICE its threads run below the event loop, so reads are scheduled first', async () => {
    const before = threadNices();
    const base = before.get(process.pid)!;
    // Worker threads take the environment as it is when they start.
    vi.stubEnv('FDIAG_INGEST_NICE', '10');
    try {
      await open(2);
    } finally {
      vi.unstubAllEnvs();
    }
    const started = [...threadNices()].filter(([tid]) => !before.has(tid));
    expect(started.filter(([, nice]) => nice === Math.min(19, base + 10)).length).toBeGreaterThanOrEqual(2);
    expect(threadNices().get(process.pid)).toBe(base);
  });

  it('classifies like the inline path and stores small JSON files in the index', async () => {
    const files = [
      { path: 'logs/stdout.log', data: corpusLog('cl-010.log') },
      { path: 'exceptions.json', data: EXCEPTIONS },
    ];
    const bundle = await makeBundle({ runId: 'pool', files });
    const pooled = await open(2);
    const inline = await open(0);
    const a = await pooled.ingestBundleFile(bundle.path);
    const b = await inline.ingestBundleFile(bundle.path);
    expect(a).toEqual(b);
    expect(a.duplicate).toBe(false);

    const reads = vi.spyOn(pooled.blobs, 'read');
    const exc = await pooled.readFile(a.id, 'exceptions.json');
    expect(exc?.data.toString()).toBe(EXCEPTIONS);
    expect(reads).not.toHaveBeenCalled();
    const log = await pooled.readFile(a.id, 'logs/stdout.log');
    expect(log?.data.toString()).toBe(corpusLog('cl-010.log'));
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('refuses a bad bundle with the reader\'s reason, across the thread boundary', async () => {
    const pooled = await open(1);
    const bundle = await makeBundle({ runId: 'tampered', log: 'RuntimeError: boom\n' });
    // Flip a byte inside the gzip stream: the bundle no longer inflates or matches its manifest.
    const bytes = readFileSync(bundle.path);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    const bad = join(tempDir(), 'bad.tar.gz');
    writeFileSync(bad, bytes);
    const err = await pooled.ingestBundleFile(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BundleError);
    expect((err as BundleError).status).toBe(400);
    expect((await pooled.query({})).items).toEqual([]);
  });
});
