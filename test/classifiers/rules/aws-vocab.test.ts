// The AWS SDKs' error vocabularies (rules/aws-vocab.ts, the aws.* rules of rules/aws.ts): every exception
// class and every service code of the table through the ways a run's log prints it, the operation
// deciding who answered, and the groups ordering against real causes the way the messages mean.
import { describe, expect, it } from 'vitest';
import { AWS_SDK_ERRORS, AWS_SERVICE_CODES, type AwsGroup, type AwsSdkError, type AwsServiceCode, isDistinctiveCode, MODEL_OPERATIONS, templatePattern } from '../../../src/classifiers/rules/aws-vocab.js';
import { classifyFiles, classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const rules = (text: string) => classifyText(text).evidence.map((e) => e.rule);

/** What each group means for a run (the table's own documentation); the by-answerer groups are below. */
const GROUP_CLASS: Partial<Record<AwsGroup, string>> = {
  throttled: 'gateway.4xx',
  unavailable: 'gateway.5xx',
  timeout: 'api.timeout',
  connect: 'network.error',
  dropped: 'network.error',
  credentials: 'config.error',
  clock: 'config.error',
  region: 'config.error',
  setup: 'config.error',
};
const INFRA = new Set(['network.error', 'api.timeout', 'gateway.4xx', 'gateway.5xx', 'config.error']);

/** Values for botocore's `fmt` fields, as a run's settings fill them. */
const FIELDS: Record<string, string> = {
  endpoint_url: 'https://ml-ckpts.s3.us-west-2.amazonaws.com/runs/sft-7b/step-4000/model-00001-of-00004.safetensors',
  proxy_url: 'http://proxy.internal:3128',
  error: "('Connection broken: IncompleteRead(0 bytes read, 65536 more expected)', IncompleteRead(0 bytes read, 65536 more expected))",
  provider: 'iam-role',
  error_msg: 'Credential refresh failed, response did not contain: access_key, secret_key, token, expiration',
  cred_var: 'aws_secret_access_key',
  region_name: 'us-west-2a',
  service_name: 'bedrock-runtime',
  profile: 'training',
  path: '/root/.aws/config',
  data_path: 'endpoints',
  known_service_names: 'accessanalyzer, account, acm',
  signature_version: 's3v5',
  tags: "['fips']",
  msg: 'Cannot specify both use_fips_endpoint and endpoint_url',
  ms: '30000',
  actual_bytes: '1048576',
  expected_bytes: '4194304',
  checksum_type: 'CRC32',
  expected_checksum: 'q3mEHw==',
  actual_checksum: 'Zm9vYg==',
  bucket_name: 'ML_Ckpts',
  s3_addressing_style: 'vhost',
  arn: 'arn:aws:s3:us-west-2:123456789012:bucket/ml-ckpts',
  label: 'my bucket',
  resource_name: 'op-01ac5d28a6a232904',
  config_value: 'maybe',
  retry_config_option: 'max_attemps',
  valid_options: "['max_attempts', 'mode', 'total_max_attempts']",
  provided_max_attempts: '-1',
  min_value: '0',
  provided_retry_mode: 'fast',
  valid_modes: "['legacy', 'standard', 'adaptive']",
  s3_us_east_1_regional_endpoint_config: 'global',
  sts_regional_endpoints_config: 'global',
  source_profile: 'base',
  visited_profiles: "['base', 'training']",
  mode: 'turbo',
  config_key: 'request_checksum_calculation',
  botocore_supported_protocols: "['json', 'rest-json', 'rest-xml', 'query', 'ec2']",
  service: 'bedrock-agentcore',
  service_supported_protocols: "['smithy-rpc-v2-cbor']",
  bad_api_version: '2020-01-01',
  available_api_versions: '2006-03-01',
  endpoint: 'http://169.254.169.254:80x',
};
const fill = (message: string): string => message.replace(/\{(\w+)\}/g, (_, f: string) => FIELDS[f] ?? `x-${f}`);

/** Where each producer raises from, for a traceback's innermost frame (library code). */
const FRAME: Record<AwsSdkError['producer'], string> = {
  botocore: 'botocore/httpsession.py", line 499, in send',
  boto3: 'boto3/s3/transfer.py", line 372, in upload_file',
  s3transfer: 's3transfer/download.py", line 641, in _main',
  'aws-sdk-js': '',
};

/** An SDK entry's lines as a run prints them: the qualified exception line, its message alone, behind a traceback of library frames, and behind a launcher's prefix. */
function sdkLines(x: AwsSdkError): string[] {
  const message = fill(x.message);
  if (x.producer === 'aws-sdk-js') {
    // Node prints an uncaught error as "Name: message" with its stack below; the echo entry is a logger.warn line.
    const line = x.group === 'echo' ? message : `${x.name}: ${message}`;
    return [line, `${line}\n    at Timeout._onTimeout (/app/node_modules/@smithy/node-http-handler/dist-cjs/index.js:412:11)`];
  }
  const module = `${x.producer}.exceptions`;
  const line = `${module}.${x.name}: ${message}`;
  const out = [
    line,
    ['Traceback (most recent call last):', '  File "/workspace/train/checkpoint.py", line 88, in save', '    s3.upload_file(local, bucket, key)', `  File "/opt/venv/lib/python3.11/site-packages/${FRAME[x.producer]}`, '    raise exc', line].join('\n'),
    `[rank0]: ${line}`,
  ];
  // The text without the class name (inside S3UploadFailedError, printed by the AWS CLI) where the template is read alone.
  if (templatePattern(x.message)) out.push(message.split('\n')[0]!);
  return out;
}

describe('every AWS SDK exception class through the lines that print it', () => {
  const deciding = AWS_SDK_ERRORS.filter((x) => GROUP_CLASS[x.group] !== undefined);
  it.each(deciding.map((x, i) => [x.producer, x.name, i, x] as const))('%s %s (%i)', (_p, _n, _i, x) => {
    const want = GROUP_CLASS[x.group]!;
    for (const t of sdkLines(x)) expect(cls(t), t).toBe(want);
  });

  it('a class that decides nothing on its own (usage, echo) is no infrastructure failure, and no guess either', () => {
    const quiet = AWS_SDK_ERRORS.filter((x) => x.group === 'usage' || x.group === 'echo');
    expect(quiet.length).toBeGreaterThan(25);
    for (const x of quiet)
      for (const t of sdkLines(x)) {
        const d = classifyText(t);
        // The run's own code may be blamed (a ParamValidationError ending the run's traceback is the
        // traceback rules'): the infrastructure never, and no vocabulary guess is made.
        expect(INFRA.has(d.class), t).toBe(false);
        expect(d.evidence.map((e) => e.rule), t).not.toContain('fallback.vocabulary');
      }
  });

  it("a wrapper (ClientError, S3UploadFailedError) is read by the error it carries", () => {
    expect(cls('boto3.exceptions.S3UploadFailedError: Failed to upload /ckpt/step-4000/optim.pt to ml-ckpts/runs/sft/step-4000/optim.pt: An error occurred (SlowDown) when calling the UploadPart operation (reached max retries: 4): Please reduce your request rate.')).toBe('gateway.4xx');
    // s3transfer's legacy path wraps any exception of the multipart upload: the inner botocore text decides.
    expect(cls('s3transfer.exceptions.S3UploadFailedError: Failed to upload /ckpt/model.pt to ml-ckpts/runs/model.pt: Could not connect to the endpoint URL: "https://ml-ckpts.s3.us-west-2.amazonaws.com/runs/model.pt?uploadId=x&partNumber=3"')).toBe('network.error');
    expect(cls('s3transfer.exceptions.S3UploadFailedError: Failed to upload /ckpt/model.pt to ml-ckpts/runs/model.pt: An error occurred (ExpiredToken) when calling the UploadPart operation: The provided token has expired.')).toBe('config.error');
  });

  it('a base class and the entries left to their message put nothing of their own', () => {
    for (const x of AWS_SDK_ERRORS.filter((y) => y.group === 'skip' || y.group === 'reason'))
      if (x.producer !== 'aws-sdk-js') expect(rules(`${x.producer}.exceptions.${x.name}: ${x.name === 'PaginationError' ? 'Error during pagination: The same next token was received twice: {}' : ''}`).filter((r) => r.startsWith('aws.') && r !== 'aws.quiet'), x.name).toEqual([]);
  });

  it('covers each botocore class once, and every producer', () => {
    const keys = AWS_SDK_ERRORS.filter((x) => x.producer !== 'aws-sdk-js').map((x) => `${x.producer}:${x.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(AWS_SDK_ERRORS.map((x) => x.producer))).toEqual(new Set(['botocore', 'boto3', 's3transfer', 'aws-sdk-js']));
  });
});

/** A model runtime's operation and another service's, for each code (its services say which it can meet). */
const MODEL_SERVICES = ['bedrock-runtime', 'sagemaker-runtime', 'bedrock-agent-runtime', 'common'];
const modelOp = (c: AwsServiceCode): string | undefined => (c.services.some((s) => MODEL_SERVICES.includes(s)) ? (c.services.includes('sagemaker-runtime') && !c.services.includes('bedrock-runtime') ? 'InvokeEndpoint' : 'InvokeModel') : undefined);
const otherOp = (c: AwsServiceCode): string | undefined => {
  const other = c.services.filter((s) => !MODEL_SERVICES.includes(s) || s === 'common');
  if (!other.length) return undefined;
  return other.includes('s3') ? 'PutObject' : other.includes('sts') ? 'AssumeRoleWithWebIdentity' : other.includes('sagemaker') ? 'CreateTrainingJob' : other.includes('dynamodb') ? 'PutItem' : 'GetSecretValue';
};
/** What a code means by who answered. */
function expected(c: AwsServiceCode, model: boolean): string | 'not-infra' | undefined {
  if (GROUP_CLASS[c.group]) return GROUP_CLASS[c.group];
  if (c.group === 'quota' || c.group === 'denied' || c.group === 'missing') return model ? 'gateway.4xx' : 'config.error';
  if (c.group === 'request') return model ? 'gateway.4xx' : 'not-infra';
  if (c.group === 'echo') return 'not-infra';
  return undefined;
}

/** A code's lines: botocore's ClientError (and its errorfactory class) with and without botocore's give-up note, an event stream's lower camel case, and the other SDKs' templates. */
function codeLines(c: AwsServiceCode, op: string): string[] {
  const template = `An error occurred (${c.code}) when calling the ${op} operation: ${c.message}`;
  const out = [
    `botocore.exceptions.ClientError: ${template}`,
    `botocore.errorfactory.${/^\d/.test(c.code) ? 'ClientError' : c.code}: An error occurred (${c.code}) when calling the ${op} operation (reached max retries: 4): ${c.message}`,
    ['Traceback (most recent call last):', '  File "/workspace/eval/judge.py", line 41, in score', '    resp = client.invoke(**req)', '  File "/opt/venv/lib/python3.11/site-packages/botocore/client.py", line 1074, in _make_api_call', '    raise error_class(parsed_response, operation_name)', `botocore.exceptions.ClientError: ${template}`].join('\n'),
  ];
  if (op.startsWith('Invoke') && /^[A-Z]/.test(c.code)) out.push(`botocore.exceptions.EventStreamError: An error occurred (${c.code[0]!.toLowerCase()}${c.code.slice(1)}) when calling the ${op}WithResponseStream operation: ${c.message}`);
  if (!/^\d/.test(c.code)) {
    const service = op === 'PutObject' ? 'S3' : op.startsWith('InvokeEndpoint') ? 'SageMaker Runtime' : op.startsWith('Invoke') ? 'Bedrock Runtime' : op === 'AssumeRoleWithWebIdentity' ? 'STS' : 'Secrets Manager';
    out.push(`operation error ${service}: ${op}, https response error StatusCode: ${c.status || 400}, RequestID: 5c1f0b0e-7d1a-4a51-9d3e-2f6f3c9f1a77, api error ${c.code}: ${c.message}`);
    // aws-sdk-java v1 has no Bedrock client: its AmazonServiceException message for the other services.
    if (!MODEL_OPERATIONS.has(op)) out.push(`Caused by: com.amazonaws.services.s3.model.AmazonS3Exception: ${c.message} (Service: Amazon S3; Status Code: ${c.status || 400}; Error Code: ${c.code}; Request ID: 8F2C1A0B9D3E4F56; S3 Extended Request ID: Zm9vYmFy=; Proxy: null)`);
    // aws-sdk-java v2: the modeled exception named by the code (S3's shapes with "Exception" added).
    if (isDistinctiveCode(c)) {
      const v2 = MODEL_OPERATIONS.has(op) ? (op.startsWith('InvokeEndpoint') ? 'sagemakerruntime' : 'bedrockruntime') : 's3';
      out.push(`software.amazon.awssdk.services.${v2}.model.${c.code}${c.code.endsWith('Exception') ? '' : 'Exception'}: ${c.message} (Service: ${v2 === 's3' ? 'S3' : 'BedrockRuntime'}, Status Code: ${c.status || 400}, Request ID: 4442587FB7D0A2F9)`);
    }
  }
  return out;
}

describe('every service error code through the lines that carry it', () => {
  const cases = AWS_SERVICE_CODES.flatMap((c) =>
    [modelOp(c), otherOp(c)]
      .filter((op): op is string => op !== undefined)
      .map((op) => [c.code, op, c] as const),
  );
  it.each(cases)('%s on %s', (_code, op, c) => {
    const want = expected(c, MODEL_OPERATIONS.has(op));
    if (want === undefined) return;
    for (const t of codeLines(c, op)) {
      const got = cls(t);
      if (want === 'not-infra') expect(INFRA.has(got), t).toBe(false);
      else expect(got, t).toBe(want);
    }
  });

  it('an aws-sdk-js-v3 exception as Node prints it: the name is the code', () => {
    const node = (name: string, message: string, status: number, client: string) =>
      [`${name}: ${message}`, `    at de_${name}Res (/app/node_modules/@aws-sdk/client-${client}/dist-cjs/index.js:2231:21)`, '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)', '    at async /app/node_modules/@smithy/middleware-serde/dist-cjs/index.js:35:20 {', "  '$fault': 'client',", "  '$metadata': {", `    httpStatusCode: ${status},`, "    requestId: '0f7e3b9a-2c44-4f31-9a1e-5d1c2b7e8f90',", '    attempts: 3,', '    totalRetryDelay: 1382', '  }', '}'].join('\n');
    expect(cls(node('ThrottlingException', 'Too many requests, please wait before trying again.', 429, 'bedrock-runtime'))).toBe('gateway.4xx');
    expect(cls(node('ModelTimeoutException', 'Model has timed out in processing the request. Try your request again.', 408, 'bedrock-runtime'))).toBe('api.timeout');
    expect(cls(node('AccessDeniedException', "You don't have access to the model with the specified model ID.", 403, 'bedrock-runtime'))).toBe('gateway.4xx');
    expect(cls(node('NoSuchKey', 'The specified key does not exist.', 404, 's3'))).toBe('config.error');
    expect(cls(node('ExpiredTokenException', 'The security token included in the request is expired', 400, 'bedrock-runtime'))).toBe('config.error');
    // A harness that prefixes the SDK's error (promptfoo "API call error: …").
    expect(cls('API call error: ThrottlingException: Too many requests, please wait before trying again. You have sent too many requests.  Wait before trying again.')).toBe('gateway.4xx');
    // EMRFS writes a bodiless 503's code as "503 Slow Down": S3's throttling, not a failing service.
    expect(cls('java.io.IOException: com.amazon.ws.emr.hadoop.fs.shaded.com.amazonaws.services.s3.model.AmazonS3Exception: Slow Down (Service: Amazon S3; Status Code: 503; Error Code: 503 Slow Down; Request ID: 2E8B8866BFF00645; S3 Extended Request ID: Zm9vYmFy=)')).toBe('gateway.4xx');
    expect(cls('Amazon.S3.Model.NoSuchKeyException: The specified key does not exist.')).toBe('config.error');
    // A Java class of the same name is no AWS code.
    expect(rules('Caused by: java.nio.file.AccessDeniedException: /data/shards/train-0001.arrow')).not.toContain('aws.settings');
  });

  it('covers each code once', () => {
    const codes = AWS_SERVICE_CODES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('what the codes mean in a run', () => {
  it('who answered decides a refusal: a model runtime (gateway.4xx) or the run\'s own settings (config.error)', () => {
    expect(cls("botocore.errorfactory.AccessDeniedException: An error occurred (AccessDeniedException) when calling the InvokeModel operation: You don't have access to the model with the specified model ID.")).toBe('gateway.4xx');
    expect(cls('botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied')).toBe('config.error');
    expect(cls("botocore.errorfactory.ValidationException: An error occurred (ValidationException) when calling the Converse operation: Invocation of model ID anthropic.claude-3-5-sonnet-20241022-v2:0 with on-demand throughput isn't supported. Retry your request with the ID or ARN of an inference profile that contains this model.")).toBe('gateway.4xx');
    // A request S3 refuses is the run's own code's (the traceback rules), no infrastructure failure.
    expect(cls(['Traceback (most recent call last):', '  File "/workspace/train/ckpt.py", line 30, in save', '    s3.put_object(Bucket=b, Key=k, Body=data)', '  File "/opt/venv/lib/python3.11/site-packages/botocore/client.py", line 1074, in _make_api_call', '    raise error_class(parsed_response, operation_name)', 'botocore.exceptions.ClientError: An error occurred (EntityTooLarge) when calling the PutObject operation: Your proposed upload exceeds the maximum allowed object size.'].join('\n'))).toBe('user.code_error');
  });

  it('an empty bucket name in a ParamValidationError report is a setting left unset', () => {
    const log = ['botocore.exceptions.ParamValidationError: Parameter validation failed:', 'Invalid bucket name "": Bucket name must match the regex "^[a-zA-Z0-9.\\-_]{1,255}$" or be an ARN matching the regex "^arn:(aws).*:(s3|s3-object-lambda):[a-z\\-0-9]*:[0-9]{12}:accesspoint[/:][a-zA-Z0-9\\-.]{1,63}$"'].join('\n');
    expect(cls(log)).toBe('config.error');
    // Any other report is the run's code passing what the operation does not take.
    expect(INFRA.has(cls(['botocore.exceptions.ParamValidationError: Parameter validation failed:', 'Invalid type for parameter Body, value: 12, type: <class \'int\'>, valid types: <class \'bytes\'>, <class \'bytearray\'>, file-like object'].join('\n')))).toBe(false);
  });

  it("a wrapped read timeout (a log that wraps the URL onto the next line) is the endpoint not answering", () => {
    expect(cls(['Read timeout on endpoint URL:', '"https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse"'].join('\n'))).toBe('api.timeout');
  });

  it("smithy's connect timeout is no connection at all, though Node names it TimeoutError", () => {
    expect(cls('TimeoutError: @smithy/node-http-handler - the request socket did not establish a connection with the server within the configured timeout of 1000 ms.')).toBe('network.error');
    expect(cls('TimeoutError: @smithy/node-http-handler - the request socket timed out after 120000 ms of inactivity (configured by client requestHandler).')).toBe('api.timeout');
  });

  it('a throttled call the harness says it retries is no failure yet; the run\'s own crash decides', () => {
    const log = [
      '2026-11-30 10:14:02,118 WARNING judge: ThrottlingException: Too many requests, please wait before trying again. (retrying in 4.0s)',
      '2026-11-30 10:19:40,552 ERROR train: step 812 failed',
      'Traceback (most recent call last):',
      '  File "/workspace/train/loop.py", line 214, in step',
      '    loss = model(**batch).loss',
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.50 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.02 GiB is free.',
    ].join('\n');
    expect(cls(log)).toBe('cuda.oom');
  });

  it("a checkpoint upload that fails after the run's own failure does not outrank it", () => {
    // The run OOMs, its exit handler tries to save an emergency checkpoint to S3 and the upload fails too.
    const log = [
      '[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 0 has a total capacity of 79.19 GiB of which 412.00 MiB is free.',
      'INFO:ckpt:saving emergency checkpoint to s3://ml-ckpts/runs/sft-7b/emergency/',
      'boto3.exceptions.S3UploadFailedError: Failed to upload /tmp/emergency/optim.pt to ml-ckpts/runs/sft-7b/emergency/optim.pt: An error occurred (RequestTimeout) when calling the UploadPart operation: Your socket connection to the server was not read from or written to within the timeout period. Idle connections will be closed.',
    ].join('\n');
    expect(cls(log)).toBe('cuda.oom');
    // Alone, the upload that stalled is the network's.
    expect(cls(log.split('\n')[2]!)).toBe('network.error');
  });

  it('a model call refused by Bedrock beats the KeyError the harness raises on the missing answer', () => {
    const log = [
      'ERROR:judge:bedrock call failed: An error occurred (ServiceUnavailableException) when calling the InvokeModel operation (reached max retries: 4): Bedrock is unable to process your request.',
      'Traceback (most recent call last):',
      '  File "/workspace/eval/judge.py", line 77, in grade',
      "    text = resp['output']['message']['content'][0]['text']",
      "KeyError: 'output'",
    ].join('\n');
    expect(cls(log)).toBe('gateway.5xx');
  });

  it('throttling in the agent\'s log decides over a zero reward (an infra failure is never an outcome)', () => {
    const d = classifyFiles({
      'agent/claude-code.txt': "botocore.errorfactory.ThrottlingException: An error occurred (ThrottlingException) when calling the ConverseStream operation (reached max retries: 4): Too many tokens, please wait before trying again.",
      'verifier/reward.txt': '0',
    });
    expect(d.class).toBe('gateway.4xx');
  });

  it("credentials missing in the task an agent works on are the agent's work, not the run's settings", () => {
    const task = 'botocore.exceptions.NoCredentialsError: Unable to locate credentials';
    expect(classifyFiles({ 'agent/trajectory.txt': `$ python upload.py\n${task}` }).class).not.toBe('config.error');
    expect(classifyFiles({ 'logs/train.log': task }).class).toBe('config.error');
  });

  it('credentials that expire on a long run: the S3 checkpoint upload names it', () => {
    const log = [
      '{"step": 52000, "loss": 1.412, "lr": 1.2e-05}',
      'Traceback (most recent call last):',
      '  File "/workspace/train/ckpt.py", line 52, in push',
      '    s3.upload_file(path, bucket, key)',
      '  File "/opt/venv/lib/python3.11/site-packages/boto3/s3/transfer.py", line 378, in upload_file',
      '    raise S3UploadFailedError(',
      'boto3.exceptions.S3UploadFailedError: Failed to upload /ckpt/step-52000/model.safetensors to ml-ckpts/runs/sft-7b/step-52000/model.safetensors: An error occurred (ExpiredToken) when calling the CreateMultipartUpload operation: The provided token has expired.',
    ].join('\n');
    expect(cls(log)).toBe('config.error');
    expect(rules(log)[0]).toBe('aws.settings');
  });
});
