// The package managers' and fetchers' vocabularies (rules/pkg-vocab.ts, rules rules/pkg.ts): every entry
// read through the line its producer prints, in the three places a run meets it (its own setup, a build
// step, an agent's install), and the fetch failure that explains a package "not found" and a failed build.
import { describe, expect, it } from 'vitest';
import { CURL_CODES, PKG_ERRORS, type PkgError, type PlacedGroup } from '../../../src/classifiers/rules/pkg-vocab.js';
import { classifyBundle } from '../../../src/classifiers/index.js';
import { classifyText } from '../helpers.js';

const cls = (text: string, path?: string) => classifyText(text, path).class;
const firstRule = (text: string, path?: string) => classifyText(text, path).evidence[0]?.rule;
/**
 * What each placed group means, written out (not imported: a wrong mapping in pkg-vocab.ts PLACED_CLASS
 * must fail here): [the run's own setup, a build step, an agent's install]. A package, version or source
 * that is not there, a conflict, a refusal or a malformed request is the setup's own choice; a corrupt
 * download says nothing in the run's own log (the pin or the mirror may be wrong); a failed step is a
 * weak config.error there.
 */
const EXPECTED: Record<PlacedGroup, readonly [string, string, string]> = {
  missing: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  conflict: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  denied: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  request: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  integrity: ['unknown', 'image.build_failure', 'agent.setup_failure'],
  step: ['config.error', 'image.build_failure', 'agent.setup_failure'],
};
const PLACED = Object.keys(EXPECTED) as PlacedGroup[];
const isPlaced = (x: PkgError): boolean => (PLACED as string[]).includes(x.group);
/** A line as BuildKit's plain progress prints a RUN step's output. */
const buildStep = (text: string) => text.split('\n').map((l, i) => `#9 ${(12.3 + i / 100).toFixed(3)} ${l}`).join('\n');
const AGENT_SETUP = 'agent/setup/stdout.txt';

/**
 * The entries whose test line an older, narrower network rule also reads, by the words in it: that rule
 * keeps first place (network.ts: tls 61, dns 60, connection 58; pkg.fetch_network 57).
 */
const READ_FIRST_BY: Record<string, string> = {
  'apt: Something wicked happened resolving': 'network.dns', // "No address associated with hostname"
  'apt: Cannot initiate the connection': 'network.connection', // "Network is unreachable"
  'pip: Could not fetch URL': 'network.tls', // "CERTIFICATE_VERIFY_FAILED"
  'conda: ProxyError': 'network.connection', // "ProxyError"
  'npm: network (FetchError)': 'network.dns', // "getaddrinfo EAI_AGAIN"
  'pnpm: ERR_PNPM_META_FETCH_FAIL': 'network.connection', // "connect ETIMEDOUT"
  'wget: Read error in headers': 'network.connection', // "Connection reset by peer"
};

