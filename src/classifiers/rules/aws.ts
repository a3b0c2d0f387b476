// AWS SDKs: every exception class and service error code of the table in aws-vocab.ts (sources there),
// read through the ways the SDKs print them:
// - botocore's ClientError template "An error occurred (CODE) when calling the OP operation[ (reached max
//   retries: N)]: MESSAGE", whichever class carries it (ClientError, EventStreamError, the errorfactory's
//   per-code classes, boto3's S3UploadFailedError around it, the AWS CLI's own lines);
// - botocore's exception classes by qualified name (`botocore.exceptions.EndpointConnectionError`) and by
//   their `fmt` text, which also appears without the name (inside S3UploadFailedError, printed by the CLI);
// - aws-sdk-js-v3's ServiceException as Node prints it ("ThrottlingException: Too many requests, …") and
//   the deserializer frame that names its code (`at de_ThrottlingExceptionRes`); its transport's
//   TimeoutError messages and credential chain;
// - aws-sdk-go-v2's errors (smithy-go): "operation error S3: PutObject, https response error StatusCode:
//   503, RequestID: …, HostID: …, api error SlowDown: Please reduce your request rate."
// - aws-sdk-java v1's "(Service: Amazon S3; Status Code: 503; Error Code: SlowDown; Request ID: …)", v2's
//   and aws-sdk-net's modeled exceptions ("software.amazon.awssdk.services.s3.model.NoSuchKeyException: …").
// A model runtime's ClientError whose code the runtime's service model lists is read by that model's status
// (aws.model_api: AWS_MODEL_APIS). Otherwise the code's group decides; for the groups whose meaning depends
// on who answered (quota, denied, missing, request), the operation does: a model runtime's operation
// (InvokeModel, Converse, InvokeEndpoint, …) is a model API refusing the request (gateway.4xx), any other
// (S3, STS, …) the run's settings (config.error) or, for a malformed request, the run's own code (the
// traceback rules). botocore's HTTP-layer and settings classes (BOTOCORE_HTTP_CLASSES) are client.*'s
// (rules/client.ts reads them with the other Python HTTP clients); these rules read every other class. The
// narrower rules of gateway.ts, network.ts and config.ts match some of the same lines by their own
// wordings and are stronger; these decide what no other rule names. Usage and echo entries are read too,
// as nothing (aws.quiet).
import { defineRules, type Extracted } from '../rule.js';
import type { FailureClass } from '../taxonomy.js';
import { answeredClass } from './answerer.js';
import {
  AWS_MODULES,
  AWS_SDK_ERRORS,
  awsModelApiStatus,
  BOTOCORE_ERRORS,
  BOTOCORE_HTTP_CLASSES,
  type AwsGroup,
  type AwsSdkError,
  type AwsServiceCode,
  codesOf,
  isBotocoreHttpClass,
  isDistinctiveCode,
  MODEL_OPERATIONS,
  MODEL_SERVICE_IDS,
  PARAM_VALIDATION_REPORTS,
  serviceCode,
  templatePattern,
} from './aws-vocab.js';
import { HARNESS_TIMEOUTS, TRACKER_NOISE } from './network.js';
import { RUN_LOG_ONLY } from './sections.js';
import { RETRIED_STRENGTH, RETRYING_RE } from './severity.js';

/** The services whose operations are model calls (aws-vocab.ts MODEL_OPERATIONS); 'common' codes any service may send. */
const MODEL_SERVICES = new Set(['bedrock-runtime', 'sagemaker-runtime', 'bedrock-agent-runtime', 'common']);
const sentByModel = (c: AwsServiceCode): boolean => c.services.some((s) => MODEL_SERVICES.has(s));

/**
 * The lines that carry a service code, one pattern per print template (captured: code, and the operation
 * where the template has one). `codes` come from codesOf (longest first, with the event-stream spelling).
 */
