// The CUDA libraries' own error vocabularies, as data: every cudaError_t of the CUDA runtime with its
// cudaGetErrorString text, every CUresult of the driver API, and the status enums of cuBLAS, cuDNN and
// cuSOLVER, each put in a group that says what the error means for a run. rules/cuda.ts
// `cuda.runtime_status` reads a line through this table; the narrower rules beside it (cuda.fault,
// cuda.oom.torch, cuda.arch_mismatch, user.device_side_assert, nccl.launch_config) keep the wordings
// they had and stay first where both match.
//
// Sources: CUDA 13.0 runtime, cudaGetErrorName/cudaGetErrorString for every code 1..1099 (libcudart.so,
// the enum in include/driver_types.h); CUresult names and codes from include/cuda.h (cuGetErrorString
// gives the runtime's text for the same code); cuBLAS cublasStatus_t (cublas_api.h); cuDNN 9
// cudnnStatus_t (cudnn_graph.h; cudnnGetErrorString returns the enum name) and the cuDNN ≤ 8 names;
// cuSOLVER cusolverStatus_t (cusolver_common.h). How PyTorch prints them: c10/cuda/CUDAException.cpp
// ("CUDA error: " + cudaGetErrorString), aten/src/ATen/cuda/Exceptions.h (TORCH_CUDABLAS_CHECK "CUDA
// error: <CUBLAS_STATUS_…> when calling `…`", AT_CUDNN_CHECK "cuDNN error: <CUDNN_STATUS_…>",
// TORCH_CUSOLVER_CHECK "cusolver error: <CUSOLVER_STATUS_…>, when calling `…`", AT_CUDA_DRIVER_CHECK
// "CUDA driver error: " + cuGetErrorString); Triton's driver "Triton Error [CUDA]: " + cuGetErrorString;
// CuPy "CUDARuntimeError: cudaError…: <text>" / "CUDADriverError: CUDA_ERROR_…: <text>"; XLA
// "CUDA_ERROR_…: <text>"; the CUDA samples' checkCudaErrors "code=N(cudaError…)".

/**
 * What an error says about the run:
 * - oom: device memory ran out (cuda.oom);
 * - arch: the binary holds no usable code for this GPU (config.error, like cuda.arch_mismatch);
 * - ordinal: the GPU index asked for does not exist (config.error, like nccl.launch_config);
 * - env: the driver, the CUDA installation, the system or MPS is not in a state to run CUDA (a missing or
 *   too old driver, a stub libcuda in a container, a PTX toolchain newer than the driver, exclusive or
 *   busy devices, the MPS daemon): cuda.error;
 * - fault: the GPU or a kernel on it faulted (illegal address, ECC, NVLink, launch failure): cuda.error;
 * - usage: the runtime rejected a call (an invalid argument, a launch configuration, a stream-capture
 *   rule): a library or kernel bug or a version mismatch, cuda.error below any cause (strength < 80);
 * - echo: a consequence of an earlier failure or of shutdown (driver shutting down, context destroyed);
 * - skip: not a failure of its own (cudaErrorNotReady is a poll result) or another rule's
 *   (cudaErrorAssert: user.device_side_assert reads the assertion).
 */
export type CudaErrorGroup = 'oom' | 'arch' | 'ordinal' | 'env' | 'fault' | 'usage' | 'echo' | 'skip';

