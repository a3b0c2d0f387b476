// The AWS SDKs' own error vocabularies, as data: every exception class of botocore, boto3 and s3transfer
// with the message template it prints, the messages of aws-sdk-js-v3's Node transport and credential
// chain, and the service error codes a run meets inside a botocore ClientError (or an aws-sdk-js-v3 /
// aws-sdk-go-v2 service exception): S3 (checkpoints, datasets), Bedrock and SageMaker runtimes (model
// calls, with the status each runtime's service model gives its errors: AWS_MODEL_APIS), STS/IAM/SSO
// (credentials), with the retry tables that say which codes are throttling and which transient. Each entry
// is in a group that says what it means for a run. This file is the one table of botocore's classes and of
// the model runtimes' codes. The rules of rules/aws.ts read a line through it, except botocore's HTTP-layer
// and client-settings classes (BOTOCORE_HTTP_CLASSES), which rules/client.ts reads as it reads the other
// Python HTTP clients' (in client-vocab.ts's shape: BOTOCORE_ERRORS, derived here); the narrower rules of
// gateway.ts, network.ts and config.ts (api.request_timeout on `ReadTimeoutError`, network.connection on
// `ConnectTimeoutError`, network.tls on `SSLError`, gateway.server_error on "Service Unavailable") keep the
// wordings they had and stay first where both match (they are stronger).
//
// Sources (read in each producer's repository):
// - botocore 1.43.67 (0e6e240): botocore/exceptions.py (every class and its `fmt`; ClientError.MSG_TEMPLATE
//   "An error occurred ({error_code}) when calling the {operation_name} operation{retry_info}:
//   {error_message}" with retry_info " (reached max retries: N)"; EventStreamError, a ClientError raised
//   from an event stream, whose codes are lower camel case: "throttlingException"), retries/standard.py
//   (ThrottledRetryableChecker._THROTTLED_ERROR_CODES, TransientRetryableChecker._TRANSIENT_ERROR_CODES and
//   _TRANSIENT_STATUS_CODES 500/502/503/504), retries/special.py (STS IDPCommunicationError is retried),
//   data/_retry.json (the legacy mode's throttling and 5xx policies), handlers.py validate_bucket_name
//   ('Invalid bucket name "{bucket}": Bucket name must match the regex …'), validate.py (ParamValidationError
//   reports); the service models' error shapes and their httpStatusCode: data/s3/2006-03-01,
//   bedrock-runtime/2023-09-30, bedrock/2023-04-20, bedrock-agent-runtime/2023-07-26,
//   sagemaker-runtime/2017-05-13, sagemaker/2017-07-24, sts/2011-06-15, sso/2019-06-10,
//   sso-oidc/2019-06-10 service-2.json (the operations of the model runtimes come from the same files).
// - boto3 1.43.78 (722e01b): boto3/exceptions.py, s3/transfer.py (S3UploadFailedError "Failed to upload
//   {filename} to {bucket}/{key}: {e}" around a ClientError; RetriesExceededError re-raised from s3transfer's).
// - s3transfer 0.16.1 (bf42628): s3transfer/exceptions.py, __init__.py (S3UploadFailedError around any
//   exception of the multipart upload), download.py (S3DownloadFailedError on an ETag mismatch,
//   RetriesExceededError after S3_RETRYABLE_DOWNLOAD_ERRORS of utils.py: socket timeouts and errors,
//   ReadTimeoutError, IncompleteReadError, ResponseStreamingError), copies.py.
// - smithy-typescript (6815d3e, the runtime of aws-sdk-js-v3): retry/service-error-classification/
//   constants.ts (THROTTLING_ERROR_CODES, TRANSIENT_ERROR_CODES, CLOCK_SKEW_ERROR_CODES,
//   TRANSIENT_ERROR_STATUS_CODES), client/smithy-client/exceptions.ts (ServiceException: name = the error
//   code, message = the service's message; Node prints it "ThrottlingException: Too many requests, …"
//   followed by `$fault` / `$metadata: { httpStatusCode: N }`), node-http-handler set-connection-timeout.ts /
//   set-socket-timeout.ts / set-request-timeout.ts (their TimeoutError messages), config-resolver
//   regionConfig ("Region is missing"), property-provider (CredentialsProviderError, ProviderError), and
//   credential-provider-imds; aws-sdk-js-v3 packages/credential-provider-node/src/defaultProvider.ts
//   ("Could not load credentials from any providers"); the same text, and the modeled classes named by
//   their code (`class NoSuchKey extends S3ServiceException { name = "NoSuchKey" }`), in the
//   @aws-sdk/client-s3 3.1175.0 / credential-provider-node 3.972.99 this repository installs. The clients
//   before the schema-based serde also name the code in their deserializer's stack frame
//   (`at de_ThrottlingExceptionRes (…/@aws-sdk/client-bedrock-runtime/…)`).
// - smithy-go (c589db5, the runtime of aws-sdk-go-v2): errors.go (OperationError "operation error
//   {service}: {operation}, {err}", GenericAPIError "api error {code}: {message}"), transport/http
//   ("https response error StatusCode: N, RequestID: …, {err}"); a modeled error prints "{code}: {message}".
// - aws-sdk-java v1 AmazonServiceException.getMessage ("{message} (Service: {service}; Status Code: {N};
//   Error Code: {code}; Request ID: {id})", as Hadoop s3a / EMRFS print it, EMRFS with "503 Slow Down" for a
//   bodiless answer); aws-sdk-java-v2's modeled exceptions ("software.amazon.awssdk.services.s3.model.
//   NoSuchKeyException: The specified key does not exist", its S3 tests) and aws-sdk-net's
//   ("Amazon.S3.Model.NoSuchKeyException: …"), named by the code.
// - Amazon S3 API Reference, "Error responses" / "List of error codes" (the REST codes and statuses that
//   S3's model does not list: SlowDown, InternalError, InvalidAccessKeyId, RequestTimeTooSkewed, …) and the
//   AWS APIs' "Common errors" (IncompleteSignature, MissingAuthenticationToken, RequestExpired, …).

import type { ClientError, ClientErrorGroup } from './client-vocab.js';
import { escapeRegExp } from './regex-text.js';

