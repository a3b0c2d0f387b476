// When the loud line is a symptom or another family's: the class follows the mechanism the producer's own
// wording shows. A launch configuration that surfaces as a transport failure (an empty or placeholder
// host, an address NCCL never filled in), an HTTP status whose answerer is a sandbox runtime, a registry or
// the kubelet rather than a model API, a relayed server error that names host memory, a DataLoader worker
// SIGKILLed under a living parent, and checklists that name a failure only to say it is absent. Logs are
// written in each producer's format (Ray's glog-style C++ lines, c10d's exceptions, NCCL INFO/WARN with
// torchrun's `[rankN]:` prefix, Ollama's slog lines and its Python client, httpx, the Daytona SDK,
// BuildKit, kubectl); each mechanism has a negative that must keep its old class.
import { describe, expect, it } from 'vitest';
import { classifyText } from './helpers.js';

describe('a transport failure to an address that was never configured is config.error', () => {
  it('Ray workers started with an empty head address (`ray start --address=:6379`)', () => {
    const log = [
      '+ ray start --address=:6379 --num-gpus 8 --block',
      'Local node IP: 10.0.0.12',
      '[2025-07-23 10:05:49,679 W 51000 51000] gcs_rpc_client.h:151: Failed to connect to GCS at address :6379 within 5 seconds.',
      '[2025-07-23 10:06:19,681 W 51000 51000] gcs_client.cc:183: Failed to get cluster ID from GCS server: TimedOut: Timed out while waiting for GCS to become available.',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]!.rule).toBe('config.placeholder_address');
    expect(d.hint).toMatch(/head/);
  });

  it('the same GCS failure to a real head address stays a Ray failure', () => {
    const d = classifyText('[2025-07-23 10:05:49,679 W 51000 51000] gcs_rpc_client.h:151: Failed to connect to GCS at address 10.0.0.3:6379 within 5 seconds.\n');
    expect(d.class).toBe('ray.crash');
  });

  it("c10d's TCPStore client given MASTER_ADDR rendered as None, or an unexpanded $VARIABLE", () => {
    for (const host of ['None', '$MASTER_ADDR']) {
      const log = [
        '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/rendezvous.py", line 174, in _create_c10d_store',
        '    return TCPStore(',
        `torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (${host}, 29500).`,
      ].join('\n');
      const d = classifyText(log);
      expect(d.class, host).toBe('config.error');
      expect(d.evidence[0]!.rule).toBe('config.placeholder_address');
    }
    const real = classifyText('torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of (trainer-0.trainer, 29500). The client socket has failed to connect to trainer-0.trainer:29500 (errno: 113 - No route to host).\n');
    expect(real.class).toBe('network.error');
  });

  it('NCCL connecting to an address it never filled in (NCCL_SOCKET_IFNAME naming an interface the host lacks)', () => {
    const log = [
      '[rank0]:trainer-0:1958:1958 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth2',
      '[rank0]:trainer-0:1958:1958 [0] NCCL INFO NCCL_SOCKET_IFNAME set to eth2',
      '[rank0]:trainer-0:1958:2010 [0] misc/socket.cc:484 NCCL WARN ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor AF_INET6(10)',
      '[rank0]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, internal error - please report this issue to the NCCL developers, NCCL version 2.20.5',
      '[rank0]: ncclInternalError: Internal check failed.',
      '[rank0]: Last error:',
      '[rank0]: ncclSocketInit: connecting to address  with family 59936 is neither AF_INET(2) nor AF_INET6(10)',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]!.rule).toBe('config.placeholder_address');
    expect(d.hint).toMatch(/NCCL_SOCKET_IFNAME/);
  });

  it('a NCCL socket failure to a real peer stays NCCL', () => {
    const log = '[rank1]:node-2:77:90 [1] misc/socket.cc:538 NCCL WARN socketProgress: Connection closed by remote peer node-1<45678>\n[rank1]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.\n';
    expect(classifyText(log).class).toBe('nccl.error');
  });

  it('a DNS lookup of a README placeholder host, not of a real one', () => {
    expect(classifyText('curl: (6) Could not resolve host: someserver\n').class).toBe('config.error');
    expect(classifyText("requests.exceptions.ConnectionError: HTTPConnectionPool(host='none', port=80): Max retries exceeded with url: /v1/models (Caused by NameResolutionError(\"<urllib3.connection.HTTPConnection object at 0x7f>: Failed to resolve 'none' ([Errno -2] Name or service not known)\"))\n").class).toBe('config.error');
    expect(classifyText('curl: (6) Could not resolve host: huggingface.co\n').class).toBe('network.error');
  });
});

