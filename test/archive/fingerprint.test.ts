import fc from 'fast-check';
// Fingerprints on real corpus lines: the same failure on another rank, host or day is one group;
// a different cause is another.
import { describe, expect, it } from 'vitest';
import { fingerprintOf, maskLine, topFrameAt } from '../../src/classifiers/fingerprint.js';
import { classifyBundle, type Diagnosis, type FailureClass } from '../../src/classifiers/index.js';
import { corpusLog } from '../helpers/bundles.js';

const lineOf = (file: string, n: number) => corpusLog(file).split('\n')[n - 1]!;
function diag(cls: FailureClass, text: string, rule = 'r', file = 'logs/stdout.log', line = 1): Pick<Diagnosis, 'class' | 'evidence'> {
  return { class: cls, evidence: [{ file, line, text, rule }] };
}
const fpOf = (d: Pick<Diagnosis, 'class' | 'evidence'>, files?: Map<string, string>) => fingerprintOf({ diagnosis: d, files }).fingerprint;

describe('maskLine', () => {
  it('masks ranks, hosts, pids, times, sizes, hex, uuids, ips and paths in real lines', () => {
    const nccl = maskLine(lineOf('gpu-005.log', 1));
    expect(nccl).not.toMatch(/\d{2,}/);
    expect(nccl).toContain('Watchdog caught collective operation timeout');
    expect(nccl).toContain('[Rank <n>]');
    // gpu-017 and gpu-064: two machines (ins-7df6eojsifuykig9:3018451 vs another), same NCCL warning.
    const a = maskLine(corpusLog('gpu-017.log').split('\n').find((l) => l.includes("Cuda failure 'out of memory'"))!);
    const b = maskLine(corpusLog('gpu-064.log').split('\n').find((l) => l.includes("Cuda failure 'out of memory'"))!);
    expect(a).toBe(b);
    expect(a).toMatch(/^<host>:<pid>:<tid> /);
    expect(maskLine('2026-11-20T10:00:01.123Z host=gpu-node-17.cluster.local rank 3 freed 8.00 GiB at 0x7f3a2b00 in /data/run-42/ckpt/step_100 id 3f2c1a9e-1111-4a2b-9c3d-0123456789ab from 10.2.3.4:29500')).toBe(
      'host=<host> rank <n> freed <size> at <hex> in <path> id <uuid> from <ip>',
    );
  });

  it('keeps what separates causes: errno, HTTP status, exit status, exception names, config keys', () => {
    expect(maskLine(lineOf('cl-010.log', 9))).toBe('OSError: [Errno 28] No space left on device');
    expect(maskLine('OSError: [Errno 13] Permission denied')).not.toBe(maskLine('OSError: [Errno 28] Permission denied'));
    expect(maskLine('openai.BadRequestError: Error code: 400 - x')).not.toBe(maskLine('openai.BadRequestError: Error code: 429 - x'));
    expect(maskLine('"POST /generate HTTP/1.1" 404 Not Found')).toContain('404');
    expect(maskLine('worker exited with exit code 137')).toContain('137');
    const io = corpusLog('sv-013.log').split('\n').find((l) => l.includes('ConfigAttributeError'))!;
    const lr = corpusLog('sv-014.log').split('\n').find((l) => l.includes('ConfigAttributeError'))!;
    expect(maskLine(io)).not.toBe(maskLine(lr));
  });

  it('keeps a source file name from a path and drops run-specific paths', () => {
    expect(maskLine('NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error')).toBe('NCCL error in: <path>/NCCLUtils.hpp:<n>, unhandled cuda error');
    expect(maskLine("No such file: '/mnt/ckpt/run-7/global_step_120/actor/model.pt'")).toBe("No such file: '<path>'");
    expect(maskLine('I/O error, n/a')).toBe('I/O error, n/a');
  });

  it('drops launcher decorations ([rankN]:, Ray actor prefixes, timestamps) so the bare error matches', () => {
    const withRank = corpusLog('gpu-061.log').split('\n').find((l) => l.includes('torch.OutOfMemoryError: CUDA out of memory'))!;
    const bare = corpusLog('sv-042.log').split('\n').find((l) => l.includes('torch.OutOfMemoryError: CUDA out of memory'))!;
    expect(withRank).toMatch(/^\[rank\d+\]:/);
    expect(bare).not.toMatch(/^\[rank/);
    expect(maskLine(withRank).slice(0, 120)).toBe(maskLine(bare).slice(0, 120));
  });

  it('cannot be confused by placeholder-looking or control characters in hostile text', () => {
    const hostile = 'x\u0000\ue000\u0000 <n> \u0001\ue001\u0001 Errno 5';
    expect(() => maskLine(hostile)).not.toThrow();
    expect(maskLine(hostile)).not.toMatch(/[\u0000\u0001\ue000-\uf8ff]/);
    const t0 = performance.now();
    expect(maskLine('a'.repeat(1_000_000)).length).toBeLessThanOrEqual(240);
    expect(maskLine('/a'.repeat(500_000) + ' 1'.repeat(100_000)).length).toBeLessThanOrEqual(240);
    expect(performance.now() - t0).toBeLessThan(500);
  });
});

describe('fingerprintOf on Diagnosis objects from real corpus lines', () => {
  it('same failure on another rank → same fingerprint (gpu-005: ranks 65 and 66)', () => {
    const r65 = lineOf('gpu-005.log', 1);
    const r66 = lineOf('gpu-005.log', 2);
    expect(r65).toContain('[Rank 65]');
    expect(r66).toContain('[Rank 66]');
    expect(fpOf(diag('nccl.timeout', r65, 'nccl.watchdog_timeout'))).toBe(fpOf(diag('nccl.timeout', r66, 'nccl.watchdog_timeout')));
  });

  it('same failure on another host → same fingerprint (gpu-017 vs gpu-064, two machines)', () => {
    const a = corpusLog('gpu-017.log').split('\n').find((l) => l.includes("Cuda failure 'out of memory'"))!;
    const b = corpusLog('gpu-064.log').split('\n').find((l) => l.includes("Cuda failure 'out of memory'"))!;
    expect(a).not.toBe(b);
    expect(fpOf(diag('cuda.oom', a, 'cuda.nccl_cuda_failure'))).toBe(fpOf(diag('cuda.oom', b, 'cuda.nccl_cuda_failure')));
  });

  it('same failure at another time → same fingerprint (sv-009: the same 500 seconds apart)', () => {
    const l2 = lineOf('sv-009.log', 2);
    const l4 = lineOf('sv-009.log', 4);
    expect(l2.slice(0, 23)).not.toBe(l4.slice(0, 23));
    expect(fpOf(diag('gateway.5xx', l2, 'gateway.server_error'))).toBe(fpOf(diag('gateway.5xx', l4, 'gateway.server_error')));
    // sv-070 and sv-071: two runs hitting the same streaming timeout.
    const a = corpusLog('sv-070.log').split('\n').find((l) => l.includes('Streaming request timeout'))!;
    const b = corpusLog('sv-071.log').split('\n').find((l) => l.includes('Streaming request timeout'))!;
    expect(fpOf(diag('api.timeout', a))).toBe(fpOf(diag('api.timeout', b)));
  });

  it('different cause → different fingerprint', () => {
    const io = corpusLog('sv-013.log').split('\n').find((l) => l.includes('ConfigAttributeError'))!;
    const lr = corpusLog('sv-014.log').split('\n').find((l) => l.includes('ConfigAttributeError'))!;
    expect(fpOf(diag('config.error', io))).not.toBe(fpOf(diag('config.error', lr)));
    const oom = corpusLog('sv-042.log').split('\n').find((l) => l.includes('torch.OutOfMemoryError'))!;
    const disk = lineOf('cl-010.log', 9);
    expect(fpOf(diag('cuda.oom', oom))).not.toBe(fpOf(diag('disk.full', disk)));
    // The same text under another class is another group (a reclassification moves it).
    expect(fpOf(diag('cuda.oom', oom))).not.toBe(fpOf(diag('user.code_error', oom)));
    // gpu-025 illegal memory access vs gpu-041 uncorrectable ECC: both cuda.error, two causes.
    const ima = corpusLog('gpu-025.log').split('\n').find((l) => l.includes('illegal memory access'))!;
    const ecc = corpusLog('gpu-041.log').split('\n').find((l) => l.includes('uncorrectable ECC'))!;
    expect(fpOf(diag('cuda.error', ima))).not.toBe(fpOf(diag('cuda.error', ecc)));
  });

  it('finds the top frame by line number as reading the log line by line would, wherever the traceback is', () => {
    // The oracle reads the lines split apart: the innermost `File "…", line N, in f` between the evidence
    // line and the Traceback header above it (within 400 lines), or none without a header.
    const oracle = (text: string, lineNo: number): string | null => {
      const lines = text.split('\n');
      let frame: string | null = null;
      for (let i = Math.min(lineNo, lines.length) - 1; i >= 0 && i >= Math.min(lineNo, lines.length) - 401; i--) {
        const l = lines[i]!.replace(/\x1b\[[0-9;]*m/g, '');
        if (/^\s*(?:\[[^\]]*\]:?\s*)?Traceback \(most recent call last\):/.test(l)) return frame;
        const m = /^\s*File "(?:[^"]*\/)?([^"/]+)", line \d+, in (\S+)/.exec(l);
        if (m && frame === null) frame = `${m[1]}:${m[2]}`;
      }
      return null;
    };
    const piece = fc.constantFrom('Traceback (most recent call last):', '[rank1]: Traceback (most recent call last):', '  File "/w/train.py", line 3, in main', '  File "model.py", line 9, in forward', 'RuntimeError: boom', 'step 7 loss 0.1', '', '\x1b[31mTraceback (most recent call last):\x1b[0m');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 900 }), fc.boolean(), fc.integer({ min: -1, max: 950 }), (lines, endsWithNewline, n) => {
        const text = lines.join('\n') + (endsWithNewline ? '\n' : '');
        expect(topFrameAt(text, n)).toBe(oracle(text, n));
      }),
      { numRuns: 300 },
    );
    // At the edge of the 400 lines looked back.
    for (let gap = 396; gap <= 402; gap++) {
      const text = ['noise', 'Traceback (most recent call last):', '  File "model.py", line 9, in forward', ...Array<string>(gap).fill('x'), 'RuntimeError: boom'].join('\n');
      for (const n of [gap + 3, gap + 4, gap + 5]) expect(topFrameAt(text, n), `gap ${gap} line ${n}`).toBe(oracle(text, n));
    }
    expect(topFrameAt(['Traceback (most recent call last):', '  File "model.py", line 9, in forward', ...Array<string>(398).fill('x'), 'RuntimeError: boom'].join('\n'), 401)).toBe('model.py:forward');
  });

  it('the top frame of the traceback above the evidence line is part of the fingerprint', () => {
    const log = corpusLog('sv-061.log');
    const lines = log.split('\n');
    const n = lines.findIndex((l) => l.startsWith('RuntimeError: The size of tensor a')) + 1;
    expect(n).toBeGreaterThan(0);
    const frame = topFrameAt(log, n);
    expect(frame).toBe('transformer.py:forward');
    const files = new Map([['logs/stdout.log', log]]);
    const d = diag('user.code_error', lines[n - 1]!, 'user.traceback_exception', 'logs/stdout.log', n);
    const withFrame = fingerprintOf({ diagnosis: d, files });
    expect(withFrame.frame).toBe('transformer.py:forward');
    // The same exception raised from another function is another bug.
    const moved = log.replace(/in forward\n/g, 'in backward\n');
    expect(fingerprintOf({ diagnosis: d, files: new Map([['logs/stdout.log', moved]]) }).fingerprint).not.toBe(withFrame.fingerprint);
    // A frame's line number moving (an edit elsewhere in the file) is the same bug.
    const shifted = log.replace(/line (\d+), in forward/g, (_m, k) => `line ${Number(k) + 7}, in forward`);
    expect(fingerprintOf({ diagnosis: d, files: new Map([['logs/stdout.log', shifted]]) }).fingerprint).toBe(withFrame.fingerprint);
  });

  it('a diagnosis without evidence falls back to the exit status', () => {
    const d = { class: 'unknown' as const, evidence: [] };
    const a = fingerprintOf({ diagnosis: d, exit: { code: 137, signal: null } });
    const b = fingerprintOf({ diagnosis: d, exit: { code: 1, signal: null } });
    expect(a.template).toBe('no evidence; exit 137');
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(fingerprintOf({ diagnosis: d, exit: { code: 137, signal: null } }).fingerprint).toBe(a.fingerprint);
  });
});

