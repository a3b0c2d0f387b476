// A registry's refusal by its context: a build tool's error line, a pull for a container, never a model API.
import { describe, expect, it } from 'vitest';
import { classifyText } from '../helpers.js';

function top(text: string): [string, string | undefined] {
  const d = classifyText(text);
  return [d.class, d.evidence[0]?.rule];
}

describe('registry answers', () => {
  it("buildx's ERROR line with Docker Hub's 429 is the build's base image (containerd fetcher wording)", () => {
    expect(top('ERROR: failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/python/manifests/sha256:0f3d9c1e: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.')).toEqual(['image.build_failure', 'registry.build_pull_refused']);
  });
  it("BuildKit's plain progress error over two lines (the step line decides)", () => {
    const log = '#3 [internal] load metadata for docker.io/swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest\n#3 ERROR: unexpected status from HEAD request to\n    https://registry-1.docker.io/v2/swebench/sweb.eval.x86_64.astropy_1776_astropy-12907/manifests/latest: 429 Too Many Requests';
    expect(classifyText(log).class).toBe('image.build_failure');
  });
  it('setup-buildx-action booting its builder hits the limit: a build failure', () => {
    expect(top('Error: ERROR: Error response from daemon: toomanyrequests: You have reached your pull rate limit. You may increase the limit by authenticating and upgrading: https://www.docker.com/increase-rate-limit')).toEqual(['image.build_failure', 'registry.build_pull_refused']);
  });
  it("dockerd pulling a container's image: the sandbox cannot start", () => {
    expect(top('docker: error pulling image configuration: toomanyrequests: Too Many Requests. Please see https://docs.docker.com/docker-hub/download-rate-limit/.')[0]).toBe('sandbox.failure');
  });
  it('a registry URL answering 429 outside a build', () => {
    expect(top('failed to resolve reference "docker.io/library/ubuntu:22.04": unexpected status from HEAD request to https://registry-1.docker.io/v2/library/ubuntu/manifests/22.04: 429 Too Many Requests')[0]).toBe('sandbox.failure');
  });
  it("a model API's 429 is still the gateway's rate limit", () => {
    expect(top("openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o', 'type': 'requests', 'code': 'rate_limit_exceeded'}}")[0]).toBe('gateway.4xx');
    expect(top("httpx.HTTPStatusError: Client error '429 Too Many Requests' for url 'https://api.anthropic.com/v1/messages'")[0]).toBe('gateway.4xx');
  });
});
