// The package managers' and source fetchers' own error vocabularies, as data: what apt/dpkg, pip, uv,
// conda, npm, git, curl and wget print when an install or a download fails, each put in a group that says
// what the failure means for a run. rules/pkg.ts reads a line through this table (pkg.fetch_network,
// pkg.unresolved, pkg.agent_install, pkg.quiet); the narrower rules that already read some of these lines
// (network.dns, network.connection, network.tls, network.max_retries, config.hub_repo,
// agent.install_step_failed, agent.npm_install_error, disk.*) keep them: their entries below are `elsewhere`
// and name the rule.
//
// Sources (read in each producer's repository, at the commit named):
// - apt 3.1.12 (Debian/apt 6b12812): methods/connect.cc (every resolver and connect error: "Could not
//   resolve '%s'", "Temporary failure resolving '%s'", "System error resolving '%s:%s'", "Something wicked
//   happened resolving '%s:%s' (%i - %s)", "Could not connect to %s:%s (%s).", "…, connection timed out",
//   "Cannot initiate the connection to %s:%s (%s).", "Unable to connect to %s:%s:"), methods/basehttp.cc and
//   http.cc ("Connection failed", "Connection timed out", "Error reading from server. Remote end closed
//   connection", "[IP: %s %s]" appended to a failing item), apt-pkg/acquire-item.cc ("Failed to fetch %s
//   %s" with two spaces, "Hash Sum mismatch", "The repository '%s' is not signed." / "does not have a
//   Release file." / "no longer has a Release file.", "Release file for %s is not valid yet (invalid for
//   another %s)." / "is expired (invalid since %s).", "OpenPGP signature verification failed"),
//   apt-pkg/update.cc ("Some index files failed to download. They have been ignored, or old ones used
//   instead."), apt-pkg/cacheset.cc ("Unable to locate package %s", "Version '%s' for '%s' was not
//   found", "Release '%s' for '%s' was not found", "Couldn't find any package by glob/regex '%s'", "Can't
//   select candidate version from package %s as it has no candidate"), apt-private/private-cacheset.cc
//   ("Package '%s' has no installation candidate"), apt-private/private-install.cc ("Unable to fetch some
//   archives, maybe run apt update or try with --fix-missing?", apt-get < 1.x says "apt-get update"),
//   apt-pkg/algorithms.cc ("Unable to correct problems, you have held broken packages."),
//   apt-private/private-output.cc ("The following packages have unmet dependencies:"),
//   apt-pkg/contrib/fileutl.cc ("Could not get lock %s. It is held by process %d (%s)", "Sub-process %s
//   returned an error code (%u)"), apt-pkg/deb/debsystem.cc ("Unable to acquire the dpkg frontend lock (%s),
//   is another process using it?", "Unable to lock the administration directory (%s), …", "dpkg was
//   interrupted, you must manually run '%s' to correct the problem."). apt prints an error as "E: <text>",
//   a warning as "W: <text>", and a failed item as "Err:N <uri>" with its reason on the next line, indented.
// - pip 26.2.1 (pypa/pip 6d30920): src/pip/_internal/resolution/resolvelib/factory.py ("Could not find a
//   %s that satisfies the requirement %s (from versions: %s)", DistributionNotFound "No matching
//   distribution found for %s", "Cannot install %s because these package versions have conflicting
//   dependencies.", "ResolutionImpossible: for help visit …"), index/collector.py ("Could not fetch URL %s:
//   %s - skipping", "There was a problem confirming the ssl certificate: %s"), exceptions/hashes.py
//   ("THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE."), exceptions/__init__.py
//   (ResolutionTooDeepError, DiagnosticPipError references "metadata-generation-failed",
//   "externally-managed-environment", InstallWheelBuildError "Failed to build installable wheels for some
//   pyproject.toml based projects"), exceptions/build.py ("subprocess-exited-with-error"),
//   operations/build/wheel.py ("Failed building wheel for %s"), commands/install.py ("Could not install
//   packages due to an OSError"), resolution/legacy/resolver.py ("Package %r requires a different Python:
//   …"), _vendor/urllib3/connectionpool.py ("Retrying (%r) after connection broken by '%r': %s"). pip prints
//   errors as "ERROR: <text>" and its diagnostic errors as "error: <reference>" then "× <message>".
// - uv 0.12.5 (astral-sh/uv 26a9dd4): crates/uv-client/src/error.rs ("Request failed after {retries}
//   {subject} in {duration}s", "Failed to fetch: `{0}`", "Package `{0}` was not found in the registry"),
//   uv-client/src/registry_client.rs and uv-distribution/src/distribution_database.rs ("Failed to download
//   distribution due to network timeout. Try increasing UV_HTTP_TIMEOUT …"), uv-distribution/src/error.rs
//   ("Hash mismatch for `{distribution}`", "Distribution not found at: {0}"), uv-resolver/src/error.rs ("No
//   solution found when resolving dependencies:"), uv-errors/src/lib.rs ("Because {x} was not found in the
//   package registry …"), uv/src/commands/build_frontend.rs ("Failed to build `{source}`"). uv prints
//   "error: <top>" then "Caused by: <cause>" lines (older: "  Caused by: …").
// - conda 26.7.1 (conda/conda 0f64223): conda/exceptions.py (CondaHTTPError "HTTP {status_code} {reason}
//   for url <{url}>" with reason "CONNECTION FAILED" and status "000" when no answer came, CondaSSLError,
//   ProxyError "Conda cannot proceed due to an error in your proxy configuration.",
//   PackagesNotFoundError / PackagesNotFoundInChannelsError "The following packages are not available from
//   current channels:", ResolvePackageNotFound, UnsatisfiableError "The following specifications were found
//   to be incompatible …", ChecksumMismatchError "Conda detected a mismatch between the expected content and
//   downloaded content", EnvironmentNotWritableError, NoSpaceLeftError "No space left on devices."). conda
//   prints "<ClassName>: <message>"; libmamba's solver "Could not solve for environment specs" and
//   LibMambaUnsatisfiableError.
// - npm 10.9.0 (npm/cli 780afc5): lib/utils/error-message.js (ECONNRESET, ENOTFOUND, ETIMEDOUT,
//   ERR_SOCKET_TIMEOUT, EAI_FAIL summarised as "network"; ECONNREFUSED; the other codes), with
//   minipass-fetch's FetchError "request to {url} failed, reason: {message}". npm ≥ 10 prints "npm error
//   code X" / "npm error network …", older npm "npm ERR! code X".
// - git 2.55 (git/git 1a3e64c): remote-curl.c ("repository '%s' not found", "Authentication failed for
//   '%s'", "unable to access '%s': %s" with curl's error buffer, "RPC failed; %s"), builtin/index-pack.c
//   ("early EOF"), pkt-line.c ("the remote end hung up unexpectedly"), connect.c ("Could not read from
//   remote repository."). git prints "fatal: <text>" / "error: <text>".
// - curl 8.22 (curl/curl 5c61e16): include/curl/curl.h (every CURLcode and its number), lib/strerror.c
//   (curl_easy_strerror's text for each). The tool prints "curl: (N) <error buffer>", the buffer being
//   the detailed message ("Could not resolve host: x", "Failed to connect to x port 443 after 3 ms:
//   Couldn't connect to server", "The requested URL returned error: 404").
// - GNU wget 1.21 (src/host.c "unable to resolve host address %s", "failed: %s."; src/http.c "ERROR %d:
//   %s.", "Unable to establish SSL connection."; src/retr.c "Read error (%s) in headers.").
// - apk-tools 3.0.6 (alpinelinux/apk-tools 90b974f) and 2.14.0: src/print.c apk_error_str (v3 "DNS: transient
//   error (try again later)", "DNS: name does not exist", "TLS: server certificate not trusted", "could not
//   find a repo which provides this package (check repositories file and run 'apk update')", "package
//   mentioned in index not found (try 'apk update')", "UNTRUSTED signature", "BAD signature"; v2 "temporary
//   error (try again later)", "DNS lookup error", "network error (check Internet connection and firewall)",
//   "could not connect to server (check repositories file)"), src/database.c (the warning "%s <index url>:
//   <error>" with "fetching"/"updating"/"opening", "Not continuing due to stale/unavailable
//   repositories."), src/commit.c ("unable to select packages:", "%s (no such package)"). apk prints
//   "ERROR: …" / "WARNING: …".
// - cargo 0.101 (rust-lang/cargo af373f7): src/cargo/util/network/retry.rs ("spurious network error ({n}
//   {tries} remaining): {err}"), core/package.rs ("failed to download from `{url}`"), core/resolver/errors.rs
//   ("no matching package named `{}` found", "failed to select a version for the requirement `{} = \"{}\"`",
//   "failed to select a version for `{}`."), sources/registry/download.rs ("failed to verify the checksum of
//   `{}`"), core/resolver/resolve.rs ("checksum for `{}` changed between lock files"), sources/git/utils.rs
//   ("failed to authenticate when downloading repository"). cargo prints "error: …" / "warning: …" and its
//   causes as "Caused by:".
// - pnpm 11 (pnpm/pnpm 36e5ae6): core/error/src/index.ts (PnpmError codes "ERR_PNPM_<code>", FetchError
//   "FETCH_<status>": "GET <url>: <statusText> - <status>"), resolving/npm-resolver (META_FETCH_FAIL "GET
//   <uri>: <error>", NO_MATCHING_VERSION "No matching version found for <dep> while fetching it from
//   <registry>"), worker and binary-fetcher (TARBALL_INTEGRITY), deps-installer (PEER_DEP_ISSUES "Unmet peer
//   dependencies"). pnpm prints " ERR_PNPM_<CODE>  <message>".
// - yarn 1.23 (yarnpkg/yarn c2dda50): src/reporters/lang/en.js (offlineRetrying "There appears to be trouble
//   with your network connection. Retrying...", packageNotFoundRegistry / requiredPackageNotFoundRegistry
//   "Couldn't find package $0 [required by $1] on the $2 registry.", couldntFindVersionThatMatchesRange
//   "Couldn't find any versions for $0 that matches $1", integrityCheckFailed "Integrity check failed").
// - Go's module fetcher (golang/go src/cmd/go/internal/modfetch, as its own test scripts word it:
//   "go: <mod>@<v>: verifying module: checksum mismatch" / "verifying <mod>@<v>/go.mod: checksum mismatch",
//   then "SECURITY ERROR"; "reading https://proxy.golang.org/…: 404 Not Found", "invalid version: unknown
//   revision <v>", "no matching versions for query"). Its network failures are Go's net errors
//   (rules/node-go-grpc-vocab.ts).