/**
 * What an error says about the run (the class it means is in the rules of rules/aws.ts):
 * - throttled: the service refused for rate (the SDKs' throttling tables, S3's SlowDown included):
 *   gateway.4xx, as a model API's 429;
 * - quota: an account quota refused the request (Bedrock's ServiceQuotaExceededException, SageMaker's
 *   ResourceLimitExceeded): on a model call gateway.4xx; elsewhere the account's limits, config.error;
 * - unavailable: the service failed or was not ready (5xx, InternalError, ServiceUnavailable, a model that
 *   errored or is still loading): gateway.5xx;
 * - timeout: the service did not answer in time (botocore's read timeout, Bedrock's ModelTimeoutException):
 *   api.timeout;
 * - connect: no connection to the endpoint could be made (refused, DNS, TLS, a proxy, a connect timeout):
 *   network.error;
 * - dropped: a connection broke mid-request or the bytes did not arrive whole (closed before the response,
 *   a response stream cut off, an S3 upload's socket idle past S3's RequestTimeout, a checksum or
 *   Content-MD5 mismatch, s3transfer's download retries used up): network.error;
 * - credentials: no credentials, or credentials the service does not accept (missing, partial, expired,
 *   unknown key, a bad signature, an SSO session that ran out): config.error;
 * - clock: the host's clock is off from AWS's by more than the signature allows (RequestTimeTooSkewed,
 *   "Signature expired"): config.error, the host's time setting;
 * - region: the region or endpoint the client was set up with cannot serve the request (no region, a
 *   region that does not exist, a bucket in another region): config.error;
 * - setup: the SDK's own configuration or installation (a profile that does not exist, an unparsable
 *   config file, a service this botocore does not know, a missing extra): config.error;
 * - denied: the caller may not do this (AccessDenied): on a model call gateway.4xx (the model is not
 *   enabled for the account, like a provider's 403); elsewhere the run's IAM role or bucket policy,
 *   config.error;
 * - missing: what the request names does not exist (NoSuchBucket, NoSuchKey, a 404 HeadObject): on a model
 *   call gateway.4xx (an unknown model id); elsewhere a bucket or path setting, config.error;
 * - request: the service rejected the request itself (ValidationException, InvalidArgument,
 *   EntityTooLarge): on a model call gateway.4xx (a prompt too long, an unsupported parameter); elsewhere
 *   the run's own code built it, which the traceback rules read (nothing here);
 * - reason: a wrapper whose message carries the error it wraps (ClientError, S3UploadFailedError): the
 *   wrapped error decides, read through this table;
 * - usage: the run's code misused the SDK (a parameter of the wrong type, a method the client does not
 *   have, a stubber's assertion): the traceback rules read that as the run's code, nothing here;
 * - echo: a consequence or a note, no failure of its own (an upload id gone after an abort, a conditional
 *   write that lost a race, an SSO device flow still pending, a requestTimeout that only warns);
 * - skip: a base class whose message decides, or a part no run's call reaches.
 */
export type AwsGroup =
  | 'throttled'
  | 'quota'
  | 'unavailable'
  | 'timeout'
  | 'connect'
  | 'dropped'
  | 'credentials'
  | 'clock'
  | 'region'
  | 'setup'
  | 'denied'
  | 'missing'
  | 'request'
  | 'reason'
  | 'usage'
  | 'echo'
  | 'skip';

export type AwsProducer = 'botocore' | 'boto3' | 's3transfer' | 'aws-sdk-js';

/**
 * One exception class of an SDK: its producer, its name, the message it prints (botocore's `fmt` with its
 * `{fields}`, which the rules read as the template it is; a fixed text; empty where the class prints only
 * what it is given), and its group.
 */
export interface AwsSdkError {
  producer: AwsProducer;
  name: string;
  message: string;
  group: AwsGroup;
}

const sdk = (producer: AwsProducer, name: string, message: string, group: AwsGroup): AwsSdkError => ({ producer, name, message, group });
const boto = (name: string, message: string, group: AwsGroup): AwsSdkError => sdk('botocore', name, message, group);

/** How each producer's classes appear as a qualified name on a line. */
export const AWS_MODULES: Record<Exclude<AwsProducer, 'aws-sdk-js'>, string> = {
  botocore: String.raw`botocore\.exceptions`,
  boto3: String.raw`boto3\.exceptions`,
  s3transfer: String.raw`s3transfer\.exceptions`,
};

