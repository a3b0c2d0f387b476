// Container runtimes failing to start a container's process (runc, containerd's shim, dockerd). The wording is runc's error chain
// (create.go "runc create failed: …", libcontainer/container_linux.go "unable to start container process:
// …", libcontainer/process_linux.go "error during container init: …"; runc ≤ 1.0 "container_linux.go:N:
// starting container process caused …", docker ≤ 17 "oci runtime error: …") wrapped by containerd
// ("failed to create shim task: OCI runtime create failed: …") and dockerd ("failed to create task for
// container: …"). The innermost part is the cause Go's os/exec gives: `exec: "npm": executable file not found
// in $PATH`, permission denied, exec format error.
import { defineRules } from '../rule.js';

export const ociRuntimeRules = defineRules([
  {
    id: 'oci.start_failed',
    class: 'sandbox.failure',
    patterns: [
      /\boci runtime error: /,
      /\bOCI runtime (?:start|run|state) failed\b/,
      /\bstarting container process caused:? /,
      /\bunable to start container process: /,
      /\berror during container init: /,
      /\brunc (?:create|run|exec) failed: /,
      /\bfailed to create (?:shim task|task for container): /,
    ],
    // `OCI runtime create|exec failed` alone is k8s.container_start's (rules/k8s.ts); these are the rest of the chain.
    strength: 74,
    why: "the container runtime could not start the container's process (its entrypoint or command)",
    hint: "The container never started its process: the runtime's innermost error names why (an entrypoint or command that is not in the image's PATH, a script without execute permission, a binary built for another CPU architecture: exec format error, a bad mount). Fix the image's entrypoint/command or the platform it is built for, then retry.",
  },
  {
    // runc ≥ 1.1 reports the entrypoint's failed execve from inside the container as its only output
    // ("exec /docker-entrypoint.sh: exec format error", libcontainer/standard_init_linux.go "exec %s: %w"):
    // an image built for another architecture (arm64 image on amd64, or the reverse).
    id: 'oci.exec_format',
    class: 'sandbox.failure',
    patterns: [/^(?:\S{1,60}\s{1,4})?exec \/\S{1,200}: exec format error\s*$/, /\bstandard_init_linux\.go:\d+: exec user process caused:? "?exec format error/],
    strength: 70,
    why: "the container's entrypoint is a binary for another CPU architecture (exec format error)",
    hint: "The image was built for another CPU architecture than the node's (arm64 vs amd64): build it for the node's platform (docker buildx --platform linux/amd64) or pick a multi-arch image, then retry.",
  },
]);
