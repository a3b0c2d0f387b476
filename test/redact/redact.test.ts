import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HeadTailBuffer, readHeadTail } from '../../src/capture/bounded.js';
import { createRedactor, isSecretKey, REDACTED, redactValue } from '../../src/redact/index.js';
import { tempDirs } from '../capture/helpers.js';
import { PLANTED } from '../helpers/secrets.js';

const newDir = tempDirs();

const r = createRedactor({});
const red = (s: string) => r.text(s).text;

describe('isSecretKey', () => {
  it('env-style names', () => {
    for (const k of ['WANDB_API_KEY', 'OPENAI_API_KEY', 'HF_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'MY_PASSWORD_FILE_X', 'GCP_CREDENTIALS', 'SOME_SECRET']) expect(isSecretKey(k), k).toBe(true);
    for (const k of ['NCCL_DEBUG', 'WANDB_PROJECT', 'MAX_TOKENS', 'RANK', 'CUDA_VISIBLE_DEVICES', 'PAD_TOKEN', 'PWD', 'OLDPWD']) expect(isSecretKey(k), k).toBe(false);
  });
  it('config-style names keep ML keys that only look like secrets', () => {
    for (const k of ['api_key', 'apiKey', 'password', 'token', 'hf_token', 'client_secret', 'wandb.api_key', '--api-key', 'access_token']) expect(isSecretKey(k), k).toBe(true);
    for (const k of ['prompt_key', 'reward_fn_key', 'eos_token', 'pad_token', 'max_new_tokens', 'tokenizer', 'image_key', 'num_tokens']) expect(isSecretKey(k), k).toBe(false);
  });
});

describe('redactor', () => {
  it('token shapes anywhere in text', () => {
    const cases = [
      'sk-ant-api03-AbCdEfGhIjKlMnOp_qrstuv-wxyz',
      'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx',
      'sk-AbCdEfGhIjKlMnOpQrStUvWx12',
      'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
      'ghp_0123456789abcdefghijABCDEFGHIJklmnop',
      'gho_0123456789abcdefghijABCDEFGHIJklmnop',
      'github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN',
      'AKIAIOSFODNN7EXAMPLE',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    ];
    for (const c of cases) {
      const out = r.text(`before ${c} after`);
      expect(out.text, c).toBe(`before ${REDACTED} after`);
      expect(out.count).toBe(1);
    }
  });
  it('headers, bearer tokens, URLs and query strings', () => {
    expect(red('Authorization: Bearer abcdefghijklmnop123')).toBe('Authorization: Bearer [REDACTED]');
    expect(red('curl -H "authorization: Basic dXNlcjpwYXNz"')).toBe('curl -H "authorization: Basic [REDACTED]"');
    expect(red('got bearer abcdefghijklmnop123 back')).toBe('got bearer [REDACTED] back');
    expect(red('postgres://admin:s3cr3tpw@db:5432/x')).toBe('postgres://admin:[REDACTED]@db:5432/x');
    expect(red('GET /v1?token=abc123def&page=2&password=hunter22')).toBe('GET /v1?token=[REDACTED]&page=2&password=[REDACTED]');
  });
  it('key/value pairs in yaml, json, env files, python dicts and CLI flags', () => {
    expect(red('  api_key: abc123xyz\n  prompt_key: prompt')).toBe('  api_key: [REDACTED]\n  prompt_key: prompt');
    expect(red('{"WANDB_API_KEY": "abc123xyz", "WANDB_PROJECT": "p"}')).toBe('{"WANDB_API_KEY": "[REDACTED]", "WANDB_PROJECT": "p"}');
    expect(red("{'password': 'hunter22', 'lr': 0.1}")).toBe("{'password': '[REDACTED]', 'lr': 0.1}");
    expect(red('export HF_TOKEN=abc123xyz')).toBe('export HF_TOKEN=[REDACTED]');
    expect(red('python t.py --api-key abc123xyz --lr 1 --token=zzz999')).toBe('python t.py --api-key [REDACTED] --lr 1 --token=[REDACTED]');
    // interpolations and placeholders are names, not secrets: kept for diagnosis
    expect(red('api_key: ${oc.env:WANDB_API_KEY}\ntoken: null')).toBe('api_key: ${oc.env:WANDB_API_KEY}\ntoken: null');
  });
  it('a secret flag right after a flag without a value keeps its own value (CLI text, argv lists, YAML lists)', () => {
    expect(red('python t.py --verbose --api-key abcdefgh123')).toBe('python t.py --verbose --api-key [REDACTED]');
    expect(red('python t.py --lr  --password hunter2hunter2')).toBe('python t.py --lr  --password [REDACTED]');
    expect(red(`args: ['--resume', '--password', 'hunter2hunter2']`)).toBe(`args: ['--resume', '--password', '[REDACTED]']`);
    expect(red('- --resume\n- --password\n- hunter2hunter2')).toBe('- --resume\n- --password\n- [REDACTED]');
    // a value may still start with one dash, and anything after `=` is the value
    expect(red('--db-password=-xABCDEFGH --password=--odd-one')).toBe('--db-password=[REDACTED] --password=[REDACTED]');
    expect(red('--lr -0.5 --epochs 3')).toBe('--lr -0.5 --epochs 3');
  });
  it('private key blocks, even cut off at the end of a log', () => {
    expect(red('a\n-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\nBBBB\n-----END OPENSSH PRIVATE KEY-----\nb')).toBe('a\n[REDACTED PRIVATE KEY]\nb');
    expect(red('a\n-----BEGIN PRIVATE KEY-----\nAAAA')).toBe('a\n[REDACTED PRIVATE KEY]');
  });
  it('literal values of the run\'s secret env vars, wherever they appear; short values are left alone', () => {
    const rr = createRedactor({ MY_SERVICE_TOKEN: 'plainwordsecret', WANDB_MODE: 'offline', SHORT_KEY: 'abc' });
    const out = rr.text('connecting with plainwordsecret to x; mode offline; abc');
    expect(out.text).toBe('connecting with [REDACTED] to x; mode offline; abc');
    expect(rr.literals).toEqual(['plainwordsecret']);
  });
  it('bytes that are not UTF-8 survive untouched around a redaction', () => {
    const buf = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), Buffer.from(' sk-AbCdEfGhIjKlMnOpQrStUvWx12 '), Buffer.from([0xc3, 0x28])]);
    const out = r.bytes(buf);
    expect(out.count).toBe(1);
    expect(out.data).toEqual(Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), Buffer.from(` ${REDACTED} `), Buffer.from([0xc3, 0x28])]));
  });
  it('leaves ordinary training output alone', () => {
    const log = 'step 10 | loss 0.42 | tokens/s 5120 | max_tokens: 512 | eos_token: </s> | task-abcdefghijklmnopqrstuvwxyz done | disk-usage ok';
    expect(r.text(log)).toEqual({ text: log, count: 0 });
  });
});

