// Bugs in the run's own code: the final line of a Python traceback, kernel-side asserts from bad
// indices, shape/device mismatches. All weak: any infra signal in the same bundle outranks them.
import { defineRules, type Extracted } from '../rule.js';
import { RUN_LOG_ONLY } from './sections.js';
import type { FailureClass } from '../taxonomy.js';

/** Exception types that name their class on their own (a traceback's last line, RayTaskError(X)). */
export const EXCEPTION_CLASS: Record<string, FailureClass> = {
  KeyError: 'user.code_error',
  TypeError: 'user.code_error',
  ValueError: 'user.code_error',
  AttributeError: 'user.code_error',
  IndexError: 'user.code_error',
  NameError: 'user.code_error',
  AssertionError: 'user.code_error',
  ImportError: 'user.code_error',
  ModuleNotFoundError: 'user.code_error',
  ZeroDivisionError: 'user.code_error',
  NotImplementedError: 'user.code_error',
  UnboundLocalError: 'user.code_error',
  SyntaxError: 'user.code_error',
  IndentationError: 'user.code_error',
  RecursionError: 'user.code_error',
  FileNotFoundError: 'user.code_error',
  JSONDecodeError: 'user.code_error',
  // The rest of Python's built-in exception hierarchy that a run's own code raises (docs: library/exceptions).
  ArithmeticError: 'user.code_error',
  OverflowError: 'user.code_error',
  FloatingPointError: 'user.code_error',
  LookupError: 'user.code_error',
  StopIteration: 'user.code_error',
  StopAsyncIteration: 'user.code_error',
  EOFError: 'user.code_error',
  UnicodeError: 'user.code_error',
  UnicodeDecodeError: 'user.code_error',
  UnicodeEncodeError: 'user.code_error',
  TabError: 'user.code_error',
  IsADirectoryError: 'user.code_error',
  NotADirectoryError: 'user.code_error',
  BufferError: 'user.code_error',
  ReferenceError: 'user.code_error',
  PicklingError: 'user.code_error',
  UnpicklingError: 'user.code_error',
  TimeoutError: 'api.timeout',
  MemoryError: 'host.oom',
  // Names Ray prints in RayTaskError(<cause class>) for a task that raised them: torch's (and CuPy's)
  // OutOfMemoryError is the GPU's (Ray's own host-memory kill is raised as ray.exceptions.OutOfMemoryError,
  // never wrapped), c10d's DistBackendError the collective backend's.
  OutOfMemoryError: 'cuda.oom',
  DistBackendError: 'nccl.error',
  ConnectionRefusedError: 'network.error',
  ConnectionResetError: 'network.error',
};

/** pytest's report lines ("E   AssertionError", "FAILED tests/x.py::t - KeyError"): a graded test, not the run crashing. */
const PYTEST_REPORT_LINE = /^E {2,}|^FAILED \S+::|^ERROR \S+::|^\S+\.py:\d+: \w+Error$/;

const EXC_NAMES = Object.keys(EXCEPTION_CLASS).filter((n) => EXCEPTION_CLASS[n] === 'user.code_error');
/**
 * Lines that carry an exception's name but end no traceback: the source line a frame shows (an `except` or
 * `raise` clause, a comment, an isinstance check) and a warning class. Every "traceback ended here" rule
 * leaves them.
 */
