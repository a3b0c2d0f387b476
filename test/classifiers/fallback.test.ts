// The vocabulary fallback: when no rule decides, the failure lines' producer vocabulary may still name a
// class, as a weak, labelled guess; never an outcome, and `unknown` when the words are too few or too even.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/classifiers/engine.js';
import { buildVocabulary, FALLBACK_RULE, isVocabularyGuess, MAX_CONFIDENCE, MIN_CONFIDENCE, MIN_MARGIN, MIN_SCORE, scoreLines, UNFLAGGED_MAX_CONFIDENCE, UNFLAGGED_MIN_SCORE, vocabularyGuess } from '../../src/classifiers/fallback.js';
import { classifyBundle } from '../../src/classifiers/index.js';
import { RULES } from '../../src/classifiers/rules/index.js';
import type { LexiconEntry } from '../../src/classifiers/rules/lexicon.js';
import { categoryOf } from '../../src/classifiers/taxonomy.js';
import type { Diagnosis } from '../../src/classifiers/types.js';

function classify(text: string, fallback = true, cuts: number[] = []): Diagnosis {
  const e = new Engine();
  const buf = Buffer.from(text, 'utf8');
  const points = [...new Set(cuts.map((x) => Math.floor(x * buf.length)))].sort((a, b) => a - b);
  let prev = 0;
  for (const p of [...points, buf.length]) {
    if (p > prev) e.feed('logs/stdout.log', buf.subarray(prev, p));
    prev = Math.max(prev, p);
  }
  return e.finish(undefined, { fallback });
}

// CPython urllib/request.py do_open: URLError(err) of an ssl.SSLEOFError, printed '<urlopen error %s>' (urllib/error.py
// URLError.__str__), as a run's own logger reports it (Python logging, `%(asctime)s %(levelname)s %(filename)s:%(lineno)d -- %(message)s`).
// No rule reads it (botocore's EndpointConnectionError, the example before, is read by client.connection now).
const URLERROR = [
  '2026-12-02 10:11:12,345 INFO checkpoint.py:71 -- uploading step_4000 to https://ckpt.internal/run-17/',
  '2026-12-02 10:11:14,002 INFO trainer.py:310 -- step 4001 loss 1.873',
  '2026-12-02 10:11:15,118 ERROR checkpoint.py:88 -- upload of step_4000 failed: urllib.error.URLError: <urlopen error EOF occurred in violation of protocol (_ssl.c:1006)>',
  '',
].join('\n');

