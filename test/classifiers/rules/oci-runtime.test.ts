// runc/containerd/dockerd start failures and the API server failing to reach a kubelet.
import { describe, expect, it } from 'vitest';
import { classifyText } from '../helpers.js';

function top(text: string): [string, string | undefined] {
  const d = classifyText(text);
  return [d.class, d.evidence[0]?.rule];
}

describe('OCI runtimes', () => {
  it('runc ≥ 1.1 via containerd and dockerd: the entrypoint not in PATH', () => {
    expect(top('docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "npm": executable file not found in $PATH: unknown.')[0]).toBe('sandbox.failure');
    expect(top('Error: failed to create shim task: runc create failed: unable to start container process: exec: "/entrypoint.sh": permission denied')).toEqual(['sandbox.failure', 'oci.start_failed']);
  });
  it('runc ≤ 1.0 / docker ≤ 17 wording', () => {
    expect(top('ERROR: oci runtime error: container_linux.go:247: starting container process caused "exec: \\"python\\": executable file not found in $PATH"')).toEqual(['sandbox.failure', 'oci.start_failed']);
  });
  it("an entrypoint for another architecture (the container's only output)", () => {
    expect(top('exec /usr/local/bin/docker-entrypoint.sh: exec format error')).toEqual(['sandbox.failure', 'oci.exec_format']);
  });
  it("kubectl exec through an API server that cannot reach the node's kubelet is the sandbox, not the network", () => {
    expect(top('Error from server: error dialing backend: dial tcp 10.0.3.17:10250: connect: connection refused')[0]).toBe('sandbox.failure');
  });
});
