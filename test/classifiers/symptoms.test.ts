// Root cause when the loud line is a symptom (relations.ts SYMPTOMS): each producer's echo of another
// failure gives way to that failure, in the order its mechanism allows, and the hint names the echo as
// the consequence. Logs are written in each producer's own format (vLLM's logger and launcher, uvicorn's
// access log, torchelastic's ChildFailedError report, ProcessGroupNCCL, c10d TCPStore, CPython), with
// timestamps and rank prefixes as they print them; orders are tried both ways where order decides.
import { describe, expect, it } from 'vitest';
import { classifyFiles, classifyText } from './helpers.js';

// vLLM V0 OpenAI server (entrypoints/launcher.py, engine/multiprocessing/engine.py): the 500 and the
// launcher's CRITICAL line are logged before the engine's own traceback, in the same second.
const vllmV0Dead = (engineError: string[]): string =>
  [
    'INFO 02-10 18:06:30 engine.py:275] Added request cmpl-30aaf466904d4d148c2e17a584f448e0-0.',
    'CRITICAL 02-10 18:06:30 launcher.py:101] MQLLMEngine is already dead, terminating server process',
    'INFO:     10.25.164.34:57224 - "POST /v1/completions HTTP/1.1" 500 Internal Server Error',
    ...engineError.map((l) => `ERROR 02-10 18:06:30 engine.py:139] ${l}`),
    'INFO:     Shutting down',
    '',
  ].join('\n');

describe('an inference server whose engine died', () => {
  it("a CUDA OOM in vLLM's engine is the cause of the 500s and the dead engine, named in the hint", () => {
    const d = classifyText(
      vllmV0Dead([
        "OutOfMemoryError('CUDA out of memory. Tried to allocate 1.27 GiB. GPU 0 has a total capacity of 79.33 GiB of which 109.81 MiB is free.')",
        'Traceback (most recent call last):',
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/multiprocessing/engine.py", line 137, in start',
        '    self.run_engine_loop()',
        'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.27 GiB. GPU 0 has a total capacity of 79.33 GiB of which 109.81 MiB is free.',
      ]),
      'logs/vllm.log',
    );
    expect(d.class).toBe('cuda.oom');
    expect(d.secondary).toContain('gateway.5xx');
    expect(d.hint).toMatch(/500s and the dead engine are its consequence/);
    // The explained symptom stays in the evidence beside the cause.
    expect(d.evidence[0]!.rule).toBe('cuda.oom.torch');
    expect(d.evidence.some((e) => e.rule.startsWith('gateway.'))).toBe(true);
  });

  it("an exception in the server's own plug-in code killed the engine: user.code_error, not gateway.5xx", () => {
    const d = classifyText(
      vllmV0Dead([
        'Traceback (most recent call last):',
        '  File "/srv/plugins/allowed_tokens.py", line 21, in __call__',
        '    return logits[:, self.allowed]',
        'IndexError: index 151936 is out of bounds for dimension 1 with size 151936',
      ]),
      'logs/vllm.log',
    );
    expect(d.class).toBe('user.code_error');
    expect(d.evidence[0]!.text).toMatch(/IndexError: index 151936/);
    expect(d.hint).toMatch(/500s and the dead engine are its consequence/);
  });

  it('an engine that died with no cause in the bundle stays the 5xx, with a hint that says where to look', () => {
    const d = classifyText(vllmV0Dead([]), 'logs/vllm.log');
    expect(d.class).toBe('gateway.5xx');
  });

  it("a client's own traceback elsewhere does not explain the server's dead engine (the engine's cause must be in its log)", () => {
    const d = classifyFiles({
      'logs/vllm.log': vllmV0Dead([]),
      'logs/client.log': ['Traceback (most recent call last):', '  File "/work/eval.py", line 40, in <module>', '    text = out["choices"][0]["text"]', "KeyError: 'choices'", ''].join('\n'),
    });
    expect(d.class).toBe('gateway.5xx');
  });

  // vLLM V1 (engine/core_client.py): the API server notices that the EngineCore process vanished.
  const v1Died = [
    '(APIServer pid=1) ERROR 12-02 10:00:06 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.',
    '(APIServer pid=1) INFO:     10.0.0.3:46644 - "POST /v1/chat/completions HTTP/1.1" 500 Internal Server Error',
    '',
  ].join('\n');
  const oomKill = (t: string) => `[Wed Dec  2 ${t} 2026] Out of memory: Killed process 87 (VLLM::EngineCor) total-vm:98765432kB, anon-rss:65432100kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:130000kB oom_score_adj:0\n`;

  it('the kernel OOM-killing the engine process before the server noticed is the root cause (host.oom)', () => {
    const d = classifyFiles({ 'logs/vllm.log': v1Died, 'kernel/dmesg.txt': oomKill('10:00:05') });
    expect(d.class).toBe('host.oom');
    expect(d.hint).toMatch(/dead engine are its consequence/);
  });

  it('an OOM kill stamped after the engine had already died does not explain it', () => {
    const d = classifyFiles({ 'logs/vllm.log': v1Died, 'kernel/dmesg.txt': oomKill('10:20:05') });
    expect(d.class).toBe('gateway.5xx');
  });
});

