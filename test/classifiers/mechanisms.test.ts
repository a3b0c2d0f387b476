// Failure mechanisms the first rule set followed only in one wording. Each block quotes the real line
// it was found with (held-out issue pastes: the source is named beside it) and other wordings the same
// tool prints for the same failure (from the tool's source or release notes), plus near misses that
// must not fire.
import { describe, expect, it } from 'vitest';
import { classifyFiles, classifyText } from './helpers.js';

function cls(text: string): string {
  return classifyText(text).class;
}

describe('inference engine: no GPU memory left for the KV cache', () => {
  it('vLLM V0 memory profile with a negative KV cache budget and 0 cuda blocks (vllm#13882)', () => {
    const lines = [
      'INFO 02-26 09:54:05 worker.py:267] the current vLLM instance can use total_gpu_memory (8.00GiB) x gpu_memory_utilization (0.70) = 5.60GiB',
      'INFO 02-26 09:54:05 worker.py:267] model weights take 5.20GiB; non_torch_memory takes 0.03GiB; PyTorch activation peak memory takes 1.42GiB; the rest of the memory reserved for KV Cache is -1.05GiB.',
      'INFO 02-26 09:54:05 executor_base.py:111] # cuda blocks: 0, # CPU blocks: 4681',
      '[rank0]: Traceback (most recent call last):',
    ];
    const d = classifyText(lines.join('\n'));
    expect(d.class).toBe('cuda.oom');
    expect(d.evidence[0]!.rule).toBe('cuda.oom.inference_engine');
    expect(cls(lines[1]!)).toBe('cuda.oom');
    expect(cls(lines[2]!)).toBe('cuda.oom');
  });
  it('the same in other releases and engines: V0 GPU blocks, V1 KV cache checks, TGI prefill tokens', () => {
    expect(cls('INFO 04-27 10:13:05 llm_engine.py:275] # GPU blocks: 0, # CPU blocks: 256')).toBe('cuda.oom');
    expect(cls('INFO 05-02 11:00:01 [gpu_worker.py:227] Available KV cache memory: -0.75 GiB')).toBe('cuda.oom');
    expect(
      cls(
        "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is needed, which is larger than the available KV cache memory (5.47 GiB). Based on the available memory, the estimated maximum model length is 44800. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
      ),
    ).toBe('cuda.oom');
    expect(cls('Error: Warmup(Generation("Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`"))')).toBe('cuda.oom');
  });
  it('a healthy memory profile is not an OOM', () => {
    expect(cls('INFO 05-02 11:00:01 [gpu_worker.py:227] Available KV cache memory: 58.53 GiB\nINFO 02-26 09:54:05 executor_base.py:111] # cuda blocks: 2048, # CPU blocks: 4681')).toBe('unknown');
  });
});

describe('a file write cut short by full or failing storage', () => {
  it('torch.save: write() failed with Input/output error (pytorch#10577)', () => {
    const d = classifyText(
      'Traceback (most recent call last):\n  File "train.py", line 250, in <module>\n    torch.save(best_model.state_dict(), join(OUTD, "best_model.pt"))\nRuntimeError: write(): fd 29 failed with Input/output error',
    );
    expect(d.class).toBe('disk.full');
    expect(d.evidence[0]!.rule).toBe('disk.write_failed');
  });
  it("torch's zip serializer, Rust's StorageFull, and the writer's ENOSPC wording", () => {
    expect(cls('RuntimeError: [enforce fail at inline_container.cc:595] . PytorchStreamWriter failed writing file data/2: file write failed')).toBe('disk.full');
    expect(cls('RuntimeError: [enforce fail at inline_container.cc:337] . unexpected pos 4416 vs 4310')).toBe('disk.full');
    expect(cls("safetensors_rust.SafetensorError: Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: \"No space left on device\" })")).toBe('disk.full');
    expect(cls('RuntimeError: write(): fd 7 failed with No space left on device')).toBe('disk.full');
  });
  it('a read of a missing checkpoint is not a full disk', () => {
    expect(cls("Traceback (most recent call last):\nFileNotFoundError: [Errno 2] No such file or directory: 'ckpt/best_model.pt'")).toBe('user.code_error');
  });
});