export const AWS_SDK_ERRORS: readonly AwsSdkError[] = [
  // botocore/exceptions.py, in file order.
  boto('BotoCoreError', 'An unspecified error occurred', 'skip'),
  // A botocore without the service's data: an install of the wrong version or a broken one.
  boto('DataNotFoundError', 'Unable to load data for: {data_path}', 'setup'),
  boto('UnknownServiceError', "Unknown service: '{service_name}'. Valid service names are: {known_service_names}", 'setup'),
  boto('UnknownRegionError', "Unknown region: '{region_name}'. {error_msg}", 'region'),
  boto('ApiVersionNotFoundError', 'Unable to load data {data_path} for: {api_version}', 'setup'),
  // The transport raised something botocore has no class for (urllib3's ProtocolError and the like): the request broke.
  boto('HTTPClientError', 'An HTTP Client raised an unhandled exception: {error}', 'dropped'),
  boto('ConnectionError', 'An HTTP Client failed to establish a connection: {error}', 'connect'),
  boto('InvalidIMDSEndpointError', 'Invalid endpoint EC2 Instance Metadata endpoint: {endpoint}', 'region'),
  boto('InvalidIMDSEndpointModeError', 'Invalid EC2 Instance Metadata endpoint mode: {mode} Valid endpoint modes (case-insensitive): {valid_modes}.', 'region'),
  boto('EndpointConnectionError', 'Could not connect to the endpoint URL: "{endpoint_url}"', 'connect'),
  boto('SSLError', 'SSL validation failed for {endpoint_url} {error}', 'connect'),
  boto('ConnectionClosedError', 'Connection was closed before we received a valid response from endpoint URL: "{endpoint_url}".', 'dropped'),
  boto('ReadTimeoutError', 'Read timeout on endpoint URL: "{endpoint_url}"', 'timeout'),
  boto('ConnectTimeoutError', 'Connect timeout on endpoint URL: "{endpoint_url}"', 'connect'),
  boto('ProxyConnectionError', 'Failed to connect to proxy URL: "{proxy_url}"', 'connect'),
  boto('ResponseStreamingError', 'An error occurred while reading from response stream: {error}', 'dropped'),
  boto('NoCredentialsError', 'Unable to locate credentials', 'credentials'),
  boto('NoAuthTokenError', 'Unable to locate authorization token', 'credentials'),
  boto('TokenRetrievalError', 'Error when retrieving token from {provider}: {error_msg}', 'credentials'),
  boto('UnknownTokenProviderError', 'Token provider named {name} not found.', 'usage'),
  boto('PartialCredentialsError', 'Partial credentials found in {provider}, missing: {cred_var}', 'credentials'),
  boto('CredentialRetrievalError', 'Error when retrieving credentials from {provider}: {error_msg}', 'credentials'),
  boto('UnknownSignatureVersionError', 'Unknown Signature Version: {signature_version}.', 'setup'),
  boto('ServiceNotInRegionError', 'Service {service_name} not available in region {region_name}', 'region'),
  boto('BaseEndpointResolverError', '', 'skip'),
  boto('NoRegionError', 'You must specify a region.', 'region'),
  boto('EndpointVariantError', 'Unable to construct a modeled endpoint with the following variant(s) {tags}: ', 'region'),
  boto('UnknownEndpointError', 'Unable to construct an endpoint for {service_name} in region {region_name}', 'region'),
  boto('UnknownFIPSEndpointError', 'The provided FIPS pseudo-region "{region_name}" is not known for the service "{service_name}". A FIPS compliant endpoint cannot be constructed.', 'region'),
  boto('ProfileNotFound', 'The config profile ({profile}) could not be found', 'setup'),
  boto('ConfigParseError', 'Unable to parse config file: {path}', 'setup'),
  boto('ConfigNotFound', 'The specified config file ({path}) could not be found.', 'setup'),
  boto('MissingParametersError', 'The following required parameters are missing for {object_name}: {missing}', 'usage'),
  boto('ValidationError', "Invalid value ('{value}') for param {param} of type {type_name} ", 'usage'),
  // The run's code passed what the operation does not take; an empty or malformed bucket name is a
  // setting left unset (the rules read validate_bucket_name's report as config.error).
  boto('ParamValidationError', 'Parameter validation failed:\n{report}', 'usage'),
  boto('UnknownKeyError', "Unknown key '{value}' for param '{param}'.  Must be one of: {choices}", 'usage'),
  boto('RangeError', 'Value out of range for param {param}: {min_value} <= {value} <= {max_value}', 'usage'),
  boto('UnknownParameterError', "Unknown parameter '{name}' for operation {operation}.  Must be one of: {choices}", 'usage'),
  boto('InvalidRegionError', "Provided region_name '{region_name}' doesn't match a supported format.", 'region'),
  boto('AliasConflictParameterError', "Parameter '{original}' and its alias '{alias}' were provided for operation {operation}.  Only one of them may be used.", 'usage'),
  boto('UnknownServiceStyle', 'The service style ({service_style}) is not understood.', 'setup'),
  // The pages' own message says why ("The same next token was received twice").
  boto('PaginationError', 'Error during pagination: {message}', 'skip'),
  boto('OperationNotPageableError', 'Operation cannot be paginated: {operation_name}', 'usage'),
  // The body that arrived is not the one S3 sent (botocore's response checksum validation).
  boto('ChecksumError', 'Checksum {checksum_type} failed, expected checksum {expected_checksum} did not match calculated checksum {actual_checksum}.', 'dropped'),
  boto('UnseekableStreamError', 'Need to rewind the stream {stream_object}, but stream is not seekable.', 'usage'),
  // A waiter's reason decides ("Max attempts exceeded", "Waiter encountered a terminal failure state").
  boto('WaiterError', 'Waiter {name} failed: {reason}', 'skip'),
  boto('IncompleteReadError', '{actual_bytes} read, but total bytes expected is {expected_bytes}.', 'dropped'),
  boto('InvalidExpressionError', 'Invalid expression {expression}: Only dotted lookups are supported.', 'usage'),
  boto('UnknownCredentialError', 'Credential named {name} not found.', 'usage'),
  // A waiter model (botocore's data/*/waiters-2.json or one the run loads) that does not parse.
  boto('WaiterConfigError', 'Error processing waiter config: {error_msg}', 'setup'),
  boto('UnknownClientMethodError', 'Client does not have method: {method_name}', 'usage'),
  boto('UnsupportedSignatureVersionError', 'Signature version(s) are not supported: {signature_version}', 'setup'),
  boto('ClientError', 'An error occurred ({error_code}) when calling the {operation_name} operation{retry_info}: {error_message}', 'reason'),
  boto('EventStreamError', 'An error occurred ({error_code}) when calling the {operation_name} operation: {error_message}', 'reason'),
  boto('InvalidDNSNameError', "Bucket named {bucket_name} is not DNS compatible. Virtual hosted-style addressing cannot be used. The addressing style can be configured by removing the addressing_style value or setting that value to 'path' or 'auto' in the AWS Config file or in the botocore.client.Config object.", 'region'),
  boto('InvalidS3AddressingStyleError', "S3 addressing style {s3_addressing_style} is invalid. Valid options are: 'auto', 'virtual', and 'path'", 'region'),
  boto('UnsupportedS3ArnError', 'S3 ARN {arn} provided to "Bucket" parameter is invalid. Only ARNs for S3 access-points are supported.', 'region'),
  boto('UnsupportedS3ControlArnError', 'S3 ARN "{arn}" provided is invalid for this operation. {msg}', 'region'),
  boto('InvalidHostLabelError', 'Invalid host label to be bound to the hostname of the endpoint: "{label}".', 'region'),
  boto('UnsupportedOutpostResourceError', 'S3 Outpost ARN resource "{resource_name}" provided to "Bucket" parameter is invalid. Only ARNs for S3 Outpost arns with an access-point sub-resource are supported.', 'region'),
  boto('UnsupportedS3ConfigurationError', 'Unsupported configuration when using S3: {msg}', 'region'),
  boto('UnsupportedS3AccesspointConfigurationError', 'Unsupported configuration when using S3 access-points: {msg}', 'region'),
  boto('InvalidEndpointDiscoveryConfigurationError', 'Unsupported configuration value for endpoint_discovery_enabled. Expected one of ("true", "false", "auto") but got {config_value}.', 'setup'),
  boto('UnsupportedS3ControlConfigurationError', 'Unsupported configuration when using S3 Control: {msg}', 'region'),
  boto('InvalidRetryConfigurationError', 'Cannot provide retry configuration for "{retry_config_option}". Valid retry configuration options are: {valid_options}', 'setup'),
  boto('InvalidMaxRetryAttemptsError', 'Value provided to "max_attempts": {provided_max_attempts} must be an integer greater than or equal to {min_value}.', 'setup'),
  boto('InvalidRetryModeError', 'Invalid value provided to "mode": "{provided_retry_mode}" must be one of: {valid_modes}', 'setup'),
  boto('InvalidS3UsEast1RegionalEndpointConfigError', 'S3 us-east-1 regional endpoint option {s3_us_east_1_regional_endpoint_config} is invalid. Valid options are: "legacy", "regional"', 'region'),
  boto('InvalidSTSRegionalEndpointsConfigError', 'STS regional endpoints option {sts_regional_endpoints_config} is invalid. Valid options are: "legacy", "regional"', 'region'),
  // botocore.stub.Stubber in the run's tests.
  boto('StubResponseError', 'Error getting response stub for operation {operation_name}: {reason}', 'usage'),
  boto('StubAssertionError', 'Error getting response stub for operation {operation_name}: {reason}', 'usage'),
  boto('UnStubbedResponseError', 'Error getting response stub for operation {operation_name}: {reason}', 'usage'),
  boto('InvalidConfigError', '{error_msg}', 'setup'),
  boto('InfiniteLoopConfigError', 'Infinite loop in credential configuration detected. Attempting to load from profile {source_profile} which has already been visited. Visited profiles: {visited_profiles}', 'setup'),
  boto('RefreshWithMFAUnsupportedError', 'Cannot refresh credentials: MFA token required.', 'credentials'),
  // A FIPS-mode host without MD5 (older botocore asked for Content-MD5).
  boto('MD5UnavailableError', 'This system does not support MD5 generation.', 'setup'),
  boto('MissingDependencyException', 'Missing Dependency: {msg}', 'setup'),
  // The instance or container metadata service did not give the role's credentials.
  boto('MetadataRetrievalError', 'Error retrieving metadata: {error_msg}', 'credentials'),
  boto('UndefinedModelAttributeError', '', 'skip'),
  boto('MissingServiceIdError', 'The model being used for the service {service_name} is missing the serviceId metadata property, which is required.', 'setup'),
  boto('SSOError', 'An unspecified error happened when resolving AWS credentials or an access token from SSO.', 'credentials'),
  boto('SSOTokenLoadError', 'Error loading SSO Token: {error_msg}', 'credentials'),
  boto('UnauthorizedSSOTokenError', 'The SSO session associated with this profile has expired or is otherwise invalid. To refresh this SSO session run aws sso login with the corresponding profile.', 'credentials'),
  boto('LoginError', 'An unspecified error happened when resolving AWS credentials or refreshing a login session profile.', 'credentials'),
  boto('LoginRefreshRequired', "Your session has expired or credentials have changed. Please reauthenticate using 'aws login'.", 'credentials'),
  boto('LoginInsufficientPermissions', "Unable to create or refresh login credentials due to insufficient permissions. You may be missing permission for the 'signin:CreateOAuth2Token' action.", 'credentials'),
  boto('LoginTokenLoadError', 'Error loading login session token: {error_msg}', 'credentials'),
  boto('LoginAuthorizationCodeError', 'Error loading or redeeming a login authorization code: {error_msg} ', 'credentials'),
  // The adaptive retry mode's token bucket had no capacity left: the retries of other failures used it up.
  boto('CapacityNotAvailableError', 'Insufficient request capacity available.', 'echo'),
  boto('InvalidProxiesConfigError', 'Invalid configuration value(s) provided for proxies_config.', 'setup'),
  boto('InvalidDefaultsMode', 'Client configured with invalid defaults mode: {mode}. Valid defaults modes include: {valid_modes}.', 'setup'),
  boto('AwsChunkedWrapperError', '{error_msg}', 'usage'),
  // Response checksum validation ("Expected checksum … did not match calculated checksum: …").
  boto('FlexibleChecksumError', '{error_msg}', 'dropped'),
  boto('InvalidEndpointConfigurationError', 'Invalid endpoint configuration: {msg}', 'region'),
  boto('EndpointProviderError', '{msg}', 'skip'),
  // The endpoint rules refused the client's settings ("Invalid region: region was not a valid DNS name.").
  boto('EndpointResolutionError', '{msg}', 'region'),
  boto('UnknownEndpointResolutionBuiltInName', 'Unknown builtin variable name: {name}', 'usage'),
  boto('InvalidChecksumConfigError', 'Unsupported configuration value for {config_key}. Expected one of {valid_options} but got {config_value}.', 'setup'),
  // A service model newer than this botocore: the installed version does not match.
  boto('UnsupportedServiceProtocolsError', 'Botocore supports {botocore_supported_protocols}, but service {service} only supports {service_supported_protocols}.', 'setup'),

  // boto3/exceptions.py.
  sdk('boto3', 'Boto3Error', '', 'skip'),
  sdk('boto3', 'ResourceLoadException', '', 'usage'),
  sdk('boto3', 'NoVersionFound', '', 'setup'),
  sdk('boto3', 'UnknownAPIVersionError', "The '{service_name}' resource does not support an API version of: {bad_api_version}\nValid API versions are: {available_api_versions}", 'setup'),
  sdk('boto3', 'ResourceNotExistsError', "The '{service_name}' resource does not exist.\nThe available resources are:\n   - {available_services}\n", 'usage'),
  // s3transfer's download retries (socket errors and timeouts, cut streams) used up, re-raised by boto3.
  sdk('boto3', 'RetriesExceededError', 'Max Retries Exceeded', 'dropped'),
  sdk('boto3', 'S3TransferFailedError', '', 'reason'),
  sdk('boto3', 'S3UploadFailedError', 'Failed to upload {filename} to {bucket}/{key}: {error}', 'reason'),
  sdk('boto3', 'DynamoDBOperationNotSupportedError', '{operation} operation cannot be applied to value {value} of type {type} directly. Must use AttributeBase object methods (i.e. Attr().eq()). to generate ConditionBase instances first.', 'usage'),
  sdk('boto3', 'DynamoDBNeedsConditionError', 'Expecting a ConditionBase object. Got {value} of type {type}. Use AttributeBase object methods (i.e. Attr().eq()). to generate ConditionBase instances.', 'usage'),
  sdk('boto3', 'DynamoDBNeedsKeyConditionError', '', 'usage'),
  sdk('boto3', 'InvalidCrtTransferConfigError', '', 'setup'),

  // s3transfer/exceptions.py.
  sdk('s3transfer', 'RetriesExceededError', 'Max Retries Exceeded', 'dropped'),
  sdk('s3transfer', 'S3UploadFailedError', 'Failed to upload {filename} to {bucket}/{key}: {error}', 'reason'),
  // The object changed while it was read (another writer): a race of the run's own jobs, not the transfer failing.
  sdk('s3transfer', 'S3DownloadFailedError', 'Contents of stored object "{key}" in bucket "{bucket}" did not match expected ETag.', 'usage'),
  sdk('s3transfer', 'S3CopyFailedError', 'Contents of stored object "{key}" in bucket "{bucket}" did not match expected ETag.', 'usage'),
  sdk('s3transfer', 'InvalidSubscriberMethodError', '', 'usage'),
  sdk('s3transfer', 'TransferNotDoneError', '', 'usage'),
  // A CancelledError for a transfer another error stopped.
  sdk('s3transfer', 'FatalError', '', 'echo'),
  // The range S3 answered is not the one asked for: the response's own fault, rare; its message decides nothing.
  sdk('s3transfer', 'S3ValidationError', 'Requested range: `{requested}` does not match content range in response: `{response}`', 'skip'),

  // aws-sdk-js-v3 / smithy-typescript: Node transport timeouts (name "TimeoutError"), the credential chain and region resolution.
  sdk('aws-sdk-js', 'TimeoutError', '@smithy/node-http-handler - the request socket did not establish a connection with the server within the configured timeout of {ms} ms.', 'connect'),
  sdk('aws-sdk-js', 'TimeoutError', '@smithy/node-http-handler - the request socket timed out after {ms} ms of inactivity (configured by client requestHandler).', 'timeout'),
  sdk('aws-sdk-js', 'TimeoutError', '@smithy/node-http-handler - [ERROR] a request has exceeded the configured {ms} ms requestTimeout.', 'timeout'),
  // Without throwOnRequestTimeout the handler only warns and the request goes on.
  sdk('aws-sdk-js', 'TimeoutError', '@smithy/node-http-handler - [WARN] a request has exceeded the configured {ms} ms requestTimeout. Init client requestHandler with throwOnRequestTimeout=true to turn this into an error.', 'echo'),
  sdk('aws-sdk-js', 'CredentialsProviderError', 'Could not load credentials from any providers', 'credentials'),
  sdk('aws-sdk-js', 'ProviderError', 'TimeoutError from instance metadata service', 'credentials'),
  sdk('aws-sdk-js', 'ProviderError', 'Unable to connect to instance metadata service', 'credentials'),
  sdk('aws-sdk-js', 'Error', 'Region is missing', 'region'),
];