describe('every entry through the line its producer prints', () => {
  it.each(PKG_ERRORS.filter((x) => x.group === 'network' || x.group === 'dropped' || x.group === 'retry').map((x) => [`${x.producer}: ${x.name}`, x] as const))('%s is the network', (name, x) => {
    expect(cls(x.line)).toBe('network.error');
    // A retry note is weighed low, so the narrower network rule that also reads its quoted cause (network.dns,
    // network.connection) comes first. The class is what counts there.
    if (x.group !== 'retry') expect(firstRule(x.line)).toBe(READ_FIRST_BY[name] ?? 'pkg.fetch_network');
  });

  it('the older narrower network rules keep first place on the wordings they read; npm\'s network codes beat its install rule', () => {
    expect(firstRule("fatal: unable to access 'https://github.com/huggingface/transformers.git/': Could not resolve host: github.com")).toBe('network.dns');
    expect(firstRule('curl: (6) Could not resolve host: astral.sh')).toBe('network.dns');
    expect(firstRule('curl: (60) SSL certificate problem: unable to get local issuer certificate')).toBe('pkg.fetch_network');
    expect(firstRule("fatal: unable to access 'https://github.com/acme/evals.git/': SSL certificate problem: unable to get local issuer certificate")).toBe('pkg.fetch_network');
    // npm files ETIMEDOUT / ENOTFOUND under "network" (error-message.js): not agent.npm_install_error's agent install.
    for (const code of ['ETIMEDOUT', 'ENOTFOUND', 'ECONNRESET', 'EAI_AGAIN']) {
      const d = classifyText(`npm error code ${code}`, AGENT_SETUP);
      expect(d.class, code).toBe('network.error');
      expect(d.evidence[0]?.rule, code).toBe('pkg.agent_install');
      expect(firstRule(`npm error code ${code}`), code).toBe('pkg.fetch_network');
    }
  });

  it('a retry note decides only when nothing else does', () => {
    const retry = "warning: spurious network error (2 tries remaining): [35] SSL connect error (OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to index.crates.io:443 )";
    expect(cls(retry)).toBe('network.error');
    const log = [retry, '   Compiling tokenizers v0.21.0', 'Traceback (most recent call last):', '  File "/workspace/train.py", line 12, in <module>', '    cfg["lr"]', "KeyError: 'lr'"].join('\n');
    expect(cls(log)).toBe('user.code_error');
  });

  it('a retry note explains the "not found" right after it, not one far below (the tool recovered from it)', () => {
    const retry = "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ConnectTimeoutError(<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f1e2d3c4b50>, 'Connection to pypi.org timed out. (connect timeout=15)')': /simple/vllm/";
    const missing = 'E: Unable to locate package libssl1.1';
    expect(cls([retry, missing].join('\n'))).toBe('network.error');
    const between = Array.from({ length: 30 }, (_, i) => `Collecting pkg${i}==1.0 (from -r requirements.txt (line ${i + 2}))`);
    expect(cls([retry, ...between, missing].join('\n'))).toBe('config.error');
  });

  it.each(PKG_ERRORS.filter(isPlaced).map((x) => [`${x.producer}: ${x.name} (${x.group})`, x] as const))('%s: its place decides', (_n, x) => {
    const [run, build, agent] = EXPECTED[x.group as PlacedGroup];
    // The run's own setup (integrity says nothing there: the pin or the mirror may be wrong).
    expect(cls(x.line)).toBe(run);
    if (run !== 'unknown') expect(firstRule(x.line)).toBe('pkg.unresolved');
    // A build step's output (BuildKit plain progress), and an agent's install before it reached a model.
    expect(cls(buildStep(x.line))).toBe(build);
    expect(cls(x.line, AGENT_SETUP)).toBe(agent);
  });

  it.each(PKG_ERRORS.filter((x) => x.group === 'elsewhere').map((x) => [`${x.producer}: ${x.name}`, x] as const))('%s is read by its narrower rule', (_n, x) => {
    expect(cls(x.line)).toBe(x.readBy!.class);
    expect(firstRule(x.line)).toBe(x.readBy!.rule);
  });

  it.each(PKG_ERRORS.filter((x) => x.group === 'echo').map((x) => [`${x.producer}: ${x.name}`, x] as const))('%s is a summary: nothing on its own', (_n, x) => {
    const d = classifyText(x.line);
    expect(d.class).toBe('unknown');
    expect(d.evidence).toEqual([]);
  });

  it('reads a reason-carrying line by its reason (git over curl, apt over HTTP)', () => {
    expect(cls("fatal: unable to access 'https://github.com/acme/evals.git/': Failed to connect to github.com port 443 after 75009 ms: Couldn't connect to server")).toBe('network.error');
    expect(cls("fatal: unable to access 'https://github.com/acme/evals.git/': The requested URL returned error: 403")).toBe('config.error');
    expect(cls("fatal: unable to access 'https://gitlab.example.org/team/data.git/': The requested URL returned error: 404")).toBe('config.error');
  });
});

