// GPU memory exhaustion and GPU/driver/runtime faults, from PyTorch, TensorFlow/JAX, vLLM, SGLang,
// NCCL's own CUDA calls, and the kernel's Xid lines.
import { defineRules, type Extracted } from '../rule.js';
import { CUDA_STATUS_NAME_RE, type CudaErrorGroup, groupOfName, groupOfText } from './cuda-vocab.js';

const UNITS: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, TiB: 1024 ** 4, PiB: 1024 ** 5, EiB: 1024 ** 6, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, PB: 1e15, EB: 1e18 };
export function parseBytes(n: string, unit: string): number | undefined {
  const u = UNITS[unit];
  const v = Number(n);
  return u && Number.isFinite(v) ? v * u : undefined;
}

/**
 * Only an allocation that could never fit is a code bug: more bytes than the whole device has (or an
 * absurd size such as "more than 1EB", an overflowed or negative size). Any allocation that fits the
 * device, however large a share of it (a 37 GiB logits tensor on an 80 GiB GPU in RL training), is the
 * workload outgrowing the GPU: cuda.oom, an infrastructure/capacity failure to retry or re-size.
 */
const ABSURD_BYTES = 2 ** 50;

function oomExtract(line: string): Extracted {
  const tried = /Tried to allocate (-?[\d.]+) ?([KMGTPE]i?B)/.exec(line);
  const total = /(?:total capacity of |; )([\d.]+) ?([KMGT]i?B)(?: total capacity)?/.exec(line);
  const out: Extracted = {};
  if (tried) out.bytes = parseBytes(tried[1]!, tried[2]!);
  const totalBytes = total ? parseBytes(total[1]!, total[2]!) : undefined;
  if (totalBytes) out.totalBytes = totalBytes;
  const absurd = /more than 1EB|Tried to allocate -|Tried to allocate [\d.]+ ?[PE]i?B/.test(line) || (out.bytes !== undefined && out.bytes >= ABSURD_BYTES);
  if (absurd || (out.bytes && totalBytes && out.bytes > totalBytes)) {
    out.classOverride = 'user.code_error';
    out.hint = `One allocation asked for ${tried ? `${tried[1]} ${tried[2]}` : 'an absurd size'}, more than the GPU's whole memory${totalBytes ? ` (${total![1]} ${total![2]})` : ''}: no GPU could satisfy it, so it is a code bug (a wrong shape, an unintended broadcast or outer product, an overflowed size computation), not memory pressure. Find the tensor from the traceback and check its shape and dtype.`;
  }
  return out;
}

/**
 * What an Xid number says (NVIDIA's Xid catalogue). Hardware and driver faults are causes. 13/31/43 are
 * also what a buggy kernel of the application produces (an out-of-range access faults the GPU's MMU),
 * so they only win when nothing more specific (a device-side assert) explains them. 45 is the driver
 * cleaning up after a process that was killed (Ctrl-C, the OOM killer, a crash elsewhere): an echo.
 */
const XID_ECHO = new Set([45]);
const XID_APP_POSSIBLE = new Set([13, 31, 43]);

function xidExtract(_line: string, m: RegExpExecArray): Extracted {
  const xid = Number(m[1]);
  if (XID_ECHO.has(xid))
    return { xid, strength: 20, hint: 'Xid 45 is the driver cleaning up GPU work of a process that was stopped or killed: look for what killed it (OOM killer, a crash on another rank, a cancelled job).' };
  if (XID_APP_POSSIBLE.has(xid))
    return { xid, strength: 78, hint: `Xid ${xid} is a GPU exception that a kernel bug of the application (an out-of-range access) causes as often as hardware does: re-run with CUDA_LAUNCH_BLOCKING=1 / compute-sanitizer; if it recurs with different code on this node only, drain the node.` };
  return { xid };
}

const NCCL_OWN_CUDA_HINT =
  "A CUDA call made by NCCL itself failed (ncclUnhandledCudaError), without a GPU fault: usually a NCCL/driver/CUDA mismatch (NCCL built for a newer CUDA than the driver, cuMem/NVLS features the platform lacks: try NCCL_CUMEM_ENABLE=0 / NCCL_NVLS_ENABLE=0), or GPUs shared or restricted by the container (CUDA_VISIBLE_DEVICES, MIG). Re-run with NCCL_DEBUG=INFO and read the first NCCL WARN line.";

/**
 * cudaErrorInvalidDeviceFunction (98, "invalid device function"), cudaErrorNoKernelImageForDevice (209,
 * "no kernel image is available for execution on the device"), CUDA_ERROR_NO_BINARY_FOR_GPU: the
 * installed binaries hold no code for this GPU's compute capability. A wrong build for the hardware is the
 * environment's configuration, not a GPU fault.
 */
