// Agent CLIs that cannot be installed or cannot start (Claude Code, Codex, Gemini CLI, Qwen Code and the
// other npm-distributed agents): npm's own error codes while installing, Node refusing to parse the
// package because the Node runtime is older than the package's `engines`, and the agent's binary missing
// from PATH. The words are npm's (lib/utils/error-message.js, "npm error code EACCES", older "npm ERR!")
// and Node's ESM loader (internal/modules/esm/translators).
import { defineRules } from '../rule.js';

/**
 * How an agent CLI's own log shows its step loop: a line it prints for every step (an action served, an
 * observation returned, a tool call streamed) and a line it prints only when the loop ends on its own (a
 * terminal state, a result event, its trajectory saved). A log whose steps stop with no end after them was
 * cut from outside: the harness's time limit (Harbor's asyncio.wait_for in trial.py `_run_agent_phase`
 * cancels the agent; Terminal-Bench kills its session), unless the bundle says otherwise.
 */
export interface AgentLoopVocabulary {
  agent: string;
  /** Where the wording was read. */
  source: string;
  step: readonly RegExp[];
  end: readonly RegExp[];
}

export const AGENT_LOOPS: readonly AgentLoopVocabulary[] = [
  {
    agent: 'openhands',
    // openhands/controller/agent_controller.py (`Setting agent(…) state from … to …`, `Pending action active
    // for …`), core/main.py (end_states FINISHED, REJECTED, ERROR, PAUSED, STOPPED), runtime/impl/local/
    // local_runtime.py forwarding the action server's uvicorn access lines ("Server: INFO: … \"POST /execute_action …").
    source: 'openhands: controller/agent_controller.py, core/main.py, runtime/action_execution_server.py',
    step: [/\] Server: INFO:\s+\S{1,64} - "POST \//, /\bPending action active for \d+(?:\.\d+)?s: \w+/, /Setting agent\(\w{1,60}\) state from AgentState\.\w+ to AgentState\.RUNNING\b/],
    end: [/Setting agent\(\w{1,60}\) state from AgentState\.\w+ to AgentState\.(?:FINISHED|REJECTED|ERROR|PAUSED|STOPPED)\b/],
  },
  {
    agent: 'mini-swe-agent',
    // minisweagent/config/mini.yaml action_observation_template (v1 `<returncode>N</returncode>`), the
    // interactive agent's message header `mini-swe-agent (step N, $C):` (agents/interactive.py), and
    // `Saved trajectory to '…'` printed once the run returns (run/mini.py; Harbor passes --output).
    source: 'SWE-agent/mini-swe-agent: agents/interactive.py, config/mini.yaml, run/mini.py, run/utils/save.py',
    step: [/^<returncode>-?\d+<\/returncode>\s*$/, /^mini-swe-agent \(step \d+, \$\d+\.\d\d\):\s*$/],
    end: [/^Saved trajectory to '/],
  },
  {
    agent: 'claude-code',
    // `claude --output-format=stream-json --print` (Harbor agents/installed/claude_code.py tees it to
    // claude-code.txt): one JSON event per line, and a final {"type":"result",…} event, which Harbor reads for
    // the cost and is missing when the CLI was stopped ("Claude omits its result event").
    source: 'claude-code stream-json; Harbor agents/installed/claude_code.py _parse_total_cost_from_stream_json',
    step: [/^\{"type":"(?:assistant|user)",/],
    end: [/^\{"type":"result",/],
  },
  {
    agent: 'codex',
    // `codex exec --json` (codex-rs/exec/src/exec_events.rs ThreadEvent): item.started/item.completed per
    // step, and turn.completed / turn.failed / error when the turn ends.
    source: 'openai/codex: codex-rs/exec/src/exec_events.rs',
    step: [/^\{"type":"item\.(?:started|updated|completed)",/],
    end: [/^\{"type":"(?:turn\.completed|turn\.failed|error)",/],
  },
];

/** Agent CLIs that harnesses install into sandboxes (their binary names). */
export const AGENT_BINARIES = ['claude', 'codex', 'gemini', 'qwen', 'aider', 'opencode', 'goose', 'cursor-agent', 'openhands', 'mini-swe-agent', 'copilot', 'amp', 'crush'];
/** A shell prompt before the command's output, if the log kept it ("root@sbx:/app# "). */
const PROMPT = String.raw`^(?:\S{0,40}[>$#]\s*)?`;
const AGENT_BINARY = `(${AGENT_BINARIES.join('|')})`;

export const agentRules = defineRules([
  {
    // Fired by the engine's progress tracker (progress.ts, an `agent-loop` fact), never by a line: the
    // agent's own log shows it working step after step and then stopping, with no end of its loop after the
    // last step, no crash after it and no infrastructure failure anywhere. Weak: any real error in the
    // bundle decides, and a harness that recorded no failure (Terminal-Bench failure_mode unset) wins.
    id: 'agent.loop_cut',
    class: 'outcome.agent_timeout',
    patterns: [],
    strength: 12,
    why: "the agent's log stops in the middle of its step loop: it was still working when its time ran out",
    hint: "The agent's log ends mid-step (no final state, result event or saved trajectory after its last action) with no error behind it: it was still working when the harness's time limit stopped it. A valid outcome, not an infrastructure failure; raise the agent timeout only if the task calls for it.",
  },
  {
    // Harbor runs an installed agent as `set -o pipefail; <agent cli> … | tee /logs/agent/<agent>.txt`
    // (agents/installed/base.py exec_as_agent) and reports a failure as "Command failed (exit N): <command>"
    // (_classify_exec_error). With pipefail, 127 is the shell's "command not found" and 126 "not executable"
    // for a command of that pipeline: the agent CLI (or its interpreter) is not installed in the sandbox.
    id: 'agent.command_exit_127',
    class: 'agent.setup_failure',
    patterns: [/\bCommand failed \(exit 12[67]\): /],
    strength: 55,
    sections: ['log', 'agent', 'result'],
    extract: (line) => ({ command: /\bCommand failed \(exit 12[67]\): (\S{1,80})/.exec(line)?.[1] ?? null }),
    why: "the shell could not run the agent's command (exit 127: not found, 126: not executable)",
    hint: "The agent CLI is not installed where the harness runs it (exit 127 is the shell's \"command not found\"): its install step failed or put it off PATH; read agent/setup output, pin the agent version and retry. The trial has no score.",
  },
  {
    // The package managers an agent's install script drives, failing (Harbor keeps that output under
    // agent/setup/; Terminal-Bench in the agent's session before it starts): pip's resolver
    // (pip/_internal/resolution: "Could not find a version that satisfies the requirement …", "No matching
    // distribution found for …"), uv ("× No solution found when resolving dependencies", "error: Failed to
    // fetch: …"), PEP 668's "error: externally-managed-environment", apt ("E: Unable to locate package …",
    // "E: Package '…' has no installation candidate"), curl -f on the install script ("curl: (22) The requested
    // URL returned error: N"), and env(1) without the interpreter ("/usr/bin/env: 'node': No such file or
    // directory"). Only in an agent's log, and only before it reached a model (engine gate): afterwards the
    // same words are commands the agent ran for its task.
    id: 'agent.install_step_failed',
    class: 'agent.setup_failure',
    patterns: [
      /^ERROR: (?:Could not find a version that satisfies the requirement|No matching distribution found for) \S/,
      /No solution found when resolving dependencies/,
      /^error: Failed to fetch: /,
      /^error: externally-managed-environment\b/,
      /^E: (?:Unable to locate package \S|Package '[^']{1,100}' has no installation candidate)/,
      /^curl: \(22\) The requested URL returned error: \d{3}/,
      /^\/usr\/bin\/env: '(?:node|python3?|bash|uv|npx)': No such file or directory/,
    ],
    // As agent.command_not_found: below a failure mode the harness itself recorded (Terminal-Bench's
    // test_timeout after a failed install is labelled by what the harness recorded).
    strength: 44,
    sections: ['agent'],
    why: "a step of the agent's install script failed (package manager, download or interpreter)",
    hint: "The agent's install step failed: the package or version does not exist on the index (pin one that does), the sandbox's package manager refuses (PEP 668: use a venv or uv), apt has no such package in this base image, or the install script's download was refused. Fix the install in the agent/image, then retry; the trial has no score.",
  },
  {
    id: 'agent.npm_install_error',
    class: 'agent.setup_failure',
    patterns: [/^npm (?:error|ERR!) code (E[A-Z0-9]{2,20})\b/],
    strength: 60,
    extract: (_l, m) => ({ npmCode: m[1] }),
    why: 'npm failed while installing a package (the agent CLI)',
    hint: 'npm could not install the agent: EACCES means the global prefix (/usr/lib/node_modules) is not writable (use a user prefix, nvm or sudo); E404/ETARGET a wrong package name or version; ENOTFOUND/ETIMEDOUT no registry access from the sandbox.',
  },
  {
    id: 'agent.node_too_old',
    class: 'agent.setup_failure',
    patterns: [
      // Node parsing a globally installed package and failing on syntax newer than itself:
      // "file:///usr/local/lib/node_modules/@scope/cli/cli.js:148" then "SyntaxError: …" and the loader frame.
      /at (?:Module)?Loader\.moduleStrategy \((?:node:)?internal\/modules\/esm\/translators/,
      /^file:\/\/\/\S{0,200}\/lib\/node_modules\/\S{1,200}\.[cm]?js:\d+\s*$/,
      /npm (?:WARN|warn) EBADENGINE Unsupported engine/,
    ],
    strength: 50,
    why: "Node could not load the agent CLI: the sandbox's Node runtime is older than the package requires",
    hint: "The agent CLI does not run on this Node version (npm warned EBADENGINE, or Node failed to parse the package's modern syntax): install the Node version the package's engines field asks for (e.g. node >= 20) in the sandbox image before the agent.",
  },
  {
    id: 'agent.binary_not_found',
    class: 'agent.setup_failure',
    patterns: [
      // bash: "bash: line 1: claude: command not found".
      new RegExp(`${PROMPT}(?:(?:bash|sh|zsh)(?::\\s*line \\d+)?:\\s*)?${AGENT_BINARY}: command not found`),
      // dash, Debian's /bin/sh (src/exec.c: "%s: %d: %s: not found"): "/bin/sh: 1: claude: not found".
      // The command may be run by its full path ("/bin/sh: 1: /usr/local/bin/claude: not found").
      new RegExp(`${PROMPT}(?:/bin/)?sh: \\d+: (?:/[^\\s:]{0,200}/)?${AGENT_BINARY}: not found\\s*$`),
      // SWE-ReX's server inside the instance container, run by the full path of the standalone Python that
      // SWE-agent's deployment was told to use (swerex/deployment/docker.py: "<python_standalone_dir>/
      // python3.11/bin/swerex-remote"). Without python_standalone_dir it runs plain "swerex-remote || pipx run
      // swe-rex", and that bare "not found" is the fallback starting, not a failure.
      new RegExp(`${PROMPT}(?:/bin/)?sh: \\d+: /[^\\s:]{1,200}/bin/(swerex-remote): not found\\s*$`),
      // zsh's own order (Src/exec.c: "command not found: %s").
      new RegExp(`${PROMPT}zsh: command not found: ${AGENT_BINARY}\\s*$`),
    ],
    strength: 48,
    extract: (_l, m) =>
      m[1] === 'swerex-remote'
        ? { command: m[1], hint: "SWE-ReX's server (swerex-remote) is not at the standalone Python path the deployment was given (python_standalone_dir): the instance image lacks it. Build the image with swe-rex installed there, or leave python_standalone_dir unset so SWE-ReX installs it with pipx on start." }
        : { command: m[1] },
    why: "the agent's own binary is not on PATH in the sandbox",
    hint: "The agent's binary is not on PATH: it was installed locally instead of globally, or npm's global bin directory (npm prefix -g)/bin is not on PATH; check the install step's output.",
  },
]);
