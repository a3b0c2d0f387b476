// One block per rule family, each with real log lines taken from the corpus (fixtures/corpus) or
// recorded H200 runs; the file each line comes from is named beside it.
import { describe, expect, it } from 'vitest';
import { classifyFiles, classifyText, corpusText } from './helpers.js';

function cls(text: string): string {
  return classifyText(text).class;
}

describe('cuda', () => {
  it('torch OutOfMemoryError (h200-001)', () => {
    const d = classifyText(
      'step 17: allocated 136.0 GiB\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 8.00 GiB. GPU 0 has a total capacity of 139.80 GiB of which 3.29 GiB is free.\n',
    );
    expect(d.class).toBe('cuda.oom');
    expect(d.category).toBe('infra');
    expect(d.evidence[0]).toMatchObject({ file: 'logs/stdout.log', line: 2, rule: 'cuda.oom.torch' });
  });
  it('vLLM with no memory for KV cache blocks (gpu-034)', () => {
    expect(cls('INFO 04-27 10:13:05 llm_engine.py:275] # GPU blocks: 0, # CPU blocks: 256\nValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.')).toBe('cuda.oom');
  });
  it('TensorFlow BFC allocator OOM inside a Ray actor beats the actor death (cl-059)', () => {
    expect(
      cls(
        '(ModelWorker pid=126261) 2022-11-12 18:21:06.985303: W external/org_tensorflow/tensorflow/core/common_runtime/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out of memory trying to allocate 22.0KiB (rounded to 22528)requested by op\n(ModelWorker pid=126261) 2022-11-12 18:21:07,205\tERROR worker.py:451 -- Exception raised in creation task: The actor died because of an error raised in its creation task, ray::ModelWorker.__init__()',
      ),
    ).toBe('cuda.oom');
  });
  it("NCCL's failing CUDA call 'out of memory' is a CUDA OOM, not a NCCL error (gpu-064)", () => {
    expect(cls("VM-0-16-ubuntu:392:494 [2] enqueue.cc:43 NCCL WARN Cuda failure 'out of memory'\n\nVM-0-16-ubuntu:392:494 [2] enqueue.cc:54 NCCL WARN Cuda failure 'invalid resource handle'")).toBe('cuda.oom');
  });
  it('driver too old for the runtime under a NCCL error is a CUDA fault (gpu-071)', () => {
    expect(cls("init.cc:1582 NCCL WARN Cuda failure 'CUDA driver version is insufficient for CUDA runtime version'\nFailed, NCCL error /lmdeploy/src/turbomind/utils/nccl_utils.cc:296 'unhandled cuda error (run with NCCL_DEBUG=INFO for details)'")).toBe('cuda.error');
  });
  it('illegal memory access (gpu-025), ECC (gpu-041), launch failure (gpu-028)', () => {
    expect(cls('(VllmWorker TP1 pid=409) ERROR 09-14 03:15:31 [multiproc_executor.py:596] RuntimeError: CUDA error: an illegal memory access was encountered')).toBe('cuda.error');
    expect(cls('RuntimeError: CUDA error: uncorrectable ECC error encountered')).toBe('cuda.error');
    expect(cls('ERROR (nnet3-train[5.4]:CopyToVec():cu-vector.cc:899) cudaError_t 4 : "unspecified launch failure" returned from \'cudaMemcpy(dst->Data(), this->data_, sizeof(Real) * dim_, cudaMemcpyDeviceToHost)\'')).toBe('cuda.error');
  });
  it('a kernel Xid line from dmesg', () => {
    expect(cls('[12345.678] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.')).toBe('cuda.error');
  });
  it('a device-side assert from an out-of-range label is a user bug, not a GPU fault (gpu-045)', () => {
    const d = classifyText(
      "RuntimeError: CUDA error: device-side assert triggered\n\n/pytorch/aten/src/THCUNN/SpatialClassNLLCriterion.cu:106: cunn_SpatialClassNLLCriterion_updateOutput_kernel: block: [0,0,0], thread: [725,0,0] Assertion `t >= 0 && t < n_classes` failed",
    );
    expect(d.class).toBe('user.code_error');
    expect(d.category).toBe('user');
  });
  it('an allocation that fits the GPU is cuda.oom however large its share (gpu-070, an RL logits tensor)', () => {
    // gpu-070: 10.52 GiB of a 31.72 GiB GPU; a 37 GiB logits allocation on an 80 GiB H100 in RL training.
    expect(cls('"RuntimeError: CUDA out of memory. Tried to allocate 10.52 GiB (GPU 0; 31.72 GiB total capacity; 22.42 GiB already allocated; 8.18 GiB free; 15.33 MiB cached)"')).toBe('cuda.oom');
    expect(cls('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 37.09 GiB. GPU 0 has a total capacity of 79.19 GiB of which 21.55 GiB is free. Including non-PyTorch memory, this process has 57.62 GiB memory in use.')).toBe('cuda.oom');
    expect(cls('RuntimeError: CUDA out of memory. Tried to allocate 130.00 MiB (GPU 0; 31.72 GiB total capacity; 30.42 GiB already allocated)')).toBe('cuda.oom');
  });
  it('an allocation larger than the whole device (or an absurd size) is a code bug', () => {
    const d = classifyText('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 78.01 GiB is free.');
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/more than the GPU's whole memory/);
    expect(cls('RuntimeError: CUDA out of memory. Tried to allocate 96.00 GiB (GPU 0; 79.15 GiB total capacity; 1.20 GiB already allocated; 77.50 GiB free; 1.25 GiB reserved in total by PyTorch)')).toBe('user.code_error');
    // c10's format_size prints this for sizes past 1 EiB (a negative or overflowed size computation).
    expect(cls('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate more than 1EB memory.')).toBe('user.code_error');
  });

  describe("a backtrace through PyTorch's C10_CUDA_CHECK", () => {
    // The NCCL watchdog thread's C++ backtrace as PyTorch prints it (ProcessGroupNCCL's workCleanupLoop
    // checking a WorkNCCL's completion), pasted without the "CUDA error: …" line above it.
    const backtrace = [
      'Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):',
      'frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f514452a897 in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10.so)',
      'frame #2: c10::cuda::c10_cuda_check_implementation(int, char const*, char const*, int, bool) + 0x118 (0x7f5144530128 in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10_cuda.so)',
      'frame #3: c10d::ProcessGroupNCCL::WorkNCCL::finishedGPUExecutionInternal() const + 0x80 (0x7f4da9f2f250 in /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so)',
      'frame #4: c10d::ProcessGroupNCCL::WorkNCCL::isCompleted() + 0x58 (0x7f4da9f33078 in /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so)',
      'frame #5: c10d::ProcessGroupNCCL::workCleanupLoop() + 0x250 (0x7f4da9f49910 in /usr/local/lib/python3.10/dist-packages/torch/lib/libtorch_cuda.so)',
    ].join('\n');
    it('without its message it is still a failed CUDA call, not the watchdog timing out', () => {
      expect(cls(backtrace)).toBe('cuda.error');
      expect(cls(backtrace.split('\n').slice(2).map((l) => `(RayWorkerVllm pid=7046) ${l}`).join('\n'))).toBe('cuda.error');
    });
    it('the message above it decides when it is there', () => {
      expect(cls(`RuntimeError: CUDA error: out of memory\n${backtrace}`)).toBe('cuda.oom');
      expect(cls(`RuntimeError: CUDA error: device-side assert triggered\n${backtrace}`)).toBe('user.code_error');
    });
  });
});

