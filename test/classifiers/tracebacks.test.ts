// Where a Python traceback ends and whose code raised it: the exception line right after the innermost
// frame, that frame in the run's own code or in installed/standard-library code (logline.isLibraryPath).
// The tracebacks are CPython 3.11's own output for a small project importing from a fake site-packages.
import { describe, expect, it } from 'vitest';
import { classifyBundle } from '../../src/classifiers/index.js';
import { classifyText } from './helpers.js';

const LIB = '/opt/venv/lib/python3.11/site-packages';

const importInLibrary = [
  'Traceback (most recent call last):',
  '  File "/workspace/proj/train.py", line 12, in <module>',
  '    main()',
  '  File "/workspace/proj/train.py", line 4, in main',
  '    import plugin_pkg',
  `  File "${LIB}/plugin_pkg/__init__.py", line 1, in <module>`,
  '    from base_pkg import FastTokenizer',
  `ImportError: cannot import name 'FastTokenizer' from 'base_pkg' (${LIB}/base_pkg/__init__.py)`,
].join('\n');

const importInOwnCode = [
  'Traceback (most recent call last):',
  '  File "/workspace/proj/train.py", line 12, in <module>',
  '    main()',
  '  File "/workspace/proj/train.py", line 6, in main',
  '    from base_pkg import FastTokenizer',
  `ImportError: cannot import name 'FastTokenizer' from 'base_pkg' (${LIB}/base_pkg/__init__.py)`,
].join('\n');

const customException = [
  'Traceback (most recent call last):',
  '  File "/workspace/proj/train.py", line 12, in <module>',
  '    main()',
  '  File "/workspace/proj/train.py", line 9, in main',
  '    raise RewardShapeError("reward tensor has 3 dims, expected 2")',
  'main.<locals>.RewardShapeError: reward tensor has 3 dims, expected 2',
].join('\n');

describe('the exception that ends a traceback', () => {
  it('an import failing inside installed packages is the environment (config.error), in the run\'s own frame its code', () => {
    const lib = classifyText(importInLibrary);
    expect(lib.class).toBe('config.error');
    expect(lib.evidence[0]?.rule).toBe('config.dependency_mismatch');
    const own = classifyText(importInOwnCode);
    expect(own.class).toBe('user.code_error');
    expect(own.evidence[0]?.rule).toBe('user.traceback_exception');
  });

  it('an exception type no rule names is still the run failing when it ends a traceback', () => {
    const d = classifyText(customException);
    expect(d.class).toBe('user.code_error');
    expect(d.evidence[0]?.rule).toBe('user.traceback_other');
  });

  it('the same words outside a traceback (logged, quoted, far below the frames) are not', () => {
    expect(classifyText('2026-12-01 10:00:00 INFO retrying after RewardShapeError: reward tensor has 3 dims').class).toBe('unknown');
    const far = [...customException.split('\n').slice(0, 5), ...Array.from({ length: 20 }, (_, i) => `step ${i} loss 0.1`), 'RewardShapeError: reward tensor has 3 dims, expected 2'].join('\n');
    expect(classifyText(far).class).toBe('unknown');
    // An indented line under the frames is source or message text, not the exception line.
    expect(classifyText(`${customException.split('\n').slice(0, 4).join('\n')}\n    RewardShapeError: x`).class).toBe('unknown');
  });

  it('a traceback pasted with its frames cut out still ends at its exception line', () => {
    const d = classifyText('Traceback (most recent call last):\n  ...\nmain.<locals>.RewardShapeError: reward tensor has 3 dims, expected 2');
    expect(d.class).toBe('user.code_error');
    expect(d.evidence[0]?.rule).toBe('user.traceback_other');
    // Whose code raised it is unknown there, so a rule for imports inside installed packages does not fire.
    expect(classifyText("Traceback (most recent call last):\n  ...\nAttributeError: module 'grpc' has no attribute 'aio'").class).toBe('user.code_error');
  });

  it("follows each rank's own frames when torchrun interleaves two tracebacks", () => {
    const text = [
      '[rank0]: Traceback (most recent call last):',
      '[rank1]: Traceback (most recent call last):',
      '[rank0]:   File "/workspace/proj/train.py", line 4, in main',
      '[rank1]:   File "/workspace/proj/train.py", line 4, in main',
      '[rank0]:     import plugin_pkg',
      `[rank1]:   File "${LIB}/plugin_pkg/__init__.py", line 1, in <module>`,
      '[rank1]:     from base_pkg import FastTokenizer',
      `[rank0]: ImportError: cannot import name 'FastTokenizer' from 'base_pkg' (${LIB}/base_pkg/__init__.py)`,
    ].join('\n');
    // rank0's innermost frame is its own train.py, though rank1's last printed frame was a library's.
    const d = classifyText(text);
    expect(d.class).toBe('user.code_error');
  });

  it('IPython frames (File path:line, in f) count as frames, site-packages ones as library code', () => {
    const text = [
      'ImportError                               Traceback (most recent call last)',
      'Cell In[3], line 1',
      '----> 1 import plugin_pkg',
      '',
      `File ${LIB}/plugin_pkg/__init__.py:1`,
      `File ${LIB}/plugin_pkg/loader.py:7, in <module>`,
      '      5 import os',
      '----> 7 from base_pkg import FastTokenizer',
      '',
      `ImportError: cannot import name 'FastTokenizer' from 'base_pkg' (${LIB}/base_pkg/__init__.py)`,
    ].join('\n');
    expect(classifyText(text).class).toBe('config.error');
  });

  it("exceptions.json records carry whose code raised them (their traceback's innermost frame)", () => {
    const rec = (traceback: string) => [{ type: 'AttributeError', message: "module 'grpc' has no attribute 'aio'", rank: 0, traceback }];
    const libTb = `Traceback (most recent call last):\n  File "${LIB}/ray/dashboard/state_aggregator.py", line 21, in <module>\n    class StateDataSourceClient:`;
    const ownTb = 'Traceback (most recent call last):\n  File "serve.py", line 3, in <module>\n    ch = grpc.aio.insecure_channel(addr)';
    const bundle = (tb: string) => ({ files: new Map([['exceptions.json', JSON.stringify(rec(tb))]]) });
    expect(classifyBundle(bundle(libTb)).class).toBe('config.error');
    expect(classifyBundle(bundle(ownTb)).class).toBe('user.code_error');
  });
});