describe('a 5xx that a service answers because its own upstream request timed out', () => {
  it('pandora: requests ReadTimeout to the upstream, then its 500 (pengzhile/pandora#724)', () => {
    const d = classifyText(
      [
        '2023-06-02 03:51:16.619 | WARNING  | waitress.task:add_task:115 - Task queue depth is 1',
        '',
        "requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='ai.fakeopen.com', port=443): Read timed out. (read timeout=100)",
        '2023-06-02 03:52:57.234 | ERROR    | pandora.bots.server:__handle_error:99 - 500 Internal Server Error: The server encountered an internal error and was unable to complete your request.',
      ].join('\n'),
    );
    expect(d.class).toBe('api.timeout');
    expect(d.evidence[0]!.rule).toBe('api.request_timeout');
    expect(d.secondary).toContain('gateway.5xx');
  });
  it('a FastAPI wrapper whose httpx call timed out answers 500', () => {
    expect(cls('httpx.ReadTimeout: The read operation timed out\nINFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error')).toBe('api.timeout');
  });
  it('a 5xx that came first stays the cause; a timeout being retried does not count', () => {
    expect(cls('openai.InternalServerError: Error code: 500 - {"error": "engine crashed"}\nopenai.APITimeoutError: Request timed out.')).toBe('gateway.5xx');
    expect(cls('Request timed out, retrying in 2 seconds\nopenai.InternalServerError: Error code: 503 - Service Unavailable')).toBe('gateway.5xx');
  });
});

describe("Ray's raylet: worker-death summary and fatal checks", () => {
  it('workers killed due to memory pressure is host memory, not a raylet crash (WM-PO/WMPO#3)', () => {
    const d = classifyText(
      '(raylet) [2025-12-07 09:57:19,206 E 393463 393463] (raylet) node_manager.cc:3277: 2 Workers (tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node (ID: 8289f87b78d161ae21bf723c7c57838345a56248dd48a2c3f0d5ac73, IP: 172.24.0.226) over the last time period.',
    );
    expect(d.class).toBe('host.oom');
    expect(d.evidence[0]!.rule).toBe('host.ray_oom_summary');
  });
  it('the same summary with only non-memory crashes is a Ray crash', () => {
    const d = classifyText('(raylet) node_manager.cc:3215: 0 Workers (tasks / actors) killed due to memory pressure (OOM), 3 Workers crashed due to other reasons at node (ID: ab12, IP: 10.0.0.3) over the last time period.');
    expect(d.class).toBe('ray.crash');
  });
  it('a raylet RAY_CHECK failure aborts the raylet (ray#8329), in glog and newer raylet.out wording', () => {
    expect(cls('(pid=raylet, ip=172.31.14.65) F0505 18:21:58.604787  7485 node_manager.cc:3094]  Check failed: node_info Spilling back to a node manager, but no GCS info found for node 075633a669d9eca2cdb49f00f7fb8488d48681cb')).toBe('ray.crash');
    expect(cls('(pid=raylet, ip=172.31.14.65) *** Check failure stack trace: ***')).toBe('ray.crash');
    expect(cls('[2024-03-01 10:00:00,123 C 4312 4312] node_manager.cc:1021: Check failed: worker Worker not found')).toBe('ray.crash');
    expect(cls('[2024-03-01 10:00:00,123 C 88 88] (gcs_server) gcs_actor_manager.cc:1500: Check failed: it != registered_actors_.end()')).toBe('ray.crash');
  });
  it("another program's glog check failure is not Ray's", () => {
    expect(cls('F tensorflow/core/framework/tensor_shape.cc:44] Check failed: NDIMS == dims() (2 vs. 3)')).not.toBe('ray.crash');
  });
});

