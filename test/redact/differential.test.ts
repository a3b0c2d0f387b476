// The prefiltered redactor (the default) against the reference one (every rule over the whole
// text, createRedactor(..., { mode: 'reference' })): byte-identical output, the same count and the
// same harvested values, on real logs (the repo's corpus fixtures, ../shared/corpus, the blind dev
// logs and the shared benchmark's training log when present), on every planted secret shape, and
// on generated text built from secret shapes, key names, separators and noise. Plus the two facts
// the prefilter's skipping rests on, checked directly: the scan finds every occurrence of every
// anchor, and every key name isSecretKey accepts holds a secret word the scan counts.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, isSecretKey } from '../../src/redact/index.js';
import { Prefilter } from '../../src/redact/prefilter.js';
import { PrefilterPlan } from '../../src/redact/pipeline.js';
import { tempDirs } from '../capture/helpers.js';
import { PLANTED, tokenBody } from '../helpers/secrets.js';

const newDir = tempDirs();
const ROOT = resolve(import.meta.dirname, '../..');
const PLANTED_ENV = Object.assign({}, ...PLANTED.map((s) => s.env ?? {})) as Record<string, string>;

function pair(env: Record<string, string> = {}, literals: string[] = []) {
  return { fast: createRedactor(env, literals), ref: createRedactor(env, literals, { mode: 'reference' }) };
}

/** Both redactors on `b`: bytes, harvested values and (for UTF-8 text) text agree. */
function expectSame(b: Buffer, where: string, r = pair()): number {
  const want = r.ref.bytes(b);
  const got = r.fast.bytes(b);
  expect(got.count, where).toBe(want.count);
  if (!got.data.equals(want.data)) expect(got.data.toString('latin1'), where).toBe(want.data.toString('latin1'));
  const [fastFound, refFound] = [new Set<string>(), new Set<string>()];
  expect(r.fast.bytesHarvesting(b, fastFound).data.equals(got.data), where).toBe(true);
  r.ref.bytesHarvesting(b, refFound);
  expect([...fastFound], where).toEqual([...refFound]);
  return want.count;
}

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, keep));
    else if (keep(name)) out.push(p);
  }
  return out;
}

const sharedRoot = [resolve(ROOT, '../shared'), resolve(ROOT, '../../shared')].find((d) => existsSync(join(d, 'corpus', 'manifest.jsonl')));
const blindDev = [process.env.FDIAG_BLIND_DEV, resolve(ROOT, '../../blind/dev')].find((d): d is string => !!d && existsSync(d));

describe('prefiltered = reference on real text', () => {
  it('the repo fixtures (corpus logs, Harbor trials, k8s, H200 bundles)', () => {
    const files = filesUnder(join(ROOT, 'fixtures'), (n) => /\.(log|txt|json|jsonl|yaml|yml|md|out|err)$/.test(n));
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) expectSame(readFileSync(f), f);
  });
  it.runIf(sharedRoot)('../shared/corpus', () => {
    const files = filesUnder(join(sharedRoot!, 'corpus'), () => true);
    expect(files.length).toBeGreaterThan(150);
    for (const f of files) expectSame(readFileSync(f), f);
  });
  it.runIf(blindDev)('the blind dev logs', () => {
    const files = filesUnder(blindDev!, () => true);
    for (const f of files) expectSame(readFileSync(f), f);
  });
  it.runIf(sharedRoot && existsSync(join(sharedRoot ?? '', 'bench', 'make-big-log')))('the shared benchmark training log (2 MiB), with and without planted secrets in it', () => {
    const path = join(newDir(), 'big.log');
    execFileSync(join(sharedRoot!, 'bench', 'make-big-log'), [path, String(2 << 20)]);
    const big = readFileSync(path);
    expectSame(big, 'big log');
    // every planted log line somewhere in it, and the run's env values as literals
    const lines = big.toString('latin1').split('\n');
    PLANTED.forEach((s, i) => {
      if (s.log) lines.splice(Math.floor(((i + 1) * lines.length) / (PLANTED.length + 1)), 0, s.log);
    });
    const planted = Buffer.from(lines.join('\n'), 'latin1');
    expect(expectSame(planted, 'big log with planted secrets', pair(PLANTED_ENV))).toBeGreaterThan(PLANTED.length / 2);
  });
  it('every planted shape: its log line, file, env dump and log name, alone and with the run env', () => {
    for (const s of PLANTED) {
      const texts = [s.log, s.file?.content, s.logName, s.env ? JSON.stringify(s.env, null, 2) : undefined, s.argv?.join(' ')].filter((x): x is string => !!x);
      for (const t of texts) {
        expectSame(Buffer.from(t), s.id);
        expectSame(Buffer.from(t), `${s.id} with env`, pair(s.env ?? {}));
        const r = pair(s.env ?? {});
        expect(r.fast.text(t), s.id).toEqual(r.ref.text(t));
      }
      if (s.argv) {
        const r = pair();
        expect(r.fast.argv(s.argv)).toEqual(r.ref.argv(s.argv));
      }
    }
  });
});

