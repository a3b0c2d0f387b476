// Lines in a producer's wording that are no failure of their own, beside this session's rules that read
// the same producers: each must leave the verdict to the run's real failure (or to nothing).
import { describe, expect, it } from 'vitest';
import { classifyFiles, classifyText } from './helpers.js';

const keyError = ['Traceback (most recent call last):', '  File "/work/eval.py", line 41, in <module>', "    score = metrics['accuracy']", "KeyError: 'accuracy'"].join('\n');

describe('Ollama: a client that left during a model load', () => {
  // llm/server.go WaitUntilRunning: the WARN and the scheduler's error, then the load goes on for the next request.
  const warm = [
    'time=2025-10-19T09:28:35.298Z level=WARN source=server.go:1278 msg="client connection closed before server finished loading, aborting load"',
    'time=2025-10-19T09:28:35.298Z level=ERROR source=sched.go:449 msg="error loading llama server" error="timed out waiting for llama runner to start: context canceled"',
    'time=2025-10-19T09:29:15.101Z level=INFO source=server.go:1290 msg="llama runner started in 40.00 seconds"',
    '[GIN] 2025/10/19 - 09:29:20 | 200 |  4.81s |  127.0.0.1 | POST     "/v1/chat/completions"',
  ].join('\n');

  it("gives way to the run's own exception (a warm-up probe's short timeout is no failure of the run)", () => {
    expect(classifyFiles({ 'logs/ollama.log': warm, 'logs/eval.log': keyError }).class).toBe('user.code_error');
  });

  it('alone it is the request timing out on the load; the stall timeout is the same class', () => {
    expect(classifyText(warm).class).toBe('api.timeout');
    expect(classifyText('Error: 500 Internal Server Error: timed out waiting for llama runner to start - progress 0.28 - ').class).toBe('api.timeout');
  });
});

describe('c10d store timeouts after an error that was no rank dying', () => {
  // huggingface_hub utils/_http.py http_backoff: the retried read timeout, then the retry note.
  const hubRetry = [
    "'(ReadTimeoutError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 3f1e)')' thrown while requesting HEAD https://huggingface.co/Qwen/Qwen2.5-7B/resolve/main/config.json",
    'Retrying in 1s [Retry 1/5].',
  ];
  const timeout = 'torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 3/4 clients joined.';

  it('a helper client that timed out and retried does not explain the ranks that never joined', () => {
    expect(classifyText([...hubRetry, timeout].join('\n')).class).toBe('network.error');
  });
});

describe('Slurm and kubelet lines that pass', () => {
  it("a sweep at its QOS submit limit is no rule's verdict on the job's configuration (at most a low-confidence guess)", () => {
    const d = classifyText("sbatch: error: Batch job submission failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)");
    expect(d.evidence[0]?.rule).not.toBe('config.slurm_request');
    expect(d.confidence).toBeLessThan(0.5);
  });

  it('a node shutdown that logind cancelled is no kill: the container crash-looping decides', () => {
    const d = classifyText(
      [
        'I1130 15:12:02.781961    2227 nodeshutdown_manager_linux.go:265] "Shutdown manager detected new shutdown event, isNodeShuttingDownNow" event=false',
        '  Warning  BackOff  30s (x6 over 2m)  kubelet  Back-off restarting failed container trainer in pod trainer-0_default(4b1c)',
      ].join('\n'),
    );
    expect(d.class).not.toBe('host.killed');
  });
});

describe('wandb finishing', () => {
  it('an upload that finished and the summary after it are no stall', () => {
    const d = classifyText(
      ['wandb: \\ 3859.464 MB of 3859.464 MB uploaded', 'wandb: Run history:', 'wandb:   loss ▇▅▃▂▁', 'wandb: 🚀 View run ppo-7 at: https://wandb.ai/acme/rl/runs/abc123', 'wandb: Find logs at: ./wandb/run-20251201_100000-abc123/logs'].join('\n'),
    );
    expect(d.class).not.toBe('job.stall');
  });
});