function codePatterns(codes: string[]): RegExp[] {
  const all = codes.join('|');
  const named = codes.filter((c) => {
    const e = serviceCode(c);
    return e !== undefined && isDistinctiveCode(e);
  });
  const out = [
    // botocore ClientError.MSG_TEMPLATE (and every class built on it).
    new RegExp(String.raw`An error occurred \((?<code>${all})\) when calling the (?<op>\w{2,80}) operation`),
    // smithy-go GenericAPIError "api error {code}: {message}".
    new RegExp(String.raw`\bapi error (?<code>${all}): `),
    // aws-sdk-java (v1) AmazonServiceException.getMessage "{message} (Service: {service}; Status Code: {N};
    // Error Code: {code}; Request ID: {id}…)", as Hadoop s3a / EMRFS / Spark print it (EMRFS writes a
    // bodiless answer's code as "503 Slow Down").
    new RegExp(String.raw`\(Service: (?<svc>[^;)]{2,60}); Status Code: \d{3}; Error Code: (?<code>${all})(?: (?<reason>[A-Z][A-Za-z ]{1,40}))?; Request ID`),
  ];
  if (named.length) {
    const alt = named.join('|');
    out.push(
      // aws-sdk-go-v2 modeled errors after the response error ("…, RequestID: x, HostID: y, NoSuchKey: …").
      new RegExp(String.raw`response error StatusCode: \d{3}, RequestID: [^,]{0,100}, (?:HostID: [^,]{0,300}, )?(?<code>${alt}): `),
      // aws-sdk-js-v3: the exception's name is the code ("ThrottlingException: Too many requests, …"), not a
      // qualified name's last part (a Java class java.nio.file.AccessDeniedException is no AWS code).
      new RegExp(String.raw`(?<![\w.$/-])(?<code>${alt}): \S`),
      // aws-sdk-js-v3 (restJson/restXml deserializers before the schema-based clients): the frame names the code.
      new RegExp(String.raw`\bat de_(?<code>${alt})Res\b`),
      // aws-sdk-java-v2's and aws-sdk-net's modeled exceptions, named by the code (S3's with "Exception"
      // added): "software.amazon.awssdk.services.s3.model.NoSuchKeyException: The specified key does not
      // exist. (Service: S3, Status Code: 404, …)", "Amazon.S3.Model.NoSuchKeyException: …".
      new RegExp(String.raw`\bsoftware\.amazon\.awssdk\.services\.(?<svc>\w{2,40})\.model\.(?<code>${alt})(?:Exception)?: `),
      new RegExp(String.raw`\bAmazon\.(?<svc>\w{2,40})\.Model\.(?<code>${alt})(?:Exception)?: `),
    );
  }
  return out;
}

/** botocore / boto3 / s3transfer classes by qualified name, and every entry's message template, for the entries `pick` keeps. */
function sdkPatterns(pick: (x: AwsSdkError) => boolean): RegExp[] {
  const out: RegExp[] = [];
  for (const p of ['botocore', 'boto3', 's3transfer'] as const) {
    const names = [...new Set(AWS_SDK_ERRORS.filter((x) => x.producer === p && pick(x)).map((x) => x.name))].sort((a, b) => b.length - a.length);
    if (names.length) out.push(new RegExp(String.raw`\b(?<module>${AWS_MODULES[p]})\.(?<name>${names.join('|')})\b(?![.\w])`));
  }
  const texts = new Set<string>();
  for (const x of AWS_SDK_ERRORS.filter(pick)) {
    const re = templatePattern(x.message);
    if (re && !texts.has(re.source)) texts.add(re.source), out.push(re);
  }
  return out;
}
/**
 * The entries of some groups that these rules read: not botocore's HTTP-layer and settings classes that
 * client.* reads by name and opening words (BOTOCORE_HTTP_CLASSES true); those it reads by name only are
 * read here by their fmt where the line does not name them (carriesHttpClass).
 */
const sdkIn = (...groups: AwsGroup[]) => (x: AwsSdkError): boolean => groups.includes(x.group) && !(isBotocoreHttpClass(x) && BOTOCORE_HTTP_CLASSES.get(x.name));