describe('host', () => {
  it('cgroup OOM killer explains the DataLoader SIGKILL (cl-037)', () => {
    const d = classifyText(
      'RuntimeError: DataLoader worker (pid 629) is killed by signal: Killed.\nMemory cgroup out of memory: Killed process 629 (onmt_train) total-vm:14119556kB, anon-rss:6538204kB, file-rss:80652kB, shmem-rss:16kB, UID:0 pgtables:13432kB oom_score_adj:0',
    );
    expect(d.class).toBe('host.oom');
    expect(d.evidence[0]!.rule).toBe('host.oom_killer');
  });
  it("Ray's memory monitor, old and new wording (cl-003, FORMATS §5.2)", () => {
    expect(cls('ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.')).toBe('host.oom');
    expect(cls('(raylet) Task f failed due to oom. Error: 2 worker(s) were killed due to the node running low on memory. Memory on the node (IP: 10.0.0.1, ID: ab) was 240GB / 251GB (0.96), which exceeds the memory usage threshold of 0.950000')).toBe('host.oom');
  });
  it("a worker that cannot import the run's own module is the run's code, not Ray dying", () => {
    const creation = [
      ' ERROR worker.py:431 -- Exception raised in creation task: The actor died because of an error raised in its creation task, ray::SACLearner.__init__() (pid=4301, ip=10.0.0.4)',
      '(TemporaryActor pid=4301)   At least one of the input arguments for this task could not be computed:',
      "(TemporaryActor pid=4301) ray.exceptions.RaySystemError: System error: No module named 'policy'",
      '(TemporaryActor pid=4301) traceback: Traceback (most recent call last):',
      '(TemporaryActor pid=4301)   File "/usr/lib/python3.10/site-packages/ray/_private/serialization.py", line 281, in deserialize_objects',
    ].join('\n');
    expect(cls(creation)).toBe('user.code_error');
    // Ray's own failure to unpickle stays Ray's.
    expect(cls('ray.exceptions.RaySystemError: System error: Failed to unpickle serialized exception')).toBe('ray.crash');
  });
  it('RayActorError whose worker exit type is NODE_OUT_OF_MEMORY (cl-004)', () => {
    expect(cls('Failed to execute python: RayActorError: The actor died unexpectedly before finishing this task.\nThe actor is dead because its worker process has died. Worker exit type: NODE_OUT_OF_MEMORY Worker exit detail: Task was killed due to the node running low on memory.')).toBe('host.oom');
  });
  it('a hedge about pod memory limits is not an OOM (cl-063)', () => {
    expect(cls('Worker exit type: SYSTEM_ERROR Worker exit detail: Worker exits unexpectedly. Worker exits with an exit code 1. The worker may have exceeded K8s pod memory limits. The process receives a SIGTERM')).toBe('ray.crash');
  });
  it('exit 137 plus the kubelet OOM event (cl-040)', () => {
    expect(cls('                        "exitCode": 137,\nOct 10 17:41:58 ip-10-0-211-82 kubelet[4991]: I1010 17:41:57.858757    4991 manager.go:1126] Created an OOM event in container "/" at 2017-10-10 17:41:57')).toBe('host.oom');
  });
});