describe('vocabulary fallback: a guess where no rule decides', () => {
  it('names the class whose producer words the failure lines use, as a labelled weak guess', () => {
    expect(classify(URLERROR, false).class).toBe('unknown');
    const d = classify(URLERROR);
    expect(d.class).toBe('network.error');
    expect(d.category).toBe('infra');
    expect(isVocabularyGuess(d)).toBe(true);
    expect(d.hint).toMatch(/^Vocabulary guess, not a rule/);
    expect(d.hint).toContain('"eof occurred in violation of protocol"');
    expect(d.evidence).toEqual([{ file: 'logs/stdout.log', line: 3, text: expect.stringContaining('URLError'), rule: FALLBACK_RULE }]);
  });

  it('is less confident than any rule verdict', () => {
    const guess = classify(URLERROR);
    expect(guess.confidence).toBeGreaterThan(0);
    expect(guess.confidence).toBeLessThanOrEqual(MAX_CONFIDENCE);
    // A rule's verdict on the same failure worded as a rule knows it (urllib3's NewConnectionError).
    const byRule = classify(`${URLERROR}urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused\n`);
    expect(byRule.class).toBe('network.error');
    expect(isVocabularyGuess(byRule)).toBe(false);
    // resolve.ts: a rule verdict's confidence is 0.35 + strength / 200 or more.
    expect(byRule.confidence).toBeGreaterThan(0.35);
    expect(MAX_CONFIDENCE).toBeLessThan(0.35);
  });

  it('without a failure line, telling words give only a weaker guess, labelled so', () => {
    // The run logged the failure at WARNING (a lower level: no failure line) and then stopped.
    const text = [
      '2026-12-02 10:11:12,345 INFO checkpoint.py:71 -- uploading step_4000 to https://ckpt.internal/run-17/',
      '2026-12-02 10:11:15,118 WARNING checkpoint.py:88 -- upload of step_4000 gave up: urllib.error.URLError: <urlopen error EOF occurred in violation of protocol (_ssl.c:1006)>',
      '',
    ].join('\n');
    const e = new Engine();
    e.feed('logs/stdout.log', text);
    e.finish();
    expect(e.failureLines()).toEqual([]);
    const d = classify(text);
    expect(d.class).toBe('network.error');
    expect(isVocabularyGuess(d)).toBe(true);
    expect(d.hint).toMatch(/^Weak vocabulary guess, not a rule: no rule matched and no line of the log is flagged as a failure/);
    expect(d.confidence).toBeGreaterThan(0);
    expect(d.confidence).toBeLessThanOrEqual(UNFLAGGED_MAX_CONFIDENCE);
    expect(UNFLAGGED_MAX_CONFIDENCE).toBeLessThan(MIN_CONFIDENCE + 0.1);
    expect(d.evidence[0]).toMatchObject({ line: 2, rule: FALLBACK_RULE });
    // The same words flagged as a failure are the stronger guess.
    expect(classify(URLERROR).confidence).toBeGreaterThan(d.confidence);
  });

  it('without a failure line, a few words of a class in ordinary output stay unknown', () => {
    // "shared memory" is a disk.full term (/dev/shm): enough in a failure line, not in chatter.
    const text = '2026-12-02 10:11:12,345 INFO data.py:12 -- shared memory segment ready\n';
    expect(classify(text).class).toBe('unknown');
    expect(classify(`2026-12-02 10:11:12,345 ERROR data.py:12 -- shared memory segment ready\n`).class).toBe('disk.full');
  });

  it('without a failure line, streamed in any chunks as in memory', () => {
    const text = '2026-12-02 10:11:15,118 WARNING checkpoint.py:88 -- urllib.error.URLError: <urlopen error EOF occurred in violation of protocol (_ssl.c:1006)>\n';
    const whole = classify(text);
    expect(whole.class).toBe('network.error');
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }), (cuts) => {
        expect(classify(text, true, cuts)).toEqual(whole);
      }),
      { numRuns: 25 },
    );
  });

  it('never changes a verdict a rule made', () => {
    const text = `${URLERROR}torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.\n`;
    expect(classify(text)).toEqual(classify(text, false));
    expect(classify(text).class).toBe('cuda.oom');
  });

  it('the same guess streamed in any chunks as in memory', () => {
    const whole = classifyBundle({ files: new Map([['logs/stdout.log', URLERROR]]) });
    expect(whole.class).toBe('network.error');
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }), (cuts) => {
        expect(classify(URLERROR, true, cuts)).toEqual(whole);
      }),
      { numRuns: 25 },
    );
  });

  it('makes no guess on a bundle its own records decide (a live bundle taken on a stall)', () => {
    const d = classifyBundle({ files: new Map([['logs/stdout.log', URLERROR]]), manifest: { trigger: 'stall' } });
    expect(isVocabularyGuess(d)).toBe(false);
  });
});

// A traceback that ends in a library exception no rule knows (CPython's urllib/request.py wraps the
// connection's OSError in URLError): only the catch-all "an exception ended a traceback" decides.
const traceback = (last: string): string =>
  [
    'Traceback (most recent call last):',
    '  File "/home/u/proj/train.py", line 88, in <module>',
    '    save(ckpt)',
    '  File "/opt/conda/lib/python3.11/urllib/request.py", line 1351, in do_open',
    '    raise URLError(err)',
    last,
    '',
  ].join('\n');

describe('vocabulary fallback over the traceback catch-all', () => {
  it('an infra vocabulary in the exception the catch-all took wins over "some exception"', () => {
    const log = traceback('urllib.error.URLError: <urlopen error EOF occurred in violation of protocol (_ssl.c:1006)>');
    const rulesOnly = classify(log, false);
    expect(rulesOnly.class).toBe('user.code_error');
    expect(rulesOnly.evidence.every((e) => e.rule === 'user.traceback_other')).toBe(true);
    const d = classify(log);
    expect(d.class).toBe('network.error');
    expect(isVocabularyGuess(d)).toBe(true);
    expect(d.evidence[0]).toMatchObject({ line: 6, rule: FALLBACK_RULE });
  });

  it('an exception in the project’s own words stays the catch-all’s user.code_error', () => {
    const d = classify(traceback('mylib.errors.SchemaError: column label missing from dataset'));
    expect(d.class).toBe('user.code_error');
    expect(isVocabularyGuess(d)).toBe(false);
  });
});

describe('vocabulary fallback: a native crash is no class’s word', () => {
  // CPython faulthandler (Python/faulthandler.c: "Fatal Python error: Segmentation fault" and the thread
  // stacks) then bash's report of the signalled child (strsignal(SIGSEGV) + " (core dumped)"), as a
  // DataLoader worker crash prints them outside any Ray job. Ray's own rules read a native crash only with
  // Ray's prefixes; the words alone say a process died, not which producer's fault.
  const SEGV = [
    'Epoch 3:  45%|████▌     | 450/1000 [10:01<12:13,  1.33s/it]',
    'Fatal Python error: Segmentation fault',
    '',
    'Thread 0x00007f3a2c1fe700 (most recent call first):',
    '  File "/opt/conda/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 308 in _worker_loop',
    'Segmentation fault (core dumped)',
    '',
  ].join('\n');

  it('stays unknown rather than guessing a Ray crash', () => {
    const d = classify(SEGV);
    expect(d.class).toBe('unknown');
    expect(isVocabularyGuess(d)).toBe(false);
  });

  it('a Ray worker’s native crash, in Ray’s prefix, is still ray.crash by rule', () => {
    const d = classify('(RolloutWorker pid=4121) *** SIGSEGV received at time=1733220000 on cpu 3 ***\n(RolloutWorker pid=4121) Segmentation fault (core dumped)\n');
    expect(d.class).toBe('ray.crash');
    expect(isVocabularyGuess(d)).toBe(false);
  });
});

