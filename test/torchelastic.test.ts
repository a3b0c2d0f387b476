// torchelastic's ChildFailedError report (src/torchelastic.ts), which the capture agent's exceptions
// collector and the classifiers' engine both read through: one entry means one rank and one exit code
// to both, whatever launcher prefix the lines carry.
import { describe, expect, it } from 'vitest';
import { parseChildFailedSummary } from '../src/capture/collectors/exceptions.js';
import { classifyBundle } from '../src/classifiers/index.js';
import { parseRootCauseField, rootCauseExit, rootCauseFieldKey, rootCauseRank } from '../src/torchelastic.js';

/** The report torchrun's ChildFailedError prints (errors/__init__.py _MSG_FORMAT_TEMPLATE), rank 3 first to fail. */
function report(prefix = ''): string {
  return [
    '============================================================',
    'train.py FAILED',
    '------------------------------------------------------------',
    'Failures:',
    '  <NO_OTHER_FAILURES>',
    '------------------------------------------------------------',
    'Root Cause (first observed failure):',
    '[0]:',
    '  time      : 2026-12-02_10:00:05',
    '  host      : node7',
    '  rank      : 3 (local_rank: 3)',
    '  exitcode  : 2 (pid: 4242)',
    '  error_file: <N/A>',
    '  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html',
    '============================================================',
  ]
    .map((l) => prefix + l)
    .join('\n');
}

describe("torchelastic's Root Cause entry", () => {
  it('reads each field of the template, and nothing else', () => {
    expect(parseRootCauseField('  rank      : 3 (local_rank: 3)')).toEqual({ name: 'rank', value: '3 (local_rank: 3)' });
    expect(parseRootCauseField('  error_file: <N/A>')).toEqual({ name: 'error_file', value: '<N/A>' });
    expect(parseRootCauseField('  ValueError: nope')).toBeNull();
    expect(rootCauseRank('3 (local_rank: 1)')).toEqual({ rank: 3, localRank: 1 });
    expect(rootCauseExit('-9 (pid: 77)')).toEqual({ exitcode: -9, pid: 77 });
    expect(rootCauseExit('<N/A>')).toBeNull();
    expect(report()).toContain(rootCauseFieldKey('exitcode'));
  });

  for (const [name, prefix] of [
    ['as torchrun prints it', ''],
    ["forwarded by Ray's worker prefix", '(TaskRunner pid=2231) '],
  ] as const) {
    it(`names the same first failed rank to capture and to the classifiers, ${name}`, () => {
      const [rec] = parseChildFailedSummary(report(prefix), 'logs/stdout.log');
      expect(rec).toMatchObject({ rank: 3, localRank: 3, exitcode: 2, pid: 4242, host: 'node7', rootCause: true });
      const d = classifyBundle({ files: new Map([['logs/stdout.log', report(prefix)]]) });
      expect(d.class).toBe('user.code_error');
      expect(d.hint).toMatch(/Rank 3 was the first worker to fail .*exited with code 2/);
    });
  }
});