describe('a relayed server error that names host memory is host.oom', () => {
  // Ollama's server (llm/server.go) refuses the load and returns the error as its 500 body; the Python
  // client raises it as ResponseError with the status appended; the server logs the slog warning first.
  const server = 'time=2025-02-22T17:06:31.610Z level=WARN source=server.go:136 msg="model request too large for system" requested="7.3 GiB" available=6442450944 total="7.6 GiB" free="5.1 GiB" swap="900.0 MiB"';
  const client = [
    'Traceback (most recent call last):',
    '  File "/srv/app/chat.py", line 41, in answer',
    '    reply = client.chat(model="qwen3:8b", messages=history)',
    'ollama._types.ResponseError: model requires more system memory (7.3 GiB) than is available (6.0 GiB) (status code: 500)',
  ];

  it('in either order of the server and client lines', () => {
    for (const log of [[server, ...client], [...client, server]]) {
      const d = classifyText(log.join('\n'));
      expect(d.class).toBe('host.oom');
      expect(d.evidence[0]!.rule).toBe('host.server_memory_refusal');
    }
  });

  it('a 500 from the same server that names no cause stays gateway.5xx', () => {
    const d = classifyText([...client.slice(0, 3), 'ollama._types.ResponseError: Internal Server Error (status code: 500)'].join('\n'));
    expect(d.class).toBe('gateway.5xx');
  });

  it("llama.cpp's CPU backend failing to allocate its host buffer", () => {
    const d = classifyText('ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 70866960384\nllama_model_load: error loading model: unable to allocate CPU buffer\n');
    expect(d.class).toBe('host.oom');
  });
});

describe("a DataLoader worker SIGKILLed while the training process lives on is the OOM killer's signature", () => {
  const traceback = (last: string): string =>
    [
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py", line 1133, in _try_get_data',
      '    data = self._data_queue.get(timeout=timeout)',
      '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/_utils/signal_handling.py", line 66, in handler',
      '    _error_if_any_worker_fails()',
      last,
      '',
      'The above exception was the direct cause of the following exception:',
      '',
      'Traceback (most recent call last):',
      '  File "train.py", line 88, in <module>',
      '    for batch in loader:',
      'RuntimeError: DataLoader worker (pid(s) 1224) exited unexpectedly',
    ].join('\n');

  it('killed by signal: Killed → host.oom, not a kill of unknown origin', () => {
    const d = classifyText(traceback('RuntimeError: DataLoader worker (pid 1224) is killed by signal: Killed. '));
    expect(d.class).toBe('host.oom');
    expect(d.evidence[0]!.rule).toBe('host.dataloader_worker_killed');
  });

  it('a Bus error is /dev/shm (disk.full), not memory', () => {
    const d = classifyText(traceback("RuntimeError: DataLoader worker (pid 1224) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit."));
    expect(d.class).toBe('disk.full');
  });

  it('a worker that raised has its exception re-raised: the exception decides', () => {
    const log = ['Traceback (most recent call last):', '  File "train.py", line 88, in <module>', '    for batch in loader:', 'KeyError: Caught KeyError in DataLoader worker process 0.', 'Original Traceback (most recent call last):', '  File "/srv/dataset.py", line 20, in __getitem__', "    return self.items[idx]['image']", "KeyError: 'image'"].join('\n');
    expect(classifyText(log).class).toBe('user.code_error');
  });
});

