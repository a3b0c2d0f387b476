// The redaction rules: one definition of every secret shape, read by both pipelines (index.ts's
// prefiltered one and reference.ts's rule-after-rule one). Text is latin1 (one char per byte).
export const REDACTED = '[REDACTED]';

// Config-style keys (yaml/json/python dicts) are lower or mixed case, and ML configs are full of
// harmless `*_key` / `*_token` names (prompt_key, eos_token): only strong names count there.
const LOWER_SECRET_KEY =
  /(?:^|[_.-])(?:password|passwd|pwd|secret|client_secret|api_?key|apikey|access_?key|secret_?key|private_?key|account_?key|shared_?access_?key|client_?key_?data|token|auth_?token|access_?token|refresh_?token|session_?token|bearer_?token|credentials?|hf_token)$/i;
const TOKENIZER_TOKEN =
  /(?:^|[_.-])(?:pad|eos|bos|unk|sep|cls|mask|start|end|stop|image|video|audio|vision|think|placeholder|special|sentinel|max|num|n)_?tokens?$/i;
// Environment-style keys are UPPER_SNAKE: any *_KEY, *_TOKEN, *_SECRET, *_PWD, *PASSWORD*,
// *_CREDENTIALS, and a secret word anywhere in the name (WANDB_APIKEY, RAY_REDIS_PWD,
// NCCL_IB_SECRET_VALUE): env vars are passed through by prefix, so the suffix alone is not enough.
const UPPER_SECRET_KEY =
  /(?:_KEY|_TOKEN|_SECRET|_PWD|_PASS|PASSWORD|PASSWD|_CREDENTIALS?|_PAT|^TOKEN|^SECRET|_AUTH)$|PASSWORD|PASSWD|SECRET|APIKEY|API_KEY|ACCESS_KEY|PRIVATE_KEY|ACCOUNT_KEY|CREDENTIAL|(?:^|_)PWD(?:_|$)|(?:^|_)(?:AUTH_|ACCESS_|REFRESH_|SESSION_|API_)?TOKEN(?:_|$)/;
const KNOWN_SECRET_KEYS = new Set([
  'WANDB_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'HF_TOKEN',
  'HUGGING_FACE_HUB_TOKEN',
  'HUGGINGFACE_TOKEN',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'FDIAG_TOKEN',
  'FDIAG_TOKENS',
  'DAYTONA_API_KEY',
  'E2B_API_KEY',
  'MODAL_TOKEN_SECRET',
  'GOOGLE_APPLICATION_CREDENTIALS_JSON',
]);

/** Does a key name (env var, yaml/json key, CLI flag) hold a secret value? */
export function isSecretKey(name: string): boolean {
  // camelCase keys (accountKey, clientSecret, AccountKey) are read as snake_case.
  let key = name.replace(/^-+/, '').replace(/-/g, '_');
  if (/[a-z]/.test(key)) key = key.replace(/([a-z0-9])([A-Z])/g, '$1_$2');
  if (!key) return false;
  if (KNOWN_SECRET_KEYS.has(key.toUpperCase())) return true;
  // The shell's working-directory variables: a path, and redacting it would blank every path under it.
  if (/^(?:OLD)?PWD$/i.test(key)) return false;
  if (/^[A-Z0-9_]+$/.test(key) && /[A-Z]/.test(key)) return UPPER_SECRET_KEY.test(key) && !TOKENIZER_TOKEN.test(key);
  return LOWER_SECRET_KEY.test(key) && !TOKENIZER_TOKEN.test(key);
}

/** Values that are never treated as secrets: placeholders, interpolations, empties. */
export function isPlaceholder(v: string): boolean {
  const s = v.trim();
  if (s.length === 0) return true;
  if (s.startsWith('[REDACTED')) return true;
  if (s.startsWith('${') || /^\$[A-Z_][A-Z0-9_]*$/.test(s)) return true; // ${oc.env:X}, $VAR: names, not values
  if (/^(?:null|none|nil|true|false|yes|no|on|off|0|1|~|\*+|<[^>]*>|x+|redacted)$/i.test(s)) return true;
  return false;
}

// Short values ("1", "true", a 5-letter word) would blank out unrelated text everywhere.
export const MIN_LITERAL = 8;

