import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/server.js';
import { corpusLog, makeBundle, tempDir } from '../helpers/bundles.js';
import { rawRows, storageFor } from '../helpers/backends.js';

const T = { read: 'read-token-m1-01', ingest: 'ingest-token-m1-' };
let srv: RunningServer;
const scrape = async (t: string | null = T.read) => fetch(`${srv.url}/metrics`, { headers: t ? { authorization: `Bearer ${t}` } : {} });

/** Parses the exposition text into samples; throws on a line that is not valid text format. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const t = /^# TYPE (\w+) (counter|gauge|histogram)$/.exec(line);
    if (t) {
      types.set(t[1]!, t[2]!);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(?:[a-zA-Z_]\w*="(?:[^"\\\n]|\\.)*",?)*\})? (-?[\d.e+-]+|[+-]?Inf|NaN|Nan)$/.exec(line); // Prometheus reads floats as Go's ParseFloat: NaN in any case
    if (!m) throw new Error(`bad exposition line: ${line}`);
    const family = m[1]!.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(m[1]!) && !types.has(family)) throw new Error(`sample before its TYPE: ${line}`);
    out.set(m[1]! + (m[2] ?? ''), Number(m[3]));
  }
  return out;
}

beforeAll(async () => {
  const d = tempDir('fdiag-api-metrics-');
  srv = await startServer({ ...storageFor(d, join(d, 'db')), dataDir: d, port: 0, host: '127.0.0.1', env: { FDIAG_TOKENS: `${T.read}:read,${T.ingest}:ingest` } });
});
afterAll(async () => {
  await srv.close();
});

describe('GET /metrics', () => {
  it('counts failures by class/category, bundle bytes, groups by status, and times ingests', async () => {
    const before = parse(await (await scrape()).text());
    expect(before.get('fdiag_ingest_duration_seconds_count')).toBe(0);
    let bytes = 0;
    for (const [i, f] of ['gpu-005.log', 'cl-010.log', 'cl-011.log'].entries()) {
      const b = await makeBundle({ runId: `m${i}`, log: corpusLog(f) });
      const body = readFileSync(b.path);
      bytes += body.length;
      expect((await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${T.ingest}` }, body })).status).toBe(201);
    }
    // A duplicate and a rejected body are timed too.
    const dup = readFileSync((await makeBundle({ runId: 'm0', log: 'x' })).path);
    await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${T.ingest}` }, body: dup });
    await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${T.ingest}` }, body: dup });
    await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${T.ingest}` }, body: Buffer.from('garbage') });

    const r = await scrape();
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = parse(await r.text());
    expect(m.get('fdiag_failures_total{class="nccl.timeout",category="infra",kind="run"}')).toBe(1);
    expect(m.get('fdiag_failures_total{class="disk.full",category="infra",kind="run"}')).toBe(2);
    expect(m.get('fdiag_failures_by_category_total{category="infra"}')).toBe(3);
    expect(m.get('fdiag_bundles')).toBe(4);
    expect(m.get('fdiag_bundle_bytes')).toBe(Number((await rawRows<{ b: number }>(srv.archive, 'SELECT sum(blob_bytes) AS b FROM failures'))[0]!.b));
    expect(m.get('fdiag_groups{status="new"}')).toBe(Number((await rawRows<{ n: number }>(srv.archive, 'SELECT count(*) AS n FROM failure_groups'))[0]!.n));
    expect(m.get('fdiag_ingest_duration_seconds_count')).toBe(6);
    expect(m.get('fdiag_ingest_duration_seconds_bucket{le="+Inf"}')).toBe(6);
    expect(m.get('fdiag_ingest_requests_total{code="201"}')).toBe(5); // 4 new + 1 duplicate (201 with duplicate: true)
    expect(m.get('fdiag_ingest_requests_total{code="200"}')).toBeUndefined();
    expect(m.get('fdiag_ingest_requests_total{code="400"}')).toBe(1);
    expect(m.get('fdiag_ingest_duration_seconds_sum')).toBeGreaterThan(0);
    // Buckets are cumulative.
    const buckets = [...m].filter(([k]) => k.startsWith('fdiag_ingest_duration_seconds_bucket')).map(([, v]) => v);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(m.get('fdiag_ingest_received_bytes_total')).toBeGreaterThanOrEqual(bytes);
  });

  it('counts category `unknown` as the API filters it, and serves prom-client\'s process metrics', async () => {
    const b = await makeBundle({ runId: 'm-unknown', log: 'step 1 done\nbye\n' });
    const posted = await (await fetch(`${srv.url}/v1/bundles`, { method: 'POST', headers: { authorization: `Bearer ${T.ingest}` }, body: readFileSync(b.path) })).json();
    expect(posted.category).toBeNull();
    const text = await (await scrape()).text();
    const m = parse(text.split('\n').filter((l) => l.startsWith('fdiag_') || /^# (HELP|TYPE) fdiag_/.test(l)).join('\n'));
    const listed = await (await fetch(`${srv.url}/v1/failures?category=unknown&limit=500`, { headers: { authorization: `Bearer ${T.read}` } })).json();
    const classes = await (await fetch(`${srv.url}/v1/classes`, { headers: { authorization: `Bearer ${T.read}` } })).json();
    expect(m.get('fdiag_failures_by_category_total{category="unknown"}')).toBe(listed.items.length);
    expect(classes.categories.unknown).toBe(listed.items.length);
    expect(listed.items.length).toBeGreaterThan(0);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('needs the read scope unless FDIAG_METRICS_PUBLIC=1', async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape(T.ingest)).status).toBe(403);
    process.env.FDIAG_METRICS_PUBLIC = '1';
    try {
      expect((await scrape(null)).status).toBe(200);
    } finally {
      delete process.env.FDIAG_METRICS_PUBLIC;
    }
    expect((await scrape(null)).status).toBe(401);
  });
});
