// The failure page in a real headless Chromium (Debian's chromium via playwright-core, as
// e2e.test.ts), on bundles the agent captured on a real 2×H200 machine (fixtures/h200): the root
// exception before torchrun's wrapper, the per-rank view with each rank's own OOM figures when the
// workers were gone, the processes still holding GPU memory, the cited line highlighted in the
// file view, the bundle download; plus a leftover `vllm serve` found by a real capture here, and
// the phone layout. Screenshots go to test-artifacts/ (gitignored).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';
import { CLI, ROOT, spawnServer, waitExit } from '../helpers/server.js';

const CHROMIUM = process.env.FDIAG_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TOKEN = 'failure-page-admin-1';
const ARTIFACTS = join(ROOT, 'test-artifacts');
const H200 = join(ROOT, 'fixtures', 'h200', 'bundles');
const OOM = readFileSync(join(H200, 'fdiag-h200-oom-20261130T045844Z.tar.gz'));
const LIVE = readFileSync(join(H200, 'fdiag-h200-oom-live-20261130T045842Z.tar.gz'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: Awaited<ReturnType<typeof spawnServer>>;
let browser: Browser;
let vllm: ChildProcess;
let vllmId: string;

async function loggedIn(viewport = { width: 1280, height: 900 }): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(`${server.url}/ui/login`);
  await page.fill('#token', TOKEN);
  await Promise.all([page.waitForURL(`${server.url}/ui`), page.click('button[type=submit]')]);
  await page.close();
  return context;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM}: run \`bash scripts/install-system-deps.sh\` as root (CI does), or set FDIAG_CHROMIUM`);
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await spawnServer(tempDir('fdiag-fp-'), { FDIAG_TOKENS: `${TOKEN}:admin` });
  for (const b of [OOM, LIVE]) {
    const r = await fetch(`${server.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: new Uint8Array(b) });
    expect(r.status).toBe(201);
  }
  // A vLLM server some earlier job left running (started outside the run, so not its descendant),
  // then a run that fails beside it, captured by the real agent and uploaded.
  vllm = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)', 'vllm', 'serve', 'Qwen/Qwen2.5-7B-Instruct', '--port', '8011'], { stdio: 'ignore' });
  const cwd = tempDir('fdiag-fp-run-');
  const cap = spawnSync(process.execPath, [CLI, 'capture', '--run-id', 'beside-vllm', '--server', server.url, '--token', TOKEN, '--spool', join(cwd, 'spool'), '--', 'sh', '-c', 'echo "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB." >&2; exit 1'], { cwd, encoding: 'utf8', env: { ...process.env, FDIAG_SERVER: '' } });
  expect(cap.status, cap.stderr).toBe(1);
  vllmId = /\/ui\/failures\/([0-9a-f]{64})/.exec(cap.stderr)![1]!;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
});

afterAll(async () => {
  await browser?.close();
  vllm?.kill('SIGKILL');
  if (server) {
    server.proc.kill('SIGTERM');
    await waitExit(server.proc);
  }
});

describe('the failure page in Chromium, on real H200 bundles', () => {
  it('torchrun OOM: root exception first, the failing rank with its own OOM figures, the cited line highlighted, the bundle', async () => {
    const context = await loggedIn();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/ui/failures/${sha(OOM)}`);

    expect(await page.textContent('#failure-class')).toBe('cuda.oom');
    const exceptions = await page.locator('#exceptions .exc b').allTextContents();
    expect(exceptions[0]).toBe('torch.OutOfMemoryError');
    expect(exceptions.slice(1).every((t) => /ChildFailedError$/.test(t))).toBe(true);

    // Rank 1 failed first on GPU 1; its workers were gone, so the row carries its own message's figures.
    expect(await page.textContent('#first-failing-rank')).toContain('Rank 1 failed first (GPU 1)');
    expect(await page.isVisible('#workers-gone')).toBe(true);
    const failing = page.locator('#ranks tr.failing');
    expect(await failing.count()).toBe(1);
    const cells = await failing.locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual(['1 failed first', '1', 'gone']);
    expect(cells.slice(4, 9)).toEqual(['20.0 GiB', '18.4 GiB', '120.0 GiB', '121.4 GiB', '139.8 GiB']);

    // The log lines before the failure, the failure's own line marked.
    expect(await page.textContent('#log-excerpt .line.hl')).toContain('torch.OutOfMemoryError: CUDA out of memory');
    await page.screenshot({ path: join(ARTIFACTS, 'failure-page-h200-oom.png'), fullPage: true });

    // The evidence link opens the file at its line: numbered, highlighted, and the #L anchor targeted.
    const evidenceLink = page.locator('#evidence a').first();
    expect(await evidenceLink.textContent()).toBe('logs/stderr.log:9');
    await Promise.all([page.waitForURL(/\/files\/logs\/stderr\.log#L9$/), evidenceLink.click()]);
    const line = page.locator('#L9');
    expect(await line.getAttribute('class')).toBe('line hl');
    expect(await line.locator('a.ln').textContent()).toBe('9');
    expect(await line.evaluate((el) => el.matches(':target'))).toBe(true);
    expect(await line.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 210, 122)');
    expect(await page.locator('#L8').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
    await line.screenshot({ path: join(ARTIFACTS, 'failure-file-evidence-line.png') });

    // The download link gives the bundle byte for byte.
    await page.goBack();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#bundle-download')]);
    expect(download.suggestedFilename()).toBe(`fdiag-h200-oom-${sha(OOM).slice(0, 12)}.tar.gz`);
    expect(sha(readFileSync((await download.path())!))).toBe(sha(OOM));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows what was still running inline: the live ranks holding GPU memory, and a leftover vllm serve', async () => {
    const context = await loggedIn();
    const page = await context.newPage();
    // Trap-mode capture while rank 1 held its 60 GiB: the workers are in processes.json with their GPU memory.
    await page.goto(`${server.url}/ui/failures/${sha(LIVE)}`);
    const rows = page.locator('#leftovers tbody tr');
    const byPid = async (pid: number) => (await rows.filter({ has: page.locator(`td:first-child:text-is("${pid}")`) }).locator('td').allTextContents());
    const r699 = await byPid(699);
    expect(r699.slice(2, 4)).toEqual(['1', '61.4 GiB on GPU 1']);
    expect(r699[5]).toContain('oom.py');
    expect((await byPid(698)).slice(2, 4)).toEqual(['0', '3500 MiB on GPU 0']);
    const rank1 = await page.locator('#ranks tbody tr').nth(1).locator('td').allTextContents();
    expect(rank1.slice(0, 4)).toEqual(['1', '1', '61.4 GiB', '61.4 GiB / 140.4 GiB']);
    await page.screenshot({ path: join(ARTIFACTS, 'failure-page-h200-live.png'), fullPage: true });

    await page.goto(`${server.url}/ui/failures/${vllmId}`);
    // Found by its pid: the same file runs in the postgres project at the same time, whose own
    // `vllm serve` stand-in is a leftover on this host too.
    const leftover = page.locator('#leftovers tr.leftover', { hasText: 'vllm serve Qwen/Qwen2.5-7B-Instruct', has: page.locator(`td:first-child:text-is("${vllm.pid}")`) });
    expect(await leftover.count()).toBe(1);
    const cells = await leftover.locator('td').allTextContents();
    expect(cells[0]).toBe(String(vllm.pid));
    expect(cells[1]).toBe('leftover vllm serve');
    // Listed before the run's own processes: what holds a GPU for the next run comes first.
    expect(await page.locator('#leftovers tbody tr').first().textContent()).toContain('leftover');
    await page.screenshot({ path: join(ARTIFACTS, 'failure-page-leftover-vllm.png'), fullPage: true });
    await context.close();
  });

  it('fits a phone screen, and a bad filter keeps the form to fix in place', async () => {
    const context = await loggedIn({ width: 390, height: 844 });
    const page = await context.newPage();
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const group = (await (await fetch(`${server.url}/v1/failures/${sha(OOM)}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()).groupId as string;
    for (const path of ['/ui', `/ui/failures/${sha(OOM)}`, `/ui/failures/${sha(OOM)}/files/logs/stderr.log`, '/ui/groups', `/ui/groups/${group}`]) {
      await page.goto(`${server.url}${path}`);
      expect(await overflow(), path).toBeLessThanOrEqual(0);
    }
    await page.goto(`${server.url}/ui/failures/${sha(OOM)}`);
    await page.screenshot({ path: join(ARTIFACTS, 'failure-page-phone.png'), fullPage: true });
    // The group's TRIAGE select shows its real status: `new` (not settable) as the current value, not "resolved".
    await page.goto(`${server.url}/ui/groups/${group}`);
    expect(await page.locator('#group-status select option:checked').textContent()).toBe('new (current)');
    expect(await page.inputValue('#group-status select')).toBe('');

    await page.goto(`${server.url}/ui`);
    await page.fill('#f-since', 'whenever');
    await page.selectOption('#f-category', 'infra');
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().includes('since=whenever')), page.click('#f-apply')]);
    expect(res.status()).toBe(400);
    expect(await page.textContent('#filter-error')).toMatch(/since: not a time/);
    expect(await page.inputValue('#f-since')).toBe('whenever');
    expect(await page.inputValue('#f-category')).toBe('infra');
    await page.fill('#f-since', '3650d');
    await Promise.all([page.waitForURL(/since=3650d/), page.click('#f-apply')]);
    expect(await page.locator('#filter-error').count()).toBe(0);
    expect(await page.locator('#failures tbody tr').count()).toBeGreaterThan(0);
    await context.close();
  });
});
