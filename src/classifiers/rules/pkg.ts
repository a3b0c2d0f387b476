// Package managers and source fetchers (apt/dpkg, apk, pip, uv, conda, npm, pnpm, yarn, cargo, go, git, curl, wget) failing inside an
// image build, an agent's install or a run's own setup: every entry of the table in pkg-vocab.ts (sources
// there), read by the template its producer prints. The narrower rules that read some of the same lines
// (network.dns / network.connection / network.tls at 58–61, the config rules at ≥ 78, build.failed at 75,
// agent.install_step_failed at 44) keep first place: the network readings here (57) sit just below
// network.connection and above network.max_retries (52) and api.request_timeout (50); only npm's own network
// codes are stronger (61, the entry's strength), so they outrank agent.npm_install_error's
// agent.setup_failure for the same line; everything else is below build.failed, whose step line decides a build.
// Where the line was printed decides what a package that cannot be found means (pkg-vocab.ts
// PLACED_CLASS): the run's own setup (config.error), a build step (image.build_failure) or an agent's
// install (agent.setup_failure, pkg.agent_install, counted only while the agent never reached a model).
// A fetch that failed on the network before it explains both a "not found" and the build step failing
// (relations.ts `index-unreachable`, `build-fetch-failed`): apt and pip report a package missing when they
// could not read the index at all.
import { defineRules, type Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import {
  BUILD_STEP_LINE,
  CURL_CODES,
  CURL_LINE,
  curlGroup,
  entryOf,
  PKG_ERRORS,
  type PkgError,
  type PkgGroup,
  PLACED_CLASS,
  type PlacedGroup,
  reasonGroup,
} from './pkg-vocab.js';
import { TRACKER_NOISE } from './network.js';
import { RETRIED_STRENGTH } from './severity.js';

/**
 * A fetch that never got an answer: below network.connection (58), network.dns (60) and network.tls (61),
 * whose narrower readings of the same wordings come first (git's and curl's "Could not resolve host",
 * apt's "Network is unreachable"); above network.max_retries (52) and api.request_timeout (50).
 */
const NETWORK_STRENGTH = 57;

const PLACED: readonly PkgGroup[] = ['missing', 'conflict', 'denied', 'request', 'integrity', 'step'];
const NETWORK: readonly PkgGroup[] = ['network', 'retry', 'dropped'];

/** The curl codes of the given groups, as one pattern ("curl: (6) …"); the number decides in `readLine`. */
function curlPattern(groups: readonly PkgGroup[]): RegExp {
  const codes = CURL_CODES.filter(([, , , g]) => groups.includes(g)).map(([c]) => c);
  return new RegExp(String.raw`\bcurl: \((?:${codes.join('|')})\) `);
}

const entriesOf = (groups: readonly PkgGroup[]): PkgError[] => PKG_ERRORS.filter((x) => groups.includes(x.group));
/** Git's and apt's reason-carrying lines are read by every rule: the reason's group then decides. */
const REASON = entriesOf(['reason']);
const patternsOf = (groups: readonly PkgGroup[]): RegExp[] => [...entriesOf(groups).map((x) => x.template), ...REASON.map((x) => x.template), curlPattern([...groups, 'reason'])];

interface Read {
  group: PkgGroup;
  name: string;
  /** The entry's own strength, where it has one (PkgError.strength). */
  strength?: number;
}

/** What a line says: the table's entry (the first that matches, table order), else curl's code; a reason entry is read through its reason. */
function readLine(line: string, groups: readonly PkgGroup[]): Read | undefined {
  const entry = entryOf(line, [...entriesOf(groups), ...REASON]);
  if (entry && entry.group !== 'reason') return { group: entry.group, name: `${entry.producer}: ${entry.name}`, strength: entry.strength };
  if (entry) {
    const m = entry.template.exec(line)!;
    const g = reasonGroup(line.slice(m.index + m[0].length - 1));
    return g ? { group: g, name: `${entry.producer}: ${entry.name}` } : undefined;
  }
  const c = CURL_LINE.exec(line);
  if (!c) return undefined;
  const code = Number(c[1]);
  let g = curlGroup(code);
  if (g === 'reason') g = reasonGroup(line.slice(c.index + c[0].length));
  const name = CURL_CODES.find(([n]) => n === code)?.[1] ?? `curl ${code}`;
  return g ? { group: g, name: `curl: ${name}` } : undefined;
}

const HINTS: Record<'network' | 'dropped' | 'placed' | 'integrity' | 'step', string> = {
  network: "A package manager or fetcher could not reach its source (DNS, connect, TLS, a proxy, a timeout): the run's network (or the build's: docker build --network=host, the daemon's DNS, a mirror reachable from the build) is the cause; everything that failed after it is its consequence. Check /etc/resolv.conf in the container, HTTP(S)_PROXY / NO_PROXY, the CA bundle, or point the tool at a reachable mirror.",
  dropped: 'A download broke off mid-transfer (reset, closed connection, a cut HTTP/2 stream): retry it; if it repeats, a proxy or the mirror is cutting long transfers (git: http.postBuffer / a shallow clone; curl/wget: --retry).',
  placed: "The package, version, file or repository asked for is not where the setup looks (a wrong name or pin, a version for another Python or platform, a stale package index, an end-of-life suite, a private or gated source without credentials): fix the requirement or the source (apt-get update in the same step, a pinned version that exists, a token for the private index).",
  integrity: 'What was downloaded does not match what was expected (hash, checksum or signature): a mirror mid-sync, a corrupting proxy or build cache (docker build --no-cache, apt-get clean), or a pinned hash that is out of date.',
  step: "A step of the install failed (a wheel that did not build, a maintainer script, the dpkg lock held by another apt, a Release file not valid yet because the clock is off): the lines just before it say why (a missing compiler or CUDA_HOME, a running unattended-upgrades, the host's clock).",
};

/** A line's class, strength and hint for a group, by where it was printed (the run's own log or a build step). */
function placedVerdict(group: PlacedGroup, line: string, agent: boolean): Extracted {
  const [run, build, install] = PLACED_CLASS[group];
  const cls: FailureClass | null = agent ? install : BUILD_STEP_LINE.test(line) ? build : run;
  if (!cls) return { classOverride: null };
  const hint = group === 'integrity' ? HINTS.integrity : group === 'step' ? HINTS.step : HINTS.placed;
  // A step that failed says less than a package that is not there: any cause in the bundle outranks it.
  const strength = agent ? 43 : group === 'step' ? (cls === 'config.error' ? 30 : 50) : group === 'integrity' ? 50 : 70;
  return { classOverride: cls, strength, hint };
}

function verdict(line: string, groups: readonly PkgGroup[], agent: boolean): Extracted {
  const read = readLine(line, groups);
  if (!read) return { classOverride: null };
  const base = { pkgError: read.name, pkgGroup: read.group };
  if (read.group === 'network') return { ...base, classOverride: 'network.error', strength: read.strength ?? NETWORK_STRENGTH, hint: HINTS.network };
  // A retry note decides only when nothing else does (the engine's own weight for one, severity.ts).
  if (read.group === 'retry') return { ...base, classOverride: 'network.error', strength: RETRIED_STRENGTH, hint: HINTS.network };
  if (read.group === 'dropped') return { ...base, classOverride: 'network.error', strength: 50, hint: HINTS.dropped };
  if ((PLACED as readonly string[]).includes(read.group)) return { ...base, ...placedVerdict(read.group as PlacedGroup, line, agent) };
  return { ...base, classOverride: null };
}

/** Source or prose that names a failure without having it: shell conditionals grepping for the text, experiment trackers retrying in the background. */
const NOT_A_FAILURE: readonly RegExp[] = [TRACKER_NOISE, /\bgrep\b|\bif \[|\|\| echo\b/];

const WHY = "a package manager or fetcher reported a failure of its own (pkg-vocab.ts), whose group says what failed";

export const pkgRules = defineRules([
  {
    // The fetch never got an answer, or a transfer broke off: the network, wherever it was printed.
    id: 'pkg.fetch_network',
    class: 'network.error',
    patterns: patternsOf(NETWORK),
    unless: NOT_A_FAILURE,
    strength: NETWORK_STRENGTH,
    sections: ['log'],
    extract: (line) => {
      const v = verdict(line, NETWORK, false);
      return v.classOverride === 'network.error' ? v : { classOverride: null };
    },
    why: WHY,
    hint: HINTS.network,
  },
  {
    // A package, version or source that is not there, requirements that cannot be met together, a refusal,
    // a corrupt download or a failed install step: the setup's own (config.error), a build step's
    // (image.build_failure by the line's BuildKit shape), below build.failed and every config rule.
    id: 'pkg.unresolved',
    class: 'config.error',
    patterns: patternsOf(PLACED),
    unless: NOT_A_FAILURE,
    strength: 70,
    sections: ['log'],
    extract: (line) => {
      const v = verdict(line, PLACED, false);
      return v.classOverride === 'network.error' ? { classOverride: null } : v;
    },
    why: WHY,
    hint: HINTS.placed,
  },
  {
    // The same vocabulary in an agent's own log (Harbor's agent/setup output, a Terminal-Bench session
    // before the agent starts): the agent's install failing, or the network under it. The engine counts it
    // only while the agent never reached a model (resolve.ts AGENT_INSTALL_RULES): afterwards the same
    // words are output of commands the agent ran for its task.
    id: 'pkg.agent_install',
    class: 'agent.setup_failure',
    patterns: patternsOf([...NETWORK, ...PLACED]),
    unless: NOT_A_FAILURE,
    // Below agent.install_step_failed (44), whose wordings keep their first place.
    strength: 43,
    sections: ['agent'],
    extract: (line) => verdict(line, [...NETWORK, ...PLACED], true),
    why: "a package manager or fetcher failed while the agent was being installed (pkg-vocab.ts)",
    hint: "The agent's install failed in a package manager or download: the package or version does not exist (pin one that does), the source refused (a token, a private index), or the sandbox has no network to the registry. Fix the install in the agent/image, then retry; the trial has no score.",
  },
  {
    // Summaries and consequences (pip's subprocess-exited-with-error, apt's "Some index files failed to
    // download", dpkg's exit code, git's "early EOF", npm's log location): judged, as nothing, so they are
    // no input of the vocabulary fallback either; the line they follow decides.
    id: 'pkg.quiet',
    class: 'unknown',
    patterns: entriesOf(['echo']).map((x) => x.template),
    strength: 1,
    extract: () => ({ classOverride: null }),
    why: 'a package manager summary or consequence line (pkg-vocab.ts group echo)',
    hint: 'No failure of its own: the line before it says what failed.',
  },
]);