describe("a container runtime's failed start on a daemon's unix socket", () => {
  it('is the sandbox failing to start, not the network', () => {
    const line =
      'Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: time="2025-01-01T00:00:00Z" level=error msg="failed to connect: dial unix /run/nvidia-persistenced/socket: connect: connection refused": unknown';
    expect(classifyText(line).class).not.toBe('network.error');
  });
});

describe("verl's GPU check against its Ray cluster", () => {
  it('is a config check whose hint sends the user to the cluster membership first', () => {
    const d = classifyText('ValueError: Total available GPUs 8.0 is less than total desired GPUs 16');
    expect(d.class).toBe('config.error');
    expect(d.hint).toMatch(/ray status/);
    // Other validation messages keep the generic hint.
    expect(classifyText('ValueError: World size (8) is larger than the number of available GPUs (4) in this node.').hint).not.toMatch(/ray status/);
  });
});

describe("Ray's list of possible causes, wrapped onto a line of its own", () => {
  // node_manager.cc's worker-death text as an 80-column terminal wraps it: the list item is a guess, not a kill.
  const wrapped = [
    '(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection',
    ' error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ra',
    'y stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.',
  ].join('\n');

  it('is the Ray worker dying, not a kill from outside', () => {
    const d = classifyText(wrapped);
    expect(d.class).toBe('ray.crash');
    expect(d.evidence.map((e) => e.rule)).not.toContain('host.sigkill_worker');
  });
});

describe("an InfiniBand error completion after a rank's own death", () => {
  const oom = [
    '[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 1 has a total capacity of 79.10 GiB of which 1.02 GiB is free.',
    'mlx5: gpu-node-7: got completion with error:',
    '00000000 00000000 00000000 00000000',
  ].join('\n');

  it('is the echo of the peer that died (the error completion is what a vanished peer leaves)', () => {
    expect(classifyText(oom).class).toBe('cuda.oom');
  });
});

describe("a settings check's wording raised by the run's own code beside a framework's name", () => {
  // A project folder whose name contains a framework's is not a clone of it (logline.isFrameworkCheckoutPath).
  const own = ['Traceback (most recent call last):', '  File "/workspace/verl_exp/train.py", line 61, in build_loader', '    raise ValueError(f"batch size must be divisible by {world}")', 'ValueError: batch size must be divisible by 8'].join('\n');
  const clone = own.replace('/workspace/verl_exp/train.py', '/workspace/verl/verl/trainer/ppo/ray_trainer.py');

  it("stays the run's code in the run's own folder", () => {
    expect(classifyText(own).class).toBe('user.code_error');
  });
  it("is the framework's check in the framework's clone", () => {
    expect(classifyText(clone).class).toBe('config.error');
  });
});

describe("lines of this session's rules in states that are no failure of theirs (the reviewer's cases)", () => {
  it("a dockerd goroutine dump with BuildKit's vendored frames is no builder crash", () => {
    const dump = ['=== BEGIN goroutine stack dump ===', 'goroutine 412 [select, 12 minutes]:', 'github.com/moby/buildkit/util/progress.(*progressReader).Read(0xc000f1e0a0, {0x55d7a0e0c2a0, 0xc0011a2f00})', './train.sh: line 9: 3301 Killed                  torchrun --nproc_per_node 8 train.py'].join('\n');
    expect(classifyText(dump).class).toBe('host.killed');
  });
  it('a websocket that dropped because the container was killed is the kill', () => {
    const exec = ['E0502 10:00:00.123456   81234 v2.go:104] "Unhandled Error" err="websocket: close 1006 (abnormal closure): unexpected EOF"', 'command terminated with exit code 137'].join('\n');
    expect(classifyText(exec).class).toBe('host.killed');
  });
  it('real folders named your… are no placeholders', () => {
    for (const p of ['/models/yourtts_model/config.json', '/mnt/shared/your_project_files/ckpt/step_100.pt']) {
      expect(classifyText(`FileNotFoundError: [Errno 2] No such file or directory: '${p}'`).class, p).toBe('user.code_error');
    }
    expect(classifyText("FileNotFoundError: [Errno 2] No such file or directory: 'your_data_path/train_all'").class).toBe('config.error');
  });
  it("a project folder named after a framework is the run's own code", () => {
    const tb = ['Traceback (most recent call last):', '  File "/home/alice/nemo-asr-finetune/nemo/train.py", line 31, in main', '    raise ValueError(f"batch_size ({bs}) must be divisible by num_gpus ({n})")', 'ValueError: batch_size (10) must be divisible by num_gpus (4)'].join('\n');
    expect(classifyText(tb).class).toBe('user.code_error');
  });
});