describe('ray', () => {
  it('GCS unreachable (cl-046, cl-048)', () => {
    expect(cls('[2025-02-16 16:05:55,537 E 350061 350061] gcs_rpc_client.h:179: Failed to connect to GCS at address 172.23.15.13:20000 within 5 seconds.')).toBe('ray.crash');
  });
  it('an actor death with nothing behind it (cl-008)', () => {
    expect(cls('ERROR 05-06 14:20:15 [core.py:387] ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\nERROR 05-06 14:20:15 [core.py:387]      class_name: RayWorkerWrapper')).toBe('ray.crash');
  });
  it('RayTaskError(KeyError) is the task code, RayTaskError(TimeoutError) a request timeout (sv-029, sv-035)', () => {
    expect(cls('ray.exceptions.RayTaskError(KeyError): ray::main_task() (pid=1353885, ip=172.20.0.2)')).toBe('user.code_error');
    expect(cls('ray.exceptions.RayTaskError(TimeoutError): ray::RolloutManager.generate() (pid=1694029, ip=134.100.9.210, actor_id=d937ea7a')).toBe('api.timeout');
  });
  it('a SIGFPE in the vLLM worker behind a Ray actor is a GPU-library fault (cl-053)', () => {
    expect(cls('(WorkerDict pid=358504) Fatal Python error: Floating point exception\n(WorkerDict pid=358504) Stack (most recent call first):')).toBe('cuda.error');
  });
});

