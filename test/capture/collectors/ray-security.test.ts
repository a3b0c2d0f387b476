// The Ray collector when /tmp/ray was made by someone else: anyone on the node may create
// /tmp/ray/session_latest/logs/raylet.out as a link to a file of the capturing user's, or leave
// their own files there. Links are not followed and only the capturing user's files are read.
import { chownSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRayCollector } from '../../../src/capture/collectors/ray.js';
import type { CaptureContext } from '../../../src/capture/collector.js';
import { captureContext } from '../../helpers/capture-context.js';

const root = mkdtempSync(join(tmpdir(), 'fdiag-ray-sec-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function ctx(): CaptureContext {
  return captureContext({ options: { runId: 'ray-run' }, command: ['python', 'driver.py'], cwd: root, startedAt: new Date(Date.now() - 300_000) });
}

async function collect(session: string) {
  const r = await createRayCollector({ sessionDir: session }).collect(ctx(), new AbortController().signal);
  if ('skipped' in r) throw new Error(`skipped: ${r.skipped}`);
  return new Map(r.files.map((f) => [f.path, Buffer.from(f.data).toString('utf8')]));
}

function session(name: string): string {
  const s = join(root, name, 'session_2026-12-02_03-00-00_000000_1');
  mkdirSync(join(s, 'logs'), { recursive: true });
  writeFileSync(join(s, 'logs', 'gcs_server.out'), '(gcs_server) gcs_server.cc:300: GCS server started\n');
  return s;
}

describe('Ray logs in a folder anyone may write to', () => {
  it('raylet.out as a symbolic link to a file elsewhere: not followed, its text stays out of the bundle', async () => {
    const s = session('symlink');
    const history = join(root, 'bash_history');
    writeFileSync(history, 'curl -H "X-Token: planted-ray-history-0123456789" https://x\n');
    symlinkSync(history, join(s, 'logs', 'raylet.out'));
    // before: stat() and the read followed the link; raylet.out is one of the files always kept
    const files = await collect(s);
    expect(files.has('ray/raylet.out')).toBe(false);
    expect(files.get('ray/gcs_server.out')).toContain('GCS server started');
    for (const t of files.values()) expect(t).not.toContain('planted-ray-history');
  });

  it('raylet.out as a hard link to a file elsewhere is not read', async () => {
    const s = session('hardlink');
    const other = join(root, 'hardlink', 'credentials');
    writeFileSync(other, 'planted-ray-hardlink-0123456789\n');
    linkSync(other, join(s, 'logs', 'raylet.out'));
    const files = await collect(s);
    expect(files.has('ray/raylet.out')).toBe(false);
    expect(JSON.parse(files.get('ray/session.json')!).leftOut).toEqual(['raylet.out']);
  });

  // Giving a file to another user takes root; as anyone else this cannot be set up.
  it.skipIf(process.getuid?.() !== 0)("another user's raylet.out is not this run's evidence", async () => {
    const s = session('foreign');
    writeFileSync(join(s, 'logs', 'raylet.out'), '(raylet) node_manager.cc:1: planted by another user\n');
    chownSync(join(s, 'logs', 'raylet.out'), 65534, 65534);
    const files = await collect(s);
    expect(files.has('ray/raylet.out')).toBe(false);
    expect(files.get('ray/gcs_server.out')).toContain('GCS server started');
  });
});