/** Which entry a line holds: the qualified name, else the first entry whose template the line matches. */
function sdkEntry(line: string, m: RegExpExecArray, pick: (x: AwsSdkError) => boolean): AwsSdkError | undefined {
  const name = m.groups?.name;
  if (name) return AWS_SDK_ERRORS.find((x) => x.name === name && pick(x) && m.groups?.module?.startsWith(x.producer));
  return AWS_SDK_ERRORS.find((x) => pick(x) && templatePattern(x.message)?.test(line));
}

/** aws-sdk-go-v2's OperationError names the service and operation ("operation error Bedrock Runtime: InvokeModel, "). */
const GO_OPERATION_RE = /\boperation error ([A-Za-z][\w -]{1,40}): (\w{2,80}), /;
/** The Java and .NET SDKs' service names of the model runtimes (bedrockruntime, BedrockRuntime, SageMakerRuntime, bedrockagentruntime). */
const MODEL_SERVICE_NAME = /bedrock.?(?:agent.?)?runtime|sagemaker.?runtime/i;
/** With no operation on the line (aws-sdk-js-v3 prints none), a model call says so itself. */
const MODEL_WORDS = /\bmodel\b|\bbedrock\b|sagemaker-runtime|\bInvokeModel|\bInvokeEndpoint|\bConverse/i;

interface CodeRead {
  entry: AwsServiceCode;
  code: string;
  op?: string;
  /** The request was a model call (a model runtime's operation or service). */
  model: boolean;
  /** botocore gave up after its retries (" (reached max retries: N)"). */
  retries?: number;
}

function readCode(line: string, m: RegExpExecArray): CodeRead | undefined {
  // EMRFS's "503 Slow Down": the reason phrase is S3's code (SlowDown), which says more than the status.
  const code = m.groups?.reason && serviceCode(m.groups.reason.replace(/ /g, '')) ? m.groups.reason.replace(/ /g, '') : m.groups?.code;
  const entry = code ? serviceCode(code) : undefined;
  if (!code || !entry) return undefined;
  const go = GO_OPERATION_RE.exec(line);
  const op = m.groups?.op ?? go?.[2];
  const svc = m.groups?.svc;
  const model = m.groups?.op
    ? MODEL_OPERATIONS.has(m.groups.op)
    : go
      ? MODEL_SERVICE_IDS.has(go[1]!.trim()) || MODEL_OPERATIONS.has(go[2]!)
      : svc !== undefined
        ? MODEL_SERVICE_NAME.test(svc)
        : MODEL_WORDS.test(line);
  const retries = /\(reached max retries: (\d+)\)/.exec(line.slice(m.index))?.[1];
  return { entry, code, ...(op ? { op } : {}), model, ...(retries ? { retries: Number(retries) } : {}) };
}

