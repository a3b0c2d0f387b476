// Sandbox providers' own exception wordings (Modal, Daytona, E2B, OpenHands runtime), each line written in
// the format the SDK's source produces (cited in src/classifiers/rules/sandbox-providers.ts).
import { describe, expect, it } from 'vitest';
import { classifyText } from '../helpers.js';

function top(text: string, path?: string): [string, string | undefined] {
  const d = classifyText(text, path);
  return [d.class, d.evidence[0]?.rule];
}

describe('Modal', () => {
  it('a sandbox past its execution limit or terminated is a sandbox failure', () => {
    expect(top('  File "/app/harness/modal_env.py", line 88, in wait\n    sb.wait()\nmodal.exception.SandboxTimeoutError')).toEqual(['sandbox.failure', 'sandbox.modal']);
    expect(top('modal.exception.SandboxTerminatedError')).toEqual(['sandbox.failure', 'sandbox.modal']);
  });
  it("the filesystem control plane's 'may have already shut down'", () => {
    expect(top('modal.exception.NotFoundError: The Sandbox is unavailable. This Sandbox may have already shut down.')).toEqual(['sandbox.failure', 'sandbox.modal']);
  });
  it("a vanished sandbox beats the verifier error it caused (the verifier could not add its tests)", () => {
    const log = 'AddTestsDirError: Failed to add tests directory to environment\nmodal.exception.NotFoundError: The Sandbox is unavailable. This Sandbox may have already shut down.';
    expect(classifyText(log).class).toBe('sandbox.failure');
  });
});

describe('Daytona', () => {
  it("the SDK's error state and its reason", () => {
    expect(top('daytona.common.errors.DaytonaError: Sandbox 7f3c2a1e-2b4d-4c8e-9a10-0d1e2f3a4b5c entered error state: SandboxState.ERROR, error reason: internal error')).toEqual(['sandbox.failure', 'sandbox.daytona_state']);
  });
  it('a snapshot that failed to build is an image build failure', () => {
    expect(top('DaytonaError: Sandbox 7f3c2a1e failed to start with state: build_failed, error reason: exit code 100')).toEqual(['image.build_failure', 'sandbox.daytona_state']);
  });
  it('the create-and-start time limit', () => {
    expect(top('DaytonaError: Failed to create sandbox: Failed to create and start sandbox within 60 seconds timeout period.')[0]).toBe('sandbox.failure');
  });
  it("the API's sandbox record with an errorReason", () => {
    expect(top('{\n  "id": "7f3c2a1e",\n  "state": "error",\n  "errorReason": "toolbox daemon did not register",\n  "recoverable": false\n}')).toEqual(['sandbox.failure', 'sandbox.daytona_state']);
  });
  it("a 502 from the toolbox behind the SDK's prefix is the sandbox's, not a model gateway's", () => {
    expect(top("Failed to execute command: (502)\nReason: Bad Gateway\nHTTP response headers: HTTPHeaderDict({'Content-Length': '0'})")[0]).toBe('sandbox.failure');
    expect(top('daytona.common.errors.DaytonaRateLimitError: Failed to list sandboxes: Rate limit exceeded')).toEqual(['sandbox.failure', 'sandbox.daytona_api']);
  });
});

describe('E2B', () => {
  it('SDK exception classes', () => {
    expect(top("e2b.exceptions.SandboxNotFoundException: Sandbox i3kx7o2c9q not found")[0]).toBe('sandbox.failure');
    expect(top('e2b.exceptions.TimeoutException: context deadline exceeded: The request was cancelled by the server or a proxy while it was in flight — for example when the sandbox is paused or shut down.')).toEqual(['sandbox.failure', 'sandbox.e2b']);
  });
  it('507 from envd is the sandbox disk, not the sandbox', () => {
    expect(top('e2b.exceptions.NotEnoughSpaceException: 507: write failed')).toEqual(['disk.full', 'sandbox.e2b']);
  });
});

describe('OpenHands runtime', () => {
  it('a runtime pod still pending when the client gave up', () => {
    expect(top('openhands.core.exceptions.AgentRuntimeNotReadyError: Runtime (ID=4b1c9e2a) is not yet ready. Status: pending')).toEqual(['sandbox.failure', 'sandbox.openhands_runtime']);
  });
  it('the runtime client mapping 502/504 to a disconnect', () => {
    expect(top("AgentRuntimeDisconnectedError: Runtime is temporarily unavailable. This may be due to a restart or network issue, please try again. Original error: Server error '502 Bad Gateway' for url 'https://4b1c9e2a.runtime.all-hands.dev/execute_action'")[0]).toBe('sandbox.failure');
  });
  it('a runtime image build error is an image build failure', () => {
    expect(top('openhands.core.exceptions.AgentRuntimeBuildError: Build failed for image ghcr.io/all-hands-ai/runtime:oh_v0.40')[0]).toBe('image.build_failure');
  });
});

describe('a 5xx decided by the URL it names', () => {
  it("the sandbox runtime's API", () => {
    expect(top("httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://x7k2.eval-runtime.all-hands.dev/api/conversations/4b1c'")[0]).toBe('sandbox.failure');
    expect(top("httpx.HTTPStatusError: Server error '502 Bad Gateway' for url 'https://49983-i3kx7o2c9q.e2b.app/files'")[0]).toBe('sandbox.failure');
  });
  it("a model endpoint's 5xx stays the gateway's", () => {
    expect(top("httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://llm-proxy.eval.all-hands.dev/v1/chat/completions'")[0]).toBe('gateway.5xx');
    expect(top("httpx.HTTPStatusError: Server error '502 Bad Gateway' for url 'https://api.openai.com/v1/chat/completions'")[0]).toBe('gateway.5xx');
  });
});