// torchelastic's report (torch/distributed/elastic/multiprocessing/errors/__init__.py, api.py).
const agent = (rootRank: number, rootExit: number, rootMsg: string, extra: string[] = []): string =>
  [
    ...extra,
    'W1202 10:00:05.500000 140 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 201 closing signal SIGTERM',
    'W1202 10:00:05.501000 140 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 203 closing signal SIGTERM',
    `E1202 10:00:06.001000 140 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: ${rootExit}) local_rank: ${rootRank} (pid: 202) of binary: /usr/bin/python3`,
    'Traceback (most recent call last):',
    '  File "/usr/local/bin/torchrun", line 8, in <module>',
    '    sys.exit(main())',
    '  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 263, in launch_agent',
    '    raise ChildFailedError(',
    'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ',
    '============================================================',
    'train.py FAILED',
    '------------------------------------------------------------',
    'Failures:',
    '[1]:',
    '  time      : 2026-12-02_10:00:06',
    '  host      : node0',
    '  rank      : 0 (local_rank: 0)',
    '  exitcode  : -15 (pid: 201)',
    '  error_file: <N/A>',
    '  traceback : Signal 15 (SIGTERM) received by PID 201',
    '[2]:',
    '  time      : 2026-12-02_10:00:06',
    '  host      : node0',
    '  rank      : 2 (local_rank: 2)',
    '  exitcode  : -15 (pid: 203)',
    '  error_file: <N/A>',
    '  traceback : Signal 15 (SIGTERM) received by PID 203',
    '------------------------------------------------------------',
    'Root Cause (first observed failure):',
    '[0]:',
    '  time      : 2026-12-02_10:00:05',
    '  host      : node0',
    `  rank      : ${rootRank} (local_rank: ${rootRank})`,
    `  exitcode  : ${rootExit} (pid: 202)`,
    '  error_file: <N/A>',
    `  traceback : ${rootMsg}`,
    '============================================================',
    '',
  ].join('\n');

describe("torchelastic's SIGTERMs to the surviving ranks", () => {
  it("are not the root cause when only the launcher's report is captured: the first failed rank's own exit is", () => {
    const d = classifyText(agent(1, 1, 'To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html'));
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/Rank 1 was the first worker to fail/);
    expect(d.hint).toMatch(/SIGTERMs are its consequence/);
    expect(d.secondary).toContain('host.killed');
  });

  it("give way to the root rank's own traceback when it is captured", () => {
    const rank1 = ['[rank1]: Traceback (most recent call last):', '[rank1]:   File "/work/train.py", line 33, in main', '[rank1]:     raise ValueError(f"bad shard index {i}")', '[rank1]: ValueError: bad shard index 7'];
    const d = classifyText(agent(1, 1, 'To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html', rank1));
    expect(d.class).toBe('user.code_error');
    expect(d.evidence[0]!.text).toMatch(/ValueError: bad shard index 7/);
  });

  it('a root rank killed by SIGKILL is the kill, not a consequence', () => {
    const d = classifyText(agent(1, -9, 'Signal 9 (SIGKILL) received by PID 202'));
    expect(d.class).toBe('host.killed');
    expect(d.evidence[0]!.rule).toBe('host.sigkill_worker');
  });

  it('when the agent itself received SIGTERM, the SIGTERMs came from outside: host.killed', () => {
    const d = classifyText(agent(0, -15, 'Signal 15 (SIGTERM) received by PID 202', ['W1202 10:00:05.400000 140 torch/distributed/elastic/agent/server/api.py:704] Received 15 death signal, shutting down workers']));
    expect(d.class).toBe('host.killed');
  });
});