describe('fingerprintOf end to end with classifyBundle', () => {
  const fpLog = (log: string) => {
    const files = new Map([['logs/stdout.log', log]]);
    return fingerprintOf({ diagnosis: classifyBundle({ files }), files });
  };

  it('a real log rewritten for another rank, host and day keeps its fingerprint', () => {
    const nccl = corpusLog('gpu-005.log');
    const moved = nccl.replace(/\[Rank (\d+)\]/g, (_m, r) => `[Rank ${Number(r) + 8}]`).replace(/ran for \d+ milliseconds/g, 'ran for 1800999 milliseconds');
    expect(moved).not.toBe(nccl);
    expect(fpLog(moved).fingerprint).toBe(fpLog(nccl).fingerprint);

    const oom = corpusLog('gpu-017.log');
    const host = /^([\w-]+):\d+:\d+ \[/m.exec(oom)![1]!;
    const otherHost = oom.split(host).join('gpu-b200-node-0042').replace(/:(\d{5,}):(\d{5,}) \[/g, ':77777:77778 [');
    expect(fpLog(otherHost).fingerprint).toBe(fpLog(oom).fingerprint);

    const tsLog = corpusLog('sv-009.log');
    const later = tsLog.replace(/2025-03-19 09:(\d\d)/g, '2026-11-30 17:$1');
    expect(later).not.toBe(tsLog);
    expect(fpLog(later).fingerprint).toBe(fpLog(tsLog).fingerprint);
  });

  it('logs of different causes get different fingerprints', () => {
    const files = ['h200-001.log', 'cl-010.log', 'gpu-005.log', 'sv-009.log', 'sv-013.log', 'sv-014.log', 'gpu-041.log', 'gpu-025.log', 'sv-047.log', 'cl-022.log'];
    const fps = files.map((f) => fpLog(corpusLog(f)).fingerprint);
    expect(new Set(fps).size).toBe(files.length);
  });

  it('is deterministic', () => {
    const log = corpusLog('h200-001.log');
    expect(fpLog(log)).toEqual(fpLog(log));
  });
});

describe('maskLine properties (fast-check over real corpus lines)', () => {
  // Real lines that carry ranks, timestamps, IPs or hex: the parts that vary between occurrences.
  const files = ['gpu-005.log', 'gpu-007.log', 'gpu-009.log', 'h200-003.log', 'sv-009.log', 'cl-061.log', 'gpu-061.log', 'gpu-076.log', 'cl-034.log'];
  const lines = files.flatMap((f) => corpusLog(f).split('\n')).filter((l) => /\[Rank \d+\]|\[rank\d+\]|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}|\b\d+\.\d+\.\d+\.\d+\b|0x[0-9a-f]+/i.test(l));

  it('has lines to work on', () => {
    expect(lines.length).toBeGreaterThan(20);
  });

  it('another rank, time, address or pointer gives the same template', async () => {
    const fc = (await import('fast-check')).default;
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    fc.assert(
      fc.property(
        fc.constantFrom(...lines),
        fc.integer({ min: 0, max: 4095 }),
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })),
        fc.bigInt({ min: 1n << 20n, max: (1n << 48n) - 1n }),
        (line, rank, when, ip, ptr) => {
          const d = when;
          const ts = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
          const moved = line
            .replace(/\[Rank \d+\]/g, `[Rank ${rank}]`)
            .replace(/\[rank\d+\]/g, `[rank${rank}]`)
            .replace(/\d{4}-\d{2}-\d{2}([ T])\d{2}:\d{2}:\d{2}/g, (_m, sep) => ts.replace(' ', sep))
            .replace(/\b\d+\.\d+\.\d+\.\d+\b/g, ip.join('.'))
            .replace(/0x[0-9a-f]+/gi, `0x${ptr.toString(16)}`);
          expect(maskLine(moved)).toBe(maskLine(line));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws, never grows past the template bound, never leaks a slot mark', async () => {
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (s) => {
        const m = maskLine(s);
        expect(m.length).toBeLessThanOrEqual(240);
        expect(m).not.toMatch(/[\u0000\u0001\ue000-\uf8ff]/);
      }),
      { numRuns: 500 },
    );
  });
});