/**
 * botocore's HTTP layer (httpsession.py, endpoint.py, response.py: no connection, a connection broken
 * mid-request, a timeout) and the settings a client needs before its first request (credentials, region,
 * profile, a service this botocore knows). rules/client.ts reads these by qualified name with the other
 * Python HTTP clients' classes (network.error, api.timeout, config.error; a dropped connection gives way to
 * the server's own failure, peer-gone); `true`: also by the fmt's opening words up to its first field,
 * without the name (a log that wraps or cuts the endpoint URL after them: "Read timeout on endpoint URL:").
 * `false`: the fmt opens with a field or its opening words are too plain to name botocore ("Unknown
 * service: '"), and a line that does not name the class is rules/aws.ts's, by the whole template, as it
 * reads every other class. The aws.* rules leave a line that names one of these or carries its opening
 * words (a credential provider that could not reach its endpoint: the HTTP error decides).
 */
export const BOTOCORE_HTTP_CLASSES: ReadonlyMap<string, boolean> = new Map([
  ['HTTPClientError', true], ['ConnectionError', true], ['EndpointConnectionError', true], ['SSLError', true], ['ConnectionClosedError', true], ['ReadTimeoutError', true], ['ConnectTimeoutError', true], ['ProxyConnectionError', true], ['ResponseStreamingError', true], ['IncompleteReadError', false],
  ['NoCredentialsError', true], ['PartialCredentialsError', true], ['NoAuthTokenError', false], ['NoRegionError', true], ['ProfileNotFound', false], ['UnknownRegionError', false], ['InvalidRegionError', false], ['UnknownServiceError', false],
]);
export const isBotocoreHttpClass = (x: AwsSdkError): boolean => x.producer === 'botocore' && BOTOCORE_HTTP_CLASSES.has(x.name);
/** A fmt's words before its first field, without the opening quote of a quoted field after a colon ('Could not connect to the endpoint URL: "{endpoint_url}"' → 'Could not connect to the endpoint URL:'). */
const openingWords = (fmt: string): string => fmt.split('{')[0]!.replace(/:\s*"?$/, ':');

/** What an HTTP class's group is in client-vocab.ts's terms: the run's AWS settings are its config group. */
const CLIENT_GROUP: Partial<Record<AwsGroup, ClientErrorGroup>> = { connect: 'connect', dropped: 'dropped', timeout: 'timeout', credentials: 'config', region: 'config', setup: 'config' };

/** BOTOCORE_HTTP_CLASSES as client-vocab.ts's entries (its ALL_CLIENT_ERRORS holds them): the message is the class's `fmt`, byText its opening words. */
export const BOTOCORE_ERRORS: readonly ClientError[] = AWS_SDK_ERRORS.filter(isBotocoreHttpClass).map((x) => ({
  producer: 'botocore',
  name: x.name,
  message: x.message,
  group: CLIENT_GROUP[x.group]!,
  ...(BOTOCORE_HTTP_CLASSES.get(x.name) ? { byText: openingWords(x.message) } : {}),
}));

/**
 * The lines of a ParamValidationError's report (botocore validate.py ParamValidationErrorsReport
 * _format_error), one per problem, below the exception line. The run's code passed what the operation does
 * not take (or the code was written for a newer botocore): read as nothing, like the exception line; the
 * bucket-name report of handlers.py validate_bucket_name is the rules' own (a setting left unset).
 */
export const PARAM_VALIDATION_REPORTS: readonly string[] = [
  'Missing required parameter in {name}: "{required_name}"',
  'Unknown parameter in {name}: "{unknown_param}", must be one of: {valid_names}',
  'Invalid type for parameter {name}, value: {param}, type: {param_type}, valid types: {valid_types}',
  'Invalid value for parameter {name}, value: {param}, valid min value: {min_allowed}',
  'Invalid length for parameter {name}, value: {param}, valid min length: {min_allowed}',
  'Invalid parameter {name} must be json serializable: {type_error}',
  'Invalid type for document parameter {name}, value: {param}, type: {param_type}, valid types: {valid_types}',
  'Invalid number of parameters set for tagged union structure {name}. Can only set one of the following keys: {members}.',
  // (sic: validate.py joins "union" and "structure" without a space)
  'Must set one of the following keys for tagged unionstructure {name}: {members}.',
];

/**
 * One service error code as the service sends it (the `Code` of a ClientError, the `name` of an
 * aws-sdk-js-v3 ServiceException, the code of an aws-sdk-go-v2 API error): the code, its HTTP status, the
 * services that send it, a message the service sends with it, and its group. A status-only code ('404')
 * is what botocore shows for a response without a body (HeadObject, HeadBucket).
 */
export interface AwsServiceCode {
  code: string;
  status: number;
  services: readonly string[];
  message: string;
  group: AwsGroup;
}

const svc = (code: string, status: number, services: string, message: string, group: AwsGroup): AwsServiceCode => ({ code, status, services: services.split(' '), message, group });

export const AWS_SERVICE_CODES: readonly AwsServiceCode[] = [
  // Throttling: botocore retries/standard.py _THROTTLED_ERROR_CODES = smithy THROTTLING_ERROR_CODES (same 14 codes).
  svc('Throttling', 400, 'sts iam sqs cloudformation', 'Rate exceeded', 'throttled'),
  svc('ThrottlingException', 429, 'bedrock-runtime bedrock bedrock-agent-runtime sagemaker logs', 'Too many requests, please wait before trying again.', 'throttled'),
  svc('ThrottledException', 400, 'kinesis', 'Rate exceeded', 'throttled'),
  svc('RequestThrottledException', 400, 'dynamodb', 'Rate exceeded', 'throttled'),
  svc('TooManyRequestsException', 429, 'lambda sso organizations', 'Rate exceeded', 'throttled'),
  svc('ProvisionedThroughputExceededException', 400, 'dynamodb kinesis', 'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.', 'throttled'),
  svc('TransactionInProgressException', 400, 'dynamodb', 'The transaction with the given request token is already in progress.', 'throttled'),
  svc('RequestLimitExceeded', 503, 'ec2', 'Request limit exceeded.', 'throttled'),
  svc('BandwidthLimitExceeded', 509, 'glacier', 'Bandwidth limit exceeded', 'throttled'),
  svc('LimitExceededException', 400, 'kms cognito-idp secretsmanager', 'Rate exceeded', 'throttled'),
  svc('RequestThrottled', 400, 'sqs', 'Request is throttled.', 'throttled'),
  // S3's own throttling answer is a 503; both SDKs count it as throttling, and so it is read here.
  svc('SlowDown', 503, 's3', 'Please reduce your request rate.', 'throttled'),
  svc('PriorRequestNotComplete', 400, 'route53', 'The request was rejected because Route 53 was still processing a prior request.', 'throttled'),
  svc('EC2ThrottledException', 400, 'ec2', 'Rate exceeded', 'throttled'),
  svc('SlowDownException', 400, 'sso-oidc', 'Client is making requests too frequently', 'throttled'),
  svc('429', 429, 's3', 'Too Many Requests', 'throttled'),
  // A model still loading (a serverless or multi-model endpoint, a model after an idle period): 429 in
  // bedrock-runtime's and sagemaker-runtime's models, retried by the SDK like a throttle, and read as the
  // service model's status (aws.model_api reads the same; bedrock-agent-runtime models it 424).
  svc('ModelNotReadyException', 429, 'bedrock-runtime bedrock-agent-runtime sagemaker-runtime', 'Model is not ready for inference. Wait and try your request again.', 'throttled'),

  // Account quotas.
  svc('ServiceQuotaExceededException', 400, 'bedrock-runtime bedrock bedrock-agent-runtime', 'Your request exceeds the service quota for your account. You can view your quotas at Viewing service quotas. You can resubmit your request later.', 'quota'),
  svc('ResourceLimitExceeded', 400, 'sagemaker', "The account-level service limit 'ml.p4d.24xlarge for training job usage' is 0 Instances, with current utilization of 0 Instances and a request delta of 1 Instances. Please use AWS Service Quotas to request an increase for this quota.", 'quota'),

  // The service failed, or its model is not ready (botocore TransientRetryableChecker: 500/502/503/504).
  svc('InternalError', 500, 's3', 'We encountered an internal error. Please try again.', 'unavailable'),
  svc('InternalFailure', 500, 'sagemaker-runtime common', 'The request processing has failed because of an unknown error, exception or failure.', 'unavailable'),
  svc('InternalServerError', 500, 'dynamodb', 'Internal server error', 'unavailable'),
  svc('InternalServerException', 500, 'bedrock-runtime bedrock bedrock-agent-runtime sso-oidc', 'The server encountered an error processing your request.', 'unavailable'),
  svc('ServiceUnavailable', 503, 's3 sagemaker-runtime common', 'Service is unable to handle request.', 'unavailable'),
  svc('ServiceUnavailableException', 503, 'bedrock-runtime bedrock', 'Bedrock is unable to process your request.', 'unavailable'),
  svc('BadGatewayException', 502, 'bedrock-agent-runtime', 'Bad gateway', 'unavailable'),
  svc('DependencyFailedException', 424, 'bedrock-agent-runtime', 'A dependency of the agent failed', 'unavailable'),
  // Bedrock: the model failed while answering.
  svc('ModelErrorException', 424, 'bedrock-runtime', 'The system encountered an unexpected error during processing. Try your request again.', 'unavailable'),
  svc('ModelStreamErrorException', 424, 'bedrock-runtime', 'An error occurred while streaming the response. Retry your request.', 'unavailable'),
  // SageMaker: the endpoint's own container answered an error (its CloudWatch log says why).
  svc('ModelError', 424, 'sagemaker-runtime', 'Received server error (500) from primary with message "Internal Server Error". See https://us-east-1.console.aws.amazon.com/cloudwatch/home?region=us-east-1#logEventViewer:group=/aws/sagemaker/Endpoints/llm in account 123456789012 for more information.', 'unavailable'),
  svc('ModelStreamError', 424, 'sagemaker-runtime', 'ModelInvocationTimeExceeded: The model failed to finish sending the response within the timeout value.', 'unavailable'),
  svc('InternalDependencyException', 530, 'sagemaker-runtime', 'Your request caused an exception with an internal dependency. Contact customer support.', 'unavailable'),
  svc('InternalStreamFailure', 500, 'sagemaker-runtime', 'The stream processing failed because of an unknown error, exception or failure. Try your request again.', 'unavailable'),
  // STS could not reach the web identity's provider (botocore retries/special.py retries it).
  svc('IDPCommunicationError', 400, 'sts', 'The request could not be fulfilled because the identity provider (IDP) that was asked to verify the incoming identity token could not be reached.', 'unavailable'),
  svc('500', 500, 's3', 'Internal Server Error', 'unavailable'),
  svc('502', 502, 's3', 'Bad Gateway', 'unavailable'),
  svc('503', 503, 's3', 'Service Unavailable', 'unavailable'),
  svc('504', 504, 's3', 'Gateway Timeout', 'unavailable'),

  // No answer in time.
  svc('RequestTimeoutException', 408, 'common', 'Request timed out', 'timeout'),
  svc('ModelTimeoutException', 408, 'bedrock-runtime', 'Model has timed out in processing the request. Try your request again.', 'timeout'),
  svc('408', 408, 's3', 'Request Timeout', 'timeout'),

  // The bytes of a transfer did not arrive whole or in time (the run's side of the connection stalled or broke).
  svc('RequestTimeout', 400, 's3', 'Your socket connection to the server was not read from or written to within the timeout period. Idle connections will be closed.', 'dropped'),
  svc('IncompleteBody', 400, 's3', 'You did not provide the number of bytes specified by the Content-Length HTTP header.', 'dropped'),
  svc('BadDigest', 400, 's3', 'The Content-MD5 you specified did not match what we received.', 'dropped'),
  svc('XAmzContentSHA256Mismatch', 400, 's3', "The provided 'x-amz-content-sha256' header does not match what was computed.", 'dropped'),

  // Credentials the service does not accept.
  svc('ExpiredToken', 400, 's3 sts', 'The provided token has expired.', 'credentials'),
  svc('ExpiredTokenException', 400, 'sts bedrock-runtime sagemaker dynamodb sso-oidc', 'The security token included in the request is expired', 'credentials'),
  svc('InvalidAccessKeyId', 403, 's3', 'The AWS Access Key Id you provided does not exist in our records.', 'credentials'),
  svc('SignatureDoesNotMatch', 403, 's3 sts', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.', 'credentials'),
  svc('InvalidClientTokenId', 403, 'sts iam', 'The security token included in the request is invalid.', 'credentials'),
  svc('UnrecognizedClientException', 400, 'bedrock-runtime sagemaker dynamodb', 'The security token included in the request is invalid.', 'credentials'),
  svc('InvalidToken', 400, 's3', 'The provided token is malformed or otherwise invalid.', 'credentials'),
  svc('TokenRefreshRequired', 400, 's3', 'The provided token must be refreshed.', 'credentials'),
  svc('MissingAuthenticationToken', 403, 'common', 'Missing Authentication Token', 'credentials'),
  svc('MissingAuthenticationTokenException', 403, 'common', 'Missing Authentication Token', 'credentials'),
  svc('IncompleteSignature', 400, 'common', "Authorization header requires 'Credential' parameter.", 'credentials'),
  svc('IncompleteSignatureException', 400, 'common', "Authorization header requires 'Signature' parameter.", 'credentials'),
  svc('InvalidSignatureException', 400, 'common', 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.', 'credentials'),
  svc('AuthFailure', 401, 'ec2', 'AWS was not able to validate the provided access credentials', 'credentials'),
  svc('InvalidIdentityToken', 400, 'sts', 'No OpenIDConnect provider found in your account for https://oidc.eks.us-east-1.amazonaws.com/id/EXAMPLE', 'credentials'),
  svc('IDPRejectedClaim', 403, 'sts', 'Incorrect token audience', 'credentials'),
  svc('UnauthorizedException', 401, 'sso', 'Session token not found or invalid', 'credentials'),
  svc('InvalidGrantException', 400, 'sso-oidc', 'Invalid grant provided', 'credentials'),
  svc('InvalidClientException', 401, 'sso-oidc', 'Client authentication failed', 'credentials'),
  svc('401', 401, 's3', 'Unauthorized', 'credentials'),

  // The host's clock (smithy CLOCK_SKEW_ERROR_CODES; S3 allows 15 minutes).
  svc('RequestTimeTooSkewed', 403, 's3', 'The difference between the request time and the current time is too large.', 'clock'),
  svc('RequestExpired', 400, 'common', 'Request has expired.', 'clock'),
  svc('RequestInTheFuture', 403, 'common', 'Request is not yet valid.', 'clock'),

  // Region and endpoint.
  svc('PermanentRedirect', 301, 's3', 'The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint.', 'region'),
  svc('TemporaryRedirect', 307, 's3', 'Please re-send this request to the specified temporary endpoint. Continue to use the original request endpoint for future requests.', 'region'),
  svc('AuthorizationHeaderMalformed', 400, 's3', "The authorization header is malformed; the region 'us-east-1' is wrong; expecting 'eu-west-1'", 'region'),
  svc('IllegalLocationConstraintException', 400, 's3', 'The unspecified location constraint is incompatible for the region specific endpoint this request was sent to.', 'region'),
  svc('InvalidLocationConstraint', 400, 's3', 'The specified location constraint is not valid.', 'region'),
  svc('RegionDisabledException', 403, 'sts', 'STS is not activated in this region for account:123456789012.', 'region'),
  svc('301', 301, 's3', 'Moved Permanently', 'region'),

  // Not allowed.
  svc('AccessDenied', 403, 's3 sts', 'Access Denied', 'denied'),
  svc('AccessDeniedException', 403, 'bedrock-runtime bedrock bedrock-agent-runtime sagemaker kms secretsmanager', "You don't have access to the model with the specified model ID.", 'denied'),
  svc('AllAccessDisabled', 403, 's3', 'All access to this Amazon S3 resource has been disabled.', 'denied'),
  svc('AccountProblem', 403, 's3', 'There is a problem with your AWS account that prevents the operation from completing successfully.', 'denied'),
  svc('NotAuthorized', 400, 'common', 'You do not have permission to perform this action.', 'denied'),
  svc('OptInRequired', 403, 'common', 'The AWS access key ID needs a subscription for the service.', 'denied'),
  svc('UnauthorizedOperation', 403, 'ec2', 'You are not authorized to perform this operation.', 'denied'),
  svc('AuthorizationError', 403, 'sns', 'User is not authorized to perform: SNS:Publish', 'denied'),
  svc('403', 403, 's3', 'Forbidden', 'denied'),

  // What the request names does not exist.
  svc('NoSuchBucket', 404, 's3', 'The specified bucket does not exist', 'missing'),
  svc('NoSuchKey', 404, 's3', 'The specified key does not exist.', 'missing'),
  svc('NoSuchVersion', 404, 's3', 'The specified version does not exist.', 'missing'),
  svc('InvalidBucketName', 400, 's3', 'The specified bucket is not valid.', 'missing'),
  // An archived object (Glacier) that was not restored cannot be read.
  svc('InvalidObjectState', 403, 's3', 'The operation is not valid for the object\'s storage class', 'missing'),
  svc('NotFound', 404, 's3', 'Not Found', 'missing'),
  svc('ResourceNotFoundException', 404, 'bedrock-runtime bedrock bedrock-agent-runtime dynamodb secretsmanager', 'Could not resolve the foundation model from the provided model identifier.', 'missing'),
  svc('ResourceNotFound', 400, 'sagemaker', 'Could not find endpoint "llm-endpoint".', 'missing'),
  svc('NoSuchEntity', 404, 'iam', 'The role with name training-role cannot be found.', 'missing'),
  svc('404', 404, 's3', 'Not Found', 'missing'),

  // The request itself.
  svc('ValidationException', 400, 'bedrock-runtime bedrock bedrock-agent-runtime sagemaker', 'Input is too long for requested model.', 'request'),
  svc('ValidationError', 400, 'sagemaker-runtime sts cloudformation', 'Endpoint llm-endpoint of account 123456789012 not found.', 'request'),
  svc('ConflictException', 409, 'bedrock-runtime bedrock sagemaker', 'The request could not be completed due to a conflict with the current state of the resource.', 'request'),
  svc('SerializationException', 400, 'common', 'Start of structure or map found where not expected.', 'request'),
  svc('InvalidArgument', 400, 's3', 'Invalid Argument', 'request'),
  svc('InvalidRequest', 400, 's3', 'Invalid Request', 'request'),
  svc('InvalidRequestException', 400, 'sso sso-oidc secretsmanager', 'Invalid request', 'request'),
  svc('InvalidParameterValue', 400, 'common', 'Value (x) for parameter y is invalid.', 'request'),
  svc('InvalidParameterValueException', 400, 'lambda', 'Value (x) for parameter y is invalid.', 'request'),
  svc('InvalidParameterCombination', 400, 'common', 'Parameters that must not be used together were used together.', 'request'),
  svc('InvalidParameterException', 400, 'secretsmanager logs', 'Invalid parameter', 'request'),
  svc('MissingParameter', 400, 'common', 'A required parameter for the specified action is not supplied.', 'request'),
  svc('InvalidQueryParameter', 400, 'common', 'The AWS query string is malformed or does not adhere to AWS standards.', 'request'),
  svc('MalformedXML', 400, 's3', 'The XML you provided was not well-formed or did not validate against our published schema.', 'request'),
  svc('EntityTooLarge', 400, 's3', 'Your proposed upload exceeds the maximum allowed object size.', 'request'),
  svc('EntityTooSmall', 400, 's3', 'Your proposed upload is smaller than the minimum allowed object size.', 'request'),
  svc('InvalidPart', 400, 's3', 'One or more of the specified parts could not be found. The part might not have been uploaded, or the specified entity tag might not have matched the part\'s entity tag.', 'request'),
  svc('InvalidPartOrder', 400, 's3', 'The list of parts was not in ascending order. Parts list must be specified in order by part number.', 'request'),
  svc('TooManyParts', 400, 's3', 'You have attempted to add more parts than the maximum of 10000 that are allowed for this object.', 'request'),
  svc('KeyTooLongError', 400, 's3', 'Your key is too long', 'request'),
  svc('InvalidRange', 416, 's3', 'The requested range is not satisfiable', 'request'),
  svc('MethodNotAllowed', 405, 's3', 'The specified method is not allowed against this resource.', 'request'),
  svc('MissingContentLength', 411, 's3', 'You must provide the Content-Length HTTP header.', 'request'),
  svc('NotImplemented', 501, 's3', 'A header you provided implies functionality that is not implemented.', 'request'),
  svc('BucketAlreadyExists', 409, 's3', 'The requested bucket name is not available. The bucket namespace is shared by all users of the system. Please select a different name and try again.', 'request'),
  svc('BucketNotEmpty', 409, 's3', 'The bucket you tried to delete is not empty', 'request'),
  svc('OperationAborted', 409, 's3', 'A conflicting conditional operation is currently in progress against this resource. Try again.', 'request'),
  svc('ResourceInUse', 400, 'sagemaker', 'Cannot create a duplicate training job with name "llm-sft".', 'request'),
  svc('ResourceInUseException', 400, 'bedrock dynamodb', 'Resource in use', 'request'),
  svc('400', 400, 's3', 'Bad Request', 'request'),

  // Notes and consequences.
  svc('NoSuchUpload', 404, 's3', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', 'echo'),
  svc('PreconditionFailed', 412, 's3', 'At least one of the pre-conditions you specified did not hold', 'echo'),
  svc('ConditionalCheckFailedException', 400, 'dynamodb', 'The conditional request failed', 'echo'),
  svc('BucketAlreadyOwnedByYou', 409, 's3', 'Your previous request to create the named bucket succeeded and you already own it.', 'echo'),
  svc('AuthorizationPendingException', 400, 'sso-oidc', 'Authorization is still pending', 'echo'),
  // botocore's placeholder when the response carried no code.
  svc('Unknown', 0, 'common', 'Unknown', 'skip'),
];

/**
 * The operations of the model runtimes (bedrock-runtime, sagemaker-runtime, bedrock-agent-runtime
 * service-2.json): an error of one of these is a model API answering, whatever its code says of itself.
 */
export const MODEL_OPERATIONS: ReadonlySet<string> = new Set([
  'InvokeModel', 'InvokeModelWithResponseStream', 'InvokeModelWithBidirectionalStream', 'Converse', 'ConverseStream', 'CountTokens', 'ApplyGuardrail', 'StartAsyncInvoke',
  'InvokeEndpoint', 'InvokeEndpointAsync', 'InvokeEndpointWithResponseStream',
  'InvokeAgent', 'InvokeInlineAgent', 'InvokeFlow', 'RetrieveAndGenerate', 'RetrieveAndGenerateStream', 'Rerank',
]);

/**
 * The model runtimes' service models (botocore/data/<service>/<version>/service-2.json): each service's
 * operations and its modeled errors with the HTTP status the model gives them (shapes with "exception":
 * true; event streams name the same errors in lower camel case). A model runtime's ClientError whose code
 * its model lists is read by that status (aws.model_api), which differs from the code's entry above where
 * one service models it otherwise (bedrock-agent-runtime's ModelNotReadyException is 424, its
 * ConflictException 409). ModelTimeoutException (408) is the model not answering in time (api.timeout).
 * 424 Failed Dependency is the model behind the API failing (ModelErrorException, ModelStreamErrorException,
 * SageMaker's ModelError: "Model … returned 4xx or 5xx error code"), read as 5xx; InternalStreamFailure and
 * ModelStreamError have no status in the model: the stream failing on the service side, 5xx. The
 * operations are every operation of the service (MODEL_OPERATIONS above are those that call a model).
 */
export const AWS_MODEL_APIS: readonly { service: string; operations: readonly string[]; errors: Readonly<Record<string, number>> }[] = [
  {
    service: 'bedrock-runtime (2023-09-30)',
    operations: ['ApplyGuardrail', 'Converse', 'ConverseStream', 'CountTokens', 'GetAsyncInvoke', 'InvokeGuardrailChecks', 'InvokeModel', 'InvokeModelWithBidirectionalStream', 'InvokeModelWithResponseStream', 'ListAsyncInvokes', 'StartAsyncInvoke'],
    errors: { AccessDeniedException: 403, ConflictException: 400, InternalServerException: 500, ModelErrorException: 424, ModelNotReadyException: 429, ModelStreamErrorException: 424, ModelTimeoutException: 408, ResourceNotFoundException: 404, ServiceQuotaExceededException: 400, ServiceUnavailableException: 503, ThrottlingException: 429, ValidationException: 400 },
  },
  {
    service: 'bedrock-agent-runtime (2023-07-26)',
    operations: ['AgenticRetrieveStream', 'GenerateQuery', 'InvokeAgent', 'InvokeFlow', 'InvokeInlineAgent', 'OptimizePrompt', 'Rerank', 'Retrieve', 'RetrieveAndGenerate', 'RetrieveAndGenerateStream'],
    errors: { AccessDeniedException: 403, BadGatewayException: 502, ConflictException: 409, DependencyFailedException: 424, InternalServerException: 500, ModelNotReadyException: 424, ResourceNotFoundException: 404, ServiceQuotaExceededException: 400, ThrottlingException: 429, ValidationException: 400 },
  },
  {
    service: 'sagemaker-runtime (2017-05-13)',
    operations: ['InvokeEndpoint', 'InvokeEndpointAsync', 'InvokeEndpointWithResponseStream'],
    errors: { InternalDependencyException: 530, InternalFailure: 500, InternalStreamFailure: 500, ModelError: 424, ModelNotReadyException: 429, ModelStreamError: 500, ServiceUnavailable: 503, ValidationError: 400 },
  },
];

/** The status of a model runtime's error code for an operation ("throttlingException" of an event stream is ThrottlingException), or undefined for another service's operation. */
export function awsModelApiStatus(code: string, operation: string): { status: number | undefined; service: string } | undefined {
  const api = AWS_MODEL_APIS.find((a) => a.operations.includes(operation));
  if (!api) return undefined;
  return { status: api.errors[upperFirst(code)], service: api.service };
}

/** aws-sdk-go-v2's service ids of the model runtimes (OperationError "operation error {service}: {op}"). */
export const MODEL_SERVICE_IDS: ReadonlySet<string> = new Set(['Bedrock Runtime', 'SageMaker Runtime', 'Bedrock Agent Runtime']);

const CODE_BY_NAME = new Map(AWS_SERVICE_CODES.map((c) => [c.code, c]));
const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** A service code's entry; event streams send codes in lower camel case ("throttlingException"). */
export function serviceCode(code: string): AwsServiceCode | undefined {
  return CODE_BY_NAME.get(code) ?? CODE_BY_NAME.get(upperFirst(code));
}

/** The codes of some groups, longest first (a regex alternation then takes the longest), with their event-stream spelling. */
export function codesOf(groups: readonly AwsGroup[], pick: (c: AwsServiceCode) => boolean = () => true): string[] {
  const out = new Set<string>();
  for (const c of AWS_SERVICE_CODES) {
    if (!groups.includes(c.group) || !pick(c)) continue;
    out.add(c.code);
    if (/^[A-Z]/.test(c.code)) out.add(lowerFirst(c.code));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * Codes whose name alone says AWS (as an aws-sdk-js-v3 / aws-sdk-go-v2 exception name): every `…Exception`
 * of the table and S3's own names. Generic words that other software names its errors by too
 * (InternalError, ServiceUnavailable, ValidationError, NotFound, Throttling, AccessDenied) and the
 * status-only codes are read only inside an AWS template.
 */
const GENERIC_CODES = new Set(['InternalError', 'InternalFailure', 'InternalServerError', 'ServiceUnavailable', 'ValidationError', 'NotFound', 'Throttling', 'AccessDenied', 'InvalidArgument', 'InvalidRequest', 'NotImplemented', 'MissingParameter', 'NotAuthorized', 'AuthorizationError', 'ModelError', 'InvalidToken', 'RequestExpired', 'Unknown', 'RequestTimeout', 'InvalidRange', 'MethodNotAllowed', 'ResourceNotFound', 'ResourceInUse', 'AuthFailure', 'RequestThrottled']);
export const isDistinctiveCode = (c: AwsServiceCode): boolean => !/^\d+$/.test(c.code) && !GENERIC_CODES.has(c.code);

const SDK_BY_KEY = new Map<string, AwsSdkError[]>();
for (const x of AWS_SDK_ERRORS) {
  const k = `${x.producer}:${x.name}`;
  SDK_BY_KEY.set(k, [...(SDK_BY_KEY.get(k) ?? []), x]);
}

/** The table's entries for a producer's class name (aws-sdk-js names several messages TimeoutError). */
export function sdkErrors(producer: AwsProducer, name: string): readonly AwsSdkError[] {
  return SDK_BY_KEY.get(`${producer}:${name}`) ?? [];
}

/** The producer whose qualified module a matched prefix names (`botocore.exceptions` → botocore). */
export function awsProducerOf(module: string): Exclude<AwsProducer, 'aws-sdk-js'> | undefined {
  const head = module.split('.')[0];
  return head === 'botocore' || head === 'boto3' || head === 's3transfer' ? head : undefined;
}

/** Messages too plain to read without the class name before them (RetriesExceededError's "Max Retries Exceeded"). */
const NAME_ONLY = new Set(['Max Retries Exceeded']);

/**
 * A message template as a pattern: its literal parts escaped, each `{field}` between them any text of the
 * line; a field at either end is left out (nothing to anchor), and so is a closing quote or full stop after
 * the last field. A quoted field the template ends with may start on the next line (a log that wraps the
 * URL: 'Read timeout on endpoint URL:' then the URL): its opening quote is optional at the line's end.
 * Undefined when the template has no literal part of 8+ characters ('{error_msg}', 'Max Retries
 * Exceeded' is read by name only): such a class is read by its qualified name.
 */
export function templatePattern(message: string): RegExp | undefined {
  if (NAME_ONLY.has(message)) return undefined;
  const parts = message.split('\n')[0]!.split(/\{\w+\}/);
  if (parts.length > 1 && parts[parts.length - 1]!.trim().length < 4) parts.pop();
  while (parts.length > 1 && parts[0] === '') parts.shift();
  if (!parts.some((p) => p.trim().length >= 8)) return undefined;
  const last = parts.length - 1;
  const src = parts
    .map((p, i) => (i === last && / "$/.test(p) && message.split('\n')[0]!.trimEnd().endsWith('"') ? `${escapeRegExp(p.slice(0, -2))}(?: "|\\s*$)` : escapeRegExp(i === last ? p.trimEnd() : p)))
    .join('.{0,300}?');
  return new RegExp(src);
}