const HINTS: Record<'throttled' | 'quota' | 'unavailable' | 'timeout' | 'network' | 'credentials' | 'clock' | 'region' | 'setup' | 'modelRefused' | 'denied' | 'missing', string> = {
  throttled:
    "AWS throttled the requests (ThrottlingException, S3 SlowDown, …): lower the request rate or concurrency (parallel workers, rollout batch), spread S3 keys over more prefixes, and raise the SDK's retries (botocore Config(retries={'max_attempts': 10, 'mode': 'adaptive'})); for Bedrock, request a higher tokens/requests-per-minute quota or use a cross-region inference profile.",
  quota: "A model runtime refused the request for an account quota (ServiceQuotaExceededException): request an increase in Service Quotas, or spread the load over regions (a cross-region inference profile).",
  unavailable: "The AWS service failed or was not ready (5xx, InternalError, ServiceUnavailable, a Bedrock model that errored or is still loading, a SageMaker endpoint's container answering an error): retry with back-off; for a SageMaker endpoint its CloudWatch log says why the container failed.",
  timeout: "The AWS endpoint did not answer in time (botocore's read timeout, 60 s by default, or Bedrock's ModelTimeoutException): raise read_timeout in botocore.config.Config for long generations, stream the response (ConverseStream / InvokeModelWithResponseStream), or lower max_tokens.",
  network: "The connection to the AWS endpoint failed or broke mid-transfer (no route, DNS, TLS, a proxy, a connection closed or a stream cut short, an upload's socket idle past S3's timeout, a checksum mismatch): check the network path to the endpoint (VPC endpoint, NAT, proxy settings HTTPS_PROXY / NO_PROXY), and for large checkpoints use multipart transfers with retries (boto3 upload_file, TransferConfig).",
  credentials:
    "The run had no AWS credentials, or credentials AWS does not accept (missing, partial, expired session token, an unknown key id, a bad signature, an SSO session that ran out): set AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN or AWS_PROFILE, give the Pod its IAM role (IRSA / Pod Identity) or the instance its profile, and refresh temporary credentials before they expire on long runs.",
  clock: "AWS rejected the request's signature time: the host's clock is off by more than the allowed skew (15 minutes for S3). Sync the clock (chrony / NTP) on the node or container host.",
  region: "The region or endpoint the AWS client was set up with cannot serve the request (no region, an unknown or disabled region, a bucket in another region, a bad endpoint URL or addressing style): set AWS_REGION / AWS_DEFAULT_REGION (or region_name) to the bucket's or model's region and check endpoint_url.",
  setup: "The AWS SDK's own configuration or installation is wrong (a profile that does not exist, an unparsable ~/.aws/config, a service or option this botocore version does not know, a missing extra such as botocore[crt]): fix the config file or AWS_PROFILE, or upgrade boto3/botocore.",
  modelRefused: "The model runtime refused the request (4xx): AccessDeniedException means the model is not enabled for the account or the role may not invoke it; ResourceNotFoundException / ValidationException an unknown model id, an inference profile needed for on-demand use, or a prompt too long for the model; check the model id, the region and the request body.",
  denied: "AWS denied the request (AccessDenied / 403): the run's IAM role, user or the bucket policy does not allow the action on that resource (s3:PutObject on the checkpoint prefix, sts:AssumeRole, a KMS key); fix the policy or the role the run uses.",
  missing: "What the request names does not exist (NoSuchBucket, NoSuchKey, a 404 from HeadObject, an IAM role or SageMaker resource): check the bucket name and key prefix the run was given (an unset variable, a typo, the wrong account or region), and that the object was written before it is read.",
};

const CLASS_OF: Partial<Record<AwsGroup, FailureClass>> = {
  throttled: 'gateway.4xx',
  unavailable: 'gateway.5xx',
  timeout: 'api.timeout',
  dropped: 'network.error',
  connect: 'network.error',
  credentials: 'config.error',
  clock: 'config.error',
  region: 'config.error',
  setup: 'config.error',
};

/** A code's verdict: its group, and for the groups that depend on who answered, the operation. */
function codeVerdict(r: CodeRead, line: string): Extracted {
  const g = r.entry.group;
  const base = { awsCode: r.code, ...(r.op ? { awsOperation: r.op } : {}), ...(r.entry.status >= 100 ? { httpStatus: r.entry.status } : {}), ...(r.retries !== undefined ? { retries: r.retries } : {}) };
  if (g === 'quota' || g === 'denied' || g === 'missing' || g === 'request') {
    if (r.model) return { ...base, classOverride: 'gateway.4xx', hint: g === 'quota' ? HINTS.quota : HINTS.modelRefused };
    if (g === 'request') return { classOverride: null };
    return { ...base, classOverride: 'config.error', hint: g === 'quota' ? 'An AWS account quota refused the request (SageMaker ResourceLimitExceeded: an instance type with no quota): request an increase in Service Quotas or pick an instance type the account has quota for.' : HINTS[g] };
  }
  const cls = CLASS_OF[g];
  if (!cls) return { classOverride: null };
  const hint = g === 'dropped' || g === 'connect' ? HINTS.network : g === 'clock' || (g === 'credentials' && /Signature expired:/.test(line)) ? HINTS.clock : HINTS[g as keyof typeof HINTS];
  return { ...base, classOverride: cls, hint };
}