describe('a checklist that names a failure only to say it is absent is no evidence', () => {
  it('quoted message names after "No", and "no … found / in dmesg"', () => {
    const log = [
      'The first all_reduce hangs on both GPUs; utilization stays at 100%.',
      'No related errors were observed in the kernel log:',
      '* No `NVRM: Xid`',
      '* No `GPU has fallen off the bus`',
      '* no "Out of memory: Killed process" lines in dmesg',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).not.toBe('cuda.error');
    expect(d.class).not.toBe('host.oom');
  });

  it('the same messages stated as facts still decide, negator-led failure messages included', () => {
    expect(classifyText('[ 4242.1] NVRM: GPU 0000:3b:00.0: GPU has fallen off the bus.\n').class).toBe('cuda.error');
    expect(classifyText('RuntimeError: No CUDA GPUs are available\n').class).toBe('cuda.error');
    expect(classifyText("OSError: [Errno 28] No space left on device: '/ckpt/step_900'\n").class).toBe('disk.full');
  });
});

describe('an HTTP status is classed by who answered it', () => {
  it("a sandbox runtime's ingress answering 503 is sandbox.failure; a model API's 503 stays gateway.5xx", () => {
    const runtime = [
      'Error polling status (will retry): HTTP 503 Service Unavailable',
      "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://sqjmuliag.eval-runtime.all-hands.dev/api/conversations/9f1c'",
    ].join('\n');
    const d = classifyText(runtime);
    expect(d.class).toBe('sandbox.failure');
    expect(d.hint).toMatch(/sandbox runtime/);
    const model = "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://api.openai.com/v1/chat/completions'\n";
    expect(classifyText(model).class).toBe('gateway.5xx');
    // A cloud model API whose host name says "runtime" is still a model API.
    const bedrock = "httpx.HTTPStatusError: Server error '503 Service Unavailable' for url 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3/invoke'\n";
    expect(classifyText(bedrock).class).toBe('gateway.5xx');
  });

  it("the Daytona SDK's exec error over its toolbox API's 502", () => {
    const log = ['sandbox = daytona.create(CreateSandboxBaseParams(), timeout=600)', 'resp = sandbox.process.code_run(\'print("hi")\')', 'daytona.common.errors.DaytonaError: Failed to execute command: (502) Reason: Bad Gateway'].join('\n');
    expect(classifyText(log).class).toBe('sandbox.failure');
  });

  it("a registry's 429 is an image pull, at start (sandbox) or in a BuildKit step (build); a model API's 429 stays gateway.4xx", () => {
    expect(classifyText('error pulling image configuration: toomanyrequests: Too Many Requests. Please see https://docs.docker.com/docker-hub/download-rate-limit/\n').class).toBe('sandbox.failure');
    expect(classifyText('#5 ERROR: unexpected status from HEAD request to https://registry-1.docker.io/v2/library/python/manifests/3.11-slim: 429 Too Many Requests\n').class).toBe('image.build_failure');
    expect(classifyText("openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for gpt-4o', 'type': 'requests', 'code': 'rate_limit_exceeded'}}\n").class).toBe('gateway.4xx');
  });

  it("the kubelet unreachable behind kubectl exec is the Pod's node, a refused connection elsewhere stays network", () => {
    expect(classifyText('Error from server: error dialing backend: dial tcp 172.18.10.229:10250: connect: connection refused\n').class).toBe('sandbox.failure');
    expect(classifyText('Error: dial tcp 172.18.10.229:8080: connect: connection refused\n').class).toBe('network.error');
  });
});