/** cudaError_t: [code, name, cudaGetErrorString text, group]. */
export const CUDA_RUNTIME_ERRORS: readonly (readonly [number, string, string, CudaErrorGroup])[] = [
  [1, 'cudaErrorInvalidValue', 'invalid argument', 'usage'],
  [2, 'cudaErrorMemoryAllocation', 'out of memory', 'oom'],
  [3, 'cudaErrorInitializationError', 'initialization error', 'env'],
  [4, 'cudaErrorCudartUnloading', 'driver shutting down', 'echo'],
  [5, 'cudaErrorProfilerDisabled', 'profiler disabled while using external profiling tool', 'usage'],
  [6, 'cudaErrorProfilerNotInitialized', 'profiler not initialized: call cudaProfilerInitialize()', 'usage'],
  [7, 'cudaErrorProfilerAlreadyStarted', 'profiler already started', 'usage'],
  [8, 'cudaErrorProfilerAlreadyStopped', 'profiler already stopped', 'usage'],
  [9, 'cudaErrorInvalidConfiguration', 'invalid configuration argument', 'usage'],
  [12, 'cudaErrorInvalidPitchValue', 'invalid pitch argument', 'usage'],
  [13, 'cudaErrorInvalidSymbol', 'invalid device symbol', 'usage'],
  [16, 'cudaErrorInvalidHostPointer', 'invalid host pointer', 'usage'],
  [17, 'cudaErrorInvalidDevicePointer', 'invalid device pointer', 'usage'],
  [18, 'cudaErrorInvalidTexture', 'invalid texture reference', 'usage'],
  [19, 'cudaErrorInvalidTextureBinding', 'texture is not bound to a pointer', 'usage'],
  [20, 'cudaErrorInvalidChannelDescriptor', 'invalid channel descriptor', 'usage'],
  [21, 'cudaErrorInvalidMemcpyDirection', 'invalid copy direction for memcpy', 'usage'],
  [22, 'cudaErrorAddressOfConstant', 'invalid address of constant', 'usage'],
  [23, 'cudaErrorTextureFetchFailed', 'fetch from texture failed', 'usage'],
  [24, 'cudaErrorTextureNotBound', 'cannot fetch from a texture that is not bound', 'usage'],
  [25, 'cudaErrorSynchronizationError', 'incorrect use of __syncthreads()', 'usage'],
  [26, 'cudaErrorInvalidFilterSetting', 'linear filtering not supported for non-float type', 'usage'],
  [27, 'cudaErrorInvalidNormSetting', 'read as normalized float not supported for data type', 'usage'],
  [28, 'cudaErrorMixedDeviceExecution', 'device emulation mode and device execution mode cannot be mixed', 'usage'],
  [31, 'cudaErrorNotYetImplemented', 'feature not yet implemented', 'usage'],
  [32, 'cudaErrorMemoryValueTooLarge', 'memory size or pointer value too large to fit in 32 bit', 'usage'],
  [34, 'cudaErrorStubLibrary', 'CUDA driver is a stub library', 'env'],
  [35, 'cudaErrorInsufficientDriver', 'CUDA driver version is insufficient for CUDA runtime version', 'env'],
  [36, 'cudaErrorCallRequiresNewerDriver', 'API call is not supported in the installed CUDA driver', 'env'],
  [37, 'cudaErrorInvalidSurface', 'invalid surface reference', 'usage'],
  [43, 'cudaErrorDuplicateVariableName', 'duplicate global variable looked up by string name', 'usage'],
  [44, 'cudaErrorDuplicateTextureName', 'duplicate texture looked up by string name', 'usage'],
  [45, 'cudaErrorDuplicateSurfaceName', 'duplicate surface looked up by string name', 'usage'],
  [46, 'cudaErrorDevicesUnavailable', 'CUDA-capable device(s) is/are busy or unavailable', 'env'],
  [49, 'cudaErrorIncompatibleDriverContext', 'incompatible driver context', 'usage'],
  [52, 'cudaErrorMissingConfiguration', '__global__ function call is not configured', 'usage'],
  [53, 'cudaErrorPriorLaunchFailure', 'unspecified launch failure in prior launch', 'fault'],
  [65, 'cudaErrorLaunchMaxDepthExceeded', 'launch would exceed maximum depth of nested launches', 'usage'],
  [66, 'cudaErrorLaunchFileScopedTex', 'launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)', 'usage'],
  [67, 'cudaErrorLaunchFileScopedSurf', 'launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)', 'usage'],
  [68, 'cudaErrorSyncDepthExceeded', "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth", 'usage'],
  [69, 'cudaErrorLaunchPendingCountExceeded', 'launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount', 'usage'],
  [98, 'cudaErrorInvalidDeviceFunction', 'invalid device function', 'arch'],
  [100, 'cudaErrorNoDevice', 'no CUDA-capable device is detected', 'env'],
  [101, 'cudaErrorInvalidDevice', 'invalid device ordinal', 'ordinal'],
  [102, 'cudaErrorDeviceNotLicensed', "device doesn't have valid Grid license", 'env'],
  [103, 'cudaErrorSoftwareValidityNotEstablished', 'integrity checks failed', 'env'],
  [127, 'cudaErrorStartupFailure', 'startup failure in cuda runtime', 'env'],
  [200, 'cudaErrorInvalidKernelImage', 'device kernel image is invalid', 'arch'],
  [201, 'cudaErrorDeviceUninitialized', 'invalid device context', 'usage'],
  [205, 'cudaErrorMapBufferObjectFailed', 'mapping of buffer object failed', 'usage'],
  [206, 'cudaErrorUnmapBufferObjectFailed', 'unmapping of buffer object failed', 'usage'],
  [207, 'cudaErrorArrayIsMapped', 'array is mapped', 'usage'],
  [208, 'cudaErrorAlreadyMapped', 'resource already mapped', 'usage'],
  [209, 'cudaErrorNoKernelImageForDevice', 'no kernel image is available for execution on the device', 'arch'],
  [210, 'cudaErrorAlreadyAcquired', 'resource already acquired', 'usage'],
  [211, 'cudaErrorNotMapped', 'resource not mapped', 'usage'],
  [212, 'cudaErrorNotMappedAsArray', 'resource not mapped as array', 'usage'],
  [213, 'cudaErrorNotMappedAsPointer', 'resource not mapped as pointer', 'usage'],
  [214, 'cudaErrorECCUncorrectable', 'uncorrectable ECC error encountered', 'fault'],
  [215, 'cudaErrorUnsupportedLimit', 'limit is not supported on this architecture', 'usage'],
  [216, 'cudaErrorDeviceAlreadyInUse', 'exclusive-thread device already in use by a different thread', 'env'],
  [217, 'cudaErrorPeerAccessUnsupported', 'peer access is not supported between these two devices', 'env'],
  [218, 'cudaErrorInvalidPtx', 'a PTX JIT compilation failed', 'env'],
  [219, 'cudaErrorInvalidGraphicsContext', 'invalid OpenGL or DirectX context', 'usage'],
  [220, 'cudaErrorNvlinkUncorrectable', 'uncorrectable NVLink error detected during the execution', 'fault'],
  [221, 'cudaErrorJitCompilerNotFound', 'PTX JIT compiler library not found', 'env'],
  [222, 'cudaErrorUnsupportedPtxVersion', 'the provided PTX was compiled with an unsupported toolchain.', 'env'],
  [223, 'cudaErrorJitCompilationDisabled', 'PTX JIT compilation was disabled', 'env'],
  [224, 'cudaErrorUnsupportedExecAffinity', 'the provided execution affinity is not supported', 'usage'],
  [225, 'cudaErrorUnsupportedDevSideSync', 'the provided PTX contains unsupported call to cudaDeviceSynchronize', 'usage'],
  [226, 'cudaErrorContained', 'Invalid access of peer GPU memory over nvlink or a hardware error', 'fault'],
  [300, 'cudaErrorInvalidSource', 'device kernel image is invalid', 'arch'],
  [301, 'cudaErrorFileNotFound', 'file not found', 'env'],
  [302, 'cudaErrorSharedObjectSymbolNotFound', 'shared object symbol not found', 'env'],
  [303, 'cudaErrorSharedObjectInitFailed', 'shared object initialization failed', 'env'],
  [304, 'cudaErrorOperatingSystem', 'OS call failed or operation not supported on this OS', 'env'],
  [400, 'cudaErrorInvalidResourceHandle', 'invalid resource handle', 'usage'],
  [401, 'cudaErrorIllegalState', 'the operation cannot be performed in the present state', 'usage'],
  [402, 'cudaErrorLossyQuery', 'attempted introspection would be semantically lossy', 'usage'],
  [500, 'cudaErrorSymbolNotFound', 'named symbol not found', 'env'],
  [600, 'cudaErrorNotReady', 'device not ready', 'skip'],
  [700, 'cudaErrorIllegalAddress', 'an illegal memory access was encountered', 'fault'],
  [701, 'cudaErrorLaunchOutOfResources', 'too many resources requested for launch', 'fault'],
  [702, 'cudaErrorLaunchTimeout', 'the launch timed out and was terminated', 'fault'],
  [703, 'cudaErrorLaunchIncompatibleTexturing', 'launch uses incompatible texturing mode', 'usage'],
  [704, 'cudaErrorPeerAccessAlreadyEnabled', 'peer access is already enabled', 'usage'],
  [705, 'cudaErrorPeerAccessNotEnabled', 'peer access has not been enabled', 'usage'],
  [708, 'cudaErrorSetOnActiveProcess', 'cannot set while device is active in this process', 'usage'],
  [709, 'cudaErrorContextIsDestroyed', 'context is destroyed', 'echo'],
  [710, 'cudaErrorAssert', 'device-side assert triggered', 'skip'],
  [711, 'cudaErrorTooManyPeers', 'peer mapping resources exhausted', 'usage'],
  [712, 'cudaErrorHostMemoryAlreadyRegistered', 'part or all of the requested memory range is already mapped', 'usage'],
  [713, 'cudaErrorHostMemoryNotRegistered', 'pointer does not correspond to a registered memory region', 'usage'],
  [714, 'cudaErrorHardwareStackError', 'hardware stack error', 'fault'],
  [715, 'cudaErrorIllegalInstruction', 'an illegal instruction was encountered', 'fault'],
  [716, 'cudaErrorMisalignedAddress', 'misaligned address', 'fault'],
  [717, 'cudaErrorInvalidAddressSpace', 'operation not supported on global/shared address space', 'usage'],
  [718, 'cudaErrorInvalidPc', 'invalid program counter', 'fault'],
  [719, 'cudaErrorLaunchFailure', 'unspecified launch failure', 'fault'],
  [720, 'cudaErrorCooperativeLaunchTooLarge', 'too many blocks in cooperative launch', 'usage'],
  [721, 'cudaErrorTensorMemoryLeak', 'tensor memory not completely freed', 'usage'],
  [800, 'cudaErrorNotPermitted', 'operation not permitted', 'usage'],
  [801, 'cudaErrorNotSupported', 'operation not supported', 'env'],
  [802, 'cudaErrorSystemNotReady', 'system not yet initialized', 'env'],
  [803, 'cudaErrorSystemDriverMismatch', 'system has unsupported display driver / cuda driver combination', 'env'],
  [804, 'cudaErrorCompatNotSupportedOnDevice', 'forward compatibility was attempted on non supported HW', 'env'],
  [805, 'cudaErrorMpsConnectionFailed', 'MPS client failed to connect to the MPS control daemon or the MPS server', 'env'],
  [806, 'cudaErrorMpsRpcFailure', 'the remote procedural call between the MPS server and the MPS client failed', 'env'],
  [807, 'cudaErrorMpsServerNotReady', 'MPS server is not ready to accept new MPS client requests', 'env'],
  [808, 'cudaErrorMpsMaxClientsReached', 'the hardware resources required to create MPS client have been exhausted', 'env'],
  [809, 'cudaErrorMpsMaxConnectionsReached', 'the hardware resources required to support device connections have been exhausted', 'env'],
  [810, 'cudaErrorMpsClientTerminated', 'the MPS client has been terminated by the server', 'env'],
  [811, 'cudaErrorCdpNotSupported', 'is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it', 'env'],
  [812, 'cudaErrorCdpVersionMismatch', 'unsupported interaction between different versions of CUDA Dynamic Parallelism', 'env'],
  [900, 'cudaErrorStreamCaptureUnsupported', 'operation not permitted when stream is capturing', 'usage'],
  [901, 'cudaErrorStreamCaptureInvalidated', 'operation failed due to a previous error during capture', 'usage'],
  [902, 'cudaErrorStreamCaptureMerge', 'operation would result in a merge of separate capture sequences', 'usage'],
  [903, 'cudaErrorStreamCaptureUnmatched', 'capture was not ended in the same stream as it began', 'usage'],
  [904, 'cudaErrorStreamCaptureUnjoined', 'capturing stream has unjoined work', 'usage'],
  [905, 'cudaErrorStreamCaptureIsolation', 'dependency created on uncaptured work in another stream', 'usage'],
  [906, 'cudaErrorStreamCaptureImplicit', 'operation would make the legacy stream depend on a capturing blocking stream', 'usage'],
  [907, 'cudaErrorCapturedEvent', 'operation not permitted on an event last recorded in a capturing stream', 'usage'],
  [908, 'cudaErrorStreamCaptureWrongThread', 'attempt to terminate a thread-local capture sequence from another thread', 'usage'],
  [909, 'cudaErrorTimeout', 'wait operation timed out', 'fault'],
  [910, 'cudaErrorGraphExecUpdateFailure', 'the graph update was not performed because it included changes which violated constraints specific to instantiated graph update', 'usage'],
  [911, 'cudaErrorExternalDevice', 'an async error has occured in external entity outside of CUDA', 'fault'],
  [912, 'cudaErrorInvalidClusterSize', 'a kernel launch error has occurred due to cluster misconfiguration', 'usage'],
  [913, 'cudaErrorFunctionNotLoaded', 'the function handle is not loaded when calling an API that requires a loaded function', 'usage'],
  [914, 'cudaErrorInvalidResourceType', 'one or more resources passed in are not valid resource types for the operation', 'usage'],
  [915, 'cudaErrorInvalidResourceConfiguration', 'one or more resources are insufficient or non-applicable for the operation', 'usage'],
  [999, 'cudaErrorUnknown', 'unknown error', 'fault'],
];