describe('every planted shape (test/helpers/secrets.ts), one at a time', () => {
  for (const s of PLANTED) {
    it(s.id, () => {
      // a shape planted in the env is known to capture as a literal (the archive harvests it: below)
      const rr = createRedactor(s.env ?? {});
      const texts = [s.log, s.file?.content, s.logName, s.env ? JSON.stringify(s.env, null, 2) : undefined].filter((x): x is string => !!x);
      for (const t of texts) expect(rr.text(t).text, t).not.toContain(s.secret);
      if (s.argv) {
        const out = rr.argv(s.argv);
        expect(out.argv.join(' ')).not.toContain(s.secret);
        expect(out.argv.slice(0, 2)).toEqual(s.argv.slice(0, 2));
        expect(out.count).toBeGreaterThan(0);
      }
    });
  }
  it('a value found under a secret key is hunted as a literal elsewhere (harvest)', () => {
    const value = 'zq' + 'Xy7Lm2Pw9Rt4Vb6Nc8';
    const harvested = new Set<string>();
    createRedactor({}).bytesHarvesting(Buffer.from(`{"NCCL_IB_SECRET_VALUE": "${value}", "NCCL_DEBUG": "INFO"}`), harvested);
    const found = [...harvested];
    expect(found).toEqual([value]);
    expect(createRedactor({}, found).text(`ib key ${value} rejected`).text).toBe(`ib key ${REDACTED} rejected`);
  });
  it('argv keeps what is not a secret and the flag names', () => {
    const out = r.argv(['torchrun', '--nproc_per_node', '8', 'train.py', '--password', 'hunter2hunter2', '--lr', '0.1', '--api-key=abcdefgh123']);
    expect(out.argv).toEqual(['torchrun', '--nproc_per_node', '8', 'train.py', '--password', REDACTED, '--lr', '0.1', `--api-key=${REDACTED}`]);
    expect(r.argv(['mysql', '-u', 'root', '-pS3cretPassw0rd', '-e', 'x']).argv).toEqual(['mysql', '-u', 'root', `-p${REDACTED}`, '-e', 'x']);
  });
  it('a key named __proto__ in a manifest value stays a plain key', () => {
    const v = redactValue(JSON.parse('{"__proto__": {"polluted": "yes"}, "api_key": "abcdefgh123"}'), r, { n: 0 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'api_key']);
    expect(v.api_key).toBe(REDACTED);
  });
});

describe('a token cut by the head/tail boundary leaves no piece behind', () => {
  const token = 'sk-proj-' + 'Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb6';
  const pieces = (text: string) => {
    const left: string[] = [];
    for (let i = 0; i + 8 <= token.length; i++) if (text.includes(token.slice(i, i + 8))) left.push(token.slice(i, i + 8));
    return left;
  };
  const HEAD = 4096;
  const TAIL = 8192;
  // the token straddles the head's end and, again, the tail's start
  const body = (size: number) => {
    const filler = (n: number) => ('step 1 loss 0.25 lr 1e-4\n'.repeat(Math.ceil(n / 25))).slice(0, n);
    const a = filler(HEAD - 17) + `key ${token} x\n`;
    const tailStart = size - TAIL;
    const b = filler(tailStart - a.length - 20) + `key ${token} y\n`;
    return a + b + filler(size - (a + b).length);
  };
  it('readHeadTail (a --log file)', async () => {
    const d = newDir();
    const text = body(64 * 1024);
    expect(text.slice(HEAD - 20, HEAD + 20)).toContain(token.slice(10, 20));
    writeFileSync(join(d, 'x.log'), text);
    const out = await readHeadTail(join(d, 'x.log'), HEAD, TAIL);
    expect(out.cutBytes).toBeGreaterThan(0);
    expect(pieces(out.data.toString('latin1'))).toEqual([]);
    expect(out.data.toString()).toMatch(/\[fdiag: \d+ bytes cut\]/);
    expect(out.data.length).toBeGreaterThan(HEAD + TAIL - 200);
  });
  it('HeadTailBuffer (teed stdout/stderr)', () => {
    const b = new HeadTailBuffer(HEAD, TAIL);
    const text = Buffer.from(body(64 * 1024));
    for (let i = 0; i < text.length; i += 1000) b.push(text.subarray(i, i + 1000));
    const out = b.result();
    expect(pieces(out.data.toString('latin1'))).toEqual([]);
    expect(out.totalBytes).toBe(text.length);
    expect(out.cutBytes + out.data.length - Buffer.byteLength(`\n[fdiag: ${out.cutBytes} bytes cut]\n`)).toBe(text.length);
  });
});