describe("stop 27's rules against lines of the same producers that are no such failure (the reviewer's cases)", () => {
  it("SWE-ReX's bare swerex-remote not found is its pipx fallback starting, not a missing runtime", () => {
    const log = [
      '/bin/sh: 1: swerex-remote: not found',
      'Successfully installed argcomplete-3.5.1 packaging-24.2 pipx-1.7.1 platformdirs-4.3.6 userpath-1.9.2',
      'INFO     Runtime started in 40.00s',
      ...keyError.split('\n'),
    ].join('\n');
    expect(classifyText(log).class).toBe('user.code_error');
    const d = classifyText('/bin/sh: 1: /root/python3.11/bin/swerex-remote: not found');
    expect(d.class).toBe('agent.setup_failure');
    expect(d.hint).toMatch(/python_standalone_dir/);
  });

  it("an app's own JSON 500 body is no gateway envelope; the envelope is", () => {
    expect(classifyText('{"status":"fail","message":"internal server error"}').class).not.toBe('gateway.5xx');
    expect(classifyText('{"error":{"message":"internal server error","type":"new_api_error","param":"","code":null}}').class).toBe('gateway.5xx');
  });

  it("a client's printed status code in a test assertion is no gateway answer", () => {
    const log = ['E       AssertionError: Unexpected status code: 404', 'FAILED tests/test_api.py::test_delete_item - AssertionError: Expected status code 404, got 200', '========================= 1 failed, 11 passed in 2.31s ========================='].join('\n');
    expect(classifyText(log).class).not.toMatch(/^gateway\./);
  });
});

describe('stop 28 vocabulary (read from the producers) against lines that only look like it', () => {
  it("a shape check saying two sizes must be the same is the code's, not a settings check", () => {
    const tb = ['Traceback (most recent call last):', '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/functional.py", line 3150, in binary_cross_entropy', '    raise ValueError(', 'ValueError: Target size (torch.Size([16])) must be the same as input size (torch.Size([16, 1]))'].join('\n');
    expect(classifyText(tb).class).toBe('user.code_error');
  });

  it("a bound the run's own code checks stays its own bug; the framework's check is the settings'", () => {
    const own = ['Traceback (most recent call last):', '  File "/home/alice/rl/train.py", line 88, in main', '    raise ValueError(f"train_batch_size ({a}) must be >= actor.ppo_mini_batch_size ({b})")', 'ValueError: train_batch_size (64) must be >= actor.ppo_mini_batch_size (256)'].join('\n');
    expect(classifyText(own).class).toBe('user.code_error');
    const framework = own.replace('/home/alice/rl/train.py', '/usr/local/lib/python3.10/dist-packages/verl/trainer/ppo/ray_trainer.py');
    expect(classifyText(framework).class).toBe('config.error');
  });

  it('TensorFlow running out on the GPU stays cuda.oom; on its CPU allocator it is host memory', () => {
    const gpu = 'tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[64,512,512] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc';
    expect(classifyText(gpu).class).toBe('cuda.oom');
    expect(classifyText(gpu.replace('device:GPU:0 by allocator GPU_0_bfc', 'device:CPU:0 by allocator cpu')).class).toBe('host.oom');
  });

  it("Ollama's model-not-found is the request's; its server answering is not a connection failure", () => {
    expect(classifyText('Error: pull model manifest: file does not exist').class).not.toBe('gateway.4xx');
    expect(classifyText('{"error":"model \\"qwen2.5:7b\\" not found, try pulling it first"}').class).toBe('gateway.4xx');
  });

  it('earlyoom starting up is no kill', () => {
    const start = ['earlyoom 1.7', 'mem total: 64212 MiB, swap total: 0 MiB', 'sending SIGTERM when mem <= 10.00% and swap <= 10.00%,', '        SIGKILL when mem <= 5.00% and swap <= 5.00%'].join('\n');
    expect(classifyText(start).class).not.toBe('host.oom');
  });

  it("a podman build's base-image pull is the build's failure, a plain pull is the sandbox's", () => {
    const pull = 'Error: initializing source docker://quay.io/libpod/alpine: toomanyrequests: Rate exceeded';
    expect(classifyText(pull).class).toBe('sandbox.failure');
    expect(classifyText(`Error: creating build container: ${pull.slice('Error: '.length)}`).class).toBe('image.build_failure');
  });
});