describe('gateway / api', () => {
  it('HTTP 400 context length (sv-003) and 429 rate limit (sv-004)', () => {
    const d = classifyText(
      "openai.BadRequestError: Error code: 400 - {'object': 'error', 'message': \"This model's maximum context length is 6048 tokens. However, you requested 6616 tokens (568 in the messages, 6048 in the completion).\", 'type': 'BadRequestError', 'param': None, 'code': 400}",
    );
    expect(d.class).toBe('gateway.4xx');
    expect(d.evidence[0]!.text).toContain('maximum context length');
    expect(cls("13:54:54 - openhands:ERROR: agent_controller.py:161 - Error while running the agent: litellm.RateLimitError: RateLimitError: GroqException - Error code: 429 - {'error': {'message': 'Rate limit reached for model")).toBe('gateway.4xx');
  });
  it("a 404 from the server explains the client's KeyError (sv-021)", () => {
    expect(cls('INFO:     127.0.0.1:55766 - "POST /generate HTTP/1.1" 404 Not Found\nTraceback (most recent call last):\n  File "vllm_cli.py", line 46, in get_response\n    output = data["text"]\nKeyError: \'text\'')).toBe('gateway.4xx');
  });
  it('LiteLLM 500 "No models available" while deployments cool down is rate limiting (sv-025)', () => {
    expect(cls("{'error': {'message': 'No models available\\n\\nTraceback (most recent call last):")).toBe('gateway.4xx');
  });
  it('5xx from the server (sv-009, sv-024, sv-044)', () => {
    expect(cls('2025-03-19 09:23:02.576 | ERROR    | app.llm:ask_tool:725 - OpenAI API error: Internal Server Error')).toBe('gateway.5xx');
    expect(cls("(RolloutManager pid=1191) [2026-01-05 00:27:53] http_utils.py:153 - Error: Server error '503 Service Unavailable' for url 'http://11.215.121.109:3592/generate'")).toBe('gateway.5xx');
    expect(cls('<html>\n<head><title>504 Gateway Time-out</title></head>')).toBe('gateway.5xx');
  });
  it("a 5xx whose server log shows its own CUDA OOM is the OOM (sv-041)", () => {
    expect(cls("ERROR 03-19 10:55:18 [serving_chat.py:677] vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is not running. Inspect the stacktrace to find the original error: OutOfMemoryError('CUDA out of memory. Tried to allocate 128.00 MiB. GPU 0 has a total capacity of 79.33 GiB of which 16.00 MiB is free.")).toBe('cuda.oom');
  });
  it('a request error the client retries only wins when nothing else went wrong', () => {
    const retried = 'WARNING 01-05 00:20:01 client.py:88 Connection refused by http://127.0.0.1:8000/v1/completions, retrying in 5s';
    expect(cls(retried)).toBe('network.error');
    const bug = 'Traceback (most recent call last):\n  File "rollout.py", line 12, in score\n    return answer["reward"]\nKeyError: \'reward\'';
    expect(cls(`${retried}\n${bug}`)).toBe('user.code_error');
  });
  // relations.ts peer-not-listening takes a code error as the refusing server's crash only after a server's
  // start line in its log: here rollout.py is the client's own code and no server started.
  it('a client that gave up after retries, after an unrelated traceback of its own, is the network error', () => {
    const bug = 'Traceback (most recent call last):\n  File "rollout.py", line 12, in score\n    return answer["reward"]\nKeyError: \'reward\'';
    expect(cls(`${bug}\nrequests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8000): Max retries exceeded with url: /v1/completions (Caused by NewConnectionError('Failed to establish a new connection: [Errno 111] Connection refused'))`)).toBe('network.error');
  });

  it('request timeouts (sv-010, sv-070) and hint text about networks is not a network error', () => {
    expect(cls('TimeoutError: The read operation timed out')).toBe('api.timeout');
    expect(cls('[API Error: Streaming request timeout after 46s. Try reducing input length or increasing timeout in config.\n    - Check network connectivity')).toBe('api.timeout');
  });
});

