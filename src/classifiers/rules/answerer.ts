// Who answered an HTTP status: the class of a 4xx/5xx follows the server that sent it, not the status.
// A model API or LLM gateway answering 503 is gateway.5xx; a container registry answering 429 is an image
// pull failing (Docker Hub's pull rate limit); a sandbox runtime's API or ingress answering 502/503 is a
// sandbox that is not there; the kubelet's port unreachable behind `kubectl exec` is the Pod's node.
// Only what the line itself shows counts (the URL's host and path, the producer's own wording): a status
// without such a mark stays with the gateway rules.
import type { Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';

export interface Answerer {
  who: 'registry' | 'sandbox' | 'kubelet';
  /** Where the shape comes from. */
  source: string;
  re: RegExp;
}

/** Cloud model APIs whose host names carry "runtime" (Bedrock, SageMaker): never a sandbox runtime. */
const MODEL_API_HOST = /\b(?:bedrock-runtime|runtime\.sagemaker|[\w-]+\.amazonaws\.com|[\w-]+\.azure\.com|[\w-]+\.googleapis\.com)\b/;

export const ANSWERERS: readonly Answerer[] = [
  {
    who: 'registry',
    source: 'OCI distribution spec / Docker Registry HTTP API v2 (endpoints /v2/<name>/manifests/<ref>, /v2/<name>/blobs/<digest>); the pull endpoint of the Docker Engine API (`POST /images/create?fromImage=…`, docker-py images.pull: the daemon relays the status of the registry, a 429 being the pull rate limit of Docker Hub); Docker Hub rate limiting ("toomanyrequests: You have reached your pull rate limit", docs.docker.com/docker-hub/download-rate-limit); registry hosts registry-1.docker.io, ghcr.io, quay.io, nvcr.io, gcr.io, *.pkg.dev, *.dkr.ecr.*, *.azurecr.io',
    re: /\/v2\/[\w.\/-]{1,300}\/(?:manifests|blobs)\/|http\+docker:\/\/[^\s/]{1,100}(?:\/v[\d.]+)?\/images\/create\b|\bregistry-1\.docker\.io\b|\b(?:ghcr|quay|nvcr|gcr|mcr)\.io\/|\.pkg\.dev\/|\.dkr\.ecr\.[\w-]+\.amazonaws\.com|\.azurecr\.io\b|\btoomanyrequests\b|pull rate limit|download-rate-limit/,
  },
  {
    who: 'kubelet',
    source: "kube-apiserver proxying exec/attach/logs to the Pod's kubelet (port 10250): \"error dialing backend: dial tcp <node>:10250: …\" (staging/src/k8s.io/apiserver, pkg/kubelet/server)",
    re: /error dialing backend|:10250\b/,
  },
  {
    who: 'sandbox',
    source: "sandbox runtimes' APIs and ingresses, by host or path: OpenHands remote runtime (<id>.eval-runtime.all-hands.dev, runtime.all-hands.dev), Daytona toolbox (/toolbox/ paths; daytona SDK intercept_errors prefixes \"Failed to execute command: \" etc. over the OpenAPI client's \"(<status>) Reason: <phrase>\"), E2B (*.e2b.dev, *.e2b.app), any host label runtime / sandbox(es) that is not a cloud model API; the sandbox SDKs' own exception classes (rules/sandbox-sdk-vocab.ts: modal.exception.*, e2b.exceptions.*, daytona errors and OpenAPI clients, runloop_api_client.*), whose \"rate limit\" or 4xx is the sandbox provider's; the Docker daemon as docker-py names it (\"500 Server Error for http+docker://localhost/…\": the container runtime answered; the error it quotes is read first by relations.ts relayed-status, and its pull endpoint is the registry's above)",
    re: /\bfor (?:url: )?http\+docker:\/\/|\b(?:modal\.exception|e2b(?:_code_interpreter)?\.exceptions|runloop_api_client(?:\._exceptions)?|daytona(?:_sdk)?\.(?:common\.)?errors|daytona_(?:api|toolbox_api)_client(?:_async)?\.exceptions)\.[A-Z]\w{2,60}|https?:\/\/(?:[\w-]+\.)*(?:[\w]+-)?(?:runtime|sandbox|sandboxes)(?:-[\w]+)?\.[\w.-]+|https?:\/\/(?:[\w-]+\.)*(?:daytona|e2b)\.(?:dev|app|io)\b|\/(?:toolbox|sandboxes?)\/[\w.-]|\bFailed to (?:execute (?:session )?command|run code|create sandbox|start sandbox|upload files?|download files?|create session): \(\d{3}\)\s*Reason: /i,
  },
];

/** The Docker Engine API's image build endpoint as docker-py names it (`… for http+docker://localhost/v1.43/build?t=…`). */
const DAEMON_BUILD = /http\+docker:\/\/[^\s/]{1,100}(?:\/v[\d.]+)?\/build\b/;

/** BuildKit's step output ("#3 ERROR: …", "ERROR: failed to solve: …") and docker build: a pull during a build. */
const BUILD_SHAPE = /^\s*#\d+ (?:ERROR|\d+\.\d+)|failed to solve|\bdocker(?:-compose| compose)? build\b|\bbuildx\b|\bFROM [\w./:-]+|Booting builder/;

/** The answerer the line shows (among `only`), or undefined. */
function answererOf(line: string, only?: readonly Answerer['who'][]): Answerer['who'] | undefined {
  const a = ANSWERERS.find((x) => (!only || only.includes(x.who)) && x.re.test(line));
  if (!a || (a.who === 'sandbox' && MODEL_API_HOST.test(line))) return undefined;
  return a.who;
}

/** The class the answerer of the status on this line gives it, or undefined when the line shows none. */
export function answeredClass(line: string, only?: readonly Answerer['who'][]): FailureClass | undefined {
  const who = answererOf(line, only);
  if (!who) return undefined;
  if (who === 'registry') return BUILD_SHAPE.test(line) ? 'image.build_failure' : 'sandbox.failure';
  // docker-py's images.build (POST /build): the daemon answering for the image build, not a container.
  if (DAEMON_BUILD.test(line)) return 'image.build_failure';
  return 'sandbox.failure';
}

const HINTS: Record<Answerer['who'], string> = {
  registry: 'The status came from a container registry, not a model API: the image could not be pulled (Docker Hub\'s anonymous pull rate limit answers 429 "toomanyrequests"). Log in to the registry (docker login / imagePullSecrets), mirror the images to a registry you control, or pull fewer at once.',
  sandbox: "The status came from the sandbox runtime's API or ingress, not from a model API: the sandbox was not running or not ready (it failed to start, crashed or was reclaimed). Check the runtime's own state and events for that sandbox (startup probe, image, resources) before retrying.",
  kubelet: "The API server could not reach the kubelet of the Pod's node (port 10250) for exec/logs/attach: the node or its kubelet is down, or the Pod was being shut down. Check `kubectl get node` and the Pod's events.",
};

/** Wrap a rule's extract: the class (and hint) follow the answerer the line shows (among `only`). */
export function byAnswerer(extract: (line: string, m: RegExpExecArray) => Extracted, only?: readonly Answerer['who'][]): (line: string, m: RegExpExecArray) => Extracted {
  return (line, m) => {
    const base = extract(line, m);
    const who = answererOf(line, only);
    if (!who) return base;
    return { ...base, classOverride: answeredClass(line, only)!, answeredBy: who, hint: HINTS[who] };
  };
}
