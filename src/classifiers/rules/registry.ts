// Container registry refusals printed by an image build tool. The same refusal (HTTP 429 / distribution errcode TOOMANYREQUESTS "toomanyrequests: …",
// containerd's "unexpected status from HEAD request to https://…/v2/<name>/manifests/<ref>: 429 Too Many
// Requests", its fetcher's "failed to copy: httpReadSeeker: failed open: unexpected status code …") is
// - an image build failing when a build tool printed it: buildx prints every error as "ERROR: <err>"
//   (docker/buildx cmd/buildx main.go), BuildKit's plain progress as "#N ERROR: <err>" (util/progress/
//   progressui), and docker/setup-buildx-action re-raises buildx's own output as "Error: ERROR: …";
// - a sandbox that cannot start when a pull for a container said it (kubelet ErrImagePull, dockerd
//   "Error response from daemon"): k8s.image_pull, and a bare status line by who answered (answerer.ts);
// - never an LLM gateway's rate limit.
// buildx's "ERROR: " line is not one answerer.ts's BUILD_SHAPE knows, and on it k8s.image_pull would name
// the registry's words a sandbox pull: this rule reads the build tool's line as the build's.
import { defineRules } from '../rule.js';
import { REGISTRY_UNREACHABLE } from './build.js';

/** A registry API URL (OCI distribution spec: /v2/<name>/manifests/<reference>, /v2/<name>/blobs/<digest>). */
const REGISTRY_URL = String.raw`https?://[^\s/]{1,253}/v2/\S{1,300}/(?:manifests|blobs)/`;

export const registryRules = defineRules([
  {
    id: 'registry.build_pull_refused',
    class: 'image.build_failure',
    patterns: [
      new RegExp(String.raw`^(?:Error: )?(?:#\d+ (?:\d+\.\d+ )?)?ERROR: [^\n]{0,400}(?:toomanyrequests|httpReadSeeker|unexpected status (?:from [A-Z]{3,7} request to|code)|${REGISTRY_URL})`),
    ],
    unless: [REGISTRY_UNREACHABLE],
    // Above k8s.image_pull (76) and gateway.rate_limited (66): on a build tool's own error line the refusal
    // is the build's base image, not a sandbox's pull or a model's rate limit.
    strength: 78,
    why: "the image build could not fetch its base image or layers: the registry refused (pull rate limit, not found, denied)",
    hint: "The build's base image could not be fetched: a 429/toomanyrequests is Docker Hub's anonymous pull rate limit (docker login with an account, a pull-through mirror, or pre-pulled base images fix it); not found / denied is a wrong base image name or missing credentials. The build never ran its steps; retry once the limit resets.",
  },
]);