describe('nccl (see nccl.test.ts for deadlock/desync)', () => {
  it('NCCL error codes (gpu-013, gpu-022, gpu-049)', () => {
    expect(cls("[rank7]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5\n[rank7]: ncclUnhandledCudaError: Call to CUDA function failed.\n[rank7]: Last error:\n[rank7]: Cuda failure 1 'invalid argument'")).toBe('nccl.error');
    expect(cls('ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.')).toBe('nccl.error');
    // Two ranks on one GPU is the launch configuration (issue 11), not NCCL failing: gpu-049's old label disagrees.
    expect(cls('ncclInvalidUsage: This usually reflects invalid usage of NCCL library.\nLast error:\nDuplicate GPU detected : rank 1 and rank 0 both on CUDA device 10')).toBe('config.error');
  });
  it("NCCL's CUDACHECK text quoted inside a Ray worker's traceback is NCCL failing, not the actor dying", () => {
    const worker = [
      '(Worker pid=4225) Exception raised in creation task: The actor died because of an error raised in its creation task, ray::Worker.__init__() (pid=4225, ip=172.31.68.176, actor_id=5dc662848f950df8d330eb8a01000000, repr=<vllm.worker.worker.Worker object at 0x7f4e9ea814e0>)',
      '(Worker pid=4225)   File "/opt/conda/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1451, in all_reduce',
      '(Worker pid=4225)     work = default_pg.allreduce([tensor], opts)',
      "(Worker pid=4225) RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1207, unhandled cuda error, NCCL version 2.14.3",
      '(Worker pid=4225) ncclUnhandledCudaError: Call to CUDA function failed.',
      '(Worker pid=4225) Last error:',
      "(Worker pid=4225) Cuda failure 'peer access is not supported between these two devices'",
    ];
    expect(cls(worker.join('\n'))).toBe('nccl.error');
    expect(cls([worker[0], worker[6]].join('\n'))).toBe('nccl.error');
    // A GPU fault in the same words stays the GPU's.
    expect(cls("(Worker pid=4225) Cuda failure 'an illegal memory access was encountered'")).toBe('cuda.error');
  });
  it('an InfiniBand transport failure is NCCL, not a generic network error (gpu-076)', () => {
    expect(cls('(LLMRayActor pid=1112, ip=172.26.5.7) job-worker-0:1112:13532 [0] ibvwrap.c:160 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out')).toBe('nccl.error');
  });
  it('a benign NCCL WARN is no failure', () => {
    expect(cls('jupyter:15833:15833 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]')).toBe('unknown');
  });
});

describe('k8s / sandbox', () => {
  it('ImagePullBackOff (cl-022), FailedScheduling (cl-014), CreateContainerConfigError (cl-013)', () => {
    expect(cls('    State:          Waiting\n      Reason:       ImagePullBackOff')).toBe('sandbox.failure');
    expect(cls('  Warning  FailedScheduling  3s (x5 over 9s)  default-scheduler  0/6 nodes are available: 3 node(s) didn\'t match node selector, 6 Insufficient nvidia.com/gpu.')).toBe('sandbox.failure');
    expect(cls('E0604 15:51:53.763503   15104 kuberuntime_manager.go:749] container start failed: CreateContainerConfigError: endpoint not found in cache')).toBe('sandbox.failure');
  });
  it('harness without a docker binary cannot create sandboxes (cl-054)', () => {
    expect(cls("2026-05-28 10:19:05,508 - harbor.utils.logger.harbor.trial.trial.regex-log__3tnfnqJ - DEBUG: Trial regex-log__3tnfnqJ failed: [Errno 2] No such file or directory: 'docker'")).toBe('sandbox.failure');
  });
  it('eviction for ephemeral storage is a full disk (cl-050)', () => {
    expect(cls('Status:       Failed\nReason:       Evicted\nMessage:      The node was low on resource: ephemeral-storage. Threshold quantity: 2146223340, available: 1883424Ki.')).toBe('disk.full');
  });
});