// While Redactor.bytesHarvesting runs (synchronously), the values key-context rules redact are kept
// here, so that the same value elsewhere (a log line echoing an env var's value) is found too.
let harvestInto: Set<string> | null = null;
/** Collect kept values into `into` while `fn` runs (Redactor.bytesHarvesting). */
export function harvesting<T>(into: Set<string>, fn: () => T): T {
  harvestInto = into;
  try {
    return fn();
  } finally {
    harvestInto = null;
  }
}
function keep(value: string): void {
  if (harvestInto && value.length >= MIN_LITERAL && !value.startsWith('[REDACTED') && !isPlaceholder(value)) harvestInto.add(value);
}

/** The part of `m` that `r` replaced (their common prefix and suffix removed). */
function replacedPart(m: string, r: string): string {
  let a = 0;
  while (a < m.length && a < r.length && m[a] === r[a]) a++;
  let b = 0;
  while (b < m.length - a && b < r.length - a && m[m.length - 1 - b] === r[r.length - 1 - b]) b++;
  return m.slice(a, m.length - b).replace(/^["']|["']$/g, '');
}

/**
 * What the prefilter (prefilter.ts, index.ts) must find before a rule runs. `anchors`: literals
 * one of which every match that changes text contains (names from index.ts's ANCHORS);
 * 'secret-key' stands for a secret word (key, token, pass…) where a key that isSecretKey accepts
 * could end, on a line that `keyLine` accepts. `needs`: literals that must also occur in the text.
 * `scope`: 'line' when no match spans a line break (the rule then runs on the lines holding an
 * anchor only), 'text' when it runs over the whole text, 'kv' for key-value's sticky hits.
 */
export interface RuleGate {
  anchors: readonly string[];
  keyLine?: (line: string) => boolean;
  needs?: readonly string[];
  scope: 'line' | 'text' | 'kv';
}

export type Rule =
  | {
      name: string;
      re: RegExp;
      replace: (m: string, ...groups: string[]) => string | null; // null: leave as is
      gate: RuleGate;
    }
  | { name: string; apply: (s: string, edits?: Edit[]) => { text: string; count: number }; gate: RuleGate };

const SECRET_KEY = ['secret-key'];
// Set-Cookie's attributes (RFC 6265 §4.1.1, and SameSite, Priority, Partitioned): not values.
const COOKIE_ATTRIBUTES = new Set(['path', 'domain', 'expires', 'max-age', 'samesite', 'secure', 'httponly', 'priority', 'partitioned']);
const line = (...anchors: string[]): RuleGate => ({ anchors, scope: 'line' });
const text = (...anchors: string[]): RuleGate => ({ anchors, scope: 'text' });

// Order matters: whole blocks and structured pairs first, then free-standing token shapes.
export const RULES: Rule[] = [
  {
    name: 'private-key-block',
    gate: text('PRIVATE KEY'),
    re: /-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    replace: () => '[REDACTED PRIVATE KEY]',
  },
  {
    // The end of a key block whose BEGIN line was cut off (a log's tail starts mid-key).
    name: 'private-key-tail',
    gate: text('PRIVATE KEY'),
    re: /(?:^|(?<=\n))(?:[ \t]*[A-Za-z0-9+/=]{16,}[ \t]*\r?\n)+[ \t]*-----END[A-Z0-9 ]*PRIVATE KEY-----/g,
    replace: () => '[REDACTED PRIVATE KEY]',
  },
  {
    // also right after http.client's escaped line break (`send: b'...\r\nAuthorization: Basic …'`)
    name: 'authorization-header',
    gate: text('authorization'),
    re: /((?:\b|(?<=\\n))(?:proxy-)?authorization["']?\s*[:=]\s*["']?)((?:bearer|basic|token|bot|digest)\s+)?([^\s"',;]+)/gi,
    replace: (_m, pre, scheme, val) => (isPlaceholder(val) ? null : `${pre}${scheme ?? ''}${REDACTED}`),
  },
  {
    name: 'bearer',
    gate: text('bearer'),
    re: /(\bbearer\s+)([A-Za-z0-9._~+/=-]{8,})/gi,
    replace: (_m, pre, val) => (val.startsWith('[REDACTED') ? null : `${pre}${REDACTED}`),
  },
  {
    // scheme://user:pass@host, and redis://:pass@host (no user)
    name: 'url-credentials',
    gate: line('@'),
    // A scheme is short (RFC 3986 gives no limit; git+ssh, postgresql, mongodb+srv): bounded, a start
    // inside `key.key.key…` costs 32 steps, not the rest of the run.
    re: /(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s/:@"']*:)([^\s/@"']+)(@)/gi,
    replace: (_m, pre, val, at) => (isPlaceholder(val) ? null : `${pre}${REDACTED}${at}`),
  },
  {
    // A token as the URL's user name, no password: https://<token>@github.com/org/repo.git (git
    // remotes, pip's git+https). Long and holding a digit: `git@`, `jane.doe@`, `builder-bot@` stay.
    name: 'url-token-user',
    gate: line('@'),
    re: /(\b[a-z][a-z0-9+.-]{0,31}:\/\/)([A-Za-z0-9_-]{20,})(@)/gi,
    replace: (_m, pre, val, at) => (/[0-9]/.test(val) ? `${pre}${REDACTED}${at}` : null),
  },
  {
    // Cookie / Set-Cookie header values (curl -v's `> Cookie:`, http.client's `send: b'...'` with
    // its escaped \r\n): a session cookie is a credential. The names and Set-Cookie's attributes stay.
    name: 'cookie-header',
    gate: line('cookie'),
    re: /((?:\b|(?<=\\n))(?:set-)?cookie["']?[ \t]*:[ \t]*["']?)((?:(?!\\r\\n)[^\r\n"'])+)/gi,
    replace: (_m, pre, val) => {
      let n = 0;
      const out = val.replace(/(^|;[ \t]*)([^=;\s]+)=([^;]*)/g, (all, sep, name, v) => {
        if (COOKIE_ATTRIBUTES.has(name.toLowerCase()) || isPlaceholder(v) || v.startsWith('[REDACTED')) return all;
        n++;
        return `${sep}${name}=${REDACTED}`;
      });
      return n ? `${pre}${out}` : null;
    },
  },
  {
    // Slack/Discord incoming webhooks: the URL path is the credential.
    name: 'webhook-url',
    gate: line('hooks.slack.com', 'discord'),
    re: /(\bhttps?:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)|(?:[a-z]+\.)?discord(?:app)?\.com\/api\/webhooks)\/)([A-Za-z0-9/_-]{8,})/gi,
    replace: (_m, pre) => `${pre}${REDACTED}`,
  },
  {
    name: 'query-secret',
    gate: line('?', '&'),
    re: /([?&](?:access_token|token|api_?key|apikey|key|password|passwd|secret|sig|signature|auth|x-amz-signature|x-amz-security-token)=)([^&\s"'#]+)/gi,
    replace: (_m, pre, val) => (isPlaceholder(val) ? null : `${pre}${REDACTED}`),
  },
  {
    // Azure connection strings: AccountKey=…;SharedAccessKey=…;SharedAccessSignature=…
    name: 'azure-connection-string',
    gate: line('accountkey', 'sharedaccess'),
    re: /(\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=)([^;\s"']+)/gi,
    replace: (_m, pre, val) => (isPlaceholder(val) ? null : `${pre}${REDACTED}`),
  },
  {
    // kubeconfig users[].user.client-key-data (a base64 private key) and token-data
    name: 'kubeconfig-key-data',
    gate: text('client-key-data', 'token-data'),
    re: /(\b(?:client-key-data|token-data)["']?\s*:\s*["']?)([A-Za-z0-9+/=_.-]+)/g,
    replace: (_m, pre, val) => (isPlaceholder(val) ? null : `${pre}${REDACTED}`),
  },
  {
    // W&B config.json style: "api_key": {"desc": null, "value": "…"}
    name: 'json-desc-value',
    gate: { anchors: SECRET_KEY, keyLine: (l) => l.includes('"'), needs: ['"value"'], scope: 'text' },
    re: /("([^"\n]{1,200})"\s*:\s*\{[^{}]{0,2000}?"value"\s*:\s*)("[^"\n]*"|[^\s,}]+)/g,
    replace: (_m, pre, key, val) => (isSecretKey(key) && !isPlaceholder(val.replace(/^"|"$/g, '')) ? `${pre}"${REDACTED}"` : null),
  },
  { name: 'yaml-nested-secret', apply: (s, edits) => redactYamlNested(s, edits), gate: { anchors: SECRET_KEY, keyLine: (l) => YAML_KEY_LINE.test(l.replace(/\r$/, '')), scope: 'text' } },
  {
    // argv kept as a JSON or Python list (wandb-metadata.json "args"): "--password", "VALUE"
    name: 'argv-list-pair',
    gate: { anchors: SECRET_KEY, keyLine: (l) => l.includes('"-') || l.includes("'-"), scope: 'text' },
    // the value is not the next flag: ['--resume', '--password', 'x'] pairs --password with x
    re: /(["'](-{1,2}[A-Za-z][A-Za-z0-9_.-]*)["']\s*,\s*)(["'])(?!--[A-Za-z])([^"'\n]*)\3/g,
    replace: (_m, pre, flag, q, val) => (isSecretKey(flag) && !isPlaceholder(val) ? `${pre}${q}${REDACTED}${q}` : null),
  },
  {
    // argv kept as a YAML list: "- --password\n- VALUE"
    name: 'argv-yaml-pair',
    gate: { anchors: SECRET_KEY, keyLine: (l) => ARGV_YAML_FLAG_LINE.test(l), scope: 'text' },
    re: /(^|\n)([ \t]*-[ \t]+["']?(-{1,2}[A-Za-z][A-Za-z0-9_.-]*)["']?[ \t]*\r?\n[ \t]*-[ \t]+(?![ \t]*["']?--[A-Za-z]))([^\n]+)/g,
    replace: (_m, nl, pre, flag, val) => (isSecretKey(flag) && !isPlaceholder(val.replace(/^["']|["']$/g, '')) ? `${nl}${pre}${REDACTED}` : null),
  },
  { name: 'key-value', apply: (s, edits) => redactKeyValues(s, undefined, edits), gate: { anchors: SECRET_KEY, scope: 'kv' } },
  {
    // CLI flags: --api-key sk-…, --token=abc, --wandb_api_key abc, --db-password=-x… (a value may
    // start with one dash; after a space, "--next" is the next flag, not a value: `--verbose
    // --api-key X` pairs --api-key with X)
    name: 'cli-flag',
    gate: { anchors: SECRET_KEY, keyLine: (l) => l.includes('--'), scope: 'line' },
    // A flag's name holds no `--` (where the next flag would start): a start in `--key--key…` reads to
    // the next `--`, not to the end of the run, so the scan is linear.
    re: /(--[A-Za-z](?:[A-Za-z0-9_]|-(?!-))*)(=[ \t]*|[ \t]+(?![ \t]*--[A-Za-z]))((?:-(?!-))?[^\s"'-]?[^\s"']*)/g,
    replace: (_m, flag, sep, val) => (val && isSecretKey(flag) && !isPlaceholder(val) ? `${flag}${sep}${REDACTED}` : null),
  },
  {
    // mysql -pSECRET / mysqldump -u root -pSECRET (the password glued to -p)
    name: 'mysql-p',
    gate: line('mysql'),
    re: /(\bmysql(?:dump|admin|sh|import|check)?\b[^\n]*?[ \t]-p)([^\s"']+)/g,
    replace: (_m, pre, val) => `${pre}${REDACTED}`,
  },
  {
    // .netrc: "machine h login u password X", or "password X" on its own line
    name: 'netrc-password',
    gate: line('password'),
    re: /((?:^|\n)[ \t]*(?:machine[ \t]+\S+[ \t]+)?(?:login[ \t]+\S+[ \t]+)?password[ \t]+)(\S+)/g,
    replace: (_m, pre, val) => (isPlaceholder(val) ? null : `${pre}${REDACTED}`),
  },
  {
    name: 'netrc-inline',
    gate: line('login'),
    re: /(\blogin[ \t]+\S+[ \t]+password[ \t]+)(\S+)/g,
    replace: (_m, pre, val) => (isPlaceholder(val) ? null : `${pre}${REDACTED}`),
  },
  { name: 'anthropic-key', re: /(?<![A-Za-z0-9])sk-ant-[A-Za-z0-9_-]{10,}/g, replace: () => REDACTED, gate: line('sk-') },
  { name: 'openai-key', re: /(?<![A-Za-z0-9])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g, replace: () => REDACTED, gate: line('sk-') },
  { name: 'stripe-key', re: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g, replace: () => REDACTED, gate: line('sk_', 'rk_') },
  { name: 'npm-token', re: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{30,}/g, replace: () => REDACTED, gate: line('npm_') },
  { name: 'hf-token', re: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}/g, replace: () => REDACTED, gate: line('hf_') },
  { name: 'github-token', re: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g, replace: () => REDACTED, gate: line('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_') },
  { name: 'gitlab-token', re: /(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,}/g, replace: () => REDACTED, gate: line('glpat-') },
  { name: 'aws-access-key-id', re: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g, replace: () => REDACTED, gate: line('AKIA', 'ASIA') },
  { name: 'slack-token', re: /(?<![A-Za-z0-9])xox[abprse]-[A-Za-z0-9-]{10,}/g, replace: () => REDACTED, gate: line('xox') },
  { name: 'google-api-key', re: /(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}/g, replace: () => REDACTED, gate: line('AIza') },
  { name: 'jwt', re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: () => REDACTED, gate: line('eyJ') },
];

// YAML where the secret key holds a mapping: W&B's config.yaml writes every entry as
//   api_key:
//     desc: null
//     value: sk-…
// so the line with the value names no secret. Every scalar nested under a secret key (desc
// excepted: W&B's own description) is redacted.
// The flag line of argv-yaml-pair ('- --password'), alone on its line.
const ARGV_YAML_FLAG_LINE = /^[ \t]*-[ \t]+["']?-{1,2}[A-Za-z][A-Za-z0-9_.-]*["']?[ \t]*\r?$/;
export const YAML_KEY_LINE = /^([ \t]*)(?:-[ \t]+)?["']?([A-Za-z_][A-Za-z0-9_.-]*)["']?[ \t]*:[ \t]*(?:#.*)?$/;
const YAML_SCALAR_LINE = /^([ \t]*)(?:(-[ \t]+)|(["']?[A-Za-z_][A-Za-z0-9_.-]*["']?[ \t]*:[ \t]+))(.*\S)[ \t]*$/;

/** An edit a rule made: [start, end) of the old text replaced by `length` chars. */
export type Edit = [start: number, end: number, length: number];

export function redactYamlNested(s: string, edits?: Edit[]): { text: string; count: number } {
  if (!/:[ \t]*\r?\n[ \t]/.test(s)) return { text: s, count: 0 };
  const lines = s.split('\n');
  let count = 0;
  let secretIndent = -1;
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const at = next; // where lines[i] starts in s
    next += lines[i].length + 1;
    const line = lines[i].replace(/\r$/, '');
    const indent = /^[ \t]*/.exec(line)![0].length;
    if (secretIndent >= 0) {
      if (line.trim() === '') continue;
      if (indent > secretIndent) {
        const m = YAML_SCALAR_LINE.exec(line);
        if (m && !/^["']?desc["']?[ \t]*:/.test(m[3] ?? '')) {
          const val = m[4];
          if (!isPlaceholder(val.replace(/^["']|["']$/g, '')) && !val.startsWith('[REDACTED')) {
            keep(val.replace(/^["']|["']$/g, ''));
            const was = lines[i].length;
            lines[i] = `${m[1]}${m[2] ?? m[3]}${REDACTED}${lines[i].endsWith('\r') ? '\r' : ''}`;
            edits?.push([at, at + was, lines[i].length]);
            count++;
          }
        }
        continue;
      }
      secretIndent = -1;
    }
    const k = YAML_KEY_LINE.exec(line);
    if (k && isSecretKey(k[2])) secretIndent = indent;
  }
  return count ? { text: lines.join('\n'), count } : { text: s, count: 0 };
}

// KEY=value, key: value, "key": "value", 'key': 'value' (python dict repr), KEY="value".
// Found from the secret word and the separator backwards, because a regex that starts at every
// identifier and tries each secret word is ~30x slower on a 10 MB log.
// `value`/`data`/`pass` end names like NCCL_IB_SECRET_VALUE, client-key-data, REDIS_PASS.
const KV_HIT = /(?:p(?:ass(?:wor)?d|wd)|pass|secret|token|key|credentials?|_pat|auth|value|data)(["']?)(\s*[:=][ \t]*)/gi;
const KV_HIT_AT = new RegExp(KV_HIT.source, 'iy');
// A value never starts with { or [: that is a structure (handled above), not a secret.
const KV_VALUE = /"([^"\n]*)"|'([^'\n]*)'|([^\s"',;&}\]){[][^\s"',;&}\])]*)/y;
const IDENT = /[A-Za-z0-9_.-]/;

/**
 * `starts`: when given, the only positions KV_HIT can match at (every occurrence of each of its
 * words, ascending; index.ts's prefilter finds them), tried as a sticky match in place of the
 * global scan: the same hits in the same order, so the same output.
 */
export function redactKeyValues(s: string, starts?: readonly number[], edits?: Edit[]): { text: string; count: number } {
  let out = '';
  let last = 0;
  let count = 0;
  let next = 0;
  let k = 0;
  const hit = (): RegExpExecArray | null => {
    if (!starts) {
      KV_HIT.lastIndex = next;
      return KV_HIT.exec(s);
    }
    for (; k < starts.length; k++) {
      if (starts[k] < next) continue;
      KV_HIT_AT.lastIndex = starts[k];
      const m = KV_HIT_AT.exec(s);
      if (m) return m;
    }
    return null;
  };
  for (let m = hit(); m; m = hit()) {
    next = m.index + m[0].length;
    const quote = m[1];
    const keyEnd = m.index + m[0].length - m[2].length - quote.length;
    let keyStart = m.index;
    while (keyStart > 0 && IDENT.test(s[keyStart - 1])) keyStart--;
    if (keyStart < last || !/[A-Za-z_]/.test(s[keyStart] ?? '')) continue;
    if (quote && s[keyStart - 1] !== quote) continue;
    const key = s.slice(keyStart, keyEnd);
    if (!isSecretKey(key)) continue;
    const valStart = m.index + m[0].length;
    KV_VALUE.lastIndex = valStart;
    const v = KV_VALUE.exec(s);
    if (!v) continue;
    const val = v[1] ?? v[2] ?? v[3] ?? '';
    if (isPlaceholder(val)) continue;
    keep(val);
    const repl = v[1] !== undefined ? `"${REDACTED}"` : v[2] !== undefined ? `'${REDACTED}'` : REDACTED;
    out += s.slice(last, valStart) + repl;
    edits?.push([valStart, valStart + v[0].length, repl.length]);
    last = valStart + v[0].length;
    next = last;
    count++;
  }
  return count ? { text: out + s.slice(last), count } : { text: s, count: 0 };
}

/** One rule over the whole text, as String.replace runs it. */
export function applyRule(rule: Rule, s: string, edits?: Edit[]): { text: string; count: number } {
  if ('apply' in rule) return rule.apply(s, edits);
  let count = 0;
  rule.re.lastIndex = 0;
  const text = s.replace(rule.re, replacer(rule, () => count++, edits));
  return { text, count };
}

/**
 * The String.replace callback of a regex rule; `counted` runs once per secret replaced, and each
 * replacement goes to `edits` (offsets plus `base`: the text replace runs on starts there).
 */
export function replacer(rule: Extract<Rule, { re: RegExp }>, counted: () => void, edits?: Edit[], base = 0): (...args: unknown[]) => string {
  return (...args: unknown[]) => {
    const m = args[0] as string;
    const groups = args.slice(1, -2).map((g) => g as string);
    const r = rule.replace(m, ...groups);
    if (r === null || r === m) return m;
    counted();
    if (edits) {
      const at = base + (args[args.length - 2] as number);
      edits.push([at, at + m.length, r.length]);
    }
    if (harvestInto) keep(replacedPart(m, r));
    return r;
  };
}

/** The run's literal secret values (longest first), as one alternation; null when none. */
export function literalPattern(latinLits: readonly string[]): RegExp | null {
  return latinLits.length ? new RegExp(latinLits.map(escapeRe).join('|'), 'g') : null;
}

export function applyLiterals(litRe: RegExp, s: string, edits?: Edit[]): { text: string; count: number } {
  let count = 0;
  litRe.lastIndex = 0;
  const text = s.replace(litRe, (m: string, at: number) => {
    count++;
    edits?.push([at, at + m.length, REDACTED.length]);
    return REDACTED;
  });
  return { text, count };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
