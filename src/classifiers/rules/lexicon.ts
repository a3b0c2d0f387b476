// Producer vocabularies per failure class: the names and phrases each producer's own code uses for its
// failures (exception classes and their hierarchies, error-code enums, errno names and strerror texts,
// HTTP reason phrases, Kubernetes reasons, BuildKit/Docker and config-library wordings). The vocabulary
// fallback (fallback.ts) reads them, together with the literal keys of every rule pattern, only when no
// rule decided: it never fires a rule. A term is matched as whole words, case and `CamelCase` /
// `snake_case` splits aside ("OutOfMemoryError" and "out of memory error" are one term).
// No outcome class is here: an outcome needs explicit evidence (a reward, a harness record).
import type { FailureClass } from '../taxonomy.js';

/** The classes a vocabulary may point to: failures, never an outcome or `unknown`. */
export type VocabularyClass = Exclude<FailureClass, `outcome.${string}` | 'unknown'>;

export interface LexiconEntry {
  class: VocabularyClass;
  /** The producer and where in its source these words are defined. */
  source: string;
  terms: readonly string[];
}

export const LEXICON: readonly LexiconEntry[] = [
  // ── GPU memory ──
  {
    class: 'cuda.oom',
    source: 'PyTorch c10/cuda/CUDACachingAllocator.cpp (OutOfMemoryError, "CUDA out of memory. Tried to allocate"), torch/cuda/memory.py',
    terms: ['torch.OutOfMemoryError', 'torch.cuda.OutOfMemoryError', 'CUDA out of memory', 'Tried to allocate', 'PYTORCH_CUDA_ALLOC_CONF', 'expandable_segments', 'reserved but unallocated', 'memory in use', 'GPU memory', 'total capacity of'],
  },
  {
    class: 'cuda.oom',
    source: 'CUDA runtime cudaError_t (cudaErrorMemoryAllocation "out of memory"), driver CUresult CUDA_ERROR_OUT_OF_MEMORY, cuBLAS/cuDNN status enums, CuPy OutOfMemoryError',
    terms: ['cudaErrorMemoryAllocation', 'CUDA_ERROR_OUT_OF_MEMORY', 'CUBLAS_STATUS_ALLOC_FAILED', 'CUDNN_STATUS_ALLOC_FAILED', 'cudaMalloc', 'cuMemAlloc', 'cuMemCreate', 'cupy.cuda.memory.OutOfMemoryError', 'Out of memory allocating'],
  },
  {
    class: 'cuda.oom',
    source: 'JAX/XLA (xla/stream_executor, "RESOURCE_EXHAUSTED: Out of memory while trying to allocate"), TensorFlow ResourceExhaustedError "OOM when allocating tensor"',
    terms: ['Out of memory while trying to allocate', 'ResourceExhaustedError', 'OOM when allocating tensor', 'XlaRuntimeError: RESOURCE_EXHAUSTED', 'BFC allocator'],
  },
  {
    class: 'cuda.oom',
    source: 'vLLM (v1/core/kv_cache_utils.py, worker/gpu_worker.py), SGLang (mem_fraction_static), TensorRT-LLM',
    terms: ['No available memory for the cache blocks', 'KV cache', 'gpu_memory_utilization', 'max_num_batched_tokens', 'num_gpu_blocks', 'mem_fraction_static', 'Not enough memory', 'insufficient GPU memory', 'kv_cache_free_gpu_mem_fraction'],
  },
  // ── GPU, driver, CUDA runtime ──
  {
    class: 'cuda.error',
    source: 'CUDA runtime cudaError_t names and cudaGetErrorString texts (driver_types.h)',
    terms: [
      'cudaErrorIllegalAddress', 'an illegal memory access was encountered', 'cudaErrorLaunchFailure', 'unspecified launch failure',
      'cudaErrorNoDevice', 'no CUDA-capable device is detected', 'cudaErrorInvalidDevice', 'invalid device ordinal',
      'cudaErrorInsufficientDriver', 'CUDA driver version is insufficient for CUDA runtime version', 'cudaErrorECCUncorrectable',
      'uncorrectable ECC error encountered', 'cudaErrorDevicesUnavailable', 'CUDA-capable device(s) is/are busy or unavailable',
      'cudaErrorLaunchTimeout', 'the launch timed out and was terminated', 'cudaErrorNoKernelImageForDevice',
      'no kernel image is available for execution on the device', 'cudaErrorMisalignedAddress', 'misaligned address',
      'cudaErrorIllegalInstruction', 'an illegal instruction was encountered', 'cudaErrorHardwareStackError', 'cudaErrorSystemNotReady',
      'system not yet initialized', 'cudaErrorSystemDriverMismatch', 'cudaErrorCompatNotSupportedOnDevice', 'cudaErrorInitializationError',
      'initialization error', 'cudaErrorUnknown', 'cudaErrorNotPermitted', 'cudaErrorInvalidPtx', 'cudaErrorUnsupportedPtxVersion',
      'the provided PTX was compiled with an unsupported toolchain', 'cudaErrorStreamCaptureUnsupported', 'cudaErrorLaunchOutOfResources',
      'too many resources requested for launch',
    ],
  },
  {
    class: 'cuda.error',
    source: 'PyTorch c10/cuda/CUDAException.h (C10_CUDA_CHECK: "CUDA error: …", "CUDA kernel errors might be asynchronously reported", CUDA_LAUNCH_BLOCKING, TORCH_USE_CUDA_DSA), torch.AcceleratorError',
    terms: ['CUDA error', 'CUDA kernel errors might be asynchronously reported', 'CUDA_LAUNCH_BLOCKING', 'TORCH_USE_CUDA_DSA', 'torch.AcceleratorError', 'CUDA driver error', 'CUDA driver initialization failed', 'Found no NVIDIA driver on your system', 'torch.cuda.is_available'],
  },
  {
    class: 'cuda.error',
    source: 'cuBLAS cublasStatus_t, cuDNN cudnnStatus_t, NVML nvmlReturn_t / nvidia-smi, NVIDIA Xid table (nvidia kernel module NVRM lines)',
    terms: [
      'CUBLAS_STATUS_EXECUTION_FAILED', 'CUBLAS_STATUS_NOT_INITIALIZED', 'CUBLAS_STATUS_INTERNAL_ERROR', 'CUBLAS_STATUS_ARCH_MISMATCH',
      'CUDNN_STATUS_INTERNAL_ERROR', 'CUDNN_STATUS_EXECUTION_FAILED', 'CUDNN_STATUS_NOT_INITIALIZED', 'CUDNN_STATUS_MAPPING_ERROR',
      'Failed to initialize NVML', 'Driver/library version mismatch', 'NVML_ERROR_GPU_IS_LOST', 'GPU is lost', 'NVIDIA-SMI has failed',
      "couldn't communicate with the NVIDIA driver", 'NVRM: Xid', 'Xid', 'GPU has fallen off the bus', 'double bit ECC error', 'row remapping',
      'uncorrectable ECC', 'graphics exception', 'MMU Fault', 'GSP', 'nvidia-persistenced', 'unable to determine the device handle for GPU',
    ],
  },
  // ── NCCL and collectives ──
  {
    class: 'nccl.error',
    source: 'NCCL ncclResult_t (nccl.h) and ncclGetErrorString texts; PyTorch ProcessGroupNCCL "NCCL error in:", DistBackendError',
    terms: [
      'ncclUnhandledCudaError', 'unhandled cuda error', 'ncclSystemError', 'unhandled system error', 'ncclInternalError', 'internal error - please report this issue to the NCCL developers',
      'ncclInvalidArgument', 'ncclInvalidUsage', 'invalid usage', 'ncclRemoteError', 'remote process exited or there was a network error', 'ncclInProgress',
      'NCCL error in', 'NCCL error', 'DistBackendError', 'NCCL communicator', 'ncclCommInitRank', 'ncclCommAbort',
    ],
  },
  {
    class: 'nccl.error',
    source: 'NCCL transport WARN lines (src/transport/net_ib.cc, net_socket.cc, misc/socket.cc, proxy.cc, transport/shm.cc)',
    terms: [
      'NET/IB', 'NET/Socket', 'ibv_poll_cq', 'ibv_modify_qp', 'ibv_reg_mr', 'ibv_create_qp', 'IBV_WC_RETRY_EXC_ERR', 'transport retry counter exceeded',
      'work completion error', 'Connection closed by remote peer', 'socketProgress', 'socketPollConnect', 'ncclSocketConnect', 'proxyProgress',
      'Net plugin', 'NCCL_NET', 'NCCL_IB_HCA', 'NCCL_SOCKET_IFNAME', 'bootstrapNet', 'shm_open', 'cuIpcOpenMemHandle', 'NCCL_SHM_DISABLE',
    ],
  },
  {
    class: 'nccl.timeout',
    source: 'PyTorch torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp (watchdog, heartbeat monitor, WorkNCCL), c10d Work.wait',
    terms: [
      'Watchdog caught collective operation timeout', 'collective operation timeout', 'WorkNCCL', 'ProcessGroupNCCL', 'Timeout(ms)', 'SeqNum', 'OpType',
      'milliseconds before timing out', 'heartbeat monitor', 'TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC', 'TORCH_NCCL_ASYNC_ERROR_HANDLING',
      'TORCH_NCCL_ENABLE_MONITORING', 'Process group watchdog thread terminated with exception', 'monitored_barrier', 'ranks failed to pass monitoredBarrier',
      'To avoid data inconsistency, we are taking the entire process down', 'TORCH_NCCL_TRACE_BUFFER_SIZE', 'flight recorder', 'desync',
    ],
  },
  {
    class: 'nccl.p2p_deadlock',
    source: 'NCCL P2P transport (src/transport/p2p.cc: "via P2P/IPC", "P2P/CUMEM", "P2P/direct pointer"), NCCL_P2P_DISABLE / NCCL_P2P_LEVEL (env docs), PCIe ACS/IOMMU',
    terms: ['P2P/IPC', 'P2P/CUMEM', 'P2P/direct pointer', 'NCCL_P2P_DISABLE', 'NCCL_P2P_LEVEL', 'peer access', 'cudaErrorPeerAccessUnsupported', 'peer access is not supported between these two devices', 'PCIe ACS', 'IOMMU'],
  },
  // ── host memory and kills ──
  {
    class: 'host.oom',
    source: 'Linux mm/oom_kill.c ("Out of memory: Killed process", "invoked oom-killer", "oom_reaper"), memcontrol.c ("Memory cgroup out of memory"), systemd-oomd',
    terms: ['Out of memory: Killed process', 'Killed process', 'invoked oom-killer', 'oom-killer', 'oom_reaper', 'oom-kill', 'Memory cgroup out of memory', 'total-vm', 'anon-rss', 'systemd-oomd', 'due to memory pressure', 'OOM killer', 'oom_score_adj'],
  },
  {
    class: 'host.oom',
    source: 'errno ENOMEM "Cannot allocate memory"; CPython MemoryError; libstdc++ std::bad_alloc; Kubernetes container reason OOMKilled (kubelet), Evicted "The node was low on resource: memory"',
    terms: ['ENOMEM', 'Cannot allocate memory', 'MemoryError', 'std::bad_alloc', 'bad_alloc', 'OOMKilled', 'The node was low on resource: memory', 'MemoryPressure', 'InsufficientFreeMemory', 'memory limit', 'container memory', 'host memory'],
  },
  {
    class: 'host.oom',
    source: 'inference servers that check host memory before loading a model: Ollama (llm/server.go "model requires more system memory (%s) than is available (%s)")',
    terms: ['model requires more system memory', 'than is available', 'system memory'],
  },
  {
    class: 'host.oom',
    source: 'Ray memory monitor (src/ray/common/memory_monitor.cc, ray.exceptions.OutOfMemoryError: "Task was killed due to the node running low on memory"), ObjectStoreFullError',
    terms: ['Task was killed due to the node running low on memory', 'running low on memory', 'memory usage threshold', 'RAY_memory_usage_threshold', 'RAY_memory_monitor_refresh_ms', 'ray.exceptions.OutOfMemoryError', 'ObjectStoreFullError', 'object store is full'],
  },
  {
    class: 'host.killed',
    source: 'signal(7) SIGKILL/SIGTERM; bash job status "Killed"/"Terminated"; torchelastic "Signal 9 (SIGKILL) received by PID", "exitcode: -9"; subprocess "died with <Signals.SIGKILL: 9>"; Kubernetes Preempting/Killing, Slurm "CANCELLED … DUE TO TIME LIMIT"',
    terms: ['SIGKILL', 'SIGTERM', 'Signals.SIGKILL', 'Signals.SIGTERM', 'received by PID', 'signal 9', 'Signal 15', 'exit code 137', 'exit code 143', 'exitcode: -9', 'exitCode: 137', 'killed by signal', 'Preempting', 'preempted', 'DUE TO TIME LIMIT', 'DUE TO PREEMPTION', 'scancel', 'node drain', 'SignalException', 'torch.distributed.elastic.multiprocessing.api.SignalException'],
  },
  // ── Ray ──
  {
    class: 'ray.crash',
    source: 'ray/python/ray/exceptions.py (RayError hierarchy and messages), raylet/GCS fatal messages (src/ray/raylet, gcs_client)',
    terms: [
      'RayActorError', 'ActorDiedError', 'The actor died unexpectedly before finishing this task', 'ActorUnavailableError', 'RaySystemError', 'System error',
      'LocalRayletDiedError', "The task's local raylet died", 'WorkerCrashedError', 'The worker died unexpectedly while executing this task',
      'ObjectLostError', 'OwnerDiedError', 'ObjectReconstructionFailedError', 'ObjectFetchTimedOutError', 'ReferenceCountingAssertionError', 'NodeDiedError',
      'raylet', 'gcs_server', 'GCS', 'Failed to connect to GCS', 'The node with node id', 'has been marked dead', 'worker process has died',
      'SYSTEM_ERROR', 'INTENDED_SYSTEM_EXIT', 'Worker exits with an exit code', 'RuntimeEnvSetupError', 'python-core-worker', 'core_worker', 'ray.exceptions',
    ],
  },
  // ── disk ──
  {
    class: 'disk.full',
    source: 'errno ENOSPC "No space left on device", EDQUOT "Disk quota exceeded", EFBIG; Node "ENOSPC: no space left on device"; Kubernetes eviction "The node was low on resource: ephemeral-storage", DiskPressure, OutOfDisk; Ray OutOfDiskError; /dev/shm (PyTorch DataLoader "unable to write to file </torch_")',
    terms: ['ENOSPC', 'No space left on device', 'EDQUOT', 'Disk quota exceeded', 'File too large', 'ephemeral-storage', 'ephemeral local storage', 'DiskPressure', 'OutOfDisk', 'OutOfDiskError', 'FreeDiskSpaceFailed', 'local disk usage', 'disk is full', 'not enough space', 'insufficient disk space', 'dev/shm', 'shared memory', 'unable to write to file', 'torch_shm_manager', 'Bus error', 'spill', 'object spilling'],
  },
  // ── network ──
  {
    class: 'network.error',
    source: 'errno names and strerror (ECONNREFUSED, ECONNRESET, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EPIPE), CPython ConnectionError subclasses, getaddrinfo EAI_* texts, Go net "dial tcp", "no such host", "i/o timeout"',
    terms: [
      'ECONNREFUSED', 'Connection refused', 'ConnectionRefusedError', 'ECONNRESET', 'Connection reset by peer', 'ConnectionResetError', 'ETIMEDOUT', 'Connection timed out',
      'EHOSTUNREACH', 'No route to host', 'ENETUNREACH', 'Network is unreachable', 'EPIPE', 'Broken pipe', 'BrokenPipeError', 'ConnectionAbortedError', 'ECONNABORTED',
      'EAI_AGAIN', 'Temporary failure in name resolution', 'Name or service not known', 'ENOTFOUND', 'getaddrinfo', 'gaierror', 'nodename nor servname provided',
      'dial tcp', 'no such host', 'i/o timeout', 'socket hang up', 'EOF occurred in violation of protocol', 'Could not resolve host', 'Failed to connect to',
    ],
  },
  {
    class: 'network.error',
    source: 'requests.exceptions (ConnectionError, ProxyError, SSLError, ChunkedEncodingError), urllib3.exceptions (MaxRetryError, NewConnectionError, NameResolutionError, ProtocolError), httpx (ConnectError, NetworkError, ReadError, WriteError, CloseError, ProxyError, RemoteProtocolError), aiohttp client_exceptions, openai-python APIConnectionError "Connection error."',
    terms: [
      'MaxRetryError', 'NewConnectionError', 'Failed to establish a new connection', 'NameResolutionError', 'ProtocolError', 'Connection aborted', 'RemoteDisconnected',
      'Remote end closed connection without response', 'ChunkedEncodingError', 'ProxyError', 'httpx.ConnectError', 'httpx.NetworkError', 'httpx.ReadError', 'httpx.WriteError',
      'RemoteProtocolError', 'Server disconnected without sending a response', 'peer closed connection without sending complete message body', 'ClientConnectorError',
      'Cannot connect to host', 'ServerDisconnectedError', 'ClientOSError', 'ClientConnectionError', 'ClientPayloadError', 'APIConnectionError', 'Connection error',
      'IncompleteRead', 'Connection broken',
    ],
  },
  {
    class: 'network.error',
    source: 'TLS: CPython ssl (SSLError, SSLCertVerificationError, CERTIFICATE_VERIFY_FAILED), Go crypto/tls and x509, OpenSSL',
    terms: ['SSLError', 'SSLCertVerificationError', 'CERTIFICATE_VERIFY_FAILED', 'certificate verify failed', 'unable to get local issuer certificate', 'self signed certificate', 'x509', 'certificate signed by unknown authority', 'tls: handshake failure', 'TLS handshake', 'SSL_ERROR_SYSCALL', 'WRONG_VERSION_NUMBER', 'UNEXPECTED_EOF_WHILE_READING'],
  },
  {
    class: 'network.error',
    source: 'PyTorch c10d rendezvous and TCPStore (DistNetworkError, DistStoreError, RendezvousConnectionError, "The client socket has failed to connect to any network address"), gRPC UNAVAILABLE "failed to connect to all addresses"',
    terms: ['DistNetworkError', 'DistStoreError', 'RendezvousConnectionError', 'RendezvousTimeoutError', 'The client socket has failed to connect to any network address', 'TCPStore', 'failed to connect to all addresses', 'StatusCode.UNAVAILABLE', 'Connection to the server was lost', 'EndpointConnectionError', 'Could not connect to the endpoint URL'],
  },
  // ── API: status and time-outs ──
  {
    class: 'gateway.4xx',
    source: 'HTTP 4xx reason phrases (CPython http.HTTPStatus, RFC 9110), openai-python/anthropic-python APIStatusError subclasses and error types, LiteLLM exceptions',
    terms: [
      'Bad Request', 'Unauthorized', 'Payment Required', 'Forbidden', 'Not Found', 'Method Not Allowed', 'Not Acceptable', 'Proxy Authentication Required', 'Conflict', 'Gone',
      'Length Required', 'Precondition Failed', 'Request Entity Too Large', 'Content Too Large', 'Payload Too Large', 'URI Too Long', 'Unsupported Media Type',
      'Unprocessable Entity', 'Unprocessable Content', 'Too Many Requests', 'Request Header Fields Too Large', 'Unavailable For Legal Reasons',
      'BadRequestError', 'AuthenticationError', 'PermissionDeniedError', 'NotFoundError', 'ConflictError', 'UnprocessableEntityError', 'RateLimitError',
      'invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'rate_limit_error', 'request_too_large', 'insufficient_quota',
      'exceeded your current quota', 'context_length_exceeded', 'maximum context length', 'ContextWindowExceededError', 'prompt is too long', 'Incorrect API key provided',
      'invalid_api_key', 'invalid x-api-key', 'model_not_found', 'does not exist or you do not have access to it', 'Rate limit reached', 'rate limit',
      '400 Client Error', '401 Client Error', '403 Client Error', '404 Client Error', '429 Client Error', 'HTTPStatusError', 'Client error',
      // The status as error reports carry it: openai-python `Error code: 429`, bodies `"code": 429`, `Status Code: 403`.
      'code 400', 'code 401', 'code 402', 'code 403', 'code 404', 'code 409', 'code 413', 'code 422', 'code 429', 'RESOURCE_EXHAUSTED', 'INVALID_ARGUMENT', 'PERMISSION_DENIED', 'UNAUTHENTICATED',
    ],
  },
  {
    class: 'gateway.5xx',
    source: 'HTTP 5xx reason phrases (http.HTTPStatus), openai-python InternalServerError, anthropic overloaded_error/api_error (529), Envoy/nginx proxy texts',
    terms: [
      'Internal Server Error', 'Not Implemented', 'Bad Gateway', 'Service Unavailable', 'Gateway Timeout', 'HTTP Version Not Supported', 'Insufficient Storage',
      'Network Authentication Required', 'InternalServerError', 'ServiceUnavailableError', 'api_error', 'overloaded_error', 'Overloaded', 'OverloadedError',
      'upstream connect error', 'no healthy upstream', 'upstream request timeout', 'The server had an error while processing your request', '500 Server Error',
      '502 Server Error', '503 Server Error', 'Server error', 'server_error', 'engine dead', 'EngineDeadError', 'EngineGenerateError', 'AsyncEngineDeadError',
      'code 500', 'code 502', 'code 503', 'code 504', 'code 529', '503 UNAVAILABLE', '500 INTERNAL', 'The model is overloaded',
    ],
  },
  {
    class: 'api.timeout',
    source: 'openai-python APITimeoutError "Request timed out.", httpx TimeoutException/ReadTimeout/WriteTimeout/PoolTimeout, requests/urllib3 ReadTimeout(Error) "Read timed out.", aiohttp ServerTimeoutError, asyncio/builtin TimeoutError, gRPC DEADLINE_EXCEEDED, LiteLLM Timeout',
    terms: [
      'APITimeoutError', 'Request timed out', 'TimeoutException', 'httpx.ReadTimeout', 'ReadTimeout', 'WriteTimeout', 'PoolTimeout', 'ReadTimeoutError', 'Read timed out',
      'ServerTimeoutError', 'SocketTimeoutError', 'asyncio.TimeoutError', 'TimeoutError', 'DEADLINE_EXCEEDED', 'Deadline Exceeded', 'context deadline exceeded',
      'litellm.Timeout', 'ApiResponseStalledError', 'Request Timeout', 'timed out waiting for', 'response timed out',
    ],
  },
  // ── sandboxes and images ──
  {
    class: 'sandbox.failure',
    source: 'Kubernetes Pod/container reasons (kubelet: ImagePullBackOff, ErrImagePull, CreateContainerError, FailedCreatePodSandBox, FailedMount; scheduler FailedScheduling "0/N nodes are available", Insufficient, Unschedulable; eviction), Docker daemon "Error response from daemon", OCI runtime (runc)',
    terms: [
      'ImagePullBackOff', 'ErrImagePull', 'ErrImageNeverPull', 'InvalidImageName', 'CreateContainerError', 'CreateContainerConfigError', 'RunContainerError', 'ContainerCannotRun',
      'FailedCreatePodSandBox', 'FailedMount', 'FailedAttachVolume', 'FailedScheduling', 'nodes are available', 'Insufficient', 'Unschedulable', 'untolerated taint',
      'Evicted', 'UnexpectedAdmissionError', 'NodeNotReady', 'BackOff', 'Back-off restarting failed container', 'CrashLoopBackOff', 'ContainerCreating',
      'Error response from daemon', 'OCI runtime create failed', 'OCI runtime exec failed', 'runc', 'failed to create shim task', 'Cannot connect to the Docker daemon',
      'docker daemon', 'container is not running', 'No such container', 'container exited', 'SandboxTimeoutError', 'EnvironmentStartTimeoutError',
      'HealthcheckError', 'GKEExecStreamClosedError', 'exec stream', 'DaytonaError',
    ],
  },
  {
    class: 'image.build_failure',
    source: 'BuildKit (solver: "failed to solve", "did not complete successfully: exit code", "failed to compute cache key"), classic docker build ("executor failed running", "returned a non-zero code", "COPY failed"), registry errors, buildah/kaniko',
    terms: [
      'failed to solve', 'did not complete successfully', 'executor failed running', 'returned a non-zero code', 'failed to compute cache key', 'COPY failed',
      'failed to read dockerfile', 'dockerfile parse error', 'Dockerfile', 'failed to fetch oauth token', 'pull access denied', 'manifest unknown', 'repository does not exist',
      'failed to resolve source metadata', 'error building image', 'error building at STEP', 'buildah', 'kaniko', 'docker build', 'docker buildx', 'ERROR [', 'load build definition',
      'SandboxBuildFailedError', 'image build', 'build failed',
    ],
  },
  // ── agents and verifiers ──
  {
    class: 'agent.setup_failure',
    source: 'npm CLI (npm ERR!, npm error code EACCES/ENOENT/EBADENGINE), shells ("command not found", "not found"), Node engine checks, Harbor AgentSetupTimeoutError / NonZeroAgentExitCodeError in agent install',
    terms: ['npm ERR!', 'npm error', 'EBADENGINE', 'Unsupported engine', 'command not found', 'node: not found', 'nvm', 'AgentSetupTimeoutError', 'NonZeroAgentExitCodeError', 'install.sh', 'agent install', 'claude: command not found', 'codex: command not found'],
  },
  {
    class: 'verifier.failure',
    source: 'Harbor verifier errors (RewardFileNotFoundError, RewardFileEmptyError, VerifierOutputParseError, VerifierTimeoutError), reward.txt/reward.json',
    terms: ['RewardFileNotFoundError', 'RewardFileEmptyError', 'VerifierOutputParseError', 'VerifierTimeoutError', 'reward.txt', 'reward.json', 'verifier'],
  },
  {
    class: 'job.stall',
    source: 'Linux kernel/hung_task.c ("blocked for more than N seconds", hung_task_timeout_secs), watchdogs and progress monitors (py-spy dump), vLLM/Ray "no progress" warnings',
    terms: ['blocked for more than', 'hung_task_timeout_secs', 'hung task', 'no progress', 'stalled', 'deadlock', 'py-spy', 'soft lockup'],
  },
  // ── the run's own configuration and code ──
  {
    class: 'config.error',
    source: 'Hydra/OmegaConf (omegaconf/errors.py: ConfigAttributeError, ConfigKeyError, MissingMandatoryValue, InterpolationResolutionError, ValidationError; hydra "Could not override", "Error merging override", "Key … is not in struct")',
    terms: ['ConfigAttributeError', 'ConfigKeyError', 'ConfigTypeError', 'ConfigValueError', 'MissingMandatoryValue', 'Missing mandatory value', 'InterpolationResolutionError', 'InterpolationKeyError', 'Could not override', 'Error merging override', 'is not in struct', 'full_key', 'object_type', 'OverrideParseException', 'HYDRA_FULL_ERROR'],
  },
  {
    class: 'config.error',
    source: 'argparse (Lib/argparse.py: "the following arguments are required", "unrecognized arguments", "invalid choice", "expected one argument"), click/typer ("Missing option", "No such option", "Invalid value for"), pydantic ValidationError ("validation error for", "Field required", "Extra inputs are not permitted", "Input should be")',
    terms: ['the following arguments are required', 'unrecognized arguments', 'invalid choice', 'expected one argument', 'Missing option', 'No such option', 'Invalid value for', 'Missing argument', 'validation error for', 'validation errors for', 'Field required', 'Extra inputs are not permitted', 'Input should be', 'ValidationError', 'pydantic_core'],
  },
  {
    class: 'config.error',
    source: 'environment and files a run is configured with: "environment variable … is not set", KeyError on os.environ, errno ENOENT "No such file or directory" / EACCES "Permission denied" on a config path, Hugging Face Hub (RepositoryNotFoundError, GatedRepoError, EntryNotFoundError, "does not appear to have a file named"), YAML/JSON parse errors, torch.distributed launch configuration ("Duplicate GPU detected")',
    terms: ['environment variable', 'is not set', 'must be set', 'os.environ', 'RepositoryNotFoundError', 'GatedRepoError', 'EntryNotFoundError', 'RevisionNotFoundError', 'does not appear to have a file named', 'is not a valid model identifier', 'Repository Not Found', 'yaml.scanner.ScannerError', 'yaml.parser.ParserError', 'JSONDecodeError', 'tomllib', 'Duplicate GPU detected', 'invalid configuration', 'Invalid config', 'not supported', 'Unsupported', 'must be one of', 'must be divisible by', 'is not divisible by'],
  },
  {
    class: 'user.code_error',
    source: 'CPython builtin exceptions (Objects/exceptions.c) and their messages raised in the run\'s own code ("has no attribute", "is not defined", "object is not subscriptable", "unsupported operand type(s)", "positional argument", "unexpected keyword argument", "list index out of range")',
    terms: [
      'TypeError', 'AttributeError', 'NameError', 'IndexError', 'KeyError', 'ZeroDivisionError', 'AssertionError', 'ImportError', 'ModuleNotFoundError', 'No module named',
      'SyntaxError', 'IndentationError', 'UnboundLocalError', 'RecursionError', 'NotImplementedError', 'has no attribute', 'is not defined', 'object is not subscriptable',
      'object is not callable', 'object is not iterable', 'unsupported operand type', 'positional argument', 'unexpected keyword argument', 'list index out of range',
      'referenced before assignment', 'maximum recursion depth exceeded', 'cannot import name', 'division by zero', 'invalid syntax',
    ],
  },
  {
    class: 'user.code_error',
    source: 'PyTorch shape/device/autograd checks (ATen TORCH_CHECK texts: "mat1 and mat2 shapes cannot be multiplied", "Expected all tensors to be on the same device", "size mismatch", "element 0 of tensors does not require grad", "modified by an inplace operation"), CUDA device-side assert from an index bug',
    terms: ['mat1 and mat2 shapes cannot be multiplied', 'Expected all tensors to be on the same device', 'size mismatch', 'shape mismatch', 'The size of tensor a', 'must match the size of tensor b', 'element 0 of tensors does not require grad', 'modified by an inplace operation', 'device-side assert triggered', 'index out of bounds', 'Expected object of scalar type', 'expected scalar type', 'Trying to backward through the graph a second time', 'Error(s) in loading state_dict', 'Missing key(s) in state_dict', 'Unexpected key(s) in state_dict'],
  },
  {
    class: 'user.code_error',
    source: 'other runtimes\' program bugs: Go runtime ("invalid memory address or nil pointer dereference", "index out of range"), Rust panics ("called `Option::unwrap()` on a `None` value", "called `Result::unwrap()` on an `Err` value"), Java NullPointerException, JavaScript TypeError/ReferenceError ("Cannot read properties of undefined", "is not a function")',
    terms: ['nil pointer dereference', 'invalid memory address', 'index out of range', 'Option::unwrap()', 'Result::unwrap()', 'NullPointerException', 'ReferenceError', 'Cannot read properties of undefined', 'is not a function', 'undefined is not', 'ClassCastException', 'ArrayIndexOutOfBoundsException'],
  },
];