describe("stop 28's review: the new vocabulary against the reviewer's counter-examples", () => {
  it("transformers' forward() refusing both input_ids and inputs_embeds is the caller's bug, not a settings check", () => {
    expect(classifyText('ValueError: You cannot specify both input_ids and inputs_embeds at the same time').class).toBe('user.code_error');
  });

  it('a test assertion that values should be the same when cached is no settings check', () => {
    expect(classifyText('E       AssertionError: values should be the same when cached').class).not.toBe('config.error');
  });

  it("a data or value check (labels vs input_ids, a negative radius) stays the code's", () => {
    expect(classifyText('AssertionError: number of labels must be equal to input_ids.size(0)').class).toBe('user.code_error');
    expect(classifyText('ValueError: Radius cannot be negative').class).toBe('user.code_error');
  });

  it("NCCL's malloc warning after a non-memory CUDA status stays NCCL's failure; alone it reads as GPU memory", () => {
    const log = ["node1:123:456 [0] include/alloc.h:105 NCCL WARN Cuda failure 801 'operation not supported'", 'node1:123:456 [0] include/alloc.h:110 NCCL WARN Failed to CUDA malloc 2097152 bytes'].join('\n');
    expect(classifyText(log).class).toBe('nccl.error');
    expect(classifyText(log.split('\n')[1]!).class).toBe('cuda.oom');
  });

  it("podman's pull that failed on DNS is network.error", () => {
    expect(classifyText('Error: initializing source docker://ghcr.io/org/img:v1: pinging container registry ghcr.io: Get "https://ghcr.io/v2/": dial tcp: lookup ghcr.io on 10.96.0.10:53: no such host').class).toBe('network.error');
  });

  it("a harness's no-result text gives way to the model API failing before it", () => {
    const log = ["openai.InternalServerError: Error code: 503 - {'error': {'message': 'Service Unavailable'}}", 'Test command timed out after 60.0s for task hello-world'].join('\n');
    expect(classifyText(log).class).toBe('gateway.5xx');
  });

  it("the raylet's 95% warning with room left does not explain a runtime_env that failed on its own", () => {
    const log = [
      '(raylet) file_system_monitor.cc:111: /tmp/ray/session_2025 is over 95% full, available space: 48.2 GB; capacity: 960 GB. Object creation will fail if spilling is required.',
      'ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.',
    ].join('\n');
    expect(classifyText(log).class).toBe('config.error');
  });

  it("a scale-up the autoscaler recovered from gives way to the run's own failure", () => {
    const log = [
      '  Warning  FailedScaleUp  3m  cluster-autoscaler  Node scale up in zones us-central1-a associated with this pod failed: GCE quota exceeded. Pod is at risk of not being scheduled.',
      '  Normal   Scheduled      1m  default-scheduler  Successfully assigned default/train-0 to gke-pool-2-abc',
      ...keyError.split('\n'),
    ].join('\n');
    expect(classifyText(log).class).toBe('user.code_error');
  });

  it("LiteLLM's APIConnectionError wrapping litellm.Timeout is api.timeout", () => {
    expect(classifyText('litellm.APIConnectionError: Ollama_chatException - litellm.Timeout: Connection timed out after 600.0 seconds.').class).toBe('api.timeout');
  });

  it("another tool's manifest lookup is not Claude Code's installer", () => {
    expect(classifyText('Error: patch file not found in manifest for version 1.4.2').evidence[0]?.rule).not.toBe('agent.vocab_setup');
  });

  it("any aiohttp server's 413 is not Ray's working_dir", () => {
    expect(classifyText('aiohttp.web_exceptions.HTTPRequestEntityTooLarge: Maximum request body size 1048576 exceeded, actual body size 5242880').class).not.toBe('config.error');
  });
});