describe('disk / build / network / config', () => {
  it('ENOSPC (cl-010) beats the image build it broke (cl-066)', () => {
    expect(cls('OSError: [Errno 28] No space left on device')).toBe('disk.full');
    expect(cls('Step 1/7 : FROM node:argon\nfailed to register layer: Error processing tar file(exit status 1): write /usr/lib/x86_64-linux-gnu/libmysqlclient.so.18.0.0: no space left on device')).toBe('disk.full');
  });
  it('BuildKit and classic docker build failures (cl-025, cl-016)', () => {
    expect(cls('ERROR: failed to solve: process "/bin/sh -c apt update" did not complete successfully: exit code: 100')).toBe('image.build_failure');
    expect(cls("docker.errors.BuildError: The command '/bin/sh -c apt update && apt install -y wget' returned a non-zero code: 100")).toBe('image.build_failure');
  });
  it('TLS, DNS and refused connections (cl-029, cl-068, cl-032)', () => {
    expect(cls('urllib3.exceptions.SSLError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate in certificate chain (_ssl.c:1007)')).toBe('network.error');
    expect(cls("Failed to resolve 'huggingface.co' ([Errno 11001] getaddrinfo failed)")).toBe('network.error');
    expect(cls("urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='localhost', port=8097): Max retries exceeded with url: /env/main (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f574e887fd0>: Failed to establish a new connection: [Errno 111] Connection refused',))")).toBe('network.error');
  });
  it('OmegaConf and argparse rejections are config errors (sv-012, sv-058)', () => {
    const d = classifyText("omegaconf.errors.ConfigAttributeError: Key 'ray_init' is not in struct\n    full_key: ray_init\n    object_type=dict");
    expect(d.class).toBe('config.error');
    expect(d.category).toBe('user');
    expect(cls('train.py: error: unrecognized arguments: --env-name sorghum')).toBe('config.error');
  });
});

describe('user code', () => {
  it('shape mismatch (sv-061) and ImportError (sv-064)', () => {
    expect(cls('RuntimeError: The size of tensor a (1247) must match the size of tensor b (1000) at non-singleton dimension 2')).toBe('user.code_error');
    expect(cls("ImportError: cannot import name 'MAPPOPolicy' from 'omni_drones.learning.ppo' (~/OmniDrones/omni_drones/learning/ppo/__init__.py)")).toBe('user.code_error');
  });
  it('an exception handler in code is not an exception', () => {
    expect(cls('    except KeyError:\n        pass')).toBe('unknown');
  });
});