describe("a Ray actor's death is the exception its process died of, when the driver's log shows it", () => {
  // The dead worker's stderr as Ray forwards it to the driver ("(WorkerDict pid=N) …"), and the driver's
  // report of the death (python/ray/exceptions.py ActorDiedError, raylet node_manager.cc).
  const workerTraceback = [
    '(WorkerDict pid=2211) Traceback (most recent call last):',
    '(WorkerDict pid=2211)   File "/srv/recipe/reward.py", line 57, in compute_score',
    "(WorkerDict pid=2211)     return table[answer]",
    "(WorkerDict pid=2211) KeyError: 'boxed'",
  ];
  const death = [
    'Traceback (most recent call last):',
    '  File "/srv/recipe/main_ppo.py", line 65, in run_ppo',
    '    ray.get(runner.run.remote(config))',
    '  File "/usr/local/lib/python3.10/dist-packages/ray/_private/worker.py", line 2961, in get',
    '    raise value.as_instanceof_cause()',
    'ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.',
    '\tclass_name: WorkerDict',
    '\tactor_id: 13ac9a317247fe69717aac0d02000000',
  ];

  it('in either order of the forwarded traceback and the death report', () => {
    for (const log of [[...workerTraceback, ...death], [...death, ...workerTraceback]]) {
      const d = classifyText(log.join('\n'));
      expect(d.class).toBe('user.code_error');
      expect(d.secondary).toContain('ray.crash');
      expect(d.hint).toMatch(/the process died of that exception/);
    }
  });

  it('a death with no exception beside it stays ray.crash', () => {
    expect(classifyText(death.join('\n')).class).toBe('ray.crash');
  });
});

describe("an exception raised inside an infra producer's own frames is that producer's failure", () => {
  it("Ray's IO worker failing to spill is ray.crash, not the run's code; a disk error it quotes is the disk", () => {
    const spill = (err: string): string =>
      [
        `2021-08-16 06:19:11,360 WARNING worker.py:1215 -- Traceback (most recent call last):`,
        '  File "python/ray/_raylet.pyx", line 730, in ray._raylet.spill_objects_handler',
        '  File "/home/ray/anaconda3/lib/python3.7/site-packages/ray/external_storage.py", line 129, in _write_multiple_objects',
        '    raise ValueError(f"object ref {ref.hex()} does not exist.")',
        err,
        `An unexpected internal error occurred while the IO worker was spilling objects: ${err.replace(/^\w+: /, '')}`,
      ].join('\n');
    const d = classifyText(spill('ValueError: object ref 68ecb7b4eb086e6affffffffffffffffffffffff0100000067020000 does not exist.'));
    expect(d.class).toBe('ray.crash');
    expect(d.evidence[0]!.rule).toBe('ray.io_worker_error');
    expect(classifyText(spill("OSError: [Errno 122] Disk quota exceeded: '/tmp/ray/session_latest/ray_spilled_objects/37bfa45c-multi-587'")).class).toBe('disk.full');
  });

  it("a rejected response object's status decides, as requests and httpx print it", () => {
    const log = [
      'Traceback (most recent call last):',
      '  File "/srv/sglang/srt/entrypoints/http_server.py", line 1060, in _wait_and_warmup',
      '    assert res.status_code == 200, f"{res=}, {res.text=}"',
      "AssertionError: res=<Response [403]>, res.text='<html>\\n<head><title>403 Forbidden</title></head>\\n</html>'",
    ].join('\n');
    expect(classifyText(log).class).toBe('gateway.4xx');
    expect(classifyText('RuntimeError: upstream answered <Response [503 Service Unavailable]>\n').class).toBe('gateway.5xx');
    // A success status in the same shape is no failure of its own.
    expect(classifyText("AssertionError: expected a list, got <Response [200]>\n").class).toBe('user.code_error');
  });
});

describe('a client refused by a server that had already failed is that failure', () => {
  // One script's log: the server started in the background crashes on its own exception, then the
  // client it started next is refused (urllib3's NewConnectionError, as requests raises it).
  const server = [
    'INFO:     Started server process [4711]',
    'Traceback (most recent call last):',
    '  File "/srv/app/server.py", line 41, in load_routes',
    '    handler = ROUTES[name]',
    "KeyError: 'generate'",
  ];
  const client = ["requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=8000): Max retries exceeded with url: /generate (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused'))"];

  it('the server crashed first: the refusals are its consequence', () => {
    const d = classifyText([...server, ...client].join('\n'));
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/no longer \(or never\) listening/);
  });

  it('refused before the server failed: the refusal stands', () => {
    expect(classifyText([...client, ...server].join('\n')).class).toBe('network.error');
  });
});