describe("NCCL's own failures without PyTorch's summary line", () => {
  it("a CUDA call inside NCCL failing with 'invalid argument' is a NCCL error (NVIDIA/nccl#1283)", () => {
    const d = classifyText(
      [
        '(train_rft pid=2657296) 2024-05-11 14:10:52.224 n176-080-198:2657296:2658229 [0] NCCL INFO Connected all trees',
        "(train_rft pid=2657296) 2024-05-11 14:10:52.227 n176-080-198:2657296:2658232 [0] include/alloc.h:102 NCCL WARN Cuda failure 1 'invalid argument'",
      ].join('\n'),
    );
    expect(d.class).toBe('nccl.error');
    expect(d.hint).toMatch(/CUDA call made by NCCL itself/);
    expect(cls("h1:99:120 [3] transport/nvls.cc:142 NCCL WARN Cuda failure 801 'operation not supported'")).toBe('nccl.error');
  });
  it('a GPU fault or OOM under NCCL keeps its own class', () => {
    expect(cls("enqueue.cc:43 NCCL WARN Cuda failure 'out of memory'")).toBe('cuda.oom');
    expect(cls("h1:99:120 [0] NCCL WARN Cuda failure 'an illegal memory access was encountered'")).toBe('cuda.error');
  });
  it('the socket error PyTorch quotes under "Last error:" is NCCL\'s transport, not a generic network error (NVIDIA/nccl#2076)', () => {
    const d = classifyText(
      [
        'torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.hpp:268, remote process exited or there was a network error, NCCL version 2.21.5',
        'ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.',
        'Last error:',
        'socketProgressOpt: Call to recv from 172....<33759> failed : Connection reset by peer',
      ].join('\n'),
    );
    expect(d.class).toBe('nccl.error');
    expect(d.secondary ?? []).not.toContain('network.error');
  });
  it('the InfiniBand wording of the same, and a plain HTTP reset that stays a network error', () => {
    expect(cls('ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\nLast error:\nNET/IB : Got completion from peer 10.1.1.2<40290> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.1.1.1')).toBe('nccl.error');
    expect(cls('torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\nLast error:\nsocketStartConnect: Connect to 10.0.0.2<45678> failed : Software caused connection abort')).toBe('nccl.error');
    expect(cls("requests.exceptions.ConnectionError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))")).toBe('network.error');
  });
});

describe('Xid numbers', () => {
  it('hardware Xids are GPU faults; Xid 45 after a kill is an echo of what killed the process', () => {
    expect(cls('[ 8812.301] NVRM: Xid (PCI:0000:9b:00): 79, pid=4412, name=python, GPU has fallen off the bus.')).toBe('cuda.error');
    expect(cls('[ 8812.301] NVRM: Xid (PCI:0000:9b:00): 48, pid=4412, name=python, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 6, subpartition 0.')).toBe('cuda.error');
    const echo = classifyText(
      '[ 9001.1] NVRM: Xid (PCI:0000:9b:00): 45, pid=4412, name=python, Ch 00000008\nMemory cgroup out of memory: Killed process 4412 (python) total-vm:98119556kB, anon-rss:86538204kB, file-rss:80652kB, shmem-rss:16kB',
    );
    expect(echo.class).toBe('host.oom');
    expect(echo.hint).toMatch(/killed process 4412 \(python\)/);
  });
  it("an Xid 31 MMU fault beside a device-side assert is the application's out-of-range access", () => {
    expect(
      cls(
        '[ 77.1] NVRM: Xid (PCI:0000:18:00): 31, pid=901, name=python, Ch 00000010, intr 00000000. MMU Fault: ENGINE GRAPHICS GPCCLIENT_T1_0 faulted @ 0x7f2e_00000000.\n/pytorch/aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [0,0,0] Assertion `-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.\nRuntimeError: CUDA error: device-side assert triggered',
      ),
    ).toBe('user.code_error');
  });
});

describe('other tools\' wordings of already-covered mechanisms', () => {
  it('aiohttp read timeout, mp.spawn SIGKILL, systemd-oomd, ggml cudaMalloc, Ray OutOfDiskError', () => {
    expect(cls('aiohttp.client_exceptions.ServerTimeoutError: Timeout on reading data from socket')).toBe('api.timeout');
    expect(cls('torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL')).toBe('host.killed');
    expect(cls('Nov 30 05:01:02 gpu-3 systemd-oomd[612]: Killed /user.slice/user-1000.slice/session-4.scope due to memory pressure for /user.slice/user-1000.slice being 81.20% > 50.00% for > 20s with reclaim activity')).toBe('host.oom');
    expect(cls('ggml_backend_cuda_buffer_type_alloc_buffer: allocating 4096.00 MiB on device 0: cudaMalloc failed: out of memory')).toBe('cuda.oom');
    expect(cls("ray.exceptions.OutOfDiskError: Local disk is full\nThe object cannot be created because the local object store is full and the local disk's utilization is over capacity (95% by default).")).toBe('disk.full');
  });
});

