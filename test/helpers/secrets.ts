// Planted secrets: every shape the red team found leaking (issue 10) plus the ones that held, each
// as the text a real producer writes around it (a log line, an argv pair, an env var, a W&B or
// kubeconfig file, a log file's name). The same shapes go through all three doors (capture, ingest
// over HTTP, harbor import); a test then searches every stored byte for every secret.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** A deterministic, unique, random-looking token body: base62 of a hash of the shape's name. */
export function tokenBody(seed: string, len: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let out = '';
  for (let i = 0; out.length < len; i++) {
    for (const b of createHash('sha256').update(`${seed}:${i}`).digest()) {
      if (out.length < len) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}
const hex = (seed: string, len: number) => tokenBody(seed, len, '0123456789abcdef');
const b64 = (seed: string, len: number) => tokenBody(seed, len, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');

export interface PlantedSecret {
  id: string;
  /** The value that must never be stored. */
  secret: string;
  /** A line of log text that carries it. */
  log?: string;
  /** argv of the run that carries it. */
  argv?: string[];
  /** env of the run that carries it (passed through by config/env.json's prefixes). */
  env?: Record<string, string>;
  /** A file of the run's tree that carries it, at a path relative to the run's cwd. */
  file?: { path: string; content: string };
  /** A --log file whose NAME carries it. */
  logName?: string;
}

const S = (id: string, secret: string, rest: Omit<PlantedSecret, 'id' | 'secret'>): PlantedSecret => ({ id, secret, ...rest });

const pem = (seed: string) => {
  const body = Array.from({ length: 6 }, (_, i) => b64(`${seed}${i}`, 64)).join('\n');
  return { body, block: `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----` };
};
const kubeKey = Buffer.from(pem('kube').block).toString('base64');
const wandbKey = hex('wandb', 40);
const pk = pem('log');

export const PLANTED: PlantedSecret[] = [
  // argv flag/value pairs
  S('argv-password-pair', `pw${tokenBody('argv-pw', 18)}`, { argv: ['python', 'train.py', '--password', `pw${tokenBody('argv-pw', 18)}`, '--lr', '0.1'] }),
  S('argv-wandb-api-key-pair', hex('argv-wandb', 40), { argv: ['python', 'train.py', '--wandb_api_key', hex('argv-wandb', 40)] }),
  S('argv-dash-value', `-x${tokenBody('argv-dash', 20)}`, { argv: ['python', 'train.py', `--db-password=-x${tokenBody('argv-dash', 20)}`] }),
  // a secret flag right after a flag without a value, in log text: the bare flag must not take the
  // secret flag as its value (which left the secret after it in the clear)
  S('log-flag-after-bare-flag', hex('log-bare', 40), { log: `+ python train.py --resume --wandb_api_key ${hex('log-bare', 40)} --lr 0.1` }),
  S('log-argv-list-after-bare-flag', `al${tokenBody('list-bare', 22)}`, { log: `sys.argv: ['train.py', '--resume', '--hf-token', 'al${tokenBody('list-bare', 22)}']` }),
  S('log-argv-yaml-after-bare-flag', `ay${tokenBody('yaml-bare', 22)}`, { log: `args:\n- --resume\n- --api-key\n- ay${tokenBody('yaml-bare', 22)}` }),
  S('argv-mysql-p', `my${tokenBody('mysql', 16)}`, { log: `+ mysql -h db -u root -pmy${tokenBody('mysql', 16)} -e "select 1"` }),
  // W&B
  S('wandb-config-desc-value', `wb${tokenBody('wandb-cfg', 24)}`, {
    file: { path: 'wandb/latest-run/files/config.yaml', content: `_wandb:\n  desc: null\n  value:\n    python_version: 3.11.9\nlr:\n  desc: null\n  value: 0.0001\napi_key:\n  desc: null\n  value: wb${tokenBody('wandb-cfg', 24)}\n` },
  }),
  S('wandb-metadata-args', `md${tokenBody('wandb-meta', 24)}`, {
    file: { path: 'wandb/latest-run/files/wandb-metadata.json', content: JSON.stringify({ os: 'Linux', python: '3.11.9', program: 'train.py', args: ['--lr', '0.1', '--hf-token', `md${tokenBody('wandb-meta', 24)}`, '--epochs', '3'] }, null, 4) },
  }),
  S('wandb-key-literal', wandbKey, { env: { WANDB_API_KEY: wandbKey }, log: `wandb: using key ${wandbKey} for api.wandb.ai` }),
  // kubeconfig, netrc
  S('kubeconfig-client-key-data', kubeKey, {
    file: { path: 'kubeconfig.yaml', content: `apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-certificate-data: ${Buffer.from('cert').toString('base64')}\n    client-key-data: ${kubeKey}\n` },
  }),
  S('netrc-password', `nr${tokenBody('netrc', 24)}`, { file: { path: 'netrc.txt', content: `machine api.wandb.ai\n  login user\n  password nr${tokenBody('netrc', 24)}\n` } }),
  // URLs and connection strings
  S('slack-webhook', `${tokenBody('slack-b', 11).toUpperCase()}/${tokenBody('slack-c', 24)}`, {
    log: `posting alert to https://hooks.slack.com/services/T0${tokenBody('slack-a', 9).toUpperCase()}/${tokenBody('slack-b', 11).toUpperCase()}/${tokenBody('slack-c', 24)} failed`,
  }),
  S('azure-account-key', `${b64('azure', 86)}==`, { log: `AZURE_STORAGE: DefaultEndpointsProtocol=https;AccountName=ckpts;AccountKey=${b64('azure', 86)}==;EndpointSuffix=core.windows.net` }),
  S('redis-url-no-user', `rd${tokenBody('redis', 20)}`, { log: `connecting to redis://:rd${tokenBody('redis', 20)}@10.0.0.5:6379/0` }),
  S('postgres-url', `pg${tokenBody('pg', 16)}`, { log: `sqlalchemy url postgresql://admin:pg${tokenBody('pg', 16)}@db:5432/runs` }),
  S('query-token', `qt${tokenBody('query', 20)}`, { log: `GET https://x.example/v1/data?token=qt${tokenBody('query', 20)}&page=2` }),
  // token shapes
  S('stripe-sk-live', `sk_live_${tokenBody('stripe', 24)}`, { log: `billing key sk_live_${tokenBody('stripe', 24)} loaded` }),
  S('npm-token', `npm_${tokenBody('npm', 36)}`, { log: `//registry.npmjs.org/:_authToken=npm_${tokenBody('npm', 36)}` }),
  S('npm-token-bare', `npm_${tokenBody('npm2', 36)}`, { log: `using npm_${tokenBody('npm2', 36)} for publish` }),
  S('openai-key', `sk-proj-${tokenBody('openai', 40)}`, { log: `openai.AuthenticationError: Incorrect API key provided: sk-proj-${tokenBody('openai', 40)}` }),
  S('anthropic-key', `sk-ant-api03-${tokenBody('anthropic', 40)}`, { log: `x-api-key: sk-ant-api03-${tokenBody('anthropic', 40)}` }),
  S('hf-token', `hf_${tokenBody('hf', 34)}`, { log: `huggingface_hub login hf_${tokenBody('hf', 34)}` }),
  S('github-pat', `ghp_${tokenBody('gh', 36)}`, { log: `git clone https://ghp_${tokenBody('gh', 36)}@github.com/org/repo` }),
  S('aws-access-key-id', `AKIA${tokenBody('aws', 16).toUpperCase()}`, { log: `aws_access_key_id = AKIA${tokenBody('aws', 16).toUpperCase()}` }),
  S('aws-secret-kv', b64('awssec', 40).replace(/\+/g, 'A'), { log: `aws_secret_access_key = ${b64('awssec', 40).replace(/\+/g, 'A')}` }),
  S('slack-bot-token', `xoxb-${tokenBody('xoxb', 30)}`, { log: `slack client token xoxb-${tokenBody('xoxb', 30)}` }),
  S('google-api-key', `AIza${tokenBody('gapi', 35)}`, { log: `maps key AIza${tokenBody('gapi', 35)}` }),
  S('jwt', `eyJhbGciOiJIUzI1NiJ9.eyJ${tokenBody('jwt1', 30)}.${tokenBody('jwt2', 40)}`, { log: `session eyJhbGciOiJIUzI1NiJ9.eyJ${tokenBody('jwt1', 30)}.${tokenBody('jwt2', 40)}` }),
  S('bearer-header', `br${tokenBody('bearer', 30)}`, { log: `curl -H "Authorization: Bearer br${tokenBody('bearer', 30)}" https://api` }),
  S('yaml-api-key', `ya${tokenBody('yaml', 24)}`, { log: `  api_key: ya${tokenBody('yaml', 24)}` }),
  S('python-dict-password', `py${tokenBody('pydict', 20)}`, { log: `config={'password': 'py${tokenBody('pydict', 20)}', 'lr': 0.1}` }),
  S('private-key-block', pk.body.split('\n')[2], { log: pk.block }),
  // env vars passed through by prefix
  S('env-wandb-apikey', `wa${tokenBody('env-wandb', 26)}`, { env: { WANDB_APIKEY: `wa${tokenBody('env-wandb', 26)}` } }),
  S('env-ray-redis-pwd', `rp${tokenBody('env-ray', 20)}`, { env: { RAY_REDIS_PWD: `rp${tokenBody('env-ray', 20)}` } }),
  S('env-nccl-ib-secret', `nc${tokenBody('env-nccl', 20)}`, { env: { NCCL_IB_SECRET_VALUE: `nc${tokenBody('env-nccl', 20)}` } }),
  S('env-hf-token', `hf_${tokenBody('env-hf', 34)}`, { env: { HF_TOKEN: `hf_${tokenBody('env-hf', 34)}` } }),
  // a --log file named after a token
  S('log-file-name', `sk-proj-${tokenBody('logname', 30)}`, { logName: `run-sk-proj-${tokenBody('logname', 30)}.log` }),
];

/** Secrets found in `text`: the whole value, or (for `minPiece` > 0) any piece that long. */
export function leaksIn(text: string, secrets: readonly PlantedSecret[] = PLANTED): string[] {
  return secrets.filter((s) => text.includes(s.secret)).map((s) => s.id);
}

/** Every byte a tar.gz holds, names included, as latin1 text. */
export function tgzText(path: string): string {
  return gunzipSync(readFileSync(path)).toString('latin1');
}

/** Every file under `dir` (a data folder: blobs, DB, WAL) read as text; tar.gz files inflated. */
export function folderText(dir: string): string {
  let out = '';
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      out += `\n${p}\n`;
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out += p.endsWith('.tar.gz') ? tgzText(p) : readFileSync(p).toString('latin1');
    }
  };
  walk(dir);
  return out;
}