describe("the Kubernetes API server's answer is classed by its Status reason, not as a gateway's status", () => {
  const apiException = (code: number, phrase: string, body: string): string =>
    [
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.11/site-packages/kubernetes/client/rest.py", line 244, in request',
      '    raise ApiException(http_resp=r)',
      `kubernetes.client.exceptions.ApiException: (${code})`,
      `Reason: ${phrase}`,
      'HTTP response headers: HTTPHeaderDict({"Audit-Id": "9c1e", "Content-Type": "application/json"})',
      `HTTP response body: ${body}`,
    ].join('\n');

  it("the platform failing (InternalError, 5xx) is sandbox.failure, a rejected request (RBAC Forbidden) config.error", () => {
    const internal = classifyText(apiException(500, 'Internal Server Error', '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Internal error occurred: failed calling webhook \\"pod-policy.example.com\\"","reason":"InternalError","code":500}'));
    expect(internal.class).toBe('sandbox.failure');
    expect(internal.evidence[0]!.rule).toBe('k8s.api_status');
    const forbidden = classifyText(apiException(403, 'Forbidden', '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods is forbidden: User \\"system:serviceaccount:eval:default\\" cannot create resource \\"pods\\" in API group \\"\\" in the namespace \\"eval\\"","reason":"Forbidden","details":{"kind":"pods"},"code":403}'));
    expect(forbidden.class).toBe('config.error');
  });

  it("kubectl's rendering of the same Status", () => {
    expect(classifyText('Error from server (InternalError): Internal error occurred: failed calling webhook "pod-policy.example.com": context deadline exceeded\n').class).toBe('sandbox.failure');
    expect(classifyText('Error from server (Forbidden): pods "sandbox-7" is forbidden: User "system:serviceaccount:eval:runner" cannot get resource "pods/exec" in API group "" in the namespace "eval"\n').class).toBe('config.error');
    // AlreadyExists names no failure of either kind on its own.
    expect(classifyText('Error from server (AlreadyExists): pods "sandbox-7" already exists\n').class).toBe('unknown');
  });
});

describe("two ranks on one GPU in NCCL's newer wording is the launch configuration", () => {
  it('NCCL ≥ 2.28 "Multiple Ranks are using the same GPU/Partition" under PyTorch\'s invalid-usage error', () => {
    const log = [
      '[rank1]:gpu-node-3:4711:4790 [0] init.cc:1057 NCCL WARN Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.',
      '[rank1]: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:77, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.28.9',
      '[rank1]: ncclInvalidUsage: This usually reflects invalid usage of NCCL library.',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.hint).toMatch(/same GPU/);
  });
});

describe('NCCL starting no network transport at all is the launch configuration', () => {
  it('"Failed to initialize any NET plugin" (ncclInvalidUsage) after NCCL_NET=IB on a host without HCAs', () => {
    const log = [
      'trainer-0:88:120 [0] NCCL INFO NCCL_NET set by environment to IB',
      'trainer-0:88:120 [0] NCCL INFO NET/IB : No device found.',
      'trainer-0:88:120 [0] plugin/net.cc:349 NCCL WARN Failed to initialize any NET plugin',
      'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.21.5',
      'ncclInvalidUsage: This usually reflects invalid usage of NCCL library.',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.hint).toMatch(/NCCL_NET/);
  });
});

describe("an API client's own error class with the status it got", () => {
  it('the status decides 4xx vs 5xx', () => {
    expect(classifyText('Comparison judge failed: CAPIError 400 This organization has been disabled\n').class).toBe('gateway.4xx');
    expect(classifyText('judge: ProviderAPIError: 503 upstream overloaded, retry later\n').class).toBe('gateway.5xx');
    // A bare class name with no status stays out of it.
    expect(classifyText('judge: CAPIError while formatting the request\n').class).not.toBe('gateway.4xx');
  });
});