describe('terminal recordings: carriage returns overwrite the line', () => {
  it('sees the shell error a tmux pane shows after a bracketed-paste escape and \\r (terminal-bench agent panes)', () => {
    const pane = [
      "\x1b[?2004hroot@3ff6e1e68f81:/app# mini -m anthropic/claude-sonnet-4-0 -t 'fix it' -y --exit-immediately; tmux wait -S done\r",
      '\x1b[?2004l\rbash: mini: command not found\r',
      '\x1b[?2004hroot@3ff6e1e68f81:/app# \x1b[?2004l\r',
    ].join('\n');
    expect(classifyFiles({ 'harbor/agent/mini-swe-agent.txt': pane }).class).toBe('agent.setup_failure');
  });
  it('reads the last segment of a progress-bar line and ignores CRLF endings', () => {
    expect(cls(' 10%|#         | 1/10 [00:01<00:09]\r 20%|##        | 2/10 [00:02<00:08]\rRuntimeError: CUDA error: an illegal memory access was encountered')).toBe('cuda.error');
    expect(cls('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\r\n')).toBe('cuda.oom');
  });
});

describe('config: struct-mode key errors in either capitalisation', () => {
  it('Hydra/OmegaConf "key ... is not in struct" with full_key/object_type lines', () => {
    expect(cls("key 'overrides' is not in struct\n    full_key: hydra.overrides\n    object_type=dict")).toBe('config.error');
    expect(cls("omegaconf.errors.ConfigAttributeError: Key 'lr_warmup' is not in struct\n    full_key: optim.lr_warmup\n    object_type=dict")).toBe('config.error');
  });
});

describe('sandbox: the runtime container never started', () => {
  it('beats the socket read timeout that follows it (OpenHands docker runtime)', () => {
    const log = [
      '14:35:36 - openhands:ERROR: docker_runtime.py:389 - [runtime 96d6] Error: Instance openhands-runtime-96d6 FAILED to start container!',
      '14:36:56 - openhands:ERROR: agent_session.py:213 - Agent session start failed in 153.9s',
      "14:36:56 - openhands:ERROR: session.py:228 - Error creating agent_session: UnixHTTPConnectionPool(host='localhost', port=None): Read timed out. (read timeout=60)",
    ].join('\n');
    expect(cls(log)).toBe('sandbox.failure');
  });
  it('other runtimes word it "failed to start container"', () => {
    expect(cls('Error: failed to start container "sandbox": Error response from daemon: OCI runtime create failed: unable to start container process')).toBe('sandbox.failure');
    expect(cls('  Warning  Failed  12s  kubelet  Error: failed to start container "main": context deadline exceeded')).toBe('sandbox.failure');
  });
});