describe('harness / outcome', () => {
  it('verifier tracebacks of a completed trial are a scored 0, not a code error (sv-049 shape)', () => {
    const log = [
      '==> results.json <==',
      '    "is_resolved": false,',
      '    "failure_mode": "unset",',
      '==> panes/post-test.txt <==',
      "E           TypeError: data type 'boolean[pyarrow]' not understood",
      '=================================================================== short test summary info ====================================================================',
      "FAILED ../tests/test_outputs.py::test_analyze_customer_segments - TypeError: data type 'boolean[pyarrow]' not understood",
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('outcome.reward_zero');
    expect(d.category).toBe('outcome');
  });
  it("pytest's summary header over PASSED lines only (-rA) is no failed test: nothing scored the work 0", () => {
    const session = [
      '============================= test session starts ==============================',
      'collected 2 items',
      '',
      'tests/test_ridge.py ..                                                   [100%]',
      '',
      '==================================== PASSES ====================================',
      '=========================== short test summary info ============================',
      'PASSED tests/test_ridge.py::test_ridge',
      'PASSED tests/test_ridge.py::test_primal_dual_relationship',
    ];
    expect(cls(session.join('\n'))).not.toMatch(/^outcome\.reward_zero$/);
    // The same header over a FAILED line is a graded failure.
    const failed = [...session.slice(0, 7), 'FAILED tests/test_ridge.py::test_ridge - AssertionError: 1 != 2'].join('\n');
    expect(cls(failed)).toBe('outcome.reward_zero');
  });
  it('an agent log full of rate limits makes a timed-out trial infra (sv-045 shape)', () => {
    const log = ['==> results.json <==', '    "failure_mode": "agent_timeout",', '==> sessions/agent.log <==', '21:14:51 - openhands:ERROR: retry_mixin.py:99 - litellm.RateLimitError: RateLimitError: OpenAIException - <!DOCTYPE html>', '==> panes/post-test.txt <==', 'FAILED ../tests/test_outputs.py::test_predict_raises_no_error - AssertionError'].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('gateway.4xx');
    expect(d.category).toBe('infra');
  });
  it('the agent binary missing in a trial that used no tokens is a setup failure (sv-047 shape)', () => {
    const log = ['==> results.json <==', '    "failure_mode": "unset",', '    "total_input_tokens": 0,', '==> sessions/agent.log <==', 'bash: mini: command not found', '==> panes/post-test.txt <==', 'FAILED ../tests/test_outputs.py::test_solution_file - AssertionError'].join('\n');
    expect(cls(log)).toBe('agent.setup_failure');
    // The same line in a trial whose agent did call the model is the agent exploring, not a setup failure.
    expect(cls(log.replace('"total_input_tokens": 0', '"total_input_tokens": 51210'))).toBe('outcome.reward_zero');
  });
  it('a pasted verifier pane without its header is still graded test output (sv-050 tail)', () => {
    const pane = corpusText('sv-050.log').split('\n');
    const after = pane.slice(pane.findIndex((l) => l.includes('post-test')) + 1).join('\n');
    expect(cls(after)).toBe('outcome.reward_zero');
    // Reward numbers in a run's own log are training metrics, not a verdict.
    expect(cls('{"step": 10, "reward": 0.0}\n{"step": 11, "reward": 0.5}\n')).toBe('unknown');
  });

  it("tracebacks and argparse errors from commands the agent ran are the agent at work, not the trial's failure", () => {
    const log = [
      '==> results.json <==',
      '    "failure_mode": "unset",',
      '    "total_input_tokens": 30610,',
      '==> sessions/agent.log <==',
      "root@a9d10d8ca939:/app# python run.py --epochs 3",
      'run.py: error: unrecognized arguments: --epochs 3',
      "KeyError: 'eval_accuracy'",
      '==> panes/post-test.txt <==',
      "FAILED ../tests/test_outputs.py::test_right_output - FileNotFoundError: [Errno 2] No such file or directory: '/app/results.txt'",
    ].join('\n');
    expect(cls(log)).toBe('outcome.reward_zero');
  });

  it("GPU words in an agent's trajectory are the task's, not the trial's failure", () => {
    const d = classifyText('{"steps": [{"source": "agent", "message": "The script fails with torch.OutOfMemoryError: CUDA out of memory. I will lower the batch size."}]}', 'harbor/agent/trajectory.json');
    expect(d.class).toBe('unknown');
    // The same words in the run's own log are the failure, whatever the log is called.
    for (const path of ['logs/stderr.log', 'logs/agent.log', 'logs/test.log', 'agent.log', 'rl_agent/train.log']) {
      expect(classifyText('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.', path).class).toBe('cuda.oom');
    }
  });

  it("the asyncio TimeoutError inside Harbor's AgentTimeoutError traceback is the agent timeout, not a request timeout", () => {
    const exc = [
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.12/asyncio/tasks.py", line 519, in wait_for',
      '    async with timeouts.timeout(timeout):',
      'TimeoutError',
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'harbor.trial.errors.AgentTimeoutError: Agent execution timed out after 900.0 seconds',
    ].join('\n');
    expect(classifyText(exc, 'harbor/exception.txt').class).toBe('outcome.agent_timeout');
    // A gateway timeout in the agent's own log still makes it infra.
    expect(classifyFiles({ 'harbor/exception.txt': exc, 'harbor/agent/agent.log': 'openai.APITimeoutError: Request timed out.\n' }).class).toBe('api.timeout');
  });

  it('Harbor exception types', () => {
    expect(cls('harbor.trial.errors.AgentSetupTimeoutError: Agent setup timed out after 360s')).toBe('agent.setup_failure');
    expect(cls('RewardFileNotFoundError: /logs/verifier/reward.txt not found')).toBe('verifier.failure');
    expect(cls('EnvironmentStartTimeoutError: environment did not start')).toBe('sandbox.failure');
  });
});

describe('unknown', () => {
  it('no rule fits: unknown, with no evidence and zero confidence', () => {
    const d = classifyText('step 1 loss 2.3\nstep 2 loss 2.1\nall done\n');
    expect(d).toMatchObject({ class: 'unknown', category: null, confidence: 0, evidence: [] });
  });
});