describe("stop 28's second review: producer lines that are warnings, recoveries or another failure's echo", () => {
  const keyErrorLines = keyError.split('\n');
  it("srun's Killed for the tasks it stopped after one exited gives way to that task's error", () => {
    const log = [...keyErrorLines, 'srun: error: gpu-node17: task 1: Exited with exit code 1', 'srun: error: gpu-node17: tasks 0,2-3: Killed'].join('\n');
    expect(classifyText(log).class).toBe('user.code_error');
  });
  it("a CPU-only job's nvidia-smi and a handled NVML probe are no GPU fault", () => {
    expect(classifyText(['+ nvidia-smi', 'No devices were found', ...keyErrorLines].join('\n')).class).toBe('user.code_error');
    expect(classifyText(['pynvml.NVMLError_LibraryNotFound: NVML Shared Library Not Found', ...keyErrorLines].join('\n')).class).toBe('user.code_error');
  });
  it("torch's CUDA-initialization UserWarning is no failure; the lazy init's RuntimeError is", () => {
    const warn = '/usr/local/lib/python3.10/dist-packages/torch/cuda/__init__.py:138: UserWarning: CUDA initialization: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.';
    expect(classifyText([warn, ...keyErrorLines].join('\n')).class).toBe('user.code_error');
    expect(classifyText('RuntimeError: CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.').class).toBe('cuda.error');
  });
  it("KubeRay's AppFailed is the user's job failing, and Serve's replaced replica is no crash", () => {
    expect(classifyText([...keyErrorLines, 'Reason: AppFailed'].join('\n')).class).toBe('user.code_error');
    expect(classifyText("Replica(id='ab12cd', deployment='LLMServer', app='default') failed health check, stopping it.").class).not.toBe('ray.crash');
  });
  it("NIXL's remote disconnect after a peer engine died is that engine's failure", () => {
    const log = [...keyErrorLines.slice(0, 3), 'AssertionError', 'vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.', '(EngineCore_DP1) ERROR nixl_connector.py:1203] NIXL transfer failure: nixlRemoteDisconnectError: NIXL_ERR_REMOTE_DISCONNECT'].join('\n');
    expect(classifyText(log).class).not.toBe('network.error');
  });
});

describe("a 404 is a wrong route only when the server says it has no such route", () => {
  it("a model the server does not serve stays the gateway's 4xx (vLLM's and Ollama's own wordings)", () => {
    expect(classifyText("openai.NotFoundError: Error code: 404 - {'object': 'error', 'message': 'The model `qwen-7b` does not exist.', 'type': 'NotFoundError', 'param': None, 'code': 404}\n").class).toBe('gateway.4xx');
    expect(classifyText('openai.NotFoundError: Error code: 404 - {\'error\': {\'message\': "model \'llama3:70b\' not found, try pulling it first", \'type\': \'api_error\'}}\n').class).toBe('gateway.4xx');
  });

  it('the route itself missing is the base URL (Go/gin, Starlette, OpenAI wordings)', () => {
    for (const line of ['✦ ERROR: Request failed: 404 page not found', "openai.NotFoundError: Error code: 404 - {'detail': 'Not Found'}", "openai.NotFoundError: Error code: 404 - {'error': {'message': 'Invalid URL (POST /v1/chat/completion)', 'type': 'invalid_request_error', 'param': None, 'code': None}}"]) {
      const d = classifyText(`${line}\n`);
      expect(d.class, line).toBe('config.error');
      expect(d.hint).toMatch(/\/v1/);
    }
  });
});

describe("a Node server's access lines", () => {
  it("count only for a model-API route: a static file's 404 is no gateway refusal", () => {
    expect(classifyText('<-- GET /static/app.js\n--> GET /static/app.js 404 3ms\n').class).toBe('unknown');
    expect(classifyText('<-- POST /v1/chat/completions\n--> POST /v1/chat/completions 429 12ms\n').class).toBe('gateway.4xx');
  });

  it("a 200 on the model route beside the run's own exception leaves the exception the cause", () => {
    expect(classifyText(`--> POST /v1/chat/completions 200 976ms\n${keyError}\n`).class).toBe('user.code_error');
  });
});