// ProcessGroupNCCL on a surviving rank, after the peer's process went away.
const peerError = (t: string) =>
  [
    `[rank1]:[E1202 ${t}.000000000 ProcessGroupNCCL.cpp:1784] [PG ID 0 PG GUID 0(default_pg) Rank 1] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5`,
    '[rank1]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.',
  ].join('\n');
const killedRank0 = (t: string) => `E1202 ${t}.001000 140 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 0 (pid: 202) of binary: /usr/bin/python3`;

describe('NCCL errors about a peer that exited', () => {
  it('a rank SIGKILLed before the peers reported it is the root cause', () => {
    const d = classifyText(`${peerError('10:00:09')}\n${killedRank0('10:00:05')}\n`);
    expect(d.class).toBe('host.killed');
    expect(d.hint).toMatch(/remote peer that exited are its consequence/);
  });

  it('a kill stamped after the peer errors is the launcher cleaning up: the NCCL error stands', () => {
    const d = classifyText(`${peerError('10:00:09')}\n${killedRank0('10:00:15')}\n`);
    expect(d.class).toBe('nccl.error');
  });
});

describe('connections that drop because the other side died', () => {
  // c10d's TCPStore lives in rank 0: when rank 0 dies, every other rank's store call fails.
  const rank0 = ['[rank0]: Traceback (most recent call last):', '[rank0]:   File "/work/config.py", line 9, in build', '[rank0]:     return Cfg(**raw)', "[rank0]: TypeError: Cfg.__init__() got an unexpected keyword argument 'lr_sched'"];
  const rank1 = [
    '[rank1]: Traceback (most recent call last):',
    '[rank1]:   File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 4166, in barrier',
    '[rank1]:     work = group.barrier(opts=opts)',
    '[rank1]: torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?',
  ];

  it("the store host's own exception, earlier in the log, is the cause of the peers' dropped store connections", () => {
    const d = classifyText([...rank0, ...rank1, ''].join('\n'));
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/connection errors .* are its consequence/);
  });

  it('an exception printed after the connection dropped is not its cause', () => {
    const d = classifyText([...rank1, ...rank0, ''].join('\n'));
    expect(d.class).toBe('network.error');
  });

  it("a client's dropped connection gives way to the server process being killed", () => {
    const d = classifyFiles({
      'logs/client.log': '2026-12-02 10:00:09,000 ERROR httpx.RemoteProtocolError: Server disconnected without sending a response.\n',
      'logs/server.log': '2026-12-02 10:00:00,000 INFO serving\n/entrypoint.sh: line 5:    87 Killed                  python -m vllm.entrypoints.openai.api_server --model m\n',
    });
    expect(d.class).toBe('host.killed');
  });

  it('a broken pipe with no failure behind it stays a network error', () => {
    const d = classifyText('2026-12-02 10:00:09,000 ERROR send failed\nBrokenPipeError: [Errno 32] Broken pipe\n');
    expect(d.class).toBe('network.error');
  });
});