/** CUresult (cuda.h): [code, name]; the group is the runtime's for the same code (usage where the runtime has none). */
export const CUDA_DRIVER_ERRORS: readonly (readonly [number, string])[] = [
  [1, 'CUDA_ERROR_INVALID_VALUE'],
  [2, 'CUDA_ERROR_OUT_OF_MEMORY'],
  [3, 'CUDA_ERROR_NOT_INITIALIZED'],
  [4, 'CUDA_ERROR_DEINITIALIZED'],
  [5, 'CUDA_ERROR_PROFILER_DISABLED'],
  [6, 'CUDA_ERROR_PROFILER_NOT_INITIALIZED'],
  [7, 'CUDA_ERROR_PROFILER_ALREADY_STARTED'],
  [8, 'CUDA_ERROR_PROFILER_ALREADY_STOPPED'],
  [34, 'CUDA_ERROR_STUB_LIBRARY'],
  [36, 'CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER'],
  [46, 'CUDA_ERROR_DEVICE_UNAVAILABLE'],
  [100, 'CUDA_ERROR_NO_DEVICE'],
  [101, 'CUDA_ERROR_INVALID_DEVICE'],
  [102, 'CUDA_ERROR_DEVICE_NOT_LICENSED'],
  [200, 'CUDA_ERROR_INVALID_IMAGE'],
  [201, 'CUDA_ERROR_INVALID_CONTEXT'],
  [202, 'CUDA_ERROR_CONTEXT_ALREADY_CURRENT'],
  [205, 'CUDA_ERROR_MAP_FAILED'],
  [206, 'CUDA_ERROR_UNMAP_FAILED'],
  [207, 'CUDA_ERROR_ARRAY_IS_MAPPED'],
  [208, 'CUDA_ERROR_ALREADY_MAPPED'],
  [209, 'CUDA_ERROR_NO_BINARY_FOR_GPU'],
  [210, 'CUDA_ERROR_ALREADY_ACQUIRED'],
  [211, 'CUDA_ERROR_NOT_MAPPED'],
  [212, 'CUDA_ERROR_NOT_MAPPED_AS_ARRAY'],
  [213, 'CUDA_ERROR_NOT_MAPPED_AS_POINTER'],
  [214, 'CUDA_ERROR_ECC_UNCORRECTABLE'],
  [215, 'CUDA_ERROR_UNSUPPORTED_LIMIT'],
  [216, 'CUDA_ERROR_CONTEXT_ALREADY_IN_USE'],
  [217, 'CUDA_ERROR_PEER_ACCESS_UNSUPPORTED'],
  [218, 'CUDA_ERROR_INVALID_PTX'],
  [219, 'CUDA_ERROR_INVALID_GRAPHICS_CONTEXT'],
  [220, 'CUDA_ERROR_NVLINK_UNCORRECTABLE'],
  [221, 'CUDA_ERROR_JIT_COMPILER_NOT_FOUND'],
  [222, 'CUDA_ERROR_UNSUPPORTED_PTX_VERSION'],
  [223, 'CUDA_ERROR_JIT_COMPILATION_DISABLED'],
  [224, 'CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY'],
  [225, 'CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC'],
  [226, 'CUDA_ERROR_CONTAINED'],
  [300, 'CUDA_ERROR_INVALID_SOURCE'],
  [301, 'CUDA_ERROR_FILE_NOT_FOUND'],
  [302, 'CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND'],
  [303, 'CUDA_ERROR_SHARED_OBJECT_INIT_FAILED'],
  [304, 'CUDA_ERROR_OPERATING_SYSTEM'],
  [400, 'CUDA_ERROR_INVALID_HANDLE'],
  [401, 'CUDA_ERROR_ILLEGAL_STATE'],
  [402, 'CUDA_ERROR_LOSSY_QUERY'],
  [500, 'CUDA_ERROR_NOT_FOUND'],
  [600, 'CUDA_ERROR_NOT_READY'],
  [700, 'CUDA_ERROR_ILLEGAL_ADDRESS'],
  [701, 'CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES'],
  [702, 'CUDA_ERROR_LAUNCH_TIMEOUT'],
  [703, 'CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING'],
  [704, 'CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED'],
  [705, 'CUDA_ERROR_PEER_ACCESS_NOT_ENABLED'],
  [708, 'CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE'],
  [709, 'CUDA_ERROR_CONTEXT_IS_DESTROYED'],
  [710, 'CUDA_ERROR_ASSERT'],
  [711, 'CUDA_ERROR_TOO_MANY_PEERS'],
  [712, 'CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED'],
  [713, 'CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED'],
  [714, 'CUDA_ERROR_HARDWARE_STACK_ERROR'],
  [715, 'CUDA_ERROR_ILLEGAL_INSTRUCTION'],
  [716, 'CUDA_ERROR_MISALIGNED_ADDRESS'],
  [717, 'CUDA_ERROR_INVALID_ADDRESS_SPACE'],
  [718, 'CUDA_ERROR_INVALID_PC'],
  [719, 'CUDA_ERROR_LAUNCH_FAILED'],
  [720, 'CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE'],
  [721, 'CUDA_ERROR_TENSOR_MEMORY_LEAK'],
  [800, 'CUDA_ERROR_NOT_PERMITTED'],
  [801, 'CUDA_ERROR_NOT_SUPPORTED'],
  [802, 'CUDA_ERROR_SYSTEM_NOT_READY'],
  [803, 'CUDA_ERROR_SYSTEM_DRIVER_MISMATCH'],
  [804, 'CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE'],
  [805, 'CUDA_ERROR_MPS_CONNECTION_FAILED'],
  [806, 'CUDA_ERROR_MPS_RPC_FAILURE'],
  [807, 'CUDA_ERROR_MPS_SERVER_NOT_READY'],
  [808, 'CUDA_ERROR_MPS_MAX_CLIENTS_REACHED'],
  [809, 'CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED'],
  [810, 'CUDA_ERROR_MPS_CLIENT_TERMINATED'],
  [811, 'CUDA_ERROR_CDP_NOT_SUPPORTED'],
  [812, 'CUDA_ERROR_CDP_VERSION_MISMATCH'],
  [900, 'CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED'],
  [901, 'CUDA_ERROR_STREAM_CAPTURE_INVALIDATED'],
  [902, 'CUDA_ERROR_STREAM_CAPTURE_MERGE'],
  [903, 'CUDA_ERROR_STREAM_CAPTURE_UNMATCHED'],
  [904, 'CUDA_ERROR_STREAM_CAPTURE_UNJOINED'],
  [905, 'CUDA_ERROR_STREAM_CAPTURE_ISOLATION'],
  [906, 'CUDA_ERROR_STREAM_CAPTURE_IMPLICIT'],
  [907, 'CUDA_ERROR_CAPTURED_EVENT'],
  [908, 'CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD'],
  [909, 'CUDA_ERROR_TIMEOUT'],
  [910, 'CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE'],
  [911, 'CUDA_ERROR_EXTERNAL_DEVICE'],
  [912, 'CUDA_ERROR_INVALID_CLUSTER_SIZE'],
  [913, 'CUDA_ERROR_FUNCTION_NOT_LOADED'],
  [914, 'CUDA_ERROR_INVALID_RESOURCE_TYPE'],
  [915, 'CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION'],
  [916, 'CUDA_ERROR_KEY_ROTATION'],
  [999, 'CUDA_ERROR_UNKNOWN'],
];

