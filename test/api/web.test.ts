// The web UI over HTTP: login cookie, what the cookie may and may not do, escaping of hostile text,
// filters, failure detail (evidence, exception, GPU memory per rank, Pods, checkpoint), files, report.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importJob } from '../../src/harbor/import.js';
import { scanJob } from '../../src/harbor/job.js';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { inspectCheckpointDir } from '../../src/capture/collectors/checkpoint.js';
import { podOut } from '../../src/capture/k8s/pods.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { ROOT } from '../helpers/server.js';
import { HOSTILE_LOG } from '../archive/seed.js';
import { rawRows, storageFor } from '../helpers/backends.js';

const T = { read: 'read-token-w1-01', ingest: 'ingest-token-w1-', admin: 'admin-token-w1-0' };
let srv: RunningServer;
let cookie: string;
const ids: Record<string, string> = {};
let podName = '';
let container = { name: '', restartCount: 0 };

async function ingest(path: string): Promise<string> {
  const r = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${T.ingest}` }, body: readFileSync(path) });
  const j = await r.json();
  expect([200, 201], JSON.stringify(j)).toContain(r.status);
  return j.id;
}
const page = (p: string, c: string | null = cookie, extra: Record<string, string> = {}) => fetch(`${srv.url}${p}`, { headers: { ...(c ? { cookie: c } : {}), ...extra }, redirect: 'manual' });
const login = (token: string, headers: Record<string, string> = {}) =>
  fetch(`${srv.url}/ui/login`, { method: 'POST', body: new URLSearchParams({ token }), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, redirect: 'manual' });

beforeAll(async () => {
  const d = tempDir('fdiag-web-');
  srv = await startServer({ ...storageFor(d, join(d, 'db')), dataDir: d, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${T.read}:read,${T.ingest}:ingest,${T.admin}:admin` } });
  // A verl-style checkpoint folder whose newest step is half written, read by the real collector code.
  const ck = join(d, 'ckpt');
  mkdirSync(join(ck, 'global_step_100', 'actor', 'huggingface'), { recursive: true });
  mkdirSync(join(ck, 'global_step_200', 'actor'), { recursive: true });
  writeFileSync(join(ck, 'latest_checkpointed_iteration.txt'), '100');
  for (const r of [0, 1]) writeFileSync(join(ck, 'global_step_100', 'actor', `model_world_size_2_rank_${r}.pt`), 'x');
  writeFileSync(join(ck, 'global_step_100', 'actor', 'fsdp_config.json'), '{}');
  writeFileSync(join(ck, 'global_step_100', 'data.pt'), 'x');
  writeFileSync(join(ck, 'global_step_100', 'actor', 'huggingface', 'config.json'), '{}');
  writeFileSync(join(ck, 'global_step_200', 'actor', 'model_world_size_2_rank_0.pt'), 'x');
  const checkpoint = await inspectCheckpointDir(ck, new AbortController().signal);
  const pod = podOut(JSON.parse(readFileSync(join(ROOT, 'fixtures', 'k8s', 'pod-oomkilled.json'), 'utf8')), [], null);
  podName = `${pod.namespace}/${pod.name}`;
  container = pod.containers[0]!;
  const pods = { namespace: pod.namespace, selector: 'app=trainer', collectedAt: '2026-11-20T10:00:00Z', context: null, server: null, pods: [pod] };
  const hostile = await makeBundle({
    runId: 'debug-<img src=x onerror=alert(1)>',
    endedAt: new Date('2026-11-20T10:00:00Z'),
    labels: { team: '"><script>alert(2)</script>' },
    files: [
      { path: 'logs/stdout.log', data: HOSTILE_LOG },
      { path: 'logs/<b>odd name</b>.log', data: '</pre><script>alert(3)</script>\n' },
      { path: 'k8s/pods.json', data: JSON.stringify(pods) },
      { path: 'checkpoint.json', data: JSON.stringify(checkpoint) },
      // Hydra's .hydra/overrides.yaml: the command-line overrides, a YAML list of strings.
      { path: 'config/hydra/overrides.yaml', data: '- trainer.total_epochs=3\n- data.train_batch_size=256\n- "+tag=<script>alert(5)</script>"\n' },
      { path: 'exceptions.json', data: JSON.stringify([{ type: 'KeyError', message: '<script>alert(4)</script>', source: { file: 'logs/stdout.log', line: 7 }, traceback: 'Traceback (most recent call last):\n  File "/work/train.py", line 9, in main\nKeyError: x' }]) },
    ],
  });
  ids.hostile = await ingest(hostile.path);
  ids.disk = await ingest((await makeBundle({ runId: 'sft-9', log: corpusLog('cl-010.log'), endedAt: new Date('2026-11-19T10:00:00Z') })).path);
  ids.h200 = await ingest(join(ROOT, 'fixtures', 'h200', 'bundles', 'fdiag-h200-oom-live-20261130T045842Z.tar.gz'));
  const r = await login(T.read);
  cookie = r.headers.get('set-cookie')!.split(';')[0]!;
});
afterAll(async () => {
  await srv.close();
});

