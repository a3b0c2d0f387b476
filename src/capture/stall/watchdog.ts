// The stall watchdog of `fdiag capture --stall-after DUR`. Progress is new output on stdout/stderr,
// growth of a --log file, or, with --progress REGEX, a new line (of either) that matches it. When
// nothing moved for the window, one stall episode starts: `onStall` runs once (the snapshot bundle,
// then with --stall-action kill the end of the job). The next progress ends the episode and re-arms
// the watchdog, so a job that stalls, recovers and stalls again gets one bundle per episode. Output
// while the episode's snapshot runs (and a moment after) is no progress: asking a rank for its flight
// recorder makes it print ("ProcessGroupNCCL preparing to dump debug info", seen on the H200), and
// that echo must not end the episode and start another.
import { open, stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';

// The window is measured on the monotonic clock: the wall clock steps (NTP, a VM resumed, an admin's
// `date -s`), and a step forward past the window made a healthy job "stall" (and with
// --stall-action kill, killed it), a step back hid a real stall for as long as the step.
const monotonic = () => performance.now();

export interface StallWatchdogOptions {
  afterMs: number;
  progress?: RegExp;
  logFiles: string[];
  /** How often to look (default: a fifth of the window, between 50 ms and 1 s). */
  tickMs?: number;
}

export interface StallEpisode {
  episode: number;
  lastProgressAt: Date;
}

const MAX_LINE_CARRY = 64 * 1024;
const MAX_LOG_READ = 1024 * 1024;
const ECHO_MS = 1000;

export class StallWatchdog {
  /** Monotonic ms of the last progress (the window), and its wall-clock time (what reports say). */
  private lastProgress = monotonic();
  private lastProgressWall = Date.now();
  private stalled = false;
  private episodes = 0;
  private timer: NodeJS.Timeout | undefined;
  private carry = new Map<string, string>();
  private logSizes = new Map<string, number>();
  private inFlight = new Set<Promise<void>>();
  private ticking = false;
  /** Until then output is the snapshot's own echo, not progress. */
  private echoUntil = 0;

  constructor(
    private readonly opts: StallWatchdogOptions,
    private readonly onStall: (e: StallEpisode) => Promise<void>,
    private readonly onResume: (e: StallEpisode) => void = () => {},
  ) {}

  get episodeCount(): number {
    return this.episodes;
  }

  async start(): Promise<void> {
    for (const f of this.opts.logFiles) this.logSizes.set(f, await sizeOf(f));
    this.lastProgress = monotonic();
    this.lastProgressWall = Date.now();
    const tick = this.opts.tickMs ?? Math.min(1000, Math.max(50, Math.floor(this.opts.afterMs / 5)));
    this.timer = setInterval(() => void this.tick(), tick);
  }

  /** Output of the command, as it arrives. */
  output(chunk: Buffer, stream: string): void {
    if (!this.opts.progress) return this.progressed();
    if (this.matches(stream, chunk.toString('utf8'))) this.progressed();
  }

  /** Stops looking; resolves once running episodes are done (the exit bundle must come after them). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private matches(key: string, text: string): boolean {
    const re = this.opts.progress!;
    const lines = ((this.carry.get(key) ?? '') + text).split('\n');
    const rest = lines.pop() ?? '';
    this.carry.set(key, rest.length > MAX_LINE_CARRY ? rest.slice(-MAX_LINE_CARRY) : rest);
    return lines.some((l) => {
      re.lastIndex = 0;
      return re.test(l);
    });
  }

  private progressed(): void {
    if (this.inFlight.size || monotonic() < this.echoUntil) return;
    this.lastProgress = monotonic();
    this.lastProgressWall = Date.now();
    if (this.stalled) {
      this.stalled = false;
      this.onResume({ episode: this.episodes, lastProgressAt: new Date(this.lastProgressWall) });
    }
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.checkLogs();
      if (this.stalled || monotonic() - this.lastProgress < this.opts.afterMs) return;
      this.stalled = true;
      const e = { episode: ++this.episodes, lastProgressAt: new Date(this.lastProgressWall) };
      const p = this.onStall(e)
        .catch(() => {})
        .finally(() => {
          this.inFlight.delete(p);
          this.echoUntil = monotonic() + ECHO_MS;
        });
      this.inFlight.add(p);
    } finally {
      this.ticking = false;
    }
  }

  private async checkLogs(): Promise<void> {
    for (const f of this.opts.logFiles) {
      const before = this.logSizes.get(f) ?? 0;
      const now = await sizeOf(f);
      this.logSizes.set(f, now);
      if (now === before) continue;
      if (now < before) {
        // truncated or rotated: new content
        this.progressed();
        continue;
      }
      if (!this.opts.progress) {
        this.progressed();
        continue;
      }
      const from = Math.max(before, now - MAX_LOG_READ);
      if (this.matches(`log:${f}`, await readRange(f, from, now - from))) this.progressed();
    }
  }
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

async function readRange(path: string, from: number, length: number): Promise<string> {
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, from);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}