/** cublasStatus_t (cublas_api.h). */
const CUBLAS_STATUS: Record<string, CudaErrorGroup> = {
  CUBLAS_STATUS_NOT_INITIALIZED: 'env',
  CUBLAS_STATUS_ALLOC_FAILED: 'oom',
  CUBLAS_STATUS_INVALID_VALUE: 'usage',
  CUBLAS_STATUS_ARCH_MISMATCH: 'arch',
  CUBLAS_STATUS_MAPPING_ERROR: 'fault',
  CUBLAS_STATUS_EXECUTION_FAILED: 'fault',
  CUBLAS_STATUS_INTERNAL_ERROR: 'fault',
  CUBLAS_STATUS_NOT_SUPPORTED: 'usage',
  CUBLAS_STATUS_LICENSE_ERROR: 'env',
};

/**
 * cudnnStatus_t: cuDNN 9 (cudnn_graph.h) names each status by its family and a detail
 * (CUDNN_STATUS_BAD_PARAM_NULL_POINTER, CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH,
 * CUDNN_STATUS_EXECUTION_FAILED_CUDART, CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED, …); cuDNN ≤ 8
 * had the bare family names plus ALLOC_FAILED, ARCH_MISMATCH, MAPPING_ERROR, VERSION_MISMATCH,
 * RUNTIME_PREREQUISITE_MISSING. The detail decides where it says more than the family.
 */