const ARCH_MISMATCH_RE = /Bfloat16 is only supported on GPUs with compute capability of at least|no kernel image is available for execution on the device|invalid device function|cudaErrorNoKernelImageForDevice|cudaErrorInvalidDeviceFunction|CUDA_ERROR_NO_BINARY_FOR_GPU|no binary for GPU|with CUDA capability sm_\d+ is not compatible with the current PyTorch installation/;
const ARCH_MISMATCH_HINT =
  "The installed PyTorch/NCCL/extension binaries contain no code for this GPU's compute capability (CUDA: invalid device function / no kernel image): install a build whose CUDA arch list includes the GPU (check torch.cuda.get_arch_list() against torch.cuda.get_device_capability()), or rebuild the extension with TORCH_CUDA_ARCH_LIST set for it.";

/** What a group of the CUDA libraries' error vocabulary (cuda-vocab.ts) makes of a line. */
const STATUS_VERDICT: Record<Exclude<CudaErrorGroup, 'skip'>, Extracted> = {
  oom: { classOverride: 'cuda.oom', strength: 90, hint: 'GPU memory ran out (the CUDA library reports an allocation failure): lower the batch or sequence length, free the GPU of other processes, or shard the model further.' },
  arch: { classOverride: 'config.error', strength: 85, hint: ARCH_MISMATCH_HINT },
  ordinal: { classOverride: 'config.error', strength: 84, hint: 'A process asked for a GPU index that does not exist (invalid device ordinal): launch no more local ranks than visible GPUs and select the device by LOCAL_RANK.' },
  env: { classOverride: 'cuda.error', strength: 84, hint: "The driver, the CUDA installation or the node is not in a state to run CUDA (no or too old a driver, a stub libcuda.so in a container without the NVIDIA runtime, a toolkit newer than the driver, devices busy or in exclusive mode, the MPS daemon): compare nvidia-smi's driver version with the CUDA build of the framework, check the container's GPU runtime and the device's compute mode." },
  fault: { classOverride: 'cuda.error', strength: 84, hint: 'A GPU fault (illegal address, launch failure, ECC/NVLink error, a contained hardware error): re-run with CUDA_LAUNCH_BLOCKING=1 to find the kernel, check dmesg for Xid lines and nvidia-smi -q for ECC/remapped rows; drain the node if it repeats there.' },
  usage: { classOverride: 'cuda.error', strength: 72, hint: 'The CUDA runtime or library rejected a call (an invalid argument, a launch configuration it cannot run, a stream-capture rule): usually a kernel of a library meeting a shape, dtype or version it does not support. Re-run with CUDA_LAUNCH_BLOCKING=1 to find the call; check the library versions against the CUDA build.' },
  echo: { classOverride: 'cuda.error', strength: 30, hint: 'The CUDA driver or context was already going away (process shutdown, an earlier failure): look for the first error before this line.' },
};