describe("a server's 500 answers", () => {
  // uvicorn logs the access line of the 500 that Starlette sent, then the exception and its traceback.
  const server = [
    'INFO:     127.0.0.1:51234 - "POST /v1/score HTTP/1.1" 500 Internal Server Error',
    'ERROR:    Exception in ASGI application',
    'Traceback (most recent call last):',
    '  File "/usr/local/lib/python3.11/site-packages/uvicorn/protocols/http/httptools_impl.py", line 409, in run_asgi',
    '    result = await app(  # type: ignore[func-returns-value]',
    '  File "/app/server.py", line 30, in score',
    '    return {"score": item["value"] * 2}',
    "KeyError: 'value'",
    '',
  ].join('\n');

  it("give way to the server's own exception logged after them", () => {
    const d = classifyText(server, 'logs/server.log');
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/500 answers are its consequence/);
  });

  it('stay gateway.5xx when the exception is only in another process (the client) log', () => {
    const d = classifyFiles({
      'logs/server.log': 'INFO:     127.0.0.1:51234 - "POST /v1/score HTTP/1.1" 500 Internal Server Error\n',
      'logs/client.log': server.split('\n').slice(2).join('\n'),
    });
    expect(d.class).toBe('gateway.5xx');
  });
});

describe("NCCL watchdog timeouts after one rank's failure", () => {
  const watchdog = (r: number, t: string) =>
    `[rank${r}]:[E1202 ${t}.123456789 ProcessGroupNCCL.cpp:616] [Rank ${r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=1048576, NumelOut=1048576, Timeout(ms)=600000) ran for 600032 milliseconds before timing out.`;
  // A library's own exception class (user.traceback_other: no builtin name), stamped by the run's logger.
  const rank2 = (t: string) => [
    `[rank2]:[2026-12-02 ${t},000][train][ERROR] - step 4120 failed`,
    '[rank2]: Traceback (most recent call last):',
    '[rank2]:   File "/usr/local/lib/python3.10/dist-packages/webdataset/handlers.py", line 24, in reraise_exception',
    '[rank2]:     raise exn',
    '[rank2]: webdataset.gopen.GOpenError: shard-00412.tar: pipe exited with status 2',
  ];

  it('an exception stamped before the timeouts is the rank that the others waited for', () => {
    const d = classifyText([...rank2('10:00:01'), watchdog(0, '10:10:05'), watchdog(1, '10:10:05'), ''].join('\n'));
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/watchdog timeouts on the other ranks are its consequence/);
  });

  it('an exception stamped after the timeouts (the abort they caused) is not the cause', () => {
    const d = classifyText([watchdog(0, '10:10:05'), watchdog(1, '10:10:05'), ...rank2('10:10:07'), ''].join('\n'));
    expect(d.class).toBe('nccl.timeout');
  });
});

describe("Kubernetes' restarts of a container that keeps failing", () => {
  // `kubectl describe pod` as kubectl prints it (State/Last State, the kubelet's BackOff event), and the
  // container's previous log (`kubectl logs --previous`).
  const describePod = [
    'Name:         trainer-0',
    'Namespace:    ml',
    'Containers:',
    '  trainer:',
    '    State:          Waiting',
    '      Reason:       CrashLoopBackOff',
    '    Last State:     Terminated',
    '      Reason:       Error',
    '      Exit Code:    1',
    '    Restart Count:  5',
    'Events:',
    '  Type     Reason   Age                From     Message',
    '  ----     ------   ----               ----     -------',
    '  Warning  BackOff  2m (x25 over 7m)   kubelet  Back-off restarting failed container trainer in pod trainer-0_ml(1b2c3d4e-0000-4000-8000-123456789abc)',
    '',
  ].join('\n');
  const previous = ['Traceback (most recent call last):', '  File "/app/train.py", line 12, in <module>', '    batch = collate(items)', '  File "/app/data.py", line 40, in collate', '    return [x["labels"] for x in items]', "KeyError: 'labels'", ''].join('\n');

  it("give way to the container's own failure in its previous log", () => {
    const d = classifyFiles({ 'k8s/describe.txt': describePod, 'k8s/previous.log': previous });
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/CrashLoopBackOff\) are its consequence/);
  });

  it('stay sandbox.failure when the container log is not in the bundle', () => {
    expect(classifyFiles({ 'k8s/describe.txt': describePod }).class).toBe('sandbox.failure');
  });
});