describe('login and the session cookie', () => {
  it('redirects / to /ui and /ui to the login page without a session', async () => {
    const root = await page('/', null);
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/ui');
    const ui = await page('/ui', null);
    expect(ui.status).toBe(302);
    expect(ui.headers.get('location')).toBe('/ui/login');
    const form = await page('/ui/login', null);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="token"');
  });

  it('sets an HttpOnly SameSite=Strict cookie for a token with read, refuses others', async () => {
    const ok = await login(T.read);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/ui');
    const sc = ok.headers.get('set-cookie')!;
    expect(sc).toMatch(/HttpOnly/i);
    expect(sc).toMatch(/SameSite=Strict/i);
    expect(sc).toMatch(/Path=\/ui/);
    // (issue 10) the cookie is a server-side session id, never the API token itself
    expect(sc).not.toContain(T.read);
    expect(sc).not.toMatch(/Secure/i); // plain http here; see below for TLS
    for (const bad of ['wrong-token-123', T.ingest, '']) {
      const r = await login(bad);
      expect(r.status).toBe(303);
      expect(r.headers.get('location')).toBe('/ui/login?error=1');
      expect(r.headers.get('set-cookie')).toBeNull();
    }
    expect((await page('/ui', 'fdiag_ui=wrong-token-123')).status).toBe(302);
    // the raw token in the cookie opens nothing
    expect((await page('/ui', `fdiag_ui=${T.read}`)).status).toBe(302);
  });

  it('behind a TLS proxy (X-Forwarded-Proto: https) the cookie is Secure', async () => {
    const r = await login(T.read, { 'x-forwarded-proto': 'https' });
    expect(r.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
  });

  it('refuses a cross-site login or logout form post', async () => {
    expect((await login(T.read, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await login(T.read, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await login(T.read, { origin: srv.url })).status).toBe(303);
    // a session of its own: logout revokes it, and the shared one serves the other tests
    const mine = (await login(T.read)).headers.get('set-cookie')!.split(';')[0]!;
    const out = await fetch(`${srv.url}/ui/logout`, { method: 'POST', headers: { cookie: mine, origin: 'http://evil.example' }, redirect: 'manual' });
    expect(out.status).toBe(403);
    expect((await page('/ui', mine)).status).toBe(200);
    const own = await fetch(`${srv.url}/ui/logout`, { method: 'POST', headers: { cookie: mine, origin: srv.url }, redirect: 'manual' });
    expect(own.status).toBe(303);
    expect(own.headers.get('set-cookie')).toMatch(/fdiag_ui=;.*Max-Age=0/i);
    // (issue 10) logout revokes the session server-side: a copy of the old cookie opens nothing
    expect((await page('/ui', mine)).status).toBe(302);
  });

  it('the cookie opens GET pages under /ui only: never the API, never a write', async () => {
    expect((await page('/ui')).status).toBe(200);
    expect((await page('/v1/failures')).status).toBe(401);
    expect((await page('/metrics')).status).toBe(401);
    expect((await page(`/v1/failures/${ids.disk}/files/logs/stdout.log`)).status).toBe(401);
    const gid = (await srv.archive.get(ids.disk))!.groupId!;
    const admin = (await login(T.admin)).headers.get('set-cookie')!.split(';')[0]!;
    const p = await fetch(`${srv.url}/v1/groups/${gid}`, { method: 'PATCH', headers: { cookie: admin, 'content-type': 'application/json' }, body: '{"status":"resolved"}' });
    expect(p.status).toBe(401);
    const post = await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { cookie: admin }, body: 'x' });
    expect(post.status).toBe(401);
    expect((await srv.archive.get(ids.disk))!.groupId).toBe(gid);
    // A bearer token still works for the pages (scripts, curl).
    expect((await page('/ui', null, { authorization: `Bearer ${T.read}` })).status).toBe(200);
    expect((await page('/ui', null, { authorization: `Bearer ${T.ingest}` })).status).toBe(403);
  });
});

describe('triage from the group page', () => {
  const post = (gid: string, status: string, c: string | null, headers: Record<string, string> = {}) =>
    fetch(`${srv.url}/ui/groups/${gid}/status`, { method: 'POST', body: new URLSearchParams({ status }), headers: { 'content-type': 'application/x-www-form-urlencoded', ...(c ? { cookie: c } : {}), ...headers }, redirect: 'manual' });

  it('an admin session sets the status with a same-origin form; read, cross-site and anonymous posts change nothing', async () => {
    const gid = (await srv.archive.get(ids.disk))!.groupId!;
    const statusOf = async () => (await rawRows<{ status: string }>(srv.archive, 'SELECT status FROM failure_groups WHERE id = ?', [gid]))[0]?.status;
    const admin = (await login(T.admin)).headers.get('set-cookie')!.split(';')[0]!;
    expect(await (await page(`/ui/groups/${gid}`, admin)).text()).toContain('id="group-status"');
    expect(await (await page(`/ui/groups/${gid}`)).text()).not.toContain('id="group-status"');

    expect((await post(gid, 'resolved', cookie, { origin: srv.url })).status).toBe(403); // read session
    expect((await post(gid, 'resolved', admin, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(gid, 'resolved', admin, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post(gid, 'resolved', admin, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await post(gid, 'resolved', null, { origin: srv.url })).status).toBe(302);
    expect((await post(gid, 'regressed', admin, { origin: srv.url })).status).toBe(400);
    expect(await statusOf()).toBe('new');

    const ok = await post(gid, 'resolved', admin, { origin: srv.url, 'sec-fetch-site': 'same-origin' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`/ui/groups/${gid}`);
    expect(await statusOf()).toBe('resolved');
    expect((await post(gid, 'ongoing', admin, { origin: srv.url })).status).toBe(303);
    expect(await statusOf()).toBe('ongoing');
  });
});

describe('pages', () => {
  it('lists failures with filters and strict headers', async () => {
    const r = await page('/ui');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    const html = await r.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain(ids.disk);
    expect(html).toContain(ids.hostile);
    const disk = await (await page('/ui?class=disk.full')).text();
    expect(disk).toContain(ids.disk);
    expect(disk).not.toContain(ids.hostile);
    expect(await (await page('/ui?category=user')).text()).not.toContain(ids.disk);
    expect(await (await page('/ui?runId=sft-9')).text()).toContain(ids.disk);
    const old = await (await page('/ui?until=2026-11-19T12:00:00Z')).text();
    expect(old).toContain(ids.disk);
    expect(old).not.toContain(ids.hostile);
    expect((await page('/ui?since=whenever')).status).toBe(400);
    expect((await page('/ui?category=bogus')).status).toBe(400);
  });

  it('never lets hostile log text, file names, run ids or labels become markup', async () => {
    for (const p of ['/ui', `/ui/failures/${ids.hostile}`, `/ui/failures/${ids.hostile}/files/logs/stdout.log`, `/ui/failures/${ids.hostile}/files/logs/%3Cb%3Eodd%20name%3C%2Fb%3E.log`, '/ui/groups', '/ui/report?week=2026-W47']) {
      const r = await page(p);
      expect(r.status, p).toBe(200);
      const html = await r.text();
      expect(html, p).not.toMatch(/<script|<img|<\/pre><script/i);
    }
    const detail = await (await page(`/ui/failures/${ids.hostile}`)).text();
    expect(detail).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(detail).toContain('debug-&lt;img src=x onerror=alert(1)&gt;');
    const file = await (await page(`/ui/failures/${ids.hostile}/files/logs/%3Cb%3Eodd%20name%3C%2Fb%3E.log`)).text();
    expect(file).toContain('&lt;/pre&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
  });

  it('shows a failure: evidence, exception, Pods, checkpoint state and readable files', async () => {
    const html = await (await page(`/ui/failures/${ids.hostile}`)).text();
    expect(html).toContain('id="evidence"');
    expect(html).toContain('logs/stdout.log:7');
    expect(html).toContain('KeyError');
    expect(html).toContain('<h2>Exception</h2>');
    expect(html).toContain('<h2>Pods</h2>');
    // The fixture Pod was OOMKilled and restarted: its last state says so.
    expect(html).toContain(podName);
    expect(html).toContain(`${container.name}: running, last terminated (OOMKilled) restarts ${container.restartCount}`);
    expect(html).toContain('<h2>Checkpoint</h2>');
    expect(html).toMatch(/latest complete 100 · latest step 200/);
    expect(html).toContain('step 200 is above the tracker value 100');
    expect(html).toContain(`/ui/failures/${ids.hostile}/files/checkpoint.json`);
    const f = await (await page(`/ui/failures/${ids.hostile}/files/logs/stdout.log`)).text();
    expect(f).toContain('<span id="L2" class="line"><a class="ln" href="#L2">2</a>Traceback (most recent call last):');
    // The line the diagnosis cites is highlighted in the file view.
    expect(f).toMatch(/<span id="L7" class="line hl"><a class="ln" href="#L7">7<\/a>KeyError/);
    expect((await page(`/ui/failures/${ids.hostile}/files/..%2F..%2Ffdiag.db`)).status).toBe(404);
    expect((await page(`/ui/failures/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await page('/ui/failures/nope')).status).toBe(404);
  });

  it('shows the Hydra overrides inline, each as text', async () => {
    const html = await (await page(`/ui/failures/${ids.hostile}`)).text();
    expect(html).toContain('<h2>Hydra overrides</h2>');
    expect(html).toContain('<code class="chip">trainer.total_epochs=3</code><code class="chip">data.train_batch_size=256</code><code class="chip">+tag=&lt;script&gt;alert(5)&lt;/script&gt;</code>');
  });

  it('lists Harbor trials by trial name with the hint, scored trials apart from failures', async () => {
    const job = join(ROOT, 'fixtures', 'harbor', 'h13-infra');
    const tmp = tempDir('fdiag-web-harbor-');
    const scan = await scanJob(job);
    const rows = await importJob(scan, srv.archive, tmp, {});
    const scored = rows.filter((r) => r.class === 'outcome.scored');
    const failed = rows.filter((r) => r.class && r.class !== 'outcome.scored');
    expect(scored.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    const html = await (await page(`/ui?runId=${encodeURIComponent(scan.name)}`)).text();
    const [failuresPart, scoredPart] = html.split('<h2>Scored trials</h2>');
    expect(scoredPart, 'a Scored trials table').toBeDefined();
    for (const r of scored) {
      expect(scoredPart).toContain(`>${r.trial}</a>`);
      expect(failuresPart).not.toContain(`>${r.trial}</a>`);
    }
    for (const r of failed) expect(failuresPart).toContain(`>${r.trial}</a>`);
    // The message / hint column carries the first sentence of each failure's hint.
    const f = (await srv.archive.get(failed[0]!.id!))!;
    expect(failuresPart).toContain(f.hint.split(/(?<=[.!?])\s/)[0]!.slice(0, 60));
  });

  it('shows per-rank GPU memory from a real H200 bundle', async () => {
    const html = await (await page(`/ui/failures/${ids.h200}`)).text();
    expect(html).toContain('<h2>GPU memory by rank</h2>');
    // Rank 1 held 62892 MiB (61.4 GiB) of GPU 1's 62901 MiB in use when the agent looked.
    expect(html).toMatch(/<tr><td>1<\/td><td class="mono">1<\/td><td class="n">61\.4 GiB<\/td><td class="n">61\.4 GiB \/ 140\.4 GiB<\/td>/);
  });

  it('shows groups, a group, and the weekly report with its chart', async () => {
    const gid = (await srv.archive.get(ids.disk))!.groupId!;
    const groups = await (await page('/ui/groups')).text();
    expect(groups).toContain(`/ui/groups/${gid}`);
    const g = await (await page(`/ui/groups/${gid}`)).text();
    expect(g).toContain('No space left on device');
    expect(g).toContain(ids.disk);
    const rep = await page('/ui/report?week=2026-W47');
    const html = await rep.text();
    expect(html).toContain('Weekly report 2026-W47');
    expect(html).toMatch(/<svg[^>]*aria-label="Failures per class per week"/);
    expect((html.match(/<rect /g) ?? []).length).toBeGreaterThan(1);
    expect(html).toContain('W47');
    expect((await page('/ui/report?week=2026-99')).status).toBe(400);
    // The report's export links work with the page's cookie.
    expect(html).toContain('/ui/report/export?week=2026-W47&amp;format=csv');
    const csv = await page('/ui/report/export?week=2026-W47&format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="fdiag-triage-2026-W47.csv"');
    expect(await csv.text()).toMatch(/^week,section,key/);
    expect((await page('/ui/report/export?week=2026-W47&format=exe')).status).toBe(400);
    expect((await page('/ui/report/export?week=2026-W47&format=md', null)).status).toBe(302);
    expect((await page('/ui/groups/zzz')).status).toBe(404);
  });

  it('serves the stylesheet without a session and nothing from a CDN', async () => {
    const css = await page('/ui/static/app.css', null);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const html = await (await page('/ui')).text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});