export const cudaRules = defineRules([
  {
    id: 'cuda.arch_mismatch',
    class: 'config.error',
    patterns: [ARCH_MISMATCH_RE],
    unless: [/Cuda failure/i],
    strength: 87,
    why: "the installed CUDA binaries were not built for this GPU's compute capability",
    hint: ARCH_MISMATCH_HINT,
  },
  {
    // Triton refusing to launch a kernel whose compiled configuration needs more of a per-SM resource than
    // this GPU has (triton/runtime/errors.py OutOfResources: "out of resource: shared memory, Required: N,
    // Hardware limit: M. Reducing block sizes or `num_stages` may help."; the same for registers/threads).
    // Not memory exhaustion: the kernel's block sizes were tuned for a larger GPU (an H100's 228 KiB of
    // shared memory against an A10's or a 4090's 100 KiB), so the setting, not the device, is wrong here.
    id: 'cuda.kernel_resources',
    class: 'config.error',
    patterns: [/\bOutOfResources: out of resource: \w+(?: \w+)?, Required: \d+, Hardware limit: \d+/, /\bout of resource: shared memory, Required: \d+, Hardware limit: \d+/],
    // Inductor's autotuner tries configurations and drops the ones that do not fit ("No valid triton
    // configs. OutOfResources: …", "Ignoring this choice"): no failure.
    unless: [/No valid triton configs|select_algorithm\.py|Ignoring this choice/],
    strength: 82,
    why: "a Triton kernel's configuration needs more shared memory (or registers) per block than this GPU has",
    hint: "A Triton kernel was compiled with block sizes / num_stages for a GPU with more shared memory per SM than this one (Required vs Hardware limit in the message). Use the library's settings for this GPU (smaller BLOCK sizes or num_stages, a different autotune config), upgrade the library that ships the kernel, or run on the GPU it was tuned for.",
  },
  {
    id: 'cuda.oom.torch',
    class: 'cuda.oom',
    patterns: [
      /CUDA out of memory/,
      /torch(?:\.cuda)?\.OutOfMemoryError/,
      /CUDA error: out of memory/,
      /HIP out of memory/,
      // The other accelerators' caching allocators in PyTorch: MPSAllocator.mm "MPS backend out of memory
      // (MPS allocated: …, other allocations: …, max allowed: …)", XPUCachingAllocator "XPU out of memory.
      // Tried to allocate …", torch_npu "NPU out of memory. Tried to allocate …".
      /MPS backend out of memory|\b[XN]PU out of memory\. Tried to allocate/,
      /cudaErrorMemoryAllocation/,
      /CU(?:BLAS|DNN)_STATUS_ALLOC_FAILED/,
      // The other CUDA math libraries' allocation statuses: cufftResult CUFFT_ALLOC_FAILED (cufft.h, CuPy's
      // CuFFTError), cusparseStatus_t CUSPARSE_STATUS_ALLOC_FAILED, curandStatus CURAND_STATUS_ALLOCATION_FAILED.
      /\bCUFFT_ALLOC_FAILED\b|\bCUSPARSE_STATUS_ALLOC_FAILED\b|\bCURAND_STATUS_ALLOCATION_FAILED\b/,
      /CUDA_ERROR_OUT_OF_MEMORY/,
      /cuda runtime error \(2\) : out of memory|error=2 : out of memory/,
      // ggml/llama.cpp and other C++ servers: "allocating 4096.00 MiB on device 0: cudaMalloc failed: out of memory".
      /cuda(?:Malloc\w*|MemAlloc\w*) failed: out of memory/,
      // ggml-cuda's older CUDA_CHECK ("CUDA error %d at %s:%d: %s" with cudaGetErrorString): "CUDA error 2 at
      // …/ggml-cuda.cu:7641: out of memory".
      /CUDA error \d+ at \S{1,300}:\d+: out of memory/,
      // ggml's allocators naming the backend buffer that did not fit ("alloc_tensor_range: failed to
      // allocate CUDA0 buffer of size 5064192000", "ggml_gallocr_reserve_n: …", llama.cpp's "unable to
      // allocate CUDA0 buffer"); ROCm builds name it ROCm0.
      /failed to allocate (?:CUDA|ROCm)\d+ buffer of size \d+|unable to allocate (?:CUDA|ROCm)\d+ buffer/,
      // vLLM's cuMem allocator (csrc/cumem_allocator.cpp CUDA_CHECK: "CUDA Error: %s at %s:%d" with
      // cuGetErrorString), e.g. while waking a sleeping engine back up.
      /CUDA Error: out of memory at /i,
      // c10/cuda/driver_api.h C10_CUDA_DRIVER_CHECK (expandable segments): "CUDA driver error: out of memory".
      /CUDA driver error: out of memory/,
      // ONNX Runtime's CudaCall (core/providers/cuda/cuda_call.cc) and CNTK print the status as "CUDA
      // failure 2: out of memory ; GPU=0 ; hostname=… ; expr=cudaMalloc(…)"; TensorRT 7/8's safeRuntime
      // "Cuda Error in nvinfer1::internal::DefaultAllocator::allocate: 2 (out of memory)".
      /\bCUDA failure 2: out of memory\b/,
      /Cuda Error in [\w:]{0,120}allocate\w*: 2 \(out of memory\)/,
      // Habana's PyTorch bridge on a Gaudi: "FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed" (device memory).
      /MODULE:PT_DEVMEM Allocation failed/,
      // CuPy's memory pool (cupy/cuda/memory.pyx OutOfMemoryError).
      /cupy\.cuda\.memory\.OutOfMemoryError|Out of memory allocating [\d,]+ bytes \(allocated so far: [\d,]+ bytes\)/,
    ],
    unless: [/ray\.exceptions\.OutOfMemoryError/],
    strength: 92,
    extract: oomExtract,
    why: 'the GPU allocator could not satisfy an allocation',
    hint: 'GPU memory ran out. Lower the micro-batch or sequence length, enable activation checkpointing, shard optimizer state (ZeRO/FSDP), or lower gpu_memory_utilization / mem_fraction_static for inference engines; PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True helps with fragmentation.',
  },
  {
    id: 'cuda.oom.inference_engine',
    class: 'cuda.oom',
    // vLLM's memory profile leaves nothing (or a negative amount) for the KV cache in every release's
    // wording: "# GPU blocks: 0" (V0), "# cuda blocks: 0" (V0 ≥0.6, per platform), "the rest of the memory
    // reserved for KV Cache is -1.05GiB", V1's "Available KV cache memory: -0.5 GiB" and its
    // "… KV cache is needed, which is larger than the available KV cache memory"; SGLang and TGI
    // ("Not enough memory to handle … prefill tokens") say the same of their token pools.
    patterns: [
      /No available memory for the cache blocks/,
      /Not enough memory\. Please try to increase --mem-fraction-static/,
      /larger than the maximum number of tokens that can be stored in KV cache/,
      /KV cache is needed, which is larger than the available KV cache memory/,
      /Insufficient memory for KV cache|not enough KV cache/i,
      // DeepSpeed-FastGen's ragged KV cache (inference/v2/ragged/kv_cache.py): "Insufficient memory to
      // allocate KV-caches. Required: N, Available: M".
      /Insufficient memory to allocate KV-caches\. Required: \d+/,
      /reserved for KV Cache is -\d|KV cache memory:? -\d/i,
      /# (?:GPU|gpu|cuda|CUDA|npu|NPU|xpu|XPU|hpu|HPU) blocks: 0\b/,
      /Not enough memory to handle \d+ prefill tokens/,
      // SGLang's KV slot allocators (srt/mem_cache/common.py): "Prefill out of memory. Try to lower your
      // batch size.", "Decode out of memory. Try to lower your batch size."; the fairness-policy variant
      // "Prefill out of memory under static fairness policy." (its "Decode out of memory happened.
      // #retracted_reqs" is a warning it recovers from by retracting requests: not here).
      /(?:Prefill|Decode) out of memory\. Try to lower your batch size/,
      /Prefill out of memory (?:under static fairness policy|even after static eviction)|Prefill out of memory\. This should never happen/,
      // vLLM V1 worker start: "Free memory on device (12.1/79.2 GiB) on startup is less than desired GPU
      // memory utilization (0.9, 71.3 GiB)": another process holds the GPU.
      // ≥ 0.11 names the device: "Free memory on device cuda:0 (19.77/22.05 GiB) on startup …".
      /Free memory on device (?:\S{1,40} )?\([\d.]+\/[\d.]+ GiB\) on startup is less than desired GPU memory utilization/,
    ],
    strength: 90,
    why: 'the inference engine had no GPU memory left for its KV cache',
    hint: 'The inference server could not fit model + KV cache on the GPU: raise gpu_memory_utilization (vLLM) or mem_fraction_static (SGLang) if other processes allow it, lower max_model_len / max_num_seqs, or use more tensor parallelism.',
  },
  {
    id: 'cuda.oom.framework',
    class: 'cuda.oom',
    // XLA's statuses: the PJRT GPU allocator "RESOURCE_EXHAUSTED: Failed to allocate request for 48.09GiB
    // on device ordinal 0", older status text "Resource exhausted: Out of memory while trying to
    // allocate …", and the TPU compiler "XLA:TPU compile permanent error. Ran out of memory in memory
    // space hbm. Used 20.93G of 15.48G hbm." (accelerator memory, the same failure on a TPU).
    patterns: [
      /Allocator \(GPU_\d+_bfc\) ran out of memory/,
      /OOM when allocating tensor/,
      /RESOURCE_EXHAUSTED: Out of memory/,
      /ResourceExhaustedError/,
      /RESOURCE_EXHAUSTED: Failed to allocate request for/,
      /Resource exhausted: Out of memory while trying to allocate/,
      /Ran out of memory in memory space (?:hbm|vmem)/,
      // The XRT TPU runtime's allocator (PyTorch/XLA before PJRT): "Resource exhausted: … Attempting to
      // reserve 3.95G at the bottom of memory. That was not possible. There are 1.92G free, …".
      /Attempting to reserve [\d.]+[KMGT]?i?B? at the (?:bottom|top) of memory\. That was not possible/,
    ],
    // TensorFlow's allocator names its device: "… on /job:localhost/replica:0/task:0/device:CPU:0 by allocator
    // cpu" is host RAM (tensorflow/core/framework/op_kernel.cc), not the GPU.
    extract: (line): Extracted => (/device:CPU:\d+ by allocator (?:cpu|mklcpu)\b/.test(line) ? { classOverride: 'host.oom', hint: 'TensorFlow ran out of host memory (its CPU allocator): lower the batch size or the size of tensors kept on the CPU (input pipelines, embeddings), or run with more RAM.' } : {}),
    // Modal's gRPC RESOURCE_EXHAUSTED (py/modal/exception.py ResourceExhaustedError: a quota or rate limit
    // of the sandbox provider) shares TensorFlow's class name; sandbox.sdk_error reads it.
    unless: [/\bmodal\.exception\.ResourceExhaustedError\b/],
    strength: 90,
    why: 'the TensorFlow/JAX GPU allocator ran out of device memory',
    hint: 'GPU memory ran out in TensorFlow/JAX: lower the batch size, or for JAX set XLA_PYTHON_CLIENT_MEM_FRACTION / XLA_PYTHON_CLIENT_PREALLOCATE=false when several processes share a GPU.',
  },
  {
    // XLA's rematerialization pass warning that the compiled program will not fit the device's memory
    // (xla/service/hlo_rematerialization.cc: "Can't reduce memory use below 26.14GiB (…) by
    // rematerialization; only reduced to 34.30GiB (…)"). A warning: the allocation that then fails
    // (RESOURCE_EXHAUSTED, cuda.oom.framework) or a crash after it is decided by this, when nothing
    // stronger is there.
    id: 'cuda.oom.xla_remat',
    class: 'cuda.oom',
    patterns: [/Can't reduce memory use below [\d.]+ ?[KMGT]i?B \(\d+ bytes\) by rematerialization; only reduced to/],
    strength: 18,
    why: "XLA could not fit the compiled program into the device's memory, even by recomputing activations",
    hint: 'XLA could not bring the program under the device memory budget (the rematerialization warning names how far it got): the step needs more GPU memory than there is. Lower the per-device batch or sequence length, shard the model further (more devices for FSDP/tensor parallelism), or let XLA use more of the GPU (XLA_PYTHON_CLIENT_MEM_FRACTION, no other process on it).',
  },
  {
    // TensorRT's logger ("[TRT] [E] 1: [defaultAllocator.cpp::allocate::20] Error Code 1: Cuda Runtime (out
    // of memory)") and its builder asking for more than is free.
    id: 'cuda.oom.tensorrt',
    class: 'cuda.oom',
    // TensorRT ≥ 8.6 allocators (virtualMemoryBuffer.cpp, executionContext.cpp, myelin): "Error Code 2:
    // OutOfMemory (Requested size was N bytes.)"; TensorRT-LLM's check_cuda_error (common/cudaUtils.h)
    // "[TensorRT-LLM][ERROR] CUDA runtime error in ::cudaMallocAsync(…): out of memory".
    patterns: [
      /Error Code 1: Cuda Runtime \(out of memory\)/,
      /Requested amount of GPU memory \(\d+ bytes\) could not be allocated/,
      /Error Code 2: OutOfMemory\b/,
      /\[TensorRT-LLM\]\[ERROR\] CUDA runtime error in .{1,400}?: out of memory/,
    ],
    strength: 90,
    why: 'TensorRT could not allocate GPU memory (engine build or execution context)',
    hint: 'TensorRT ran out of GPU memory: lower the builder workspace (memory pool limit), the max batch / optimization profile shapes, or free the GPU of other processes.',
  },
  {
    // NCCL's own buffer allocation (src/include/alloc.h ncclCudaMalloc/ncclCudaCalloc: WARN "Failed to CUDA
    // malloc %ld bytes", "Failed to CUDA calloc %ld bytes") on the first collective of a communicator:
    // cudaMalloc refused because the GPU is full (its status line, when printed, says "out of memory").
    id: 'cuda.oom.nccl_buffers',
    class: 'cuda.oom',
    patterns: [/NCCL WARN Failed to CUDA (?:malloc|calloc) \d+ bytes/],
    // alloc.h prints it after any failed cudaMalloc / cuMem call, whose own "Cuda failure N '<status>'" line
    // comes first and decides (cuda.nccl_cuda_failure, 60-88): this reads only a log that kept the WARN alone
    // (above nccl.warn_other, which would read it as NCCL's own failure).
    strength: 57,
    why: "NCCL could not allocate its communication buffers on the GPU",
    hint: 'NCCL could not allocate its buffers on the GPU (done on the first collective of each communicator): the GPU was full. Lower the model/batch footprint or PyTorch caching-allocator reserve, NCCL_BUFFSIZE / fewer channels (NCCL_MAX_NCHANNELS), and check that no other process holds the GPU.',
  },
  {
    id: 'cuda.nccl_cuda_failure',
    class: 'cuda.error',
    patterns: [/Cuda failure\s*(?:\d+\s*)?'([^']{1,120})'/i],
    strength: 88,
    extract: (line, m) => {
      const what = (m[1] ?? '').toLowerCase();
      if (ARCH_MISMATCH_RE.test(what)) return { classOverride: 'config.error', cudaError: what, hint: ARCH_MISMATCH_HINT };
      if (what.includes('out of memory'))
        return { classOverride: 'cuda.oom', cudaError: what, hint: 'GPU memory ran out inside NCCL (its buffers are allocated on the first collective of each communicator): lower the model/batch footprint, or NCCL_BUFFSIZE / fewer channels (NCCL_MAX_NCHANNELS), and check that no other process holds the GPU.' };
      if (/driver|no cuda-capable|illegal|launch failure|ecc|fallen off|misaligned|hardware/.test(what)) return { cudaError: what };
      // 'invalid argument', 'invalid resource handle', …: a CUDA call NCCL itself made (its buffer
      // allocation in alloc.h, a cuMem* mapping, a stream op) failed without a GPU fault: that is NCCL
      // failing (ncclUnhandledCudaError), even when the log stops before PyTorch's "NCCL error" line.
      if (/NCCL WARN/.test(line)) return { classOverride: 'nccl.error', strength: 70, cudaError: what, hint: NCCL_OWN_CUDA_HINT };
      // The same CUDACHECK wording quoted without NCCL's logger prefix (PyTorch's "Last error:", a pasted
      // title): a status of the CUDA vocabulary that is no fault (peer access unsupported between the
      // GPUs, a driver or runtime mismatch, a rejected call) is still NCCL's own CUDA call failing.
      const group = groupOfText(what);
      if (group === 'env' || group === 'usage') return { classOverride: 'nccl.error', strength: 60, cudaError: what, hint: NCCL_OWN_CUDA_HINT };
      return { classOverride: null, cudaError: what };
    },
    why: 'NCCL (or another library) reports the CUDA call that failed underneath it',
    hint: 'The CUDA runtime failed under NCCL. Check the driver/runtime version match (nvidia-smi vs the CUDA build of PyTorch/NCCL) and GPU health (Xid lines in dmesg).',
  },
  {
    // PyTorch's C10_CUDA_CHECK throws from c10_cuda_check_implementation (c10/cuda/CUDAException.cpp) for
    // any CUDA runtime status that is not success; the c10::Error it throws names the function in its
    // "Exception raised from …" line and in the C++ backtrace. A log whose "CUDA error: …" line was cut
    // off (a watchdog's or a Ray worker's pasted backtrace) still shows that a CUDA call failed. Weak:
    // the message, where present, decides through the narrower rules (an OOM, a device-side assert).
    id: 'cuda.check_frame',
    class: 'cuda.error',
    patterns: [/Exception raised from c10_cuda_check_implementation at /, /frame #\d+: c10::cuda::c10_cuda_check_implementation\(/],
    strength: 35,
    why: "a CUDA call failed PyTorch's C10_CUDA_CHECK (its backtrace names c10_cuda_check_implementation)",
    hint: 'A CUDA runtime call returned an error (PyTorch C10_CUDA_CHECK): the "CUDA error: …" line above the backtrace names it. An asynchronous fault (illegal memory access) is often reported by a later call such as the NCCL watchdog\'s: re-run with CUDA_LAUNCH_BLOCKING=1 to find the kernel, and check dmesg for Xid lines.',
  },
  {
    // The NVIDIA Container Toolkit's prestart hook (libnvidia-container, nvidia-container-cli) could not
    // give the container the node's GPUs, as the runtime relays its stderr ("… error running hook #0: …
    // nvidia-container-cli: initialization error: nvml error: driver/library version mismatch"): its
    // initialization errors quote NVML's or CUDA's own error string (lower-cased) or the driver library it
    // could not load; its requirement check refuses an image whose NVIDIA_REQUIRE_CUDA the driver is too
    // old for ("requirement error: unsatisfied condition: cuda>=12.8, please update your driver …"). The
    // container never starts because of the node's GPU driver, not the sandbox: stronger than the
    // runtime's own report of the failed start (oci.start_failed, sandbox.start) on the same line.
    id: 'cuda.container_toolkit',
    class: 'cuda.error',
    patterns: [
      /nvidia-container-cli: initialization error: (?:nvml error|cuda error|load library failed|driver rpc error|driver error)\b/,
      /nvidia-container-cli: initialization error: WSL environment detected but no adapters were found/,
      /nvidia-container-cli: requirement error: unsatisfied condition: /,
    ],
    strength: 88,
    extract: (line): Extracted => (/requirement error/.test(line) ? { hint: "The image asks for a newer CUDA than the node's NVIDIA driver supports (its NVIDIA_REQUIRE_CUDA): use an image built for the node's CUDA version (nvidia-smi shows the highest it supports), update the driver, or, where the CUDA minor-version compatibility holds, set NVIDIA_DISABLE_REQUIRE=1." } : {}),
    why: "the NVIDIA container runtime could not give the container the node's GPUs (driver missing, mismatched or too old)",
    hint: "The NVIDIA Container Toolkit could not set up the GPUs for the container: the node's driver is not loaded, its kernel module and user-space libraries differ after an update (driver/library version mismatch: reboot or reload the module), or its libraries are not installed. `nvidia-smi` on the node shows the same error; drain the node until it is fixed.",
  },
  {
    id: 'cuda.fault',
    class: 'cuda.error',
    patterns: [
      /an illegal memory access was encountered|cudaErrorIllegalAddress|hipErrorIllegalAddress/,
      /unspecified launch failure/,
      /uncorrectable ECC error|ECC error encountered|double.bit ECC|uncorrectable NVLink error/i,
      // cudaErrorDevicesUnavailable (46), cudaErrorSystemDriverMismatch (803), cudaErrorCompatNotSupportedOnDevice
      // (804), cudaErrorLaunchOutOfResources (701), cudaErrorHardwareStackError (714), cudaErrorInvalidPc (718).
      // (cudaErrorDevicesUnavailable: older toolkits word it "CUDA-capable device(s) is/are busy…", newer "all CUDA-capable devices are busy or unavailable".)
      /CUDA-capable device\(s\) is\/are busy or unavailable|all CUDA-capable devices are busy or unavailable|unsupported display driver \/ cuda driver combination|forward compatibility was attempted on non supported HW/,
      /CUDA error: (?:too many resources requested for launch|hardware stack error|invalid program counter)/,
      // NVML (nvmlErrorString): NVML_ERROR_LIB_RM_VERSION_MISMATCH, NVML_ERROR_DRIVER_NOT_LOADED, NVML_ERROR_GPU_IS_LOST.
      /Failed to initialize NVML: (?:Driver\/library version mismatch|Driver Not Loaded|Unknown Error|GPU access blocked)/,
      /no CUDA-capable device is detected|Found no NVIDIA driver|NVIDIA-SMI has failed|No CUDA GPUs are available|GPU is lost/,
      /CUDA_ERROR_(?:ILLEGAL_ADDRESS|LAUNCH_FAILED|ECC_UNCORRECTABLE|NO_DEVICE|UNKNOWN|ILLEGAL_INSTRUCTION|HARDWARE_STACK_ERROR|MISALIGNED_ADDRESS)|cudaErrorLaunchFailure/,
      /CUDA driver version is insufficient|NVIDIA driver on your system is too old/,
      // The driver's own libraries (libcuda, NVML) missing: no driver on the host or none mounted into the
      // container (the NVIDIA container runtime not used). The toolkit's libraries are config.binary_mismatch's.
      /lib(?:cuda|nvidia-ml)\.so[.\d]*: cannot open shared object file/,
      /GPU has fallen off the bus|fallen off the bus/,
      /CUDA error: (?:misaligned address|an illegal instruction|unknown error|operation not permitted when stream is capturing|the launch timed out|CUBLAS_STATUS_\w+|system not yet initialized|initialization error)/,
      /CUBLAS_STATUS_(?:EXECUTION_FAILED|INTERNAL_ERROR|NOT_INITIALIZED)|CUDNN_STATUS_(?:INTERNAL_ERROR|EXECUTION_FAILED|MAPPING_ERROR|NOT_INITIALIZED|VERSION_MISMATCH|RUNTIME_PREREQUISITE_MISSING|LICENSE_ERROR)/,
      /cuda runtime error \((\d+)\)/,
      /cudaError_t \d+/,
      // cudaErrorUnknown as torch.cuda's lazy init words it ("CUDA unknown error - this may be due to an
      // incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start").
      // (Not its UserWarning form: torch then sets the device count to zero and the run goes on, on the CPU.)
      /(?<!UserWarning: CUDA initialization: )CUDA unknown error - this may be due to an incorrectly set up environment/,
      // nvidia-smi and NVML's Python binding (nvidia-ml-py pynvml.py NVMLError_<Name> classes) failing on the
      // driver or a GPU; the driver's GSP firmware asking for a reset; ROCr's GPU page fault (hsa runtime).
      /Unable to determine the device handle for GPU\s?[0-9A-Fa-f:.]{4,20}: (?:Unknown Error|GPU is lost)/,
      // (Not nvidia-smi's "No devices were found", nor NVML's LibraryNotFound / DriverNotLoaded: a CPU-only job or
      // a handled probe (wandb, gpustat) prints them and goes on.)
      /\bpynvml\.(?:nvml\.)?NVMLError_(?:LibRmVersionMismatch|GpuIsLost)\b/,
      /NVRM: .{0,200}The GPU likely needs to be reset/,
      /Memory access fault by GPU node-\d+ \(Agent handle: 0x[0-9a-f]+\) on address (?:0x[0-9a-f]+|\(nil\))\. Reason: /,
    ],
    // An Xid line is the Xid rule's (it knows which Xids are hardware); an invalid device ordinal is a launch configuration (nccl.launch_config).
    unless: [/device-side assert/, /out of memory/, /NVRM: Xid/, /invalid device ordinal/, /CUBLAS_STATUS_ARCH_MISMATCH/],
    strength: 86,
    why: 'the GPU, its driver or the CUDA runtime faulted',
    hint: 'A GPU/CUDA fault. Re-run with CUDA_LAUNCH_BLOCKING=1 to find the kernel; check dmesg for Xid errors (79: GPU fell off the bus, 48/63/64/94/95: ECC), nvidia-smi -q for retired/remapped pages, and the driver/CUDA version match. Repeated faults on one host mean drain the node.',
  },
  {
    // Every cudaError_t / CUresult / cublasStatus_t / cudnnStatus_t / cusolverStatus_t, read through the
    // table of cuda-vocab.ts (sources there): by the enum name anywhere on the line, else by the
    // cudaGetErrorString / cuGetErrorString text after PyTorch's "CUDA error: " (c10/cuda/CUDAException.cpp)
    // or "CUDA driver error: " (ATen/cuda/Exceptions.h AT_CUDA_DRIVER_CHECK), Triton's "Triton Error
    // [CUDA]: ", or a C++ server's "CUDA Error: ". A text the table does not hold decides nothing here.
    id: 'cuda.runtime_status',
    class: 'cuda.error',
    patterns: [
      /CUDA error: (.{2,240})/,
      /CUDA driver error: (.{2,240})/,
      /Triton Error \[CUDA\]: (.{2,240})/,
      /CUDA Error: (.{2,240})/,
      /\b(cudaError[A-Z]\w{2,60})/,
      /\b(CUDA_ERROR_[A-Z_]{3,60})/,
      /\b(CUBLAS_STATUS_[A-Z_]{3,60})/,
      /\b(CUDNN_STATUS_[A-Z_]{3,60})/,
      /\b(CUSOLVER_STATUS_[A-Z_]{3,60})/,
    ],
    // Hint text and help that name errors without one happening.
    unless: [/NCCL INFO/, /CUDA_LAUNCH_BLOCKING=1 (?:to|for)|Compile with `TORCH_USE_CUDA_DSA`/],
    strength: 72,
    extract: (line, m) => {
      const name = CUDA_STATUS_NAME_RE.exec(line)?.[0];
      const group = (name ? groupOfName(name) : undefined) ?? groupOfText(m[1] ?? '');
      if (!group || group === 'skip') return { classOverride: null };
      // TORCH_CUSOLVER_CHECK's own reading of the status it gets for a NaN input (ATen/cuda/Exceptions.h).
      if (/This error may appear if the input matrix contains NaN/.test(line))
        return { classOverride: 'user.code_error', strength: 72, cudaStatus: name, hint: 'cuSOLVER failed on its input, which PyTorch says usually means the matrix holds NaN/Inf: the values diverged before this call (check the loss and inputs for NaN; torch.autograd.set_detect_anomaly(True) finds the op).' };
      return { ...STATUS_VERDICT[group], cudaStatus: name ?? (m[1] ?? '').slice(0, 80), cudaGroup: group };
    },
    why: 'a CUDA runtime, driver or math-library call returned an error status',
    hint: 'A CUDA call failed; the status name says whether memory, the driver, the GPU or the call itself is at fault.',
  },
  {
    id: 'cuda.xid',
    class: 'cuda.error',
    patterns: [/NVRM: Xid \(PCI:[^)]{1,40}\): (\d+)/, /\bXid (?:error )?\(?(\d+)\)?/],
    strength: 84,
    extract: xidExtract,
    why: 'the NVIDIA kernel driver logged an Xid (GPU fault) event',
    hint: 'The driver logged an Xid: 79 = GPU fell off the bus, 48/63/64/94/95 = ECC, 13/31/43 = a kernel fault (can also be an application bug). Drain and check the node if it repeats.',
  },
  {
    id: 'cuda.native_fpe',
    class: 'cuda.error',
    patterns: [/Fatal Python error: Floating point exception|Floating point exception \(core dumped\)/],
    strength: 80,
    why: 'the process died of SIGFPE inside native (GPU library) code',
    hint: 'SIGFPE inside native code, usually a GPU math library (cuBLAS/cuDNN) mismatched with the GPU or driver; check the cuBLAS/CUDA build against the hardware (e.g. reinstall the nvidia-cublas wheel that matches).',
  },
]);
