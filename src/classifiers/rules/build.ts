// Container image builds (BuildKit, the classic docker builder, harness wrappers around them).
import { defineRules } from '../rule.js';

/**
 * A build that could not reach its registry failed on the network (the maintainers' reading, e.g.
 * docker/buildx#507 "dial tcp …: i/o timeout" resolving the base image): the network rules name it.
 */
export const REGISTRY_UNREACHABLE = /dial tcp[^\n]{0,200}(?:i\/o timeout|connect: connection refused|connect: network is unreachable|no such host)|TLS handshake timeout|Temporary failure in name resolution/;

export const buildRules = defineRules([
  {
    id: 'build.failed',
    class: 'image.build_failure',
    patterns: [
      /failed to solve:/,
      // BuildKit before v0.11 ("failed to solve with frontend dockerfile.v0: failed to create LLB definition: …").
      /failed to solve with frontend /,
      /executor failed running/,
      /did not complete successfully: exit code: \d+/,
      /The command '[^']{0,2000}' returned a non-zero code: \d+/,
      /returned a non-zero code: \d+/,
      /\b(?:BuildImageError|SandboxBuildFailedError|ImageBuildError)\b|docker\.errors\.BuildError/,
      /failed to compute cache key/,
      /[Dd]ocker build failed|[Ee]rror building image|failed to build (?:the )?(?:docker )?image/,
      // buildah ("error building at STEP \"RUN …\"") and Singularity/Apptainer ("FATAL:   While performing build").
      /[Ee]rror building at STEP /,
      /FATAL:\s+While performing build:|FATAL:\s+Unable to build from /,
      // BuildKit's progress output: "ERROR [trainer 3/7] RUN pip install …", "ERROR [internal] load metadata for …".
      /^(?:#\d+ )?ERROR \[[\w .\/-]{1,120}\] /,
      // BuildKit's plain progress (--progress=plain, CI logs): a vertex that failed prints "#N ERROR: <err>"
      // (util/progress/progressui).
      /^#\d+ ERROR: /,
      // The classic builder's instruction errors (moby builder/dockerfile: "COPY failed: file not found in build
      // context or excluded by .dockerignore: …") and kaniko's Dockerfile lookup (cmd/executor/cmd/root.go:
      // "error resolving dockerfile path: please provide a valid path to a Dockerfile within the build context").
      /\b(?:COPY|ADD) failed: /,
      /\berror resolving dockerfile path\b/,
      /[Ee]rror: creating build container: /,
      // buildah before 1.27 ("error creating build container: …") and since ("building at STEP \"RUN …\": …").
      /\berror creating build container: /,
      /\b[Bb]uilding at STEP "[^"]{1,300}": /,
      // BuildKit resolving a FROM image (frontend/dockerui, llbsolver: "failed to resolve source metadata for
      // <ref>: <err>"): a pull refusal here fails the build, not a Pod's image pull.
      /failed to resolve source metadata for \S/,
      // buildx booting the BuildKit container its docker-container driver builds in ("ERROR [internal]
      // booting buildkit", with compose "[server internal]"): the builder itself never came up.
      /\bERROR \[(?:\w{1,20} )?internal\] booting buildkit\b|^\s*> \[(?:\w{1,20} )?internal\] booting buildkit:/,
      // E2B's CLI building a sandbox template (`e2b template build`: "✅ Building sandbox template <id> finished."
      // on success, "❌ Building sandbox template <id> failed." otherwise).
      // The template is named by its id and then its aliases ("… template 3kq0x9mbl2v7tz1c my-agent failed.").
      /Building sandbox template \S{1,80}(?: [^\n]{1,120}?)? failed\./,
    ],
    unless: [REGISTRY_UNREACHABLE],
    strength: 75,
    why: 'a container image build step failed',
    hint: 'The image build failed: the first failing RUN step and its output are the cause (package mirror or network during apt/pip, a changed upstream dependency, BuildKit cache state). Retry with --no-cache to rule out cache corruption.',
  },
  {
    // A Go crash inside kaniko: its goroutine dump's frames are kaniko's executor's own. kaniko runs alone
    // in its build container and prints a dump only when it panics or dies of a fatal error, so its frames
    // say the builder crashed, whatever the Dockerfile says. (BuildKit's and buildah's packages are vendored
    // by dockerd and podman, whose SIGUSR1/SIGQUIT dumps and --debug error stacks show them without a crash.)
    id: 'build.builder_panic',
    class: 'image.build_failure',
    patterns: [/^\s*github\.com\/(?:GoogleContainerTools|chainguard-dev|osscontainertools)\/kaniko\/\S{1,300}\(/],
    strength: 60,
    why: "the image builder (kaniko) crashed: its panic's stack is in the builder's own code",
    hint: "The image builder itself panicked (the goroutine dump's frames are in kaniko's code): this is a builder bug, not the Dockerfile. Upgrade or pin another kaniko release, and search its issue tracker for the panic's first frame.",
  },
  {
    // A registry refusing the push of a built image, in docker/distribution's error-code form
    // ("denied: requested access to the resource is denied", "unauthorized: authentication required") or
    // with code "unknown" and a reverse proxy's HTML page as the message (nginx 413 on a large layer).
    id: 'build.registry_push',
    class: 'image.build_failure',
    patterns: [/^denied: requested access to the resource is denied/, /^unknown: <html>/, /^(?:blob upload unknown|blob upload invalid): /, /error checking push permissions -- make sure you entered the correct tag name/],
    strength: 62,
    why: 'the registry refused the push of the built image',
    hint: 'The image registry refused the push: "denied" means the credentials or repository are wrong (docker login, the repository name/namespace); an HTML answer is a proxy in front of the registry (nginx client_max_body_size for large layers, a timeout) rejecting the upload.',
  },
]);
