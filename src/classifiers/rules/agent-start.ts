// Agent CLIs that are installed but cannot start: the binary on PATH is not runnable on this machine
// (CPython's OSError [Errno 8] "Exec format error: 'claude'" from subprocess/os.execvp, Node's child_process
// "spawn claude ENOENT|ENOEXEC|EACCES", bash's "cannot execute binary file: Exec format error"), npm ≥ 12
// skipping the agent package's install script that fetches its native binary (npm's
// lib/utils/reify-output.js: "npm warn install-scripts N package(s) had install scripts blocked because they
// are not covered by allowScripts:" then one "npm warn install-scripts   <pkg>@<version> (postinstall: …)"
// per package), and the agent server wrappers around the CLI not coming up (coder/registry agentapi
// modules: "Error: agentapi server did not start on port N after 15 seconds.").
import { defineRules } from '../rule.js';
import { AGENT_BINARIES } from './agent.js';
import { escapeRegExp } from './regex-text.js';

/** npm packages of agent CLIs whose install script fetches the binary the CLI runs. */
const AGENT_PACKAGES = ['@anthropic-ai/claude-code', '@openai/codex', '@google/gemini-cli', '@qwen-code/qwen-code', 'opencode-ai', '@sourcegraph/amp', '@charmland/crush', '@github/copilot', '@cursor/cli'];

const BINARIES = AGENT_BINARIES.map(escapeRegExp).join('|');

export const agentStartRules = defineRules([
  {
    id: 'agent.exec_failed',
    class: 'agent.setup_failure',
    patterns: [
      new RegExp(String.raw`\[Errno (?:8|13)\] (?:Exec format error|Permission denied): '(?:[^']{0,200}/)?(?:${BINARIES})'`),
      new RegExp(String.raw`\bspawn (?:\S{0,200}/)?(?:${BINARIES}) (?:ENOENT|ENOEXEC|EACCES)\b`),
      new RegExp(String.raw`(?:^|/)(?:${BINARIES}): cannot execute binary file`),
      // A launcher checking for the CLI before it starts it ("codex CLI not found. Install with: npm install -g
      // @openai/codex", "claude executable not found").
      new RegExp(String.raw`\b(?:${BINARIES}) (?:CLI|binary|executable|command) (?:not found|was not found|is not installed)\b`, 'i'),
    ],
    strength: 60,
    extract: (line) => ({ command: new RegExp(String.raw`(${BINARIES})`).exec(line)?.[1] ?? null }),
    why: "the agent's binary is there but cannot be executed (wrong format or architecture, a stub, no permission)",
    hint: "The agent CLI could not be executed: an Exec format error means the file on PATH is not a binary for this machine (a stub left when the package's install script did not run, or a build for another architecture); ENOENT that it is missing. Reinstall the agent with its install scripts allowed (npm install --allow-scripts / npm approve-scripts) for the sandbox's platform.",
  },
  {
    id: 'agent.install_script_blocked',
    class: 'agent.setup_failure',
    patterns: [new RegExp(String.raw`^npm (?:warn|WARN) install-scripts\s+(?:${AGENT_PACKAGES.map(escapeRegExp).join('|')})@\S{1,60} \((?:pre|post)?install: `)],
    // A warning: the install "succeeded"; only a later failure to run the agent confirms it.
    strength: 40,
    why: "npm did not run the agent package's install script, so the binary it fetches was never put in place",
    hint: "npm (≥ 12 allowScripts) skipped the agent package's install script, which downloads the native binary the CLI runs: the CLI left behind is a stub. Allow it (npm approve-scripts, allow-scripts in .npmrc, or --allow-scripts) in the image's install step.",
  },
  {
    // The agent CLI cannot write its own state where it keeps it: Claude Code's ~/.claude.json and
    // ~/.claude/ (CLAUDE_CONFIG_DIR; cli.js 2.0.76 "… (in settings or ~/.claude.json)"), Gemini CLI's
    // ~/.gemini/ (packages/core/src/utils/paths.ts GEMINI_DIR), Codex's ~/.codex/ (CODEX_HOME, auth.rs
    // codex_home), as Node's fs error prints it ("Error: EACCES: permission denied, open
    // '/home/claude/.claude.json'"). The image's home directory is not the agent user's (a root-owned file
    // in a container run as another user): the CLI dies at start. Stronger than config.path_permission,
    // which reads the same Node text as the run's own output directory.
    id: 'agent.state_unwritable',
    class: 'agent.setup_failure',
    patterns: [/\b(?:EACCES|EPERM|EROFS): (?:permission denied|operation not permitted|read-only file system), [a-z]{2,10} '(?:[^']{0,200}\/)?(?:\.claude\.json|\.claude|\.codex|\.gemini)(?:[\/.'][^']{0,200})?'/],
    strength: 64,
    why: "the agent CLI cannot write its own state file or directory (~/.claude.json, ~/.claude, ~/.gemini, ~/.codex)",
    hint: "The agent CLI could not write its own state under the user's home (~/.claude.json, ~/.claude/, ~/.gemini/, ~/.codex/): the file or directory belongs to another user (created as root in the image, or a mount owned by root) or is read-only. chown it to the user the agent runs as, or point CLAUDE_CONFIG_DIR / CODEX_HOME at a writable directory; the trial has no score.",
  },
  {
    id: 'agent.server_not_started',
    class: 'agent.setup_failure',
    patterns: [/\bagentapi server did not start on port \d+/],
    strength: 55,
    why: 'the agent server wrapping the agent CLI never started listening',
    hint: "The agent server (agentapi) that wraps the agent CLI never started: its start script failed before it (read the module's install/start log; a `set -euo pipefail` script dies on a missing ~/.bashrc or an unset variable), or the CLI it launches exits at once.",
  },
]);