describe('a Ray worker death that names no cause: the memory evidence of the bundle decides', () => {
  // node_manager.cc HandleClientConnectionError, as the driver prints it (verl, vLLM): Ray cannot see a
  // SIGKILL, so it lists guesses; the guesses themselves are not evidence.
  const EOF_DEATH =
    'The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage. (2) ray stop --force is called. (3) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors.';
  const KERNEL_OOM = '[ 9001.2] Memory cgroup out of memory: Killed process 4711 (ray::TaskRunner) total-vm:98119556kB, anon-rss:86538204kB, file-rss:80652kB, shmem-rss:16kB, UID:0 pgtables:170000kB oom_score_adj:0';
  const TUNE_LOW = 'Memory usage on this node: 61.2/62.8 GiB: ***LOW MEMORY*** less than 10% of the memory on this node is available for use. This can cause unexpected crashes.';

  it('alone it stays a Ray crash, and so does the K8s memory-limit hedge Ray appends in any Pod', () => {
    expect(classifyText(`ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n${EOF_DEATH}`).class).toBe('ray.crash');
    const k8s = '(raylet) A worker died or was killed while executing a task by an unexpected system error. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker exits unexpectedly. Worker exits with an exit code None. The worker may have exceeded K8s pod memory limits.';
    expect(classifyText(k8s).class).toBe('ray.crash');
  });
  it("with the kernel's OOM kill in the bundle's dmesg it is host memory, whichever came first", () => {
    const d = classifyFiles({ 'logs/stdout.log': EOF_DEATH, 'kernel/dmesg.txt': KERNEL_OOM });
    expect(d.class).toBe('host.oom');
    expect(d.evidence[0]!.rule).toBe('host.oom_killer');
    // The vanished worker is the run's own: not "another workload on the host".
    expect(d.hint).not.toMatch(/another workload/);
  });
  it('with host memory nearly full (Ray Tune status, cgroup oom_kill count) it is host memory; with memory to spare it is not', () => {
    const d = classifyText(`${TUNE_LOW}\n${EOF_DEATH}`);
    expect(d.class).toBe('host.oom');
    expect(d.hint).toMatch(/Ray worker\/actor deaths are its consequence/);
    expect(classifyText(`${EOF_DEATH}\n${TUNE_LOW}`).class).toBe('host.oom');
    expect(classifyText(`${EOF_DEATH}\n/sys/fs/cgroup/kubepods.slice/memory.events:oom_kill 1`).class).toBe('host.oom');
    expect(classifyText(`Memory usage on this node: 12.4/62.8 GiB\n${EOF_DEATH}`).class).toBe('ray.crash');
    expect(classifyText(`${EOF_DEATH}\noom_kill 0`).class).toBe('ray.crash');
  });
  it("a CUDA fault in the worker's exit detail is the cause", () => {
    expect(classifyText(`${TUNE_LOW}\nThe actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: Worker exits with an exit code 1. RuntimeError: CUDA error: an illegal memory access was encountered`).class).toBe('cuda.error');
  });
  it("host memory nearly full does not turn Ray's own fatal check into an OOM", () => {
    expect(classifyText(`${TUNE_LOW}\n[2024-03-01 10:00:00,123 C 4312 4312] node_manager.cc:1021: Check failed: worker Worker not found`).class).toBe('ray.crash');
  });
  it('memory nearly full with nothing dead is no failure', () => {
    expect(classifyText(TUNE_LOW).class).toBe('unknown');
  });
});

describe('docker inspect prints OOMKilled for every container', () => {
  it('false is no memory evidence; with exit 137 it is a kill of unknown origin', () => {
    expect(classifyText('            "OOMKilled": false,').class).toBe('unknown');
    expect(classifyText('            "OOMKilled": false,\n            "Dead": false,\n            "Pid": 0,\n            "ExitCode": 137,').class).toBe('host.killed');
    expect(classifyText('            "OOMKilled": true,\n            "Dead": false,\n            "Pid": 0,\n            "ExitCode": 137,').class).toBe('host.oom');
  });
});

describe('SIGTERM from outside (exit 143) is a kill of unknown origin, below any failure', () => {
  it('the run exiting on SIGTERM, as the manifest records it, with nothing else', () => {
    expect(classifyFiles({ 'logs/stdout.log': 'step 1200 loss 1.93\n' }, { exit: { code: 143, signal: 'SIGTERM' } }).class).toBe('host.killed');
    expect(classifyFiles({ 'logs/stdout.log': 'step 1200 loss 1.93\n' }, { exit: { code: 0, signal: null } }).class).toBe('unknown');
  });
  it('a failure of the run that made the launcher terminate the others wins', () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "train.py", line 10, in <module>',
      "KeyError: 'labels'",
      'W1201 10:00:00.000000 811 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 2372 closing signal SIGTERM',
      'E1201 10:00:01.000000 811 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 0 (pid: 2371) of binary: /usr/bin/python',
      '[1]: exitcode: -15 (pid: 2372) traceback: Signal 15 (SIGTERM) received by PID 2372',
    ].join('\n');
    expect(classifyText(log).class).toBe('user.code_error');
  });
  it('with memory evidence in the bundle the kill is the memory pressure (kubelet eviction sends SIGTERM first)', () => {
    expect(classifyText('  Message:  The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki.\n      Exit Code:    143').class).toBe('host.oom');
  });
});