// Generated text: the pieces redaction rules look at, in random order and case.
const SECRET_NAMES = ['api_key', 'apiKey', 'API_KEY', 'WANDB_API_KEY', 'hf_token', 'HF_TOKEN', 'FDIAG_TOKENS', 'fdiag-tokens', 'password', 'DB_PASSWORD', 'passwd', 'REDIS_PASS', 'RAY_REDIS_PWD', 'db_pwd', 'client_secret', 'clientSecret', 'MY_SECRET_X', 'SECRETS', 'credentials', 'GCP_CREDENTIALS', 'GOOGLE_APPLICATION_CREDENTIALS_JSON', 'access_token', 'authToken', 'GITHUB_PAT', 'GITLAB-PAT', 'X_AUTH', 'client-key-data', 'token-data', 'clientKeyData', 'NCCL_IB_SECRET_VALUE', 'aws_secret_access_key', 'AccountKey', 'SharedAccessSignature', 'secret_key', 'privateKey', 'token', 'TOKEN', 'SECRET'];
const HARMLESS_NAMES = ['tokens', 'max_tokens', 'eos_token', 'pad_token', 'tokenizer', 'prompt_key', 'keyboard', 'monkey', 'value', 'data', 'metadata', 'pass_rate', 'bypass', 'author', 'pattern', 'PWD', 'OLDPWD', 'NUM_TOKENS', 'KEYS', 'keys', 'desc'];
const SEPARATORS = [': ', ':', '=', ' = ', '="', "='", '": "', "': '", '"', "'", ' ', '\t', '\n', '\r\n', '\n  ', '\n    ', '\n- ', '- ', '--', '-', ', ', ',\n    ', '{', '}', '[', ']', '{"desc": null, "value": ', '\n  desc: null\n  value: ', '&', '?', '@', '://', ';', '#', '.', '_', '/'];
const VALUES = [
  tokenBody('v1', 24),
  `x${tokenBody('v2', 12)}`,
  'null',
  '${oc.env:WANDB_API_KEY}',
  '[REDACTED]',
  '0.1',
  `sk-proj-${tokenBody('v3', 30)}`,
  `sk-ant-${tokenBody('v4', 20)}`,
  `sk_live_${tokenBody('v5', 20)}`,
  `ghp_${tokenBody('v6', 36)}`,
  `github_pat_${tokenBody('v7', 44)}`,
  `glpat-${tokenBody('v8', 22)}`,
  `hf_${tokenBody('v9', 34)}`,
  `npm_${tokenBody('v10', 36)}`,
  `AKIA${tokenBody('v11', 16).toUpperCase()}`,
  `xoxb-${tokenBody('v12', 20)}`,
  `AIza${tokenBody('v13', 35)}`,
  `eyJ${tokenBody('v14', 12)}.eyJ${tokenBody('v15', 12)}.${tokenBody('v16', 12)}`,
  `https://user:${tokenBody('v17', 12)}@host/x`,
  `redis://:${tokenBody('v18', 12)}@10.0.0.1:6379`,
  `https://hooks.slack.com/services/T0/${tokenBody('v19', 24)}`,
  `https://discord.com/api/webhooks/1/${tokenBody('v20', 24)}`,
  `http://x/?token=${tokenBody('v21', 10)}&page=2`,
  `Authorization: Bearer ${tokenBody('v22', 20)}`,
  `bearer ${tokenBody('v23', 20)}`,
  `mysql -u root -p${tokenBody('v24', 10)}`,
  `machine h login u password ${tokenBody('v25', 10)}`,
  `password ${tokenBody('v26', 10)}`,
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEow' + tokenBody('v27', 40) + '\n-----END RSA PRIVATE KEY-----',
  '-----BEGIN OPENSSH PRIVATE KEY-----\n' + tokenBody('v28', 40),
  tokenBody('v29', 40) + '\n' + tokenBody('v30', 40) + '\n-----END PRIVATE KEY-----',
  '================================',
  '\xff\xfe\xc3\x28',
  '(vLLMHttpServer pid=4410) INFO 21:24:47 [metrics.py:455] Avg prompt throughput: 4463.1 tokens/s, Running: 64 reqs',
  'INFO 10:34:53 httpx: HTTP Request: POST http://gateway:8000/v1/chat/completions "HTTP/1.1 200 OK"',
  'vm:948:948 [0] NCCL INFO Channel 09/0 : 0[0] -> 1[1] via P2P/CUMEM',
];
const flipCase = (s: string, mode: number) => (mode === 1 ? s.toUpperCase() : mode === 2 ? s.toLowerCase() : s);
const piece = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...SECRET_NAMES, ...HARMLESS_NAMES), fc.integer({ min: 0, max: 5 })).map(([s, m]) => flipCase(s, m)) },
  { weight: 4, arbitrary: fc.constantFrom(...SEPARATORS) },
  { weight: 3, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.constantFrom(...PLANTED.flatMap((s) => [s.log, s.file?.content].filter((x): x is string => !!x))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const generated = fc.array(piece, { maxLength: 50 }).map((a) => a.join(''));

describe('prefiltered = reference on generated text', () => {
  it('secret shapes, key names and separators in any order and case', () => {
    const r = pair();
    fc.assert(
      fc.property(generated, (t) => {
        const b = Buffer.from(t, 'latin1');
        expectSame(b, JSON.stringify(t), r);
        expect(r.fast.text(t)).toEqual(r.ref.text(t));
      }),
      { numRuns: 600 },
    );
  });
  it('with literal values of the run (env and harvested), some of them in the text', () => {
    fc.assert(
      fc.property(generated, fc.subarray(VALUES.filter((v) => v.length >= 8)), (t, lits) => {
        expectSame(Buffer.from(t, 'latin1'), JSON.stringify(t), pair(PLANTED_ENV, lits));
      }),
      { numRuns: 200 },
    );
  });
  it('with more literal values than the prefilter hunts one by one (a large harvest)', () => {
    const many = Array.from({ length: 300 }, (_, i) => `lit${tokenBody(`many-${i}`, 14)}`);
    const r = pair({}, many);
    for (const t of [`a ${many[7]} b\n${many[299]}`, 'nothing here', `x${many[150].slice(0, -1)}`]) expectSame(Buffer.from(t), t, r);
    expect(r.fast.text(`a ${many[7]} b`).text).toBe('a [REDACTED] b');
  });
  it('at any byte offset of a larger buffer (views that are not word-aligned)', () => {
    const r = pair();
    fc.assert(
      fc.property(generated, fc.integer({ min: 0, max: 7 }), (t, off) => {
        const whole = Buffer.concat([Buffer.alloc(off, 0x20), Buffer.from(t, 'latin1')]);
        expectSame(whole.subarray(off), JSON.stringify(t), r);
      }),
      { numRuns: 200 },
    );
  });
});

describe('what the prefilter rests on', () => {
  it('the scan finds every occurrence of every anchor, at any offset and case', () => {
    const anchorText = fc.oneof(fc.constantFrom('@', '?', 'key', 'tok', 'PRIVATE KEY', 'ghp_', 'sk-', 'aaa', 'abab'), fc.stringMatching(/^[a-c_@-]{3,8}$/));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(anchorText, fc.boolean()), { minLength: 1, maxLength: 6, selector: ([t, ci]) => `${t}${ci}` }), fc.stringMatching(/^[a-cA-C_@ kKeEyY-]{0,300}$/), fc.integer({ min: 0, max: 3 }), (specs, text, off) => {
        const pf = new Prefilter(specs.map(([t, ci], i) => ({ name: String(i), text: t, ci })));
        const buf = Buffer.concat([Buffer.alloc(off), Buffer.from(text, 'latin1')]).subarray(off);
        const hits = pf.scan(buf);
        specs.forEach(([t, ci], i) => {
          const hay = ci ? text.toLowerCase() : text;
          const needle = ci ? t.toLowerCase() : t;
          const want: number[] = [];
          for (let p = hay.indexOf(needle); p >= 0; p = hay.indexOf(needle, p + 1)) want.push(p);
          expect(hits[i], `${t} ci=${ci} in ${JSON.stringify(text)}`).toEqual(want);
        });
      }),
      { numRuns: 500 },
    );
  });
  it('after a rule edited the text, the anchors found around its edits are those of a whole new scan', () => {
    const plan = new PrefilterPlan([tokenBody('lit', 12)]);
    const chunk = fc.constantFrom('api_key: ', 'token', 'PRIVATE KEY', '@', 'sk-', 'ghp_', 'x', ' ', '\n', 'FDIAG_TOKENS', 'secret', '[REDACTED]', tokenBody('lit', 12));
    const textArb = fc.array(chunk, { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(textArb, fc.array(fc.tuple(fc.nat(), fc.nat({ max: 30 }), fc.array(chunk, { maxLength: 3 }).map((a) => a.join(''))), { maxLength: 5 }), (text, raw) => {
        // non-overlapping edits, ascending, in the old text's offsets
        const edits: [number, number, number][] = [];
        let out = '';
        let last = 0;
        for (const [at, len, repl] of [...raw].sort((a, b) => a[0] - b[0])) {
          const start = text.length ? at % (text.length + 1) : 0;
          if (start < last) continue;
          const end = Math.min(text.length, start + len);
          out += text.slice(last, start) + repl;
          edits.push([start, end, repl.length]);
          last = end;
        }
        out += text.slice(last);
        const before = plan.scan(Buffer.from(text, 'latin1'));
        const again = plan.rescan(before.hits, out, edits);
        const whole = plan.scan(Buffer.from(out, 'latin1'));
        expect(again.hits).toEqual(whole.hits);
        expect(again.secretWords()).toEqual(whole.secretWords());
      }),
      { numRuns: 500 },
    );
  });
  it('every key name isSecretKey accepts holds a secret word the scan counts, whatever follows it', () => {
    const part = fc.constantFrom('api', 'API', 'key', 'Key', 'KEY', 'keys', 'KEYS', 'data', 'Data', '_', '-', '.', 'token', 'Token', 'TOKEN', 's', 'S', 'secret', 'Secret', 'SECRET', 'pass', 'PASS', 'word', 'WORD', 'wd', 'WD', 'pwd', 'PWD', 'Pwd', 'credential', 'CREDENTIAL', 'auth', 'AUTH', 'pat', 'PAT', 'client', 'CLIENT', 'access', 'ACCESS', 'private', 'PRIVATE', 'account', 'shared', 'fdiag', 'FDIAG', 'hf', 'HF', 'wandb', 'WANDB', 'bearer', 'refresh', 'session', 'x', 'X', '1', '\xdf', 'ACCE\xdf');
    const plan = new PrefilterPlan([]);
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 7 }), fc.constantFrom('', ':', '=', '"', "'", ' ', '\n', '\t'), fc.constantFrom('', '--', '"', ' '), (parts, after, before) => {
        const key = parts.join('');
        fc.pre(isSecretKey(key));
        const text = `x ${before}${key}${after}`;
        const start = 2 + before.length;
        const words = plan.scan(Buffer.from(text, 'latin1')).secretWords();
        expect(words.some((p) => p >= start && p < start + key.length), `${key} in ${JSON.stringify(text)}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
