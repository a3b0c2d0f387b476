// torchelastic error files are looked for under /tmp (and $TMPDIR), where any user of the node may
// leave a torchelastic_*/…/error.json: a hard link there to a file of the capturing user's, or a
// file of someone else's (a planted exception that would decide the diagnosis), is not read.
import { chownSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exceptionsCollector } from '../../../src/capture/collectors/exceptions.js';
import type { CaptureContext } from '../../../src/capture/collector.js';
import { captureContext } from '../../helpers/capture-context.js';

const root = mkdtempSync(join(tmpdir(), 'fdiag-exc-sec-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function ctx(tmp: string): CaptureContext {
  return captureContext({ options: { runId: 'exc' }, command: ['torchrun', 'train.py'], cwd: root, env: { TMPDIR: tmp } });
}

async function collect(tmp: string): Promise<Map<string, string>> {
  const r = await exceptionsCollector.collect(ctx(tmp), new AbortController().signal);
  if ('skipped' in r) return new Map();
  return new Map(r.files.map((f) => [f.path, Buffer.from(f.data).toString('utf8')]));
}

function errorDir(name: string): { tmp: string; dir: string } {
  const tmp = mkdtempSync(join(root, `${name}-`));
  const dir = join(tmp, 'torchelastic_ab12', 'none_xy', 'attempt_0', '0');
  mkdirSync(dir, { recursive: true });
  return { tmp, dir };
}

const errorJson = (msg: string) => JSON.stringify({ message: msg, timestamp: Math.floor(Date.now() / 1000), errorCode: 1 });

describe('torchelastic error files in a folder anyone may write to', () => {
  it('the run\'s own error.json is read', async () => {
    const { tmp, dir } = errorDir('own');
    writeFileSync(join(dir, 'error.json'), errorJson('torch.OutOfMemoryError: CUDA out of memory.'));
    const files = await collect(tmp);
    expect(files.get('torchelastic/torchelastic_ab12/none_xy/attempt_0/0/error.json')).toContain('OutOfMemoryError');
  });

  it('an error.json that is a hard link to another file is not read', async () => {
    const { tmp, dir } = errorDir('hardlink');
    const other = join(tmp, 'credentials.json');
    writeFileSync(other, JSON.stringify({ message: 'planted-exc-hardlink-0123456789' }));
    linkSync(other, join(dir, 'error.json'));
    // before: read and put in the bundle as the rank's error file
    const files = await collect(tmp);
    for (const t of files.values()) expect(t).not.toContain('planted-exc-hardlink');
  });

  // Giving a file to another user takes root; as anyone else this cannot be set up.
  it.skipIf(process.getuid?.() !== 0)("another user's error.json is not this run's exception", async () => {
    const { tmp, dir } = errorDir('foreign');
    writeFileSync(join(dir, 'error.json'), errorJson('ValueError: planted-exc-foreign'));
    chownSync(join(dir, 'error.json'), 65534, 65534);
    const files = await collect(tmp);
    for (const t of files.values()) expect(t).not.toContain('planted-exc-foreign');
  });
});

describe('the error file the run names', () => {
  it('is no error when the run did not write it, named relative to the run folder as torchrun users do', async () => {
    const tmp = mkdtempSync(join(root, 'envfile-'));
    const c = { ...ctx(tmp), env: { TMPDIR: tmp, TORCHELASTIC_ERROR_FILE: 'logs/error.json' } };
    const r = await exceptionsCollector.collect(c, new AbortController().signal);
    expect('skipped' in r).toBe(false);
    if ('skipped' in r) return;
    expect(r.meta?.errors).toBeUndefined();
    expect(r.files.some((f) => f.path.startsWith('torchelastic/error_file/'))).toBe(false);
  });
});
