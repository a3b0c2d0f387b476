// A trial's agent/ and verifier/ folders are mounted into the sandbox, so the agent under
// evaluation writes there: a link it leaves (to /root/.ssh/id_rsa, to a host folder) is resolved on
// the host when the trial is imported. Nothing reached through a link may enter a bundle or be
// read as the trial's trajectory, and FIFOs must not hang the import.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTrialAtif } from '../../src/harbor/atif.js';
import { loadTrialInput } from '../../src/harbor/trial.js';
import { CLEAN, trialNames } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'fdiag-harbor-sec-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A copy of a real fixture trial, and a host folder outside it holding "secrets". */
function hostileTrial(name: string): { trial: string; host: string } {
  const trial = join(tmp, name, trialNames(CLEAN)[0]!);
  cpSync(join(CLEAN, trialNames(CLEAN)[0]!), trial, { recursive: true });
  const host = join(tmp, name, 'host-home');
  mkdirSync(join(host, '.aws'), { recursive: true });
  writeFileSync(join(host, '.aws', 'credentials'), '[default]\nplanted_host_marker = host-file-0123456789\n');
  writeFileSync(join(host, 'notes.txt'), 'planted_host_marker in a host folder\n');
  writeFileSync(join(host, 'trajectory.json'), JSON.stringify({ schema_version: 'ATIF-v1.4', session_id: 'planted_host_marker', agent: { name: 'x', version: '1' }, steps: [] }));
  return { trial, host };
}

describe('links an agent leaves in its trial folder', () => {
  it('a linked file and a linked folder under agent/ and verifier/ stay out of the bundle', async () => {
    const { trial, host } = hostileTrial('links');
    symlinkSync(join(host, '.aws', 'credentials'), join(trial, 'verifier', 'test-stderr.txt'));
    symlinkSync(host, join(trial, 'agent', 'home'));
    const input = await loadTrialInput(trial);
    const files = input.files as Map<string, string>;
    expect([...files.keys()].filter((p) => p.includes('test-stderr') || p.includes('home/'))).toEqual([]);
    for (const t of files.values()) expect(t).not.toContain('planted_host_marker');
    // the trial's own files are still read
    expect(files.has('harbor/verifier/test-stdout.txt')).toBe(true);
  });

  it('agent/trajectory.json as a link is not read as the trajectory', () => {
    const { trial, host } = hostileTrial('trajectory');
    unlinkSync(join(trial, 'agent', 'trajectory.json'));
    symlinkSync(join(host, 'trajectory.json'), join(trial, 'agent', 'trajectory.json'));
    // before: statSync and the read followed the link, and the host file was checked as ATIF
    const rep = checkTrialAtif(trial);
    expect(rep.present).toBe(false);
    expect(rep.files.map((f) => f.file)).toEqual([]);
  });

  it('FIFOs where files are expected do not hang the import', async () => {
    const { trial } = hostileTrial('fifo');
    unlinkSync(join(trial, 'trial.log'));
    execFileSync('mkfifo', [join(trial, 'trial.log')]);
    execFileSync('mkfifo', [join(trial, 'verifier', 'test-stderr.txt')]);
    unlinkSync(join(trial, 'agent', 'trajectory.json'));
    execFileSync('mkfifo', [join(trial, 'agent', 'trajectory.json')]);
    const input = await loadTrialInput(trial);
    expect((input.files as Map<string, string>).has('harbor/trial.log')).toBe(false);
    expect(checkTrialAtif(trial).present).toBe(false);
  });
});
