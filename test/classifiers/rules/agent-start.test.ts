// Agent CLIs installed but not runnable, and agent servers that never start.
import { describe, expect, it } from 'vitest';
import { classifyText } from '../helpers.js';

function top(text: string): [string, string | undefined] {
  const d = classifyText(text);
  return [d.class, d.evidence[0]?.rule];
}

describe('agent binaries that cannot run', () => {
  it("CPython's ENOEXEC on the agent binary", () => {
    expect(top("OSError: [Errno 8] Exec format error: '/usr/local/bin/claude'")).toEqual(['agent.setup_failure', 'agent.exec_failed']);
  });
  it("Node's spawn of a missing agent", () => {
    expect(top('Error: spawn codex ENOENT\n    at ChildProcess._handle.onexit (node:internal/child_process:286:19)')).toEqual(['agent.setup_failure', 'agent.exec_failed']);
  });
  it("another binary with the same error is not the agent's (no agent rule fires)", () => {
    expect(classifyText("OSError: [Errno 8] Exec format error: './train.sh'").evidence.map((e) => e.rule)).not.toContain('agent.exec_failed');
  });
  it("npm ≥ 12 skipping the agent package's install script", () => {
    expect(top('npm warn install-scripts 1 package had install scripts blocked because they are not covered by allowScripts:\nnpm warn install-scripts   @anthropic-ai/claude-code@2.1.0 (postinstall: node install.cjs)')).toEqual(['agent.setup_failure', 'agent.install_script_blocked']);
  });
  it("the agent CLI unable to write its own state in the home directory (Claude Code's ~/.claude.json, as Node's fs prints it)", () => {
    const log = [
      'node:fs:574',
      '  return binding.open(',
      "Error: EACCES: permission denied, open '/home/claude/.claude.json'",
      '    at Module.openSync (node:fs:574:18)',
      '    at Object.writeFileSync (file:///usr/lib/node_modules/@anthropic-ai/claude-code/cli.js:536:1088)',
      "  errno: -13,",
      "  code: 'EACCES',",
    ].join('\n');
    expect(top(log)).toEqual(['agent.setup_failure', 'agent.state_unwritable']);
    expect(top("Error: EROFS: read-only file system, mkdir '/root/.gemini/tmp'")).toEqual(['agent.setup_failure', 'agent.state_unwritable']);
  });
  it("the same Node error on the run's own output path stays the run's configuration", () => {
    expect(top("Error: EACCES: permission denied, open '/workspace/outputs/.claudeignore'")[0]).toBe('config.error');
  });
  it('an agentapi server that never listened', () => {
    expect(top('agentapi server not responding (15/15)\nError: agentapi server did not start on port 3284 after 15 seconds.')).toEqual(['agent.setup_failure', 'agent.server_not_started']);
  });
});