function cudnnGroup(name: string): CudaErrorGroup | undefined {
  const s = name.slice('CUDNN_STATUS_'.length);
  if (s === 'SUCCESS' || s === 'RUNTIME_IN_PROGRESS') return 'skip';
  if (s === 'ALLOC_FAILED' || s.endsWith('DEVICE_ALLOCATION_FAILED')) return 'oom';
  if (s.endsWith('ARCH_MISMATCH')) return 'arch';
  if (/^(?:NOT_INITIALIZED|LICENSE_ERROR|VERSION_MISMATCH|SUBLIBRARY_|SERIALIZATION_VERSION_MISMATCH|RUNTIME_PREREQUISITE_MISSING)|^NOT_SUPPORTED_(?:INCOMPATIBLE_|RUNTIME_PREREQUISITE_MISSING|SUBLIBRARY_UNAVAILABLE)/.test(s)) return 'env';
  if (/^(?:INTERNAL_ERROR|EXECUTION_FAILED|MAPPING_ERROR)/.test(s)) return 'fault';
  if (/^(?:BAD_PARAM|NOT_SUPPORTED|INVALID_VALUE|DEPRECATED|RUNTIME_FP_OVERFLOW)/.test(s)) return 'usage';
  return undefined;
}

/** cusolverStatus_t (cusolver_common.h): NOT_INITIALIZED, ALLOC_FAILED, INVALID_VALUE, ARCH_MISMATCH, MAPPING_ERROR, EXECUTION_FAILED, INTERNAL_ERROR, MATRIX_TYPE_NOT_SUPPORTED, NOT_SUPPORTED, ZERO_PIVOT, INVALID_LICENSE, IRS_…. */
function cusolverGroup(name: string): CudaErrorGroup | undefined {
  const s = name.slice('CUSOLVER_STATUS_'.length);
  if (s === 'SUCCESS') return 'skip';
  if (s === 'ALLOC_FAILED') return 'oom';
  if (s === 'ARCH_MISMATCH') return 'arch';
  if (s === 'NOT_INITIALIZED' || s === 'INVALID_LICENSE') return 'env';
  if (s === 'MAPPING_ERROR' || s === 'EXECUTION_FAILED' || s === 'INTERNAL_ERROR') return 'fault';
  if (/^(?:INVALID_VALUE|MATRIX_TYPE_NOT_SUPPORTED|NOT_SUPPORTED|ZERO_PIVOT|IRS_|INVALID_WORKSPACE)/.test(s)) return 'usage';
  return undefined;
}