import type { FailureClass } from '../taxonomy.js';

/**
 * What a failure says about the run:
 * - network: the fetch never got an answer (DNS, connect, TLS, a proxy, a timeout): network.error, in a
 *   build too (the build failing is the symptom);
 * - retry: the tool says it will try the fetch again (pip's vendored urllib3, cargo's spurious network
 *   error, yarn's "Retrying..."): network.error at the weight the engine gives any retry note
 *   (severity.ts RETRIED_STRENGTH), so it decides only when nothing else does, and explains the "not
 *   found" that follows a give-up;
 * - dropped: a transfer that had started broke off (reset, a closed connection, a cut HTTP/2 stream):
 *   network.error, weaker (the other end or a proxy may have died of its own failure);
 * - missing: the package, version, file or repository asked for does not exist where the run looks for
 *   it (a wrong name or pin, a stale index, an end-of-life suite): the setup's own choice: config.error in
 *   the run's own setup, image.build_failure on a build step's line, agent.setup_failure in an agent's
 *   install;
 * - conflict: the requirements cannot be satisfied together (resolver gave up, unmet dependencies, a
 *   Python version the package excludes): as missing;
 * - denied: the source or the target refused (401/403, no credentials, a gated or private repository, an
 *   environment that is not writable or is externally managed): as missing;
 * - request: the command was given something it cannot use at all (a malformed URL, an unsupported
 *   protocol, a local certificate or CA path that does not load): as missing;
 * - integrity: what arrived is not what was expected (hash or checksum mismatch, a bad signature): a
 *   build step or an agent install failing; in the run's own log the line cannot say whether the pin or
 *   the mirror is wrong, so no class (a cache or mirror problem as often as a wrong hash);
 * - step: a step of the install failed for a reason the lines above it give (a wheel that did not build,
 *   a maintainer script, the dpkg lock held by another apt, a Release file not valid yet because the
 *   clock is off): a build step's or an agent install's failure; in the run's own log a weak config.error
 *   that any cause in the bundle outranks;
 * - reason: the line carries another producer's reason (git's "unable to access" with curl's text, apt's
 *   "Failed to fetch" with its status): the reason decides;
 * - echo: a summary or consequence of a failure printed before it (pip's subprocess-exited-with-error, apt's
 *   "Some index files failed to download", npm's log location): judged, as nothing;
 * - elsewhere: a narrower rule of another family already reads it (named in `readBy`): not read here;
 * - skip: nothing a run meets (FTP, LDAP, TFTP, RTSP, a libcurl API misuse) or too generic on its own.
 */
export type PkgGroup = 'network' | 'retry' | 'dropped' | 'missing' | 'conflict' | 'denied' | 'request' | 'integrity' | 'step' | 'reason' | 'echo' | 'elsewhere' | 'skip';

export type PkgProducer = 'apt' | 'dpkg' | 'apk' | 'pip' | 'uv' | 'conda' | 'npm' | 'pnpm' | 'yarn' | 'cargo' | 'go' | 'git' | 'curl' | 'wget' | 'huggingface_hub';

export interface PkgError {
  producer: PkgProducer;
  /** The producer's name for it: its class or constant, else its message id (the source's own words). */
  name: string;
  /** How the producer prints it, as a pattern over a log line (never anchored: BuildKit and agents prefix lines). */
  template: RegExp;
  /** A line in the producer's real output format, authored for the tests. */
  line: string;
  group: PkgGroup;
  /** For `elsewhere`: the rule that reads it, and the class it gives. */
  readBy?: { rule: string; class: FailureClass };
  /** The strength of its reading where it must differ from its group's (rules/pkg.ts). */
  strength?: number;
}

const p = (producer: PkgProducer, name: string, template: RegExp, line: string, group: PkgGroup): PkgError => ({ producer, name, template, line, group });
const other = (producer: PkgProducer, name: string, template: RegExp, line: string, rule: string, cls: FailureClass): PkgError => ({ producer, name, template, line, group: 'elsewhere', readBy: { rule, class: cls } });