/**
 * A botocore class around one of its HTTP-layer or settings classes (a credential provider that could not
 * reach its endpoint: "Error when retrieving credentials from container-role: … Connect timeout on endpoint
 * URL: …"; s3transfer's retries of a read timeout): the error it carries, named or in its opening words
 * (BOTOCORE_HTTP_CLASSES), decides, and client.* reads it; these rules leave the line to it.
 */
const CARRIED = BOTOCORE_ERRORS.map((x) => ({ name: new RegExp(String.raw`\bbotocore(?:\.exceptions)?\.${x.name}\b(?![.\w])`), text: x.byText }));
const carriesHttpClass = (line: string): boolean => CARRIED.some((x) => x.name.test(line) || (x.text !== undefined && line.includes(x.text)));

/** A model runtime's ClientError whose code its service model lists: aws.model_api's line, by the model's status. */
const modelApiReads = (code: string, op: string | undefined): boolean => op !== undefined && awsModelApiStatus(code, op)?.status !== undefined;

/** Source shown in a traceback ("except botocore.exceptions.ClientError:"), checks in code, experiment trackers' own uploads. */
const NOT_A_FAILURE: readonly RegExp[] = [TRACKER_NOISE, /\bexcept\b/, /\bisinstance\(|\bpytest\.raises\(|\bassertRaises\(/];

/** What aws.model_api leaves: source shown in a traceback, trackers' own uploads, a harness timeout naming the call it stopped waiting for. */
const MODEL_API_NOT_A_FAILURE: readonly RegExp[] = [TRACKER_NOISE, /\bexcept\b/, /\bisinstance\(/, HARNESS_TIMEOUTS];

/** The read of a code line for one rule: a verdict of the rule's kind only, else nothing (another rule of this file decides). */
function codeRule(keep: (v: Extracted, r: CodeRead) => boolean) {
  return (line: string, m: RegExpExecArray): Extracted => {
    const r = readCode(line, m);
    if (!r || modelApiReads(r.code, m.groups?.op)) return { classOverride: null };
    const v = codeVerdict(r, line);
    if (v.classOverride === null || !keep(v, r)) return { classOverride: null };
    // A failure the client itself says it is about to retry is no failure yet: the engine's retry note and
    // weight (severity.ts), for every class an AWS code reads as (a credentials error retried included).
    return RETRYING_RE.test(line) ? { ...v, strength: RETRIED_STRENGTH } : v;
  };
}

function sdkRule(pick: (x: AwsSdkError) => boolean) {
  return (line: string, m: RegExpExecArray): Extracted => {
    if (carriesHttpClass(line)) return { classOverride: null };
    const x = sdkEntry(line, m, pick);
    if (!x) return {};
    // smithy names its connect timeout TimeoutError: its own text says no connection was made, which the
    // bare name's reading (api.request_timeout, 50) cannot tell.
    if (x.producer === 'aws-sdk-js') return { awsError: x.name, ...(x.group === 'connect' ? { strength: 52 } : {}) };
    return { awsError: `${x.producer}.${x.name}` };
  };
}

/** botocore's ClientError.MSG_TEMPLATE, any code ("An error occurred ({code}) when calling the {operation} operation{retry_info}: {message}"). */
const CLIENT_ERROR_RE = /An error occurred \((?<awsCode>[A-Za-z]{3,80})\) when calling the (?<operation>[A-Za-z]{3,60}) operation/;

/**
 * A model runtime's error by the status its service model gives the code: 408 the model not answering in
 * time, 424 Failed Dependency the model behind the API failing (5xx), any other 4xx the model API refusing
 * the request, 5xx the service failing. A registry or a sandbox runtime answering is theirs (answerer.ts).
 */
function modelApiVerdict(line: string, m: RegExpExecArray): Extracted {
  const code = m.groups!.awsCode!;
  const op = m.groups!.operation!;
  const read = awsModelApiStatus(code, op);
  if (!read || read.status === undefined) return { classOverride: null };
  const status = read.status;
  const retries = /\(reached max retries: (\d+)\)/.exec(line.slice(m.index))?.[1];
  const base = { awsCode: code, awsOperation: op, awsService: read.service, httpStatus: status, ...(retries ? { retries: Number(retries) } : {}) };
  if (status === 408) return { ...base, classOverride: 'api.timeout', strength: 46, hint: HINTS.timeout };
  const answered = answeredClass(line);
  if (answered) return { ...base, classOverride: answered, strength: 48 };
  if (status >= 500 || status === 424) return { ...base, classOverride: 'gateway.5xx', strength: 48, hint: HINTS.unavailable };
  const group = serviceCode(code)?.group;
  return { ...base, classOverride: 'gateway.4xx', strength: 48, hint: group === 'throttled' ? HINTS.throttled : group === 'quota' ? HINTS.quota : HINTS.modelRefused };
}

/** The codes whose group is `g`, as codesOf writes them. */
const codes = (groups: AwsGroup[], pick?: (c: AwsServiceCode) => boolean): string[] => codesOf(groups, pick);

const WHY = "an AWS SDK (botocore/boto3, aws-sdk-js-v3, aws-sdk-go-v2) reported a service error code or one of its own exception classes (aws-vocab.ts), whose group says what failed";

export const awsRules = defineRules([
  {
    // botocore's ClientError / EventStreamError from a model runtime (Bedrock, Bedrock agents, SageMaker
    // endpoints) whose code its service model lists: the model's status decides (ThrottlingException 429 →
    // 4xx, ServiceUnavailableException 503 → 5xx, ModelTimeoutException 408 → api.timeout). Not weakened by
    // a retry note on the line; a harness timeout that names it is the harness's. (Its exclusions are the
    // ones it had as client.aws_model_api: a pytest.raises naming such an error is still read.)
    id: 'aws.model_api',
    class: 'gateway.5xx',
    patterns: [CLIENT_ERROR_RE],
    unless: MODEL_API_NOT_A_FAILURE,
    strength: 48,
    extract: modelApiVerdict,
    why: WHY,
    hint: HINTS.unavailable,
  },
  {
    // The SDKs' throttling tables (botocore retries/standard.py, smithy THROTTLING_ERROR_CODES), S3's SlowDown included.
    id: 'aws.throttled',
    class: 'gateway.4xx',
    patterns: [...codePatterns(codes(['throttled'])), /; Status Code: 503; Error Code: 503 (?<reason>Slow Down); Request ID/],
    unless: NOT_A_FAILURE,
    strength: 48,
    extract: codeRule(() => true),
    why: WHY,
    hint: HINTS.throttled,
  },
  {
    id: 'aws.unavailable',
    class: 'gateway.5xx',
    patterns: codePatterns(codes(['unavailable'])),
    unless: NOT_A_FAILURE,
    strength: 48,
    // (EMRFS's "503 Slow Down" is aws.throttled's.)
    extract: codeRule((v) => v.classOverride === 'gateway.5xx'),
    why: WHY,
    hint: HINTS.unavailable,
  },
  {
    id: 'aws.timeout',
    class: 'api.timeout',
    patterns: [...sdkPatterns(sdkIn('timeout')), ...codePatterns(codes(['timeout']))],
    unless: NOT_A_FAILURE,
    strength: 46,
    extract: (line, m) => (m.groups?.code ? codeRule(() => true)(line, m) : sdkRule(sdkIn('timeout'))(line, m)),
    why: WHY,
    hint: HINTS.timeout,
  },
  {
    // No connection to the endpoint, a connection or transfer broken mid-request (botocore's connection
    // classes, s3transfer's download retries used up, S3's RequestTimeout / BadDigest / IncompleteBody).
    id: 'aws.connection',
    class: 'network.error',
    patterns: [...sdkPatterns(sdkIn('connect', 'dropped')), ...codePatterns(codes(['dropped']))],
    unless: NOT_A_FAILURE,
    strength: 46,
    extract: (line, m) => (m.groups?.code ? codeRule(() => true)(line, m) : sdkRule(sdkIn('connect', 'dropped'))(line, m)),
    why: WHY,
    hint: HINTS.network,
  },
  {
    // A model runtime's operation refused: an account quota, a model not enabled, an unknown model id, a
    // request the model does not take ("Input is too long for requested model").
    id: 'aws.model_refused',
    class: 'gateway.4xx',
    patterns: codePatterns(codes(['quota', 'denied', 'missing', 'request'], sentByModel)),
    unless: NOT_A_FAILURE,
    strength: 48,
    extract: codeRule((v) => v.classOverride === 'gateway.4xx'),
    why: WHY,
    hint: HINTS.modelRefused,
  },
  {
    // The run's AWS settings: credentials, the host clock, region and endpoint, the SDK's configuration,
    // and what a non-model service says of the request's target (AccessDenied, NoSuchBucket, a 404
    // HeadObject, an account quota). Counted only in the run's logs: an agent's session quotes such
    // errors from the task it works on.
    id: 'aws.settings',
    class: 'config.error',
    patterns: [
      ...sdkPatterns(sdkIn('credentials', 'region', 'setup')),
      ...codePatterns(codes(['credentials', 'clock', 'region', 'quota', 'denied', 'missing'])),
      // botocore handlers.py validate_bucket_name inside a ParamValidationError report: an empty or
      // malformed bucket name is a setting left unset or written as a URL ("s3://bucket").
      /Invalid bucket name ".{0,300}": Bucket name must match the regex /,
    ],
    unless: NOT_A_FAILURE,
    strength: 62,
    sections: RUN_LOG_ONLY,
    extract: (line, m) => {
      if (m.groups?.code) return codeRule((v) => v.classOverride === 'config.error')(line, m);
      if (carriesHttpClass(line)) return { classOverride: null };
      if (/^Invalid bucket name/.test(m[0])) return { awsError: 'botocore.exceptions.ParamValidationError', hint: 'The bucket name given to the S3 client is empty or not a bucket name (an unset variable, an "s3://bucket/prefix" URL where the bare bucket name is expected): set the bucket setting to the bare name.' };
      const x = sdkEntry(line, m, sdkIn('credentials', 'region', 'setup'));
      const hint = x?.group === 'region' ? HINTS.region : x?.group === 'setup' ? HINTS.setup : HINTS.credentials;
      return { ...(x ? { awsError: `${x.producer === 'aws-sdk-js' ? '' : `${x.producer}.`}${x.name}` } : {}), hint };
    },
    why: WHY,
    hint: HINTS.credentials,
  },
  {
    // The run misusing the SDK (a parameter of the wrong type, a stubber's assertion), notes and
    // consequences (an upload id gone after an abort, a conditional write that lost a race, a
    // requestTimeout that only warns), and a non-model service rejecting a request the run's code built:
    // judged, as nothing (the traceback rules still read an exception that ends the run's traceback).
    // Class unknown: its names are no vocabulary of any failure class.
    id: 'aws.quiet',
    class: 'unknown',
    patterns: [...sdkPatterns(sdkIn('usage', 'echo')), ...PARAM_VALIDATION_REPORTS.map((t) => templatePattern(t)!), ...codePatterns(codes(['echo', 'request']))],
    strength: 1,
    extract: () => ({ classOverride: null }),
    why: 'an AWS SDK class or service code that says nothing about a failure on its own (aws-vocab.ts groups usage, echo, and request outside a model call)',
    hint: 'No failure of its own: the run misusing the SDK, a note, or a consequence of another failure.',
  },
]);
