// The CUDA libraries' error vocabularies (rules/cuda-vocab.ts, rule cuda.runtime_status): every entry is
// reachable through each producer's own template, the templates agree with each other, and the groups
// order against real causes the way the messages mean.
import { describe, expect, it } from 'vitest';
import { CUDA_DRIVER_ERRORS, CUDA_RUNTIME_ERRORS, groupOfName, groupOfText } from '../../../src/classifiers/rules/cuda-vocab.js';
import { classifyText } from '../helpers.js';

const cls = (text: string) => classifyText(text).class;
const live = CUDA_RUNTIME_ERRORS.filter(([, , , g]) => g !== 'skip');

describe('every cudaError_t through the templates that print it', () => {
  it.each(live.map(([code, name, text]) => [code, name, text] as const))('%i %s', (_code, name, text) => {
    // c10/cuda/CUDAException.cpp: "CUDA error: " + cudaGetErrorString, then PyTorch's own suffix.
    const torch = cls(`RuntimeError: CUDA error: ${text}\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.`);
    expect(torch).not.toBe('unknown');
    // CuPy's CUDARuntimeError names the enum before the text; both must say the same.
    expect(cls(`cupy_backends.cuda.api.runtime.CUDARuntimeError: ${name}: ${text}`)).toBe(torch);
    // The CUDA samples' checkCudaErrors prints only the code and the name.
    expect(cls(`CUDA error at /opt/app/src/solver.cu:214 code=${_code}(${name}) "launch(grid, block)"`)).toBe(torch);
  });

  it('reads a CUresult name as the runtime code it shares (the driver API through XLA and CuPy)', () => {
    const byCode = new Map(CUDA_RUNTIME_ERRORS.map(([code, , text, group]) => [code, { text, group }]));
    let shared = 0;
    for (const [code, name] of CUDA_DRIVER_ERRORS) {
      const rt = byCode.get(code);
      if (!rt || rt.group === 'skip') continue;
      shared += 1;
      expect(groupOfName(name), name).toBe(rt.group);
      expect(cls(`jaxlib.xla_extension.XlaRuntimeError: INTERNAL: Failed to launch CUDA kernel: reduce_3 with block dimensions: 64x1x1: ${name}: ${rt.text}`), name).toBe(cls(`RuntimeError: CUDA error: ${rt.text}`));
    }
    expect(shared).toBeGreaterThan(90);
  });

  it('takes the longest text a message starts with ("unspecified launch failure in prior launch" is not "unspecified launch failure")', () => {
    expect(groupOfText('unspecified launch failure in prior launch')).toBe('fault');
    expect(groupOfText('out of memory')).toBe('oom');
    expect(groupOfText('something no CUDA release says')).toBeUndefined();
  });
});

describe('what the groups mean in a run', () => {
  it('an allocation failure reported by Triton or by cuSOLVER is GPU memory running out', () => {
    expect(cls('  File "/opt/venv/lib/python3.11/site-packages/triton/backends/nvidia/driver.py", line 444, in __call__\nRuntimeError: Triton Error [CUDA]: out of memory')).toBe('cuda.oom');
    expect(cls('RuntimeError: cusolver error: CUSOLVER_STATUS_ALLOC_FAILED, when calling `cusolverDnCreate(handle)`. ')).toBe('cuda.oom');
    expect(cls('RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED')).toBe('cuda.oom');
  });

  it('no code for this GPU (cuBLAS/cuDNN arch mismatch, an invalid kernel image) is the build chosen for the hardware', () => {
    expect(cls('RuntimeError: CUDA error: CUBLAS_STATUS_ARCH_MISMATCH when calling `cublasGemmEx( handle, opa, opb, m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`')).toBe('config.error');
    expect(cls('RuntimeError: cuDNN error: CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH')).toBe('config.error');
    expect(cls('RuntimeError: CUDA driver error: device kernel image is invalid')).toBe('config.error');
  });

  it('a driver or install the container lacks is a CUDA failure of the node, not the code', () => {
    expect(cls('RuntimeError: CUDA error: CUDA driver is a stub library')).toBe('cuda.error');
    expect(cls('RuntimeError: cuDNN error: CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED')).toBe('cuda.error');
  });

  it("reads cuSOLVER's NaN branch as the run's values diverging", () => {
    expect(cls('torch._C._LinAlgError: cusolver error: CUSOLVER_STATUS_INVALID_VALUE, when calling `cusolverDnXpotrf(handle, params, uplo, n, CUDA_R_32F, A, lda, CUDA_R_32F, buf, wsd, hbuf, wsh, info)`. This error may appear if the input matrix contains NaN. ')).toBe('user.code_error');
  });

  it('a rejected call sits below a real cause in the same log', () => {
    const log = [
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB. GPU 2 has a total capacity of 79.19 GiB of which 1.02 GiB is free.',
      'RuntimeError: CUDA error: invalid argument',
    ].join('\n');
    expect(cls(log)).toBe('cuda.oom');
    // The first fault decides, not the shutdown echo after it.
    const d = classifyText('RuntimeError: CUDA error: an illegal memory access was encountered\nterminate called after throwing an instance of \'c10::Error\'\n  what():  CUDA error: driver shutting down');
    expect(d.class).toBe('cuda.error');
    expect(d.evidence[0]?.text).toContain('illegal memory access');
  });

  it('a poll result, PyTorch\'s debugging hints and NCCL INFO chatter are no CUDA status failing', () => {
    expect(cls('RuntimeError: CUDA error: device not ready')).toBe('unknown');
    const rules = (text: string) => classifyText(text).evidence.map((e) => e.rule);
    // c10/cuda/CUDAException.h's suffixes, alone.
    expect(rules('For debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.')).not.toContain('cuda.runtime_status');
    expect(rules('node1:4711:4790 [0] NCCL INFO cuMem support: CUDA_ERROR_NOT_SUPPORTED, disabling')).not.toContain('cuda.runtime_status');
    expect(groupOfName('CUDNN_STATUS_SUCCESS')).toBe('skip');
  });
});