export const APT_ERRORS: readonly PkgError[] = [
  // methods/connect.cc: the resolver (EAI_AGAIN, EAI_NONAME, EAI_SYSTEM, anything else) and the connect.
  p('apt', 'TmpResolveFailure', /Temporary failure resolving '[^'\s]{1,253}'/, "W: Failed to fetch http://archive.ubuntu.com/ubuntu/dists/jammy/InRelease  Temporary failure resolving 'archive.ubuntu.com'", 'network'),
  p('apt', 'ResolveFailure', /Could not resolve '[^'\s]{1,253}'/, "Err:1 http://deb.debian.org/debian bookworm InRelease\n  Could not resolve 'deb.debian.org'", 'network'),
  p('apt', 'System error resolving', /System error resolving '[^'\s]{1,260}'/, "Err:2 http://security.debian.org/debian-security bookworm-security InRelease\n  System error resolving 'security.debian.org:http' - getaddrinfo (16: Device or resource busy)", 'network'),
  p('apt', 'Something wicked happened resolving', /Something wicked happened resolving '/, "Err:1 http://archive.ubuntu.com/ubuntu noble InRelease\n  Something wicked happened resolving 'archive.ubuntu.com:http' (-5 - No address associated with hostname)", 'network'),
  p('apt', 'ConnectionTimedOut / ConnectionRefused', /Could not connect to [^\s:]{1,253}:\w{1,10} \([^)\s]{1,60}\)/, "Err:3 http://archive.ubuntu.com/ubuntu jammy-updates InRelease\n  Could not connect to archive.ubuntu.com:80 (185.125.190.36), connection timed out", 'network'),
  p('apt', 'Cannot initiate the connection', /Cannot initiate the connection to [^\s:]{1,253}:\w{1,10} /, "Err:1 http://deb.debian.org/debian bookworm InRelease\n  Cannot initiate the connection to deb.debian.org:80 (2a04:4e42::644). - connect (101: Network is unreachable)", 'network'),
  p('apt', 'Unable to connect', /Unable to connect to [^\s:]{1,253}:\w{1,10}:/, "Err:4 http://archive.ubuntu.com/ubuntu jammy-backports InRelease\n  Unable to connect to archive.ubuntu.com:http:", 'network'),
  // basehttp.cc / http.cc: the connection failed or timed out (apt appends the peer, "[IP: addr port]").
  p('apt', 'Connection failed', /\bConnection (?:failed|timed out) \[IP: /, "Err:7 http://archive.ubuntu.com/ubuntu jammy/main amd64 libc6 amd64 2.35-0ubuntu3.8\n  Connection failed [IP: 185.125.190.39 80]", 'network'),
  p('apt', 'Error reading from server', /Error reading from server\. Remote end closed connection/, "Err:12 http://deb.debian.org/debian bookworm/main amd64 gcc-12 amd64 12.2.0-14\n  Error reading from server. Remote end closed connection [IP: 151.101.2.132 80]", 'dropped'),
  // acquire-item.cc "Failed to fetch %s  %s": the status after the URI decides (a pool file 404 is a stale package index).
  p('apt', 'Failed to fetch (404/410)', /Failed to fetch \S{1,500}  (?:404  Not Found|410  Gone)/, 'E: Failed to fetch http://archive.ubuntu.com/ubuntu/pool/main/c/curl/curl_7.81.0-1ubuntu1.15_amd64.deb  404  Not Found [IP: 185.125.190.36 80]', 'missing'),
  p('apt', 'Failed to fetch (401/403)', /Failed to fetch \S{1,500}  (?:401  Unauthorized|403  Forbidden)/, 'E: Failed to fetch https://nvidia.jfrog.io/artifactory/api/deb/internal/dists/jammy/InRelease  401  Unauthorized [IP: 3.231.87.15 443]', 'denied'),
  p('apt', 'Hash Sum mismatch', /Hash Sum mismatch/, 'E: Failed to fetch http://deb.debian.org/debian/dists/bookworm-updates/main/binary-amd64/Packages.xz  Hash Sum mismatch', 'integrity'),
  p('apt', 'Signature error (GPG)', /At least one invalid signature was encountered|NO_PUBKEY [0-9A-F]{8}|OpenPGP signature verification failed/, 'W: GPG error: http://deb.debian.org/debian bookworm InRelease: At least one invalid signature was encountered.', 'integrity'),
  // The sources.list names a repository or suite that is not there (end of life, a typo, an unpublished arch).
  p('apt', 'InsecureType UNSIGNED / NORELEASE', /The repository '[^']{1,300}' (?:is not signed|does not have a Release file|no longer has a Release file|is no longer signed)\./, "E: The repository 'http://archive.ubuntu.com/ubuntu mantic Release' does not have a Release file.", 'missing'),
  p('apt', 'Release file expired / not valid yet', /Release file for \S{1,300} is (?:not valid yet|expired) \(invalid /, 'E: Release file for http://deb.debian.org/debian/dists/bookworm-updates/InRelease is not valid yet (invalid for another 5h 12min 3s). Updates for this repository will not be applied.', 'step'),
  p('apt', 'Some index files failed to download', /Some index files failed to download\. They have been ignored/, 'W: Some index files failed to download. They have been ignored, or old ones used instead.', 'echo'),
  p('apt', 'Unable to fetch some archives', /Unable to fetch some archives, maybe run apt(?:-get)? update or try with --fix-missing\?/, 'E: Unable to fetch some archives, maybe run apt-get update or try with --fix-missing?', 'echo'),
  // cacheset.cc / private-cacheset.cc: the package or version asked for is not in the index.
  p('apt', 'Unable to locate package', /Unable to locate package [\w.+:${}-]/, 'E: Unable to locate package python3.12-venv', 'missing'),
  p('apt', 'has no installation candidate', /Package '[^']{1,200}' has no installation candidate/, "E: Package 'libgl1-mesa-glx' has no installation candidate", 'missing'),
  p('apt', 'Version / Release was not found', /(?:Version|Release) '[^']{1,100}' for '[^']{1,200}' was not found/, "E: Version '12.4.1-1' for 'cuda-toolkit-12-4' was not found", 'missing'),
  p('apt', "Couldn't find any package by glob/regex", /Couldn't find any package by (?:glob|regex) '/, "E: Couldn't find any package by glob 'libcudnn8*'", 'missing'),
  p('apt', 'no candidate', /Can't select candidate version from package \S{1,200} as it has no candidate/, "E: Can't select candidate version from package nvidia-container-toolkit as it has no candidate", 'missing'),
  p('apt', 'held broken packages', /Unable to correct problems, you have held broken packages\./, 'E: Unable to correct problems, you have held broken packages.', 'conflict'),
  p('apt', 'unmet dependencies', /The following packages have unmet dependencies:/, 'The following packages have unmet dependencies:', 'conflict'),
  // The dpkg database is busy or half-configured: another apt (unattended-upgrades at boot) or a killed one.
  p('apt', 'Could not get lock', /Could not get lock \/var\/(?:lib|cache)\/(?:dpkg|apt)\S{0,60}/, 'E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1822 (unattended-upgr)', 'step'),
  p('apt', 'Unable to acquire the dpkg frontend lock', /Unable to (?:acquire the dpkg frontend lock|lock the administration directory) \(/, 'E: Unable to acquire the dpkg frontend lock (/var/lib/dpkg/lock-frontend), is another process using it?', 'step'),
  p('apt', 'dpkg was interrupted', /dpkg was interrupted, you must manually run '/, "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem.", 'step'),
  // fileutl.cc / dpkgpm.cc: dpkg's own exit, after its own error (echo).
  p('apt', 'Sub-process returned an error code', /Sub-process \/usr\/bin\/dpkg returned an error code \(\d+\)/, 'E: Sub-process /usr/bin/dpkg returned an error code (1)', 'echo'),
];

export const DPKG_ERRORS: readonly PkgError[] = [
  // dpkg's main error for a package whose maintainer script or unpack failed (src/main/errors.c print_error_perpackage).
  p('dpkg', 'error processing package', /dpkg: error processing (?:package|archive) \S{1,300} \(/, 'dpkg: error processing package nvidia-dkms-550 (--configure):', 'step'),
];

export const PIP_ERRORS: readonly PkgError[] = [
  p('pip', 'DistributionNotFound (no version satisfies)', /Could not find a version that satisfies the requirement \S/, 'ERROR: Could not find a version that satisfies the requirement torch==2.9.7 (from versions: 2.5.0, 2.5.1, 2.6.0, 2.7.0)', 'missing'),
  p('pip', 'DistributionNotFound', /No matching distribution found for \S/, 'ERROR: No matching distribution found for flash-attn==9.9.9', 'missing'),
  p('pip', 'ResolutionImpossible', /ResolutionImpossible: for help visit |because these package versions have conflicting dependencies\./, 'ERROR: Cannot install -r requirements.txt (line 3) and transformers==4.30.0 because these package versions have conflicting dependencies.', 'conflict'),
  p('pip', 'ResolutionTooDeepError', /\bResolutionTooDeep(?:Error)?\b/, 'error: resolution-too-deep\n\n× Dependency resolution exceeded maximum depth\n╰─> Pip cannot resolve the current dependencies as the dependency graph is too complex for pip to solve efficiently.\npip._internal.exceptions.ResolutionTooDeepError', 'conflict'),
  p('pip', 'requires a different Python', /requires a different Python: [\d.]{1,20} not in '/, "ERROR: Package 'vllm' requires a different Python: 3.8.10 not in '<3.13,>=3.9'", 'conflict'),
  p('pip', 'externally-managed-environment', /error: externally-managed-environment/, 'error: externally-managed-environment', 'denied'),
  // index/collector.py _handle_get_simple_fail: an index page that could not be fetched (the SSL case is logged at warning level).
  p('pip', 'Could not fetch URL', /Could not fetch URL https?:\/\/\S{1,300}: (?:There was a problem confirming the ssl certificate|connection error)/, "Could not fetch URL https://pypi.org/simple/pip/: There was a problem confirming the ssl certificate: HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/pip/ (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate (_ssl.c:1000)'))) - skipping", 'network'),
  // Vendored urllib3's retry warning: a note while retrying (the engine weighs retry lines low), the give-up follows.
  p('pip', 'urllib3 Retrying', /Retrying \(Retry\(total=\d+, [^)]{0,200}\)\) after connection broken by '/, "WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f0c2a4d5f90>: Failed to establish a new connection: [Errno 101] Network is unreachable')': /simple/numpy/", 'retry'),
  p('pip', 'HashMismatch', /THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE/, 'ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, please update the hashes. Otherwise, examine the package contents carefully; someone may have tampered with them.', 'integrity'),
  p('pip', 'Failed building wheel', /Failed building wheel for \S/, 'ERROR: Failed building wheel for flash-attn', 'step'),
  p('pip', 'InstallWheelBuildError', /Failed to build installable wheels for some pyproject\.toml based projects|Could not build wheels for \S{1,100}, which is required to install pyproject\.toml-based projects/, 'ERROR: Failed to build installable wheels for some pyproject.toml based projects (flash-attn)', 'step'),
  p('pip', 'metadata-generation-failed', /error: metadata-generation-failed/, 'error: metadata-generation-failed', 'step'),
  p('pip', 'subprocess-exited-with-error', /error: subprocess-exited-with-error|This error originates from a subprocess, and is likely not a problem with pip/, 'error: subprocess-exited-with-error', 'echo'),
  // commands/install.py create_os_error_message: the OSError's errno decides (disk.full, config.path_permission).
  other('pip', 'OSError (ENOSPC)', /Could not install packages due to an OSError: \[Errno 28\]/, 'ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device', 'disk.enospc', 'disk.full'),
];

export const UV_ERRORS: readonly PkgError[] = [
  p('uv', 'No solution found', /No solution found when resolving (?:\S{1,40} )?dependencies/, '  × No solution found when resolving dependencies:\n  ╰─▶ Because torch==2.9.7 has no wheels with a matching platform tag and you require torch==2.9.7, we can conclude that your requirements are unsatisfiable.', 'conflict'),
  p('uv', 'was not found in the package registry', /was not found in the package registry/, '  ╰─▶ Because flash-attention was not found in the package registry and you require flash-attention, we can conclude that your requirements are unsatisfiable.', 'missing'),
  p('uv', 'PackageNotFound', /Package `[^`]{1,200}` was not found in the registry/, 'error: Package `vllm-nightly` was not found in the registry', 'missing'),
  p('uv', 'Distribution not found', /Distribution not found at: \S/, 'error: Distribution not found at: file:///workspace/wheels/flash_attn-2.7.4-cp312-cp312-linux_x86_64.whl', 'missing'),
  p('uv', 'Request failed after retries', /Request failed after \d+ retr(?:y|ies)\b/, 'error: Request failed after 3 retries in 11.4s', 'network'),
  p('uv', 'network timeout', /Failed to download distribution due to network timeout/, 'error: Failed to download distribution due to network timeout. Try increasing UV_HTTP_TIMEOUT (current value: 30s).', 'network'),
  p('uv', 'Hash mismatch', /Hash mismatch for `[^`]{1,200}`/, 'error: Hash mismatch for `numpy==2.1.3`', 'integrity'),
  p('uv', 'Failed to build', /Failed to build `[^`]{1,300}`/, '  × Failed to build `flash-attn==2.7.4.post1`', 'step'),
];

export const CONDA_ERRORS: readonly PkgError[] = [
  // CondaHTTPError: status 000 and "CONNECTION FAILED" when no answer came; else the status decides.
  p('conda', 'CondaHTTPError (000 CONNECTION FAILED)', /CondaHTTPError: HTTP 000 CONNECTION FAILED for url/, 'CondaHTTPError: HTTP 000 CONNECTION FAILED for url <https://conda.anaconda.org/conda-forge/linux-64/repodata.json>', 'network'),
  p('conda', 'CondaHTTPError (404)', /CondaHTTPError: HTTP 404 [A-Z ]{1,40} for url/, 'CondaHTTPError: HTTP 404 NOT FOUND for url <https://conda.anaconda.org/nvidia/label/cuda-12.9.9/linux-64/repodata.json>', 'missing'),
  p('conda', 'CondaHTTPError (401/403)', /CondaHTTPError: HTTP 40[13] [A-Z ]{1,40} for url/, 'CondaHTTPError: HTTP 403 FORBIDDEN for url <https://repo.anaconda.com/pkgs/main/linux-64/current_repodata.json>', 'denied'),
  p('conda', 'CondaSSLError', /\bCondaSSLError\b/, 'CondaSSLError: Encountered an SSL error. Most likely a certificate verification issue.', 'network'),
  p('conda', 'ProxyError', /Conda cannot proceed due to an error in your proxy configuration/, 'ProxyError: Conda cannot proceed due to an error in your proxy configuration.', 'network'),
  p('conda', 'PackagesNotFoundError', /\bPackagesNotFound(?:InChannels)?Error\b|The following packages are not available from current channels/, 'PackagesNotFoundError: The following packages are not available from current channels:', 'missing'),
  p('conda', 'ResolvePackageNotFound', /\bResolvePackageNotFound\b/, 'ResolvePackageNotFound: \n  - cudatoolkit=11.0', 'missing'),
  p('conda', 'UnsatisfiableError', /\b(?:LibMamba)?UnsatisfiableError\b|Could not solve for environment specs/, 'UnsatisfiableError: The following specifications were found to be incompatible with each other:', 'conflict'),
  p('conda', 'ChecksumMismatchError', /\bChecksumMismatchError\b|Conda detected a mismatch between the expected content and downloaded content/, "ChecksumMismatchError: Conda detected a mismatch between the expected content and downloaded content\nfor url 'https://conda.anaconda.org/conda-forge/linux-64/libcublas-12.4.5.8-0.conda'.", 'integrity'),
  p('conda', 'EnvironmentNotWritableError', /\bEnvironmentNotWritableError\b|NoWritable(?:Pkgs|Envs)DirError/, 'EnvironmentNotWritableError: The current user does not have write permissions to the target environment.', 'denied'),
  other('conda', 'NoSpaceLeftError', /\bNoSpaceLeftError\b/, 'NoSpaceLeftError: No space left on devices.', 'disk.enospc', 'disk.full'),
];

export const NPM_ERRORS: readonly PkgError[] = [
  // error-message.js: these codes are npm's "network" summary; ECONNREFUSED its own case. (The other codes,
  // E404/ETARGET/ERESOLVE/EACCES, are agent.npm_install_error's: an agent CLI's install.)
  // Stronger than agent.npm_install_error (60), which reads every "npm error code E…" line as the agent's
  // install: npm itself files these codes under "network" (the only pkg entry above the network rules).
  { ...p('npm', 'network codes', /npm (?:error|ERR!) code (?:ECONNRESET|ENOTFOUND|ETIMEDOUT|ERR_SOCKET_TIMEOUT|EAI_FAIL|EAI_AGAIN|ECONNREFUSED)\b/, 'npm error code ETIMEDOUT', 'network'), strength: 61 },
  p('npm', 'network (FetchError)', /npm (?:error|ERR!) (?:network|errno) (?:request to \S{1,300} failed|This is a problem related to network connectivity)/, 'npm ERR! network request to https://registry.npmjs.org/@anthropic-ai%2fclaude-code failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org', 'network'),
  p('npm', 'A complete log of this run', /npm (?:error|ERR!) A complete log of this run can be found in/, 'npm error A complete log of this run can be found in: /root/.npm/_logs/2026-11-30T10_00_00_000Z-debug-0.log', 'echo'),
  other('npm', 'E404', /npm (?:error|ERR!) code E404\b/, 'npm error code E404', 'agent.npm_install_error', 'agent.setup_failure'),
];

export const GIT_ERRORS: readonly PkgError[] = [
  // remote-curl.c: "unable to access '%s': %s" carries curl's error buffer, which decides (reason).
  p('git', 'unable to access', /fatal: unable to access '[^']{1,500}': \S/, "fatal: unable to access 'https://github.com/huggingface/transformers.git/': Could not resolve host: github.com", 'reason'),
  p('git', 'repository not found', /fatal: repository '[^']{1,500}' not found/, "fatal: repository 'https://github.com/acme/private-evals.git/' not found", 'missing'),
  p('git', 'Authentication failed', /fatal: Authentication failed for '/, "fatal: Authentication failed for 'https://github.com/acme/private-evals.git/'", 'denied'),
  p('git', 'could not read Username', /could not read (?:Username|Password) for '[^']{1,300}': /, "fatal: could not read Username for 'https://github.com': No such device or address", 'denied'),
  p('git', 'ssh publickey denied', /Permission denied \(publickey(?:,[\w-]{1,40}){0,4}\)\./, 'git@github.com: Permission denied (publickey).', 'denied'),
  p('git', 'RPC failed', /error: RPC failed; (?:curl \d+|HTTP \d+)/, 'error: RPC failed; curl 56 GnuTLS recv error (-9): Error decoding the received TLS packet.', 'dropped'),
  p('git', 'early EOF / hung up / index-pack', /fatal: (?:early EOF|the remote end hung up unexpectedly|index-pack failed|fetch-pack: invalid index-pack output)|Could not read from remote repository\./, 'fatal: early EOF', 'echo'),
];

export const APK_ERRORS: readonly PkgError[] = [
  // database.c's warning for a repository index it could not fetch, with print.c's text (v3, then v2).
  p('apk', 'APKE_DNS_* / APKE_TLS_* / EAGAIN / ENXIO / ENETUNREACH / ECONNREFUSED', /: (?:DNS: (?:transient error \(try again later\)|non-recoverable failure|no address for host|name does not exist|address family for host not supported)|TLS: (?:unspecified error|server hostname mismatch|server certificate not trusted|handshake failed)|temporary error \(try again later\)|DNS lookup error|network error \(check Internet connection and firewall\)|could not connect to server \(check repositories file\))/, 'WARNING: updating and opening https://dl-cdn.alpinelinux.org/alpine/v3.20/main: DNS: transient error (try again later)', 'network'),
  p('apk', 'ECONNABORTED', /: network connection aborted$/, 'WARNING: fetching https://dl-cdn.alpinelinux.org/alpine/v3.18/community: network connection aborted', 'dropped'),
  p('apk', 'unable to select packages', /ERROR: unable to select packages:/, 'ERROR: unable to select packages:', 'missing'),
  p('apk', 'no such package', /\S \(no such package\):/, '  py3-torch (no such package):', 'missing'),
  p('apk', 'APKE_PACKAGE_NOT_FOUND / APKE_INDEX_STALE', /could not find a repo which provides this package|package mentioned in index not found \(try 'apk update'\)/, "ERROR: libstdc++-13.2.1_git20231014-r0: package mentioned in index not found (try 'apk update')", 'missing'),
  p('apk', 'APKE_SIGNATURE_UNTRUSTED / INVALID', /: (?:UNTRUSTED|BAD) signature$/, 'ERROR: https://dl-cdn.alpinelinux.org/alpine/v3.19/main: UNTRUSTED signature', 'integrity'),
  p('apk', 'stale/unavailable repositories', /Not continuing due to stale\/unavailable repositories/, 'ERROR: Not continuing due to stale/unavailable repositories.', 'echo'),
];

export const CARGO_ERRORS: readonly PkgError[] = [
  p('cargo', 'spurious network error', /spurious network error \(\d+ tr(?:y|ies) remaining\)/, 'warning: spurious network error (2 tries remaining): [6] Couldn\'t resolve host name (Could not resolve host: index.crates.io)', 'retry'),
  p('cargo', 'failed to download from', /failed to download from `https?:\/\/\S{1,300}`/, 'error: failed to download from `https://static.crates.io/crates/tokenizers/tokenizers-0.21.0.crate`', 'network'),
  p('cargo', 'no matching package named', /no matching package named `[^`]{1,200}` found/, 'error: no matching package named `candle-kernels-nightly` found', 'missing'),
  p('cargo', 'failed to select a version for the requirement', /failed to select a version for the requirement `[^`]{1,300}`/, 'error: failed to select a version for the requirement `tokenizers = "^9.1"`', 'missing'),
  p('cargo', 'failed to select a version', /failed to select a version for `[^`]{1,200}`\./, 'error: failed to select a version for `pyo3-ffi`.', 'conflict'),
  p('cargo', 'failed to verify the checksum', /failed to verify the checksum of `[^`]{1,200}`|checksum for `[^`]{1,200}` changed between lock files/, 'error: failed to verify the checksum of `safetensors v0.4.5`', 'integrity'),
  p('cargo', 'failed to authenticate when downloading', /failed to authenticate when downloading repository/, 'error: failed to authenticate when downloading repository', 'denied'),
];

export const PNPM_ERRORS: readonly PkgError[] = [
  p('pnpm', 'ERR_PNPM_META_FETCH_FAIL', /ERR_PNPM_META_FETCH_FAIL\b/, ' ERR_PNPM_META_FETCH_FAIL  GET https://registry.npmjs.org/@anthropic-ai%2Fclaude-code: request to https://registry.npmjs.org/@anthropic-ai%2Fclaude-code failed, reason: connect ETIMEDOUT 104.16.0.35:443', 'network'),
  p('pnpm', 'ERR_PNPM_FETCH_404 / NO_MATCHING_VERSION', /ERR_PNPM_(?:FETCH_404|NO_MATCHING_VERSION)\b/, ' ERR_PNPM_NO_MATCHING_VERSION  No matching version found for @openai/codex@9.9.9 while fetching it from https://registry.npmjs.org/', 'missing'),
  p('pnpm', 'ERR_PNPM_FETCH_401 / FETCH_403', /ERR_PNPM_FETCH_40[13]\b/, ' ERR_PNPM_FETCH_401  GET https://npm.pkg.github.com/@acme%2Fagent: Unauthorized - 401', 'denied'),
  p('pnpm', 'ERR_PNPM_PEER_DEP_ISSUES', /ERR_PNPM_PEER_DEP_ISSUES\b/, ' ERR_PNPM_PEER_DEP_ISSUES  Unmet peer dependencies', 'conflict'),
  p('pnpm', 'ERR_PNPM_TARBALL_INTEGRITY', /ERR_PNPM_TARBALL_INTEGRITY\b/, ' ERR_PNPM_TARBALL_INTEGRITY  Got unexpected checksum for "https://registry.npmjs.org/typescript/-/typescript-5.6.3.tgz". Wanted "sha512-hjcS1mhfuyi4W". Got "sha512-abc".', 'integrity'),
];

export const YARN_ERRORS: readonly PkgError[] = [
  p('yarn', 'offlineRetrying', /There appears to be trouble with your network connection\. Retrying/, 'info There appears to be trouble with your network connection. Retrying...', 'retry'),
  p('yarn', 'packageNotFoundRegistry', /Couldn't find package "[^"]{1,200}"(?: required by "[^"]{1,200}")? on the "[^"]{1,40}" registry\./, 'error Couldn\'t find package "@acme/agent-tools@^2.0.0" required by "evals@1.0.0" on the "npm" registry.', 'missing'),
  p('yarn', 'couldntFindVersionThatMatchesRange', /Couldn't find any versions for "[^"]{1,200}" that matches "/, 'error Couldn\'t find any versions for "typescript" that matches "^9.0.0"', 'missing'),
  p('yarn', 'integrityCheckFailed', /Integrity check failed for "/, 'error https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz: Integrity check failed for "lodash" (computed integrity doesn\'t match our records, got "sha512-x")', 'integrity'),
];

export const GO_ERRORS: readonly PkgError[] = [
  p('go', 'checksum mismatch', /verifying (?:module|\S{1,300}): checksum mismatch/, 'go: github.com/stretchr/testify@v1.9.0: verifying module: checksum mismatch', 'integrity'),
  p('go', 'module not found', /reading https?:\/\/\S{1,300}: (?:404 Not Found|410 Gone)|invalid version: unknown revision \S|no matching versions for query "/, 'go: github.com/acme/evalkit@v0.9.9: reading https://proxy.golang.org/github.com/acme/evalkit/@v/v0.9.9.info: 404 Not Found', 'missing'),
];

/** wget (GNU wget 1.21: src/host.c, src/http.c, src/retr.c, src/connect.c). */
export const WGET_ERRORS: readonly PkgError[] = [
  p('wget', 'unable to resolve host address', /unable to resolve host address [‘'`"]/, "wget: unable to resolve host address 'github.com'", 'network'),
  p('wget', 'Unable to establish SSL connection', /Unable to establish SSL connection\./, 'Unable to establish SSL connection.', 'network'),
  p('wget', 'connect failed', /:\d{1,5}\.\.\. failed: (?:Connection timed out|No route to host|Network is unreachable)\./, 'Connecting to huggingface.co (huggingface.co)|18.164.174.23|:443... failed: Connection timed out.', 'network'),
  p('wget', 'Read error in headers', /Read error \([^)]{1,80}\) in headers\./, 'Read error (Connection reset by peer) in headers.', 'dropped'),
  p('wget', 'ERROR 404', /\bERROR 40[34]: (?:Not Found|Forbidden)\./, '2026-11-30 10:00:00 ERROR 404: Not Found.', 'missing'),
  p('wget', 'ERROR 401', /\bERROR 401: Unauthorized\.|Username\/Password Authentication Failed\./, '2026-11-30 10:00:00 ERROR 401: Unauthorized.', 'denied'),
];

/** Hugging Face Hub downloads: the narrower rules of network.ts and config.ts read them (huggingface_hub/errors.py, file_download.py). */
export const HF_ERRORS: readonly PkgError[] = [
  other('huggingface_hub', 'LocalEntryNotFoundError', /\bLocalEntryNotFoundError\b/, "huggingface_hub.errors.LocalEntryNotFoundError: An error happened while trying to locate the file on the Hub and we cannot find the requested files in the local cache. Please check your connection and try again or make sure your Internet connection is on.", 'network.connection', 'network.error'),
  other('huggingface_hub', "We couldn't connect", /We couldn't connect to '[^']{1,120}' to load/, "OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like meta-llama/Llama-3.1-8B is not the path to a directory containing a file named config.json.", 'network.connection', 'network.error'),
  other('huggingface_hub', 'GatedRepoError', /\bGatedRepoError\b/, 'huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-674b2c3d-1a2b3c4d5e6f)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B/resolve/main/config.json.', 'config.hub_repo', 'config.error'),
  other('huggingface_hub', 'RepositoryNotFoundError', /\bRepositoryNotFoundError\b/, 'huggingface_hub.errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-674b2c3d-7a8b9c0d1e2f)\n\nRepository Not Found for url: https://huggingface.co/api/models/acme/llama-ft.', 'config.hub_repo', 'config.error'),
  other('huggingface_hub', 'Max retries exceeded (api/models)', /Max retries exceeded with url: \/api\/models/, "requests.exceptions.ConnectionError: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /api/models/Qwen/Qwen2.5-7B-Instruct/revision/main (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f2a3c1d9e50>: Failed to establish a new connection: [Errno 101] Network is unreachable'))\"), '(Request ID: 5c7e1a2b-3d4f-4e5a-9b8c-7d6e5f4a3b2c)')", 'network.connection', 'network.error'),
];

/**
 * CURLcode (include/curl/curl.h) with curl_easy_strerror's text (lib/strerror.c) and its group. The tool
 * prints "curl: (N) <detail>"; the number decides. Obsolete numbers (20, 24, 29, 32, 34, 40, 41, 44, 46,
 * 50, 51, 57, 62, 75, 76) are left out.
 */
export const CURL_CODES: readonly (readonly [number, string, string, PkgGroup])[] = [
  [1, 'CURLE_UNSUPPORTED_PROTOCOL', 'Unsupported protocol', 'request'],
  [2, 'CURLE_FAILED_INIT', 'Failed initialization', 'skip'],
  [3, 'CURLE_URL_MALFORMAT', 'URL using bad/illegal format or missing URL', 'request'],
  [4, 'CURLE_NOT_BUILT_IN', 'A requested feature, protocol or option was not found built-in in this libcurl due to a build-time decision.', 'request'],
  [5, 'CURLE_COULDNT_RESOLVE_PROXY', 'Could not resolve proxy name', 'network'],
  [6, 'CURLE_COULDNT_RESOLVE_HOST', 'Could not resolve hostname', 'network'],
  [7, 'CURLE_COULDNT_CONNECT', 'Could not connect to server', 'network'],
  [8, 'CURLE_WEIRD_SERVER_REPLY', 'Weird server reply', 'dropped'],
  [9, 'CURLE_REMOTE_ACCESS_DENIED', 'Access denied to remote resource', 'denied'],
  // FTP transfers: no run's fetch in this family uses them; their connect failures are still the network.
  [10, 'CURLE_FTP_ACCEPT_FAILED', 'FTP: The server failed to connect to data port', 'network'],
  [11, 'CURLE_FTP_WEIRD_PASS_REPLY', 'FTP: unknown PASS reply', 'skip'],
  [12, 'CURLE_FTP_ACCEPT_TIMEOUT', 'FTP: Accepting server connect has timed out', 'network'],
  [13, 'CURLE_FTP_WEIRD_PASV_REPLY', 'FTP: unknown PASV reply', 'skip'],
  [14, 'CURLE_FTP_WEIRD_227_FORMAT', 'FTP: unknown 227 response format', 'skip'],
  [15, 'CURLE_FTP_CANT_GET_HOST', 'FTP: cannot figure out the host in the PASV response', 'skip'],
  [16, 'CURLE_HTTP2', 'Error in the HTTP2 framing layer', 'dropped'],
  [17, 'CURLE_FTP_COULDNT_SET_TYPE', 'FTP: could not set file type', 'skip'],
  [18, 'CURLE_PARTIAL_FILE', 'Transferred a partial file', 'dropped'],
  [19, 'CURLE_FTP_COULDNT_RETR_FILE', 'FTP: could not retrieve (RETR failed) the specified file', 'missing'],
  [21, 'CURLE_QUOTE_ERROR', 'Quote command returned error', 'skip'],
  // The status in the detail decides (reason): 404/410 missing, 401/403 denied, others (5xx, 429) nothing here.
  [22, 'CURLE_HTTP_RETURNED_ERROR', 'HTTP response code said error', 'reason'],
  // Writing to disk or to a pipe that closed (`curl … | sh`): the errno elsewhere decides.
  [23, 'CURLE_WRITE_ERROR', 'Failed writing received data to disk/application', 'skip'],
  [25, 'CURLE_UPLOAD_FAILED', 'Upload failed (at start/before it took off)', 'dropped'],
  [26, 'CURLE_READ_ERROR', 'Failed to open/read local data from file/application', 'skip'],
  [27, 'CURLE_OUT_OF_MEMORY', 'Out of memory', 'skip'],
  [28, 'CURLE_OPERATION_TIMEDOUT', 'Timeout was reached', 'network'],
  [30, 'CURLE_FTP_PORT_FAILED', 'FTP: command PORT failed', 'skip'],
  [31, 'CURLE_FTP_COULDNT_USE_REST', 'FTP: command REST failed', 'skip'],
  [33, 'CURLE_RANGE_ERROR', 'Requested range was not delivered by the server', 'dropped'],
  [35, 'CURLE_SSL_CONNECT_ERROR', 'SSL connect error', 'network'],
  [36, 'CURLE_BAD_DOWNLOAD_RESUME', 'Could not resume download', 'skip'],
  [37, 'CURLE_FILE_COULDNT_READ_FILE', 'Could not read a file:// file', 'missing'],
  [38, 'CURLE_LDAP_CANNOT_BIND', 'LDAP: cannot bind', 'skip'],
  [39, 'CURLE_LDAP_SEARCH_FAILED', 'LDAP: search failed', 'skip'],
  [42, 'CURLE_ABORTED_BY_CALLBACK', 'Operation was aborted by an application callback', 'skip'],
  [43, 'CURLE_BAD_FUNCTION_ARGUMENT', 'A libcurl function was given a bad argument', 'skip'],
  [45, 'CURLE_INTERFACE_FAILED', 'Failed binding local connection end', 'request'],
  [47, 'CURLE_TOO_MANY_REDIRECTS', 'Number of redirects hit maximum amount', 'skip'],
  [48, 'CURLE_UNKNOWN_OPTION', 'An unknown option was passed in to libcurl', 'request'],
  [49, 'CURLE_SETOPT_OPTION_SYNTAX', 'Malformed option provided in a setopt', 'request'],
  [52, 'CURLE_GOT_NOTHING', 'Server returned nothing (no headers, no data)', 'dropped'],
  [53, 'CURLE_SSL_ENGINE_NOTFOUND', 'SSL crypto engine not found', 'request'],
  [54, 'CURLE_SSL_ENGINE_SETFAILED', 'Can not set SSL crypto engine as default', 'request'],
  [55, 'CURLE_SEND_ERROR', 'Failed sending data to the peer', 'dropped'],
  [56, 'CURLE_RECV_ERROR', 'Failure when receiving data from the peer', 'dropped'],
  [58, 'CURLE_SSL_CERTPROBLEM', 'Problem with the local SSL certificate', 'request'],
  [59, 'CURLE_SSL_CIPHER', 'Could not use specified SSL cipher', 'request'],
  [60, 'CURLE_PEER_FAILED_VERIFICATION', 'SSL peer certificate or SSH remote key was not OK', 'network'],
  [61, 'CURLE_BAD_CONTENT_ENCODING', 'Unrecognized or bad HTTP Content or Transfer-Encoding', 'dropped'],
  [63, 'CURLE_FILESIZE_EXCEEDED', 'Maximum file size exceeded', 'skip'],
  [64, 'CURLE_USE_SSL_FAILED', 'Requested SSL level failed', 'network'],
  [65, 'CURLE_SEND_FAIL_REWIND', 'Send failed since rewinding of the data stream failed', 'skip'],
  [66, 'CURLE_SSL_ENGINE_INITFAILED', 'Failed to initialize SSL crypto engine', 'request'],
  [67, 'CURLE_LOGIN_DENIED', 'Login denied', 'denied'],
  [68, 'CURLE_TFTP_NOTFOUND', 'TFTP: File Not Found', 'skip'],
  [69, 'CURLE_TFTP_PERM', 'TFTP: Access Violation', 'skip'],
  [70, 'CURLE_REMOTE_DISK_FULL', 'Disk full or allocation exceeded', 'skip'],
  [71, 'CURLE_TFTP_ILLEGAL', 'TFTP: Illegal operation', 'skip'],
  [72, 'CURLE_TFTP_UNKNOWNID', 'TFTP: Unknown transfer ID', 'skip'],
  [73, 'CURLE_REMOTE_FILE_EXISTS', 'Remote file already exists', 'skip'],
  [74, 'CURLE_TFTP_NOSUCHUSER', 'TFTP: No such user', 'skip'],
  [77, 'CURLE_SSL_CACERT_BADFILE', 'Problem with the SSL CA cert (path? access rights?)', 'request'],
  [78, 'CURLE_REMOTE_FILE_NOT_FOUND', 'Remote file not found', 'missing'],
  [79, 'CURLE_SSH', 'Error in the SSH layer', 'skip'],
  [80, 'CURLE_SSL_SHUTDOWN_FAILED', 'Failed to shut down the SSL connection', 'dropped'],
  [81, 'CURLE_AGAIN', 'Socket not ready for send/recv', 'skip'],
  [82, 'CURLE_SSL_CRL_BADFILE', 'Failed to load CRL file (path? access rights?, format?)', 'request'],
  [83, 'CURLE_SSL_ISSUER_ERROR', 'Issuer check against peer certificate failed', 'network'],
  [84, 'CURLE_FTP_PRET_FAILED', 'FTP: The server did not accept the PRET command.', 'skip'],
  [85, 'CURLE_RTSP_CSEQ_ERROR', 'RTSP CSeq mismatch or invalid CSeq', 'skip'],
  [86, 'CURLE_RTSP_SESSION_ERROR', 'RTSP session error', 'skip'],
  [87, 'CURLE_FTP_BAD_FILE_LIST', 'Unable to parse FTP file list', 'skip'],
  [88, 'CURLE_CHUNK_FAILED', 'Chunk callback failed', 'skip'],
  [89, 'CURLE_NO_CONNECTION_AVAILABLE', 'The max connection limit is reached', 'skip'],
  [90, 'CURLE_SSL_PINNEDPUBKEYNOTMATCH', 'SSL public key does not match pinned public key', 'network'],
  [91, 'CURLE_SSL_INVALIDCERTSTATUS', 'SSL server certificate status verification FAILED', 'network'],
  [92, 'CURLE_HTTP2_STREAM', 'Stream error in the HTTP/2 framing layer', 'dropped'],
  [93, 'CURLE_RECURSIVE_API_CALL', 'API function called from within callback', 'skip'],
  [94, 'CURLE_AUTH_ERROR', 'An authentication function returned an error', 'denied'],
  [95, 'CURLE_HTTP3', 'HTTP/3 error', 'dropped'],
  [96, 'CURLE_QUIC_CONNECT_ERROR', 'QUIC connection error', 'network'],
  [97, 'CURLE_PROXY', 'proxy handshake error', 'network'],
  [98, 'CURLE_SSL_CLIENTCERT', 'SSL Client Certificate required', 'denied'],
  [99, 'CURLE_UNRECOVERABLE_POLL', 'Unrecoverable error in select/poll', 'skip'],
  [100, 'CURLE_TOO_LARGE', 'A value or data field grew larger than allowed', 'skip'],
  [101, 'CURLE_ECH_REQUIRED', 'ECH attempted but failed', 'network'],
];

/** Every table entry but curl's numbered codes. */
export const PKG_ERRORS: readonly PkgError[] = [...APT_ERRORS, ...DPKG_ERRORS, ...APK_ERRORS, ...PIP_ERRORS, ...UV_ERRORS, ...CONDA_ERRORS, ...NPM_ERRORS, ...PNPM_ERRORS, ...YARN_ERRORS, ...CARGO_ERRORS, ...GO_ERRORS, ...GIT_ERRORS, ...WGET_ERRORS, ...HF_ERRORS];

const CURL_BY_CODE = new Map(CURL_CODES.map(([code, , , group]) => [code, group]));

/** The curl tool's error line; the number is the CURLcode. */
export const CURL_LINE = /\bcurl: \((\d{1,3})\) /;

/** The group of a curl exit code (undefined for a number curl does not have). */
export function curlGroup(code: number): PkgGroup | undefined {
  return CURL_BY_CODE.get(code);
}

/** An HTTP status in a fetcher's reason text, as curl's buffer ("The requested URL returned error: 404") or apt ("404  Not Found") words it. */
const STATUS_IN_REASON = /returned error: (\d{3})\b|\b(\d{3}) {1,2}(?:Not Found|Forbidden|Unauthorized|Gone)\b/;

/** A reason's group: an HTTP status decides between missing and denied; anything else a fetcher says there is the transport failing. */
export function reasonGroup(reason: string): PkgGroup | undefined {
  const m = STATUS_IN_REASON.exec(reason);
  if (m) {
    const status = Number(m[1] ?? m[2]);
    if (status === 404 || status === 410) return 'missing';
    if (status === 401 || status === 403) return 'denied';
    return undefined;
  }
  return 'network';
}

/** The first entry (table order) whose template a line holds, among `entries`. */
export function entryOf(line: string, entries: readonly PkgError[]): PkgError | undefined {
  return entries.find((x) => x.template.test(line));
}

/**
 * Where a line was printed, by its own shape: a build step's output (BuildKit plain progress "#12 3.456 …",
 * BuildKit's replay of a failed step's output "70.51 …" and its tty log "=> => # …") or not. The classic
 * builder prints a step's output bare; its own failure line (build.failed) is stronger than any line here.
 */
export const BUILD_STEP_LINE = /^(?:#\d{1,4} \d{1,6}\.\d{1,3} |\d{1,6}\.\d{2,3} |\s*=> => # )/;

/** Groups that a line reads as one class or another depending on where it was printed. */
export type PlacedGroup = 'missing' | 'conflict' | 'denied' | 'request' | 'integrity' | 'step';

/** [the run's own setup, a build step, an agent's install]: null where the line alone says nothing. */
export const PLACED_CLASS: Record<PlacedGroup, readonly [FailureClass | null, FailureClass, FailureClass]> = {
  missing: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  conflict: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  denied: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  request: ['config.error', 'image.build_failure', 'agent.setup_failure'],
  integrity: [null, 'image.build_failure', 'agent.setup_failure'],
  step: ['config.error', 'image.build_failure', 'agent.setup_failure'],
};