const BY_CODE = new Map(CUDA_RUNTIME_ERRORS.map(([code, , , group]) => [code, group]));
const BY_NAME = new Map<string, CudaErrorGroup>([
  ...CUDA_RUNTIME_ERRORS.map(([, name, , group]) => [name, group] as const),
  ...CUDA_DRIVER_ERRORS.map(([code, name]) => [name, BY_CODE.get(code) ?? 'usage'] as const),
  ...Object.entries(CUBLAS_STATUS),
]);
/** Texts longest first, lower-cased: a message is read by the longest text it starts with. */
const BY_TEXT: readonly (readonly [string, CudaErrorGroup])[] = CUDA_RUNTIME_ERRORS.map(([, , text, group]) => [text.toLowerCase(), group] as const).sort((a, b) => b[0].length - a[0].length);

/** Any error or status name of the four enums, as a token of a line. */
export const CUDA_STATUS_NAME_RE = /\b(?:cudaError[A-Z]\w{2,60}|CUDA_ERROR_[A-Z_]{3,60}|CUBLAS_STATUS_[A-Z_]{3,60}|CUDNN_STATUS_[A-Z_]{3,60}|CUSOLVER_STATUS_[A-Z_]{3,60})\b/;

/** The group of an enum name (cudaErrorIllegalAddress, CUDA_ERROR_NO_DEVICE, CUBLAS_STATUS_ALLOC_FAILED, CUDNN_STATUS_BAD_PARAM_NULL_POINTER, …). */
export function groupOfName(name: string): CudaErrorGroup | undefined {
  if (name.startsWith('CUDNN_STATUS_')) return cudnnGroup(name);
  if (name.startsWith('CUSOLVER_STATUS_')) return cusolverGroup(name);
  return BY_NAME.get(name);
}

/** The group of a cudaGetErrorString / cuGetErrorString text at the start of `message` (what follows "CUDA error: "). */
export function groupOfText(message: string): CudaErrorGroup | undefined {
  const m = message.trimStart().toLowerCase();
  for (const [text, group] of BY_TEXT) if (m.startsWith(text)) return group;
  return undefined;
}