describe('vocabulary scoring', () => {
  const lexicon: LexiconEntry[] = [
    { class: 'disk.full', source: 'test', terms: ['No space left on device'] },
    { class: 'network.error', source: 'test', terms: ['Connection reset by peer'] },
    { class: 'host.oom', source: 'test', terms: ['Cannot allocate memory', 'MemoryError'] },
  ];
  const vocabulary = buildVocabulary([], lexicon);
  const at = (text: string) => ({ file: 'logs/a.log', line: 1, text });

  it('ties and near-ties stay unknown', () => {
    const both = [at('OSError: [Errno 28] No space left on device'), at('ConnectionResetError: [Errno 104] Connection reset by peer')];
    const scores = scoreLines(both, vocabulary);
    expect(scores[0]!.score).toBe(scores[1]!.score);
    expect(vocabularyGuess(both, vocabulary, 'v')).toBeNull();
    // One class ahead, but by less than MIN_MARGIN.
    const near = [at('OSError: [Errno 28] No space left on device'), at('MemoryError'), at('OSError: [Errno 12] Cannot allocate memory')];
    const s = scoreLines(near, vocabulary);
    expect(s[0]!.cls).toBe('host.oom');
    expect(s[0]!.score).toBeGreaterThan(s[1]!.score);
    expect(s[0]!.score).toBeLessThan(MIN_MARGIN * s[1]!.score);
    expect(vocabularyGuess(near, vocabulary, 'v')).toBeNull();
  });

  it('read from unflagged lines, a guess needs twice the words, and ties stay unknown', () => {
    const one = [at('INFO MemoryError')];
    expect(vocabularyGuess(one, vocabulary, 'v')?.class).toBe('host.oom');
    expect(scoreLines(one, vocabulary)[0]!.score).toBeLessThan(UNFLAGGED_MIN_SCORE);
    expect(vocabularyGuess(one, vocabulary, 'v', 'unflagged')).toBeNull();
    const more = [...one, at('INFO OSError: [Errno 12] Cannot allocate memory')];
    expect(scoreLines(more, vocabulary)[0]!.score).toBeGreaterThanOrEqual(UNFLAGGED_MIN_SCORE);
    const g = vocabularyGuess(more, vocabulary, 'v', 'unflagged');
    expect(g?.class).toBe('host.oom');
    expect(g!.confidence).toBeLessThanOrEqual(UNFLAGGED_MAX_CONFIDENCE);
    const tie = [...more, at('INFO ConnectionResetError: [Errno 104] Connection reset by peer')];
    const ts = scoreLines(tie, vocabulary);
    expect(ts[0]!.score).toBeLessThan(MIN_MARGIN * ts[1]!.score);
    expect(vocabularyGuess(tie, vocabulary, 'v', 'unflagged')).toBeNull();
  });

  it('one class clearly ahead is the guess; too few words are none', () => {
    expect(vocabularyGuess([at('OSError: [Errno 28] No space left on device')], vocabulary, 'v')?.class).toBe('disk.full');
    const weak = buildVocabulary([], [{ class: 'disk.full', source: 'test', terms: ['spill'] }, ...lexicon]);
    const s = scoreLines([at('ERROR spill')], weak);
    expect(s[0]!.score).toBeLessThan(MIN_SCORE);
    expect(vocabularyGuess([at('ERROR spill')], weak, 'v')).toBeNull();
  });

  it('matches whole words, across CamelCase and snake_case', () => {
    expect(scoreLines([at('ERROR raised MemoryErrorHandler')], vocabulary).map((x) => x.cls)).toEqual(['host.oom']);
    expect(scoreLines([at('ERROR memory_error')], vocabulary).map((x) => x.cls)).toEqual(['host.oom']);
    expect(scoreLines([at('ERROR MemoryErrors')], vocabulary)).toEqual([]);
  });

  it('never points to an outcome class, though outcome rules have pattern keys', () => {
    expect(RULES.some((r) => categoryOf(r.class) === 'outcome')).toBe(true);
    const classes = new Set(buildVocabulary(RULES).terms.flatMap((t) => [...t.weights.keys()]));
    expect(classes.size).toBeGreaterThan(10);
    for (const c of classes) expect(categoryOf(c)).not.toBe('outcome');
  });
});