describe('a 5xx status that quotes the error behind it', () => {
  // docker-py's APIError: "<status> Server Error for <url>: <reason> ("<the daemon's own error>")".
  const dockerd = (explanation: string) =>
    `docker.errors.APIError: 500 Server Error for http+docker://localhost/v1.43/images/create?tag=latest&fromImage=swebench%2Fsweb.eval.x86_64.astropy: Internal Server Error ("${explanation}")\n`;

  it("is the quoted failure: dockerd could not reach the registry, so it is network.error", () => {
    const d = classifyText(dockerd('Get "https://registry-1.docker.io/v2/": net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)'));
    expect(d.class).toBe('network.error');
    // The relaying line is the daemon's pull failing (sandbox.failure), never a model gateway's 5xx.
    expect(d.secondary).toContain('sandbox.failure');
    expect(d.secondary ?? []).not.toContain('gateway.5xx');
  });

  it("is the image pull failing when the quoted text names no failure of its own: the Docker daemon is no model gateway", () => {
    expect(classifyText(dockerd('something went wrong')).class).toBe('sandbox.failure');
    // Any endpoint of the daemon is the container runtime answering (docker-py names it http+docker://).
    expect(classifyText('docker.errors.APIError: 500 Server Error for http+docker://localhost/v1.43/containers/9f2c/start: Internal Server Error ("failed to create task for container: unknown")\n').class).toBe('sandbox.failure');
    // requests' HTTPError wording of the same pull ("… for url: http+docker://…/images/create?…"): the registry's 429 relayed.
    expect(classifyText("Container start error: APIError(HTTPError('429 Client Error: Too Many Requests for url: http+docker://localhost/v1.51/images/create?tag=36dbf&fromImage=namanjain12%2Fnumpy_final'))\n").class).toBe('sandbox.failure');
  });

  it("a proxy's 502 page for a sandbox that is not running is the sandbox (E2B's SDK wording)", () => {
    const d = classifyText(
      [
        'TimeoutError: <html>',
        '<head><title>502 Bad Gateway</title></head>',
        '<body>',
        '<center><h1>502 Bad Gateway</h1></center>',
        '</body>',
        '</html>',
        ": This error is likely due to sandbox timeout. You can modify the sandbox timeout by passing 'timeoutMs' when starting the sandbox or calling '.setTimeout' on the sandbox with the desired timeout.",
        '',
      ].join('\n'),
    );
    expect(d.class).toBe('sandbox.failure');
    expect(d.secondary).toContain('gateway.5xx');
  });
});