describe("bash's Terminated", () => {
  it('is a kill on a line of its own, not a status word inside a line', () => {
    expect(classifyText('epoch 0 | batch 250 | loss: 0.12577\nTerminated\n').class).toBe('host.killed');
    expect(classifyText('INFO worker 3 state: Terminated (Completed)\n').class).not.toBe('host.killed');
  });
});

describe("review of stop 29's rules: the lines they must leave alone", () => {
  it("a registry's Go 404 page quoted by the daemon is the pull failing, not a wrong base URL", () => {
    expect(classifyText('Error response from daemon: error parsing HTTP 404 response body: invalid character \'p\' after top-level value: "404 page not found\\n"\n').class).toBe('sandbox.failure');
  });

  it("a 404 body a sandbox runtime answered is the sandbox's (the answerer decides)", () => {
    expect(classifyText("httpx.HTTPStatusError: Client error '404 Not Found' for url 'https://abc123.eval-runtime.all-hands.dev/alive' {\"detail\":\"Not Found\"}\n").class).toBe('sandbox.failure');
  });

  it('a bare {"detail":"Not Found"} printed by a command is no client misconfiguration', () => {
    expect(classifyText('{"detail":"Not Found"}\n').class).not.toBe('config.error');
  });

  it("the daemon's 5xx that quotes a DNS failure is the network's (daemon-relayed)", () => {
    expect(classifyText('docker.errors.APIError: 500 Server Error for http+docker://localhost/v1.43/images/create?tag=latest&fromImage=python: Internal Server Error ("Get \\"https://registry-1.docker.io/v2/\\": dial tcp: lookup registry-1.docker.io on 127.0.0.53:53: server misbehaving")\n').class).toBe('network.error');
  });

  it("the daemon's build endpoint is the image build", () => {
    expect(classifyText('docker.errors.APIError: 500 Server Error for http+docker://localhost/v1.43/build?t=sweb.env.x86_64: Internal Server Error ("dockerfile parse error line 3: unknown instruction: RUNN")\n').class).toBe('image.build_failure');
  });

  it("a harness's check of the user's own inputs stays the user's, not a grader crash", () => {
    const tb = ['Traceback (most recent call last):', '  File "/usr/local/lib/python3.11/site-packages/swebench/harness/run_evaluation.py", line 512, in get_dataset_from_preds', '    raise ValueError(', 'ValueError: Some prediction IDs not found in dataset!', ''].join('\n');
    expect(classifyText(tb).class).not.toBe('verifier.failure');
  });

  it("an app's own routes named messages/responses/generate are no model API", () => {
    expect(classifyText('POST /api/messages 500 3.112 ms - 21\n').class).not.toBe('gateway.5xx');
    expect(classifyText('--> POST /survey/42/responses 400 3ms\n').class).not.toBe('gateway.4xx');
    expect(classifyText('--> POST /openai/v1/chat/completions 400 3ms\n').class).toBe('gateway.4xx');
  });

  it("XLA's rematerialization warning gives way to the run's own exception", () => {
    const remat = "2024-06-20 01:03:26.100817: W external/xla/xla/service/hlo_rematerialization.cc:3005] Can't reduce memory use below 26.14GiB (28065947629 bytes) by rematerialization; only reduced to 34.30GiB (36831593796 bytes), down from 34.44GiB (36982730932 bytes) originally";
    expect(classifyText(`${remat}\n${keyError}\n`).class).toBe('user.code_error');
    expect(classifyText(`${remat}\nFatal Python error: Segmentation fault\n`).class).toBe('cuda.oom');
  });

  it("slurmctld's record of an array task killed by a signal", () => {
    expect(classifyText('[2022-05-27T11:37:57.377] _job_complete: JobId=127441_3(127444) WTERMSIG 9\n').class).toBe('host.killed');
  });
});