export const NOT_A_RAISE: readonly RegExp[] = [/\bexcept\b|\braise\b|^\s*#|isinstance\(/, /Warning\b/];

export const FINAL_EXCEPTION_RE = new RegExp(`(?:^|[\\s:(\\]>|])(?:[A-Za-z_]\\w{0,40}\\.){0,6}(${EXC_NAMES.join('|')})(?::\\s|:$|$)`);
/** Two processes printing the same exception at once interleave it: "KeyErrorKeyError: : 'input_ids'". */
const INTERLEAVED_EXCEPTION_RE = new RegExp(`^(${EXC_NAMES.join('|')})\\1: : `);

export const userCodeRules = defineRules([
  {
    // The ranks' programs diverge, as PyTorch's own checks word it: ProcessGroupWrapper (TORCH_DISTRIBUTED_DEBUG
    // =DETAIL, torch/csrc/distributed/c10d/ProcessGroupWrapper.cpp) "Detected mismatch between collectives on
    // ranks. Rank 1 is running collective: CollectiveFingerPrint(…), but Rank 0 is running collective: …",
    // and DDP's reducer (torch/csrc/distributed/c10d/reducer.cpp) "Expected to have finished reduction in the
    // prior iteration before starting a new one. This error indicates that your module has parameters that
    // were not used in producing loss." with "Parameter indices which did not receive grad for rank N: …".
    // The code issues different collectives per rank, or a parameter takes no part in the loss: the
    // collective timeout that may follow is the symptom, so this sits above the watchdog's lines.
    id: 'user.rank_divergence',
    class: 'user.code_error',
    patterns: [
      /Detected mismatch between collectives on ranks\. Rank \d+ is running collective/,
      /Expected to have finished reduction in the prior iteration before starting a new one/,
      /Parameter indices which did not receive grad for rank \d+/,
    ],
    strength: 75,
    sections: RUN_LOG_ONLY,
    why: "the ranks' code diverged: they issued different collectives, or a parameter took no part in the loss so DDP's reduction never finished",
    hint: "The ranks do not run the same collectives in the same order (a branch on rank-local data: a batch without images, per-rank metric keys, an early return), or DDP has a trainable parameter unused in this step's loss. Make every rank take the same path (pad or skip batches on all ranks together, log the same keys), or pass find_unused_parameters=True / freeze the unused parameters; TORCH_DISTRIBUTED_DEBUG=DETAIL names the parameters and collectives.",
  },
  {
    id: 'user.device_side_assert',
    class: 'user.code_error',
    patterns: [/device-side assert triggered/, /\.cu:\d+: .{0,300}Assertion .{1,200} failed/, /Assertion `[^`]{1,200}` failed/, /Assertion t >= 0 && t < n_classes failed/, /index out of bounds/],
    strength: 90,
    sections: RUN_LOG_ONLY,
    why: 'a CUDA kernel assertion fired: an index or label outside its valid range (a data or code bug, not a GPU fault)',
    hint: 'A kernel assert fired, almost always an index or class label out of range (labels >= num_classes, token ids >= vocab size, negative targets). Re-run on CPU or with CUDA_LAUNCH_BLOCKING=1 to get the exact line, and check the label/vocab sizes in the config.',
  },
  {
    id: 'user.tensor_mismatch',
    class: 'user.code_error',
    patterns: [
      /The size of tensor a \(\d+\) must match the size of tensor b \(\d+\)/,
      /shapes cannot be multiplied/,
      /Expected all tensors to be on the same device/,
      /size mismatch for [\w.]+|Sizes of tensors must match/,
      /element \d+ of tensors does not require grad/,
      /Trying to backward through the graph a second time/,
      /modified by an inplace operation/,
      /Given groups=\d+, weight of size/,
      /index out of range in self/,
      /Expected input batch_size \(\d+\) to match target batch_size/,
      /expected scalar type \w+ but found \w+/,
      /(?:Missing|Unexpected) key\(s\) in state_dict/,
      // ATen's own checks (aten/src/ATen/native, TensorShape.cpp, Convolution.cpp, Loss.cpp, autograd).
      /shape '\[[^\]]{0,200}\]' is invalid for input of size \d+/,
      /Dimension out of range \(expected to be in range of/,
      /view size is not compatible with input tensor's size and stride/,
      /Input type \([\w.]{1,80}\) and weight type \([\w.]{1,80}\) should be the same/,
      /Expected \d+D \(unbatched\) or \d+D \(batched\) input to \w+, but got input of size|Expected \d+-dimensional input for \d+-dimensional weight/,
      /mat1 and mat2 must have the same dtype|Found dtype \w+ but expected \w+/,
      /stack expects each tensor to be equal size|Tensors must have same number of dimensions/,
      /Target size \(torch\.Size\(\[[^\]]{0,200}\]\)\) must be the same as input size/,
      /Boolean value of Tensor with more than one (?:value|element) is ambiguous|only one element tensors can be converted to Python scalars/,
      /Can't call numpy\(\) on Tensor that requires grad|can't convert cuda:\d+ device type tensor to numpy/,
      // autograd's own checks (torch/autograd/__init__.py _make_grads; ATen's matmul dtype check).
      /grad can be implicitly created only for scalar outputs/,
      /expected mat1 and mat2 to have the same dtype, but got: /,
    ],
    strength: 30,
    sections: RUN_LOG_ONLY,
    why: "a tensor shape, device or autograd error raised by the run's own model code",
    hint: 'A shape/device/autograd bug in the model code: the traceback frame in the project (not in torch) is where to look; check the batch and sequence lengths the data produces against fixed-size buffers.',
  },
  {
    id: 'user.traceback_exception',
    class: 'user.code_error',
    patterns: [FINAL_EXCEPTION_RE, INTERLEAVED_EXCEPTION_RE],
    // Node's fetch (undici lib/web/fetch/index.js) rejects with TypeError "fetch failed" (its [cause] is the
    // network error) and errors a body cut mid-stream with TypeError "terminated": no Python exception, and
    // no code bug (rules/client-vocab.ts reads them).
    unless: [...NOT_A_RAISE, PYTEST_REPORT_LINE, /\bTypeError: (?:fetch failed|terminated)\s*$/],
    strength: 20,
    sections: RUN_LOG_ONLY,
    extract: (_l, m): Extracted => ({ exception: m[1] }),
    why: "a Python exception from the run's own code, with no infrastructure failure behind it",
    hint: "An exception in the run's own code: fix it at the innermost project frame of the traceback.",
  },
  {
    // DeepSpeed's launcher (launcher/launch.py): once a child exits non-zero it kills the others
    // ("Killing subprocess N") and logs "<cmd> exits with return code = N". A positive code is the
    // child's own exit (an uncaught exception, sys.exit); a signal is a negative one (host rules).
    id: 'user.launcher_child_exit',
    class: 'user.code_error',
    patterns: [/\bexits with return code = ([1-9]\d{0,2})\b/],
    strength: 9,
    why: "DeepSpeed's launcher reports a training process that exited with a non-zero code of its own",
    hint: "A training process exited with a non-zero code of its own (an uncaught exception or sys.exit), and DeepSpeed's launcher then killed the others. Its traceback is in that process's output, above the launcher's lines.",
  },
  {
    // torchelastic's agent logging a worker that ended (multiprocessing/api.py: "failed (exitcode: N)
    // local_rank: N (pid: N) of binary: …"), before its ChildFailedError report. A positive code is the
    // worker's own exit (an uncaught exception, sys.exit): weakest, like DeepSpeed's launcher line; a
    // signal is a negative code, -9 / -15 read by the kill rules on the same line, any other one (-11
    // SIGSEGV, -6 SIGABRT) a native crash that names no class: read as nothing, so that the line's words
    // ("api: [ERROR] failed") are no vocabulary guess either.
    id: 'user.torchelastic_worker_exit',
    class: 'user.code_error',
    patterns: [/\bfailed \(exitcode: (-?\d{1,3})\) local_rank: \d+ \(pid: \d+\) of binary: /],
    strength: 9,
    extract: (_l, m): Extracted => (Number(m[1]) > 0 ? { exitCode: Number(m[1]) } : { classOverride: null }),
    why: "torchelastic reports a worker that exited with a non-zero code of its own",
    hint: "A worker exited with a non-zero code of its own (an uncaught exception or sys.exit) and torchrun stopped the others: the worker's traceback is above, or in its own log (torchrun --redirects 3 --log-dir, or the ChildFailedError report's error_file).",
  },
  {
    id: 'user.ray_task_error',
    class: 'user.code_error',
    patterns: [/RayTaskError\((\w+)\)/],
    strength: 22,
    sections: RUN_LOG_ONLY,
    extract: (_l, m): Extracted => {
      const cls = EXCEPTION_CLASS[m[1] ?? ''];
      return { exception: m[1], classOverride: cls ?? null };
    },
    why: 'a Ray task raised; the wrapped exception type names the failure',
    hint: 'A Ray remote task raised an exception; the traceback after the RayTaskError line shows where in the task code.',
  },
  {
    // Any other exception type ending a traceback (a library's own FooError, a project's exception
    // class): PEP 8 names exceptions …Error/…Exception, and CPython prints the last one as "Type: message"
    // right after the innermost frame. Weakest of all: any recognised wording in the bundle decides instead.
    id: 'user.traceback_other',
    class: 'user.code_error',
    // `main.<locals>.Foo` is how CPython qualifies a class defined in a function.
    // (No capture group: the ':' must stay part of the derived key, "Error:" rather than a bare "Error".)
    patterns: [/(?:^|[\s:(\]>|])(?:(?:[A-Za-z_]\w{0,40}|<locals>)\.){0,8}[A-Z]\w{0,80}(?:Error|Exception|Failure|Fault):(?: |$)/],
    unless: [/\bexcept\b|\braise\b|^\s*#/, /Warning\b/, PYTEST_REPORT_LINE],
    raisedIn: 'any',
    catchAll: true,
    strength: 7,
    sections: RUN_LOG_ONLY,
    extract: (_l, m): Extracted => ({ exception: /(\w+):(?: |$)/.exec(m[0])?.[1] }),
    why: "a traceback ended in an exception raised by the run's code or a library it called, with no infrastructure signal anywhere",
    hint: "The run stopped on an exception that no more specific rule knows: read the exception message and the innermost project frame of the traceback (the last frame outside site-packages) for what the code or its input got wrong.",
  },
  {
    // An exception a worker raised, re-raised by its parent with the original type named: PyTorch's
    // ExceptionWrapper ("Caught KeyError in DataLoader worker process 0.", DataParallel's "Caught X in
    // replica N on device N."). The wrapped type decides, as for RayTaskError(X).
    id: 'user.worker_exception',
    class: 'user.code_error',
    patterns: [/\bCaught (\w{1,80}) in (?:DataLoader worker process \d+|replica \d+ on device \d+|pin memory thread)/],
    strength: 22,
    sections: RUN_LOG_ONLY,
    extract: (_l, m): Extracted => {
      const cls = EXCEPTION_CLASS[m[1] ?? ''];
      return { exception: m[1], classOverride: cls ?? null };
    },
    why: "a DataLoader worker (or DataParallel replica) raised; the wrapped exception type names the failure",
    hint: "A DataLoader worker raised in the dataset/collate code (the traceback after \"Original Traceback\" shows where): fix the data or the dataset's __getitem__ / collate_fn; num_workers=0 reproduces it in the main process.",
  },
  {
    id: 'user.traceback_generic',
    class: 'user.code_error',
    patterns: [/^(?:\[rank\d+\]:\s*)?(?:[A-Za-z_]\w{0,40}\.){0,6}(RuntimeError|Exception): \S/],
    unless: [/\bexcept\b|\braise\b/, /Warning\b/, PYTEST_REPORT_LINE],
    // Only counts at the end of a Python traceback with nothing more specific in the bundle (engine gate).
    catchAll: true,
    strength: 8,
    sections: RUN_LOG_ONLY,
    extract: (_l, m): Extracted => ({ exception: m[1] }),
    why: "a traceback ending in a bare RuntimeError/Exception raised by the run's own code, with no infrastructure signal",
    hint: "The run raised an exception of its own with no infrastructure failure around it: fix it at the innermost project frame of the traceback.",
  },
]);