describe("a container runtime's failed start that quotes the step's error", () => {
  // runc's error chain as docker prints it: the prestart hook's stderr, or the mount's errno text, is quoted on the line.
  const chain = (inner: string) =>
    `docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: ${inner}: unknown.`;

  it('is the quoted failure: a prestart hook that ran out of memory is host.oom', () => {
    const d = classifyText(chain('error running hook #0: error running hook: exit status 2, stdout: , stderr: fatal error: runtime: out of memory\\n\\nruntime stack:'));
    expect(d.class).toBe('host.oom');
    expect(d.hint).toMatch(/runtime's failed start only relays it/);
  });

  it('a full disk under a mount is disk.full', () => {
    const d = classifyText(chain('error mounting "/data" to rootfs at "/data": mkdir /var/lib/docker/overlay2/3f1e/merged/data: no space left on device'));
    expect(d.class).toBe('disk.full');
    expect(d.hint).toMatch(/runtime's failed start only relays it/);
  });

  it('an entrypoint missing from the image stays the sandbox failing to start', () => {
    expect(classifyText(chain('exec: "python3": executable file not found in $PATH')).class).toBe('sandbox.failure');
  });
});

describe('an image pull that quotes the network error of its registry request', () => {
  // dockerd (distribution: the registry request's net/http error) and the kubelet (containerd's resolver) word it on one line.
  it("dockerd's TLS handshake timeout to the registry is network.error", () => {
    const d = classifyText('docker: Error response from daemon: Get https://registry-1.docker.io/v2/library/ubuntu/manifests/latest: net/http: TLS handshake timeout.');
    expect(d.class).toBe('network.error');
    expect(d.hint).toMatch(/image pull only relays it/);
  });

  it("the kubelet's pull whose DNS lookup of the registry timed out is network.error", () => {
    const d = classifyText('  Warning  Failed     12s   kubelet  Failed to pull image "ubuntu:22.04": rpc error: code = Unknown desc = failed to pull and unpack image "docker.io/library/ubuntu:22.04": failed to resolve reference "docker.io/library/ubuntu:22.04": failed to do request: Head "https://registry-1.docker.io/v2/library/ubuntu/manifests/22.04": dial tcp: lookup registry-1.docker.io: i/o timeout');
    expect(d.class).toBe('network.error');
  });

  it('a pull the registry refused (denied, not found) stays the sandbox failing to start', () => {
    expect(classifyText("docker: Error response from daemon: pull access denied for acme/agent, repository does not exist or may require 'docker login': denied: requested access to the resource is denied.").class).toBe('sandbox.failure');
    expect(classifyText('  Warning  Failed  3s  kubelet  Failed to pull image "ghcr.io/acme/agent:v2": rpc error: code = NotFound desc = failed to pull and unpack image "ghcr.io/acme/agent:v2": failed to resolve reference "ghcr.io/acme/agent:v2": ghcr.io/acme/agent:v2: not found').class).toBe('sandbox.failure');
  });
});

describe('ranks that waited at the store for a rank that never joined', () => {
  // srun --label starts every task on its own: one that dies before init_process_group leaves the others
  // waiting at the store until the timeout (c10d TCPStore / _store_based_barrier).
  const task1Crash = [
    '1: Traceback (most recent call last):',
    '1:   File "/work/train.py", line 4, in <module>',
    '1:     from flash_attn import flash_attn_func',
    "1: ModuleNotFoundError: No module named 'flash_attn'",
    'srun: error: gpu-node-07: task 1: Exited with exit code 1',
  ];
  const task0Timeout = [
    '0: Traceback (most recent call last):',
    '0:   File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 1305, in init_process_group',
    '0:     store, rank, world_size = next(rendezvous_iterator)',
    '0: torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/2 clients joined.',
  ];
  const barrierTimeout = '0: RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)';

  it("the rank's own failure before the timeout is the root cause, the store timeout its consequence", () => {
    // A module missing at import in the run's own file: user.code_error (TAXONOMY: ImportError).
    const d = classifyText([...task1Crash, ...task0Timeout, ''].join('\n'));
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/waited for the rank that failed before it could join/);
    const b = classifyText([...task1Crash, barrierTimeout, ''].join('\n'));
    expect(b.class).toBe('user.code_error');
  });

  it('with nothing failing before it, the timeout is the ranks not reaching each other (network.error)', () => {
    expect(classifyText([...task0Timeout, ''].join('\n')).class).toBe('network.error');
    // A failure printed after the timeout (the teardown it caused) does not explain it.
    expect(classifyText([...task0Timeout, ...task1Crash, ''].join('\n')).class).toBe('network.error');
  });
});

describe('gloo collective timeouts (CPU process groups)', () => {
  const glooTimeout = (r: number) => [
    `[rank${r}]: Traceback (most recent call last):`,
    `[rank${r}]:   File "/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py", line 4556, in barrier`,
    `[rank${r}]:     work.wait()`,
    `[rank${r}]: RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 1800000ms for recv operation to complete`,
  ];
  const rank1Crash = ['[rank1]: Traceback (most recent call last):', '[rank1]:   File "/work/eval.py", line 77, in evaluate', '[rank1]:     score = metrics[name]', "[rank1]: KeyError: 'bleu'"];

  it('a barrier that timed out with no failure behind it is a collective timeout, not the generic RuntimeError', () => {
    const d = classifyText([...glooTimeout(2), ...glooTimeout(3), ''].join('\n'));
    expect(d.class).toBe('nccl.timeout');
    expect(d.evidence[0]!.rule).toBe('nccl.gloo_timeout');
  });

  it("gives way to the rank that failed before it (earlier in the merged log)", () => {
    const d = classifyText([...rank1Crash, ...glooTimeout(2), ''].join('\n'));
    expect(d.class).toBe('user.code_error');
    expect(d.hint).toMatch(/watchdog timeouts on the other ranks are its consequence|waited on the rank that failed/);
  });

  it('a gloo timeout of a few seconds is the timeout setting', () => {
    expect(classifyText('RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 2000ms for recv operation to complete\n').class).toBe('config.error');
  });
});

describe("CUDA failures NCCL reports while tearing down after a transport failure", () => {
  // NCCL's WARN lines ("host:pid:tid [dev] file:line NCCL WARN …") and nccl-tests' abort line.
  const ib = 'nodeA:4101:4188 [0] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 0, vendor err 129';
  const cuda = "nodeA:4101:4101 [1] init.cu:194 NCCL WARN Cuda failure 'an illegal memory access was encountered'";
  const abort = "nodeA: Test NCCL failure common.cu:343 'unhandled cuda error'";

  it('the network failure that came first is the root cause', () => {
    const d = classifyText([ib, 'nodeA:4101:4188 [0] NCCL INFO transport/net_ib.cu:1302 -> 6', cuda, abort, ''].join('\n'));
    expect(d.class).toBe('nccl.error');
    expect(d.evidence[0]!.rule).toBe('nccl.warn_transport');
    expect(d.hint).toMatch(/torn down while their kernels still waited/);
  });

  it('a CUDA failure before any transport error stays the GPU fault', () => {
    expect(classifyText([cuda, abort, ib, ''].join('\n')).class).toBe('cuda.error');
  });
});

describe("DeepSpeed's launcher killing the other processes after one failed", () => {
  // deepspeed/launcher/launch.py sigkill_handler, through DeepSpeed's logger.
  const teardown = (tail: string[], head: string[] = []) =>
    [
      ...head,
      '[2026-12-02 10:00:05,100] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4101',
      '[2026-12-02 10:00:05,101] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 4102',
      ...tail,
      '',
    ].join('\n');
  const exit = (code: number) => `[2026-12-02 10:00:05,300] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=1', '--deepspeed', 'ds.json'] exits with return code = ${code}`;
  const keyError = ['Traceback (most recent call last):', '  File "/work/train.py", line 60, in main', '    tok = tokenizer(batch["prompt"])', "KeyError: 'prompt'"];

  it("are the child's failure, not a kill from outside", () => {
    const d = classifyText(teardown([exit(1)], keyError));
    expect(d.class).toBe('user.code_error');
    expect(d.evidence[0]!.text).toMatch(/KeyError: 'prompt'/);
    expect(d.hint).toMatch(/"Killing subprocess" lines are its consequence/);
  });

  it("with only the launcher's lines, the child's own non-zero exit code is the failure", () => {
    const d = classifyText(teardown([exit(1)]));
    expect(d.class).toBe('user.code_error');
    expect(d.evidence[0]!.rule).toBe('user.launcher_child_exit');
  });

  it('a child that was itself SIGKILLed stays a kill', () => {
    expect(classifyText(teardown([exit(-9)])).class).toBe('host.killed');
  });

  it('a launcher that was sent SIGTERM was stopped from outside', () => {
    const d = classifyText(teardown(['[2026-12-02 10:00:05,400] [INFO] [launch.py:329:sigkill_handler] Main process received SIGTERM, exiting']));
    expect(d.class).toBe('host.killed');
    expect(d.evidence[0]!.rule).toBe('host.launcher_signal');
  });
});

describe("Ray's runtime_env setup on a node whose disk is full", () => {
  const setup = ['RuntimeEnvSetupError: Failed to set up runtime environment.', 'Traceback (most recent call last):', '  File "/app/.venv/lib/python3.12/site-packages/ray/_private/runtime_env/agent/runtime_env_agent.py", line 387, in _create_runtime_env_with_retry'];
  it("is disk.full when the raylet reported the session disk full before it", () => {
    const log = ['(raylet) [2025-08-21 06:51:00,280 E 100 119] (raylet) file_system_monitor.cc:116: /tmp/ray/session_2025-08-08_15-24-12_137232_1 is over 95% full, available space: 1.19653 GB; capacity: 29.3612 GB. Object creation will fail if spilling is required.', '', ...setup].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('disk.full');
    expect(d.hint).toMatch(/runtime_env setup is its consequence/);
  });
  it('stays the job configuration with no full disk in the bundle', () => {
    expect(classifyText(setup.join('\n')).class).toBe('config.error');
  });
});