describe('every CURLcode through "curl: (N) …"', () => {
  it.each(CURL_CODES.filter(([, , , g]) => g !== 'skip' && g !== 'reason').map(([code, name, text, group]) => [code, name, text, group] as const))('%i %s', (code, _name, text, group) => {
    const line = `curl: (${code}) ${text}`;
    if (group === 'network' || group === 'dropped') expect(cls(line)).toBe('network.error');
    else expect(cls(line)).toBe(EXPECTED[group as PlacedGroup][0]);
  });

  it('takes the status of curl -f (22) from its detail, and reads no other status as missing', () => {
    expect(cls('curl: (22) The requested URL returned error: 404')).toBe('config.error');
    expect(cls('curl: (22) The requested URL returned error: 401')).toBe('config.error');
    expect(classifyText('curl: (22) The requested URL returned error: 503').evidence.map((e) => e.rule)).not.toContain('pkg.unresolved');
    // The agent's install script downloaded with curl -fsSL: agent.install_step_failed, as before.
    expect(cls('curl: (22) The requested URL returned error: 404', AGENT_SETUP)).toBe('agent.setup_failure');
  });

  it('reads the detailed buffer the tool prints, not only the strerror text', () => {
    expect(cls('curl: (6) Could not resolve host: astral.sh')).toBe('network.error');
    expect(cls('curl: (28) Operation timed out after 300001 milliseconds with 1843200 out of 9437184 bytes received')).toBe('network.error');
    expect(cls('curl: (35) OpenSSL SSL_connect: SSL_ERROR_SYSCALL in connection to github.com:443 ')).toBe('network.error');
    expect(cls('curl: (3) URL rejected: Malformed input to a URL function')).toBe('config.error');
  });

  it('leaves the codes no run meets, or that another reading decides, to others', () => {
    for (const [code, , text] of CURL_CODES.filter(([, , , g]) => g === 'skip')) {
      const rules = classifyText(`curl: (${code}) ${text}`).evidence.map((e) => e.rule);
      expect(rules.filter((r) => r.startsWith('pkg.')), String(code)).toEqual([]);
    }
  });
});

