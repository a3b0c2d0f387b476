// The stall window and the wall clock: a step of the system clock (NTP, a resumed VM, `date -s`)
// must neither make a healthy job "stall" (with --stall-action kill it would be killed) nor hide a
// real stall for as long as the step. Only Date is faked here; the watchdog's ticks are real.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StallWatchdog } from '../../../src/capture/stall/watchdog.js';

afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3600e3;
const realWait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the stall window is measured on a monotonic clock', () => {
  it('the wall clock stepping an hour forward is no stall', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    let stalls = 0;
    let seen: () => void = () => {};
    const stalled = new Promise<void>((resolve) => (seen = resolve));
    const w = new StallWatchdog({ afterMs: 3000, logFiles: [], tickMs: 20 }, async () => {
      stalls++;
      seen();
    });
    await w.start();
    w.output(Buffer.from('step 1\n'), 'stdout');
    // before: Date.now() - lastProgress was an hour, over the window: a stall on the next tick
    vi.setSystemTime(Date.now() + HOUR);
    await realWait(300);
    expect(stalls).toBe(0);
    // the watchdog was ticking all along: with no output for the real window it does report the stall
    const fired = await Promise.race([stalled.then(() => true), realWait(15_000).then(() => false)]);
    await w.stop();
    expect(fired).toBe(true);
  });

  it('the wall clock stepping an hour back does not hide a real stall', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    let seen: (at: Date) => void = () => {};
    const stalled = new Promise<Date>((resolve) => (seen = resolve));
    const w = new StallWatchdog({ afterMs: 150, logFiles: [], tickMs: 20 }, async (e) => seen(e.lastProgressAt));
    await w.start();
    const before = Date.now();
    vi.setSystemTime(before - HOUR);
    // before: Date.now() - lastProgress stayed negative for an hour; the stall was not seen
    const at = await Promise.race([stalled, realWait(10_000).then(() => null)]);
    await w.stop();
    expect(at).not.toBeNull();
    // the report still gives the wall-clock time of the last progress (as the clock said then)
    expect(at!.getTime()).toBe(before);
  });
});