describe('where the line was printed, and what it follows', () => {
  it('a build whose apt-get update could not resolve the mirror fails on the network, not on the missing package (BuildKit)', () => {
    const log = [
      ' => ERROR [base 3/9] RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl git    70.9s',
      '------',
      ' > [base 3/9] RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates curl git:',
      "70.48 W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/noble/InRelease  Temporary failure resolving 'archive.ubuntu.com'",
      "70.48 W: Failed to fetch http://security.ubuntu.com/ubuntu/dists/noble-security/InRelease  Temporary failure resolving 'security.ubuntu.com'",
      '70.48 W: Some index files failed to download. They have been ignored, or old ones used instead.',
      '70.51 Reading package lists...',
      "70.51 E: Package 'ca-certificates' has no installation candidate",
      '------',
      'ERROR: failed to solve: process "/bin/sh -c apt-get update && apt-get install -y --no-install-recommends ca-certificates curl git" did not complete successfully: exit code: 100',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('network.error');
    expect(d.evidence[0]?.rule).toBe('pkg.fetch_network');
  });

  it('the same with the classic builder, whose step output has no prefix', () => {
    const log = [
      'Step 2/10 : RUN apt-get update -qq && apt-get install -y cmake g++ git',
      ' ---> Running in 7f039499a2cf',
      "W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/jammy/InRelease  Temporary failure resolving 'archive.ubuntu.com'",
      'W: Some index files failed to download. They have been ignored, or old ones used instead.',
      'E: Unable to locate package cmake',
      "The command '/bin/sh -c apt-get update -qq && apt-get install -y cmake g++ git' returned a non-zero code: 100",
    ].join('\n');
    expect(cls(log)).toBe('network.error');
  });

  it('a COPY whose source is not there is the build, whatever apt warned about before it (BuildKit plain progress)', () => {
    const log = [
      '#5 [base 2/6] RUN apt-get update && apt-get install -y git',
      "#5 1.204 W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/jammy-backports/InRelease  Temporary failure resolving 'archive.ubuntu.com'",
      '#5 1.210 W: Some index files failed to download. They have been ignored, or old ones used instead.',
      '#5 3.802 Setting up git (1:2.34.1-1ubuntu1.11) ...',
      '#5 DONE 4.1s',
      '',
      '#6 [base 3/6] COPY requirements.txt /workspace/',
      '#6 ERROR: failed to calculate checksum of ref 0b7c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e::x4k2m9q8r7s6t5u4v3w2y1z0a: "/requirements.txt": not found',
      '------',
      ' > [base 3/6] COPY requirements.txt /workspace/:',
      '------',
      'Dockerfile:12',
      '--------------------',
      '  10 |     RUN apt-get update && apt-get install -y git',
      '  11 |     ',
      '  12 | >>> COPY requirements.txt /workspace/',
      '  13 |     RUN pip install -r /workspace/requirements.txt',
      '  14 |     ',
      '--------------------',
      'ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 0b7c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e::x4k2m9q8r7s6t5u4v3w2y1z0a: "/requirements.txt": not found',
    ].join('\n');
    expect(cls(log)).toBe('image.build_failure');
  });

  it("another file's network error explains neither a build nor a missing package", () => {
    const fetch = [
      '2026-11-30 10:00:00 + apt-get update',
      "2026-11-30 10:00:01 W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/jammy/InRelease  Temporary failure resolving 'archive.ubuntu.com'",
      '2026-11-30 10:00:01 W: Some index files failed to download. They have been ignored, or old ones used instead.',
    ].join('\n');
    const copy = '2026-11-30 10:05:00 ERROR: failed to solve: failed to compute cache key: failed to calculate checksum of ref 0b7c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e::x4k2m9q8r7s6t5u4v3w2y1z0a: "/requirements.txt": not found';
    const run = '2026-11-30 10:05:00 ERROR: failed to solve: process "/bin/sh -c pip install flash-attn --no-build-isolation" did not complete successfully: exit code: 1';
    const two = (a: string, b: string) => classifyBundle({ files: new Map([['logs/fetch.log', fetch], [a, b]]) }).class;
    expect(two('logs/build.log', copy)).toBe('image.build_failure');
    expect(two('logs/build.log', run)).toBe('image.build_failure');
    // An unrelated Hugging Face download in a client's log, before the setup's typo.
    const client = "2026-11-30 10:00:00 requests.exceptions.ConnectionError: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/Qwen/Qwen2.5-7B-Instruct (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f2a3c1d9e50>: Failed to establish a new connection: [Errno 101] Network is unreachable'))\"), '(Request ID: 5c7e1a2b)')";
    const setup = ['2026-11-30 10:05:00 + apt-get install -y libfoo-typo', '2026-11-30 10:05:01 Reading package lists...', '2026-11-30 10:05:01 E: Unable to locate package libfoo-typo'].join('\n');
    expect(classifyBundle({ files: new Map([['logs/client.log', client], ['logs/setup.log', setup]]) }).class).toBe('config.error');
  });

  it("a fetch in the failing step's own output explains it; one many lines up, in an earlier step, does not", () => {
    const warned = [
      '#5 [base 2/6] RUN apt-get update && apt-get install -y git',
      "#5 1.204 W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/jammy-backports/InRelease  Temporary failure resolving 'archive.ubuntu.com'",
      '#5 DONE 4.1s',
    ];
    const collecting = Array.from({ length: 60 }, (_, i) => `#8 ${(2 + i / 10).toFixed(3)} Collecting pkg${i}==1.0 (from -r requirements.txt (line ${i + 1}))`);
    const failed = [
      '#8 41.20 ERROR: Failed building wheel for flash-attn',
      '#8 ERROR: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
      'ERROR: failed to solve: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
    ];
    expect(cls([...warned, '#8 [base 5/6] RUN pip install -r requirements.txt', ...collecting, ...failed].join('\n'))).toBe('image.build_failure');
    // The same step with its own fetch failing: the network, also from the summary line some 30 lines below.
    const own = [
      '#8 [base 5/6] RUN pip install -r requirements.txt',
      ...collecting.slice(0, 8),
      "#8 4.912 fatal: unable to access 'https://github.com/Dao-AILab/flash-attention.git/': Could not resolve host: github.com",
      '#8 ERROR: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
      '------',
      ' > [base 5/6] RUN pip install -r requirements.txt:',
      ...collecting.slice(0, 8).map((l) => l.slice(3)),
      "4.912 fatal: unable to access 'https://github.com/Dao-AILab/flash-attention.git/': Could not resolve host: github.com",
      '------',
      'Dockerfile:20',
      '--------------------',
      ...Array.from({ length: 14 }, (_, i) => `  ${18 + i} | >>>     pkg${i} \\`),
      '--------------------',
      'ERROR: failed to solve: process "/bin/sh -c pip install -r requirements.txt" did not complete successfully: exit code: 1',
    ];
    expect(cls(own.join('\n'))).toBe('network.error');
  });

  it('a package the build names that does not exist is the build failing', () => {
    const log = [
      '#9 [base 3/9] RUN apt-get update && apt-get install -y python3.12-venv',
      '#9 4.210 Reading package lists...',
      '#9 4.912 E: Unable to locate package python3.12-venv',
      '#9 ERROR: process "/bin/sh -c apt-get update && apt-get install -y python3.12-venv" did not complete successfully: exit code: 100',
      'ERROR: failed to solve: process "/bin/sh -c apt-get update && apt-get install -y python3.12-venv" did not complete successfully: exit code: 100',
    ].join('\n');
    expect(cls(log)).toBe('image.build_failure');
  });

  it('a retry pip recovered from does not explain a build that failed later for another reason', () => {
    const log = [
      "#8 3.101 WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)\")': /simple/ninja/",
      '#8 9.554 Successfully installed ninja-1.11.1.3',
      '#8 41.20 ERROR: Failed building wheel for flash-attn',
      '#8 ERROR: process "/bin/sh -c pip install flash-attn --no-build-isolation" did not complete successfully: exit code: 1',
      'ERROR: failed to solve: process "/bin/sh -c pip install flash-attn --no-build-isolation" did not complete successfully: exit code: 1',
    ].join('\n');
    expect(cls(log)).toBe('image.build_failure');
  });

  it("pip giving up on an index it could not reach is the network, not the requirement (the run's own setup)", () => {
    const log = [
      '$ pip install -r requirements.txt',
      "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f3b2c1e4d90>: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution')': /simple/transformers/",
      'ERROR: Could not find a version that satisfies the requirement transformers==4.46.0 (from versions: none)',
      'ERROR: No matching distribution found for transformers==4.46.0',
    ].join('\n');
    expect(cls(log)).toBe('network.error');
    // Without the failed fetch the same requirement is the setup's own.
    expect(cls(log.split('\n').slice(2).join('\n'))).toBe('config.error');
  });

  it("a git clone inside pip that was reset is the network, not pip's subprocess error", () => {
    const log = [
      '  Running command git clone --filter=blob:none --quiet https://github.com/huggingface/peft.git /tmp/pip-install-qp3u6wif/peft_bb11',
      "  fatal: unable to access 'https://github.com/huggingface/peft.git/': Recv failure: Connection reset by peer",
      '  error: subprocess-exited-with-error',
      '  note: This error originates from a subprocess, and is likely not a problem with pip.',
      'error: subprocess-exited-with-error',
    ].join('\n');
    expect(cls(log)).toBe('network.error');
  });

  it("npm's network codes are the network, its other codes the agent install as before", () => {
    expect(cls('npm error code EAI_AGAIN\nnpm error syscall getaddrinfo\nnpm error errno EAI_AGAIN\nnpm error request to https://registry.npmjs.org/@openai%2fcodex failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org')).toBe('network.error');
    expect(cls('npm ERR! code ETIMEDOUT\nnpm ERR! network request to https://registry.npmjs.org/@google%2fgemini-cli failed, reason: connect ETIMEDOUT 104.16.3.35:443')).toBe('network.error');
    expect(cls('npm error code ETARGET\nnpm error notarget No matching version found for @anthropic-ai/claude-code@9.9.9.')).toBe('agent.setup_failure');
  });

  it("in an agent's log, counts only while the agent never reached a model", () => {
    const install = "E: Package 'nodejs' has no installation candidate";
    expect(cls(install, AGENT_SETUP)).toBe('agent.setup_failure');
    const working = `{"type":"assistant","message":{"usage":{"input_tokens":18234,"output_tokens":512}}}\n${install}\nuv pip install nosuchpkg\n  × No solution found when resolving dependencies:`;
    expect(cls(working, 'agent/claude-code.txt')).not.toBe('agent.setup_failure');
    expect(cls('fatal: unable to access \'https://github.com/acme/tool.git/\': Could not resolve host: github.com', AGENT_SETUP)).toBe('network.error');
  });

  it('a shell script testing for the wording is no failure', () => {
    expect(classifyText("if apt-get install -y foo 2>&1 | grep -q 'Unable to locate package'; then echo skip; fi").evidence.map((e) => e.rule)).not.toContain('pkg.unresolved');
  });

  it('a corrupt download in a build, with the build failing, stays the build (a bad cache layer, not the network)', () => {
    const log = [
      '0.491 Err:3 http://deb.debian.org/debian-security bookworm-security InRelease',
      '0.491   At least one invalid signature was encountered.',
      "0.503 E: The repository 'http://deb.debian.org/debian bookworm InRelease' is not signed.",
      'failed to solve: process "/bin/sh -c apt-get update && apt-get install -y build-essential" did not complete successfully: exit code: 100',
    ].join('\n');
    expect(cls(log)).toBe('image.build_failure');
  });
});
