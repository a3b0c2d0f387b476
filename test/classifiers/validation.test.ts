// Settings checks raised as plain Python exceptions (rules/validation.ts): told from a bug in the run's code
// by where they were raised (a validation site) or by the message template of the producer's check, never
// when the run's own helper raised it. Tracebacks are CPython's format, raised from the producers' real
// function names and files; messages are the templates in each producer's source (values filled in).
import { describe, expect, it } from 'vitest';
import { parseTracebacks } from '../../src/capture/collectors/exceptions.js';
import { isValidationSite } from '../../src/classifiers/rules/validation.js';
import { classifyFiles, classifyText } from './helpers.js';

const SP = '/opt/conda/lib/python3.10/site-packages';
const tb = (...lines: string[]): string => ['Traceback (most recent call last):', ...lines].join('\n');

// transformers: HfArgumentParser builds TrainingArguments; the dataclass __init__ (`<string>`) calls
// __post_init__, which calls _validate_args (training_args.py).
const trainingArgs = tb(
  '  File "/workspace/sft/run_sft.py", line 88, in <module>',
  '    main()',
  '  File "/workspace/sft/run_sft.py", line 41, in main',
  '    model_args, data_args, training_args = parser.parse_args_into_dataclasses()',
  `  File "${SP}/transformers/hf_argparser.py", line 358, in parse_args_into_dataclasses`,
  '    obj = dtype(**inputs)',
  '  File "<string>", line 135, in __init__',
  `  File "${SP}/transformers/training_args.py", line 1602, in __post_init__`,
  '    self._validate_args()',
  `  File "${SP}/transformers/training_args.py", line 1710, in _validate_args`,
  '    raise ValueError(f"logging strategy {self.logging_strategy} requires non-zero --logging_steps")',
  'ValueError: logging strategy steps requires non-zero --logging_steps',
);

// Megatron run from its checkout (not site-packages): validate_args in megatron/training/arguments.py.
const megatronCheckout = tb(
  '  File "/workspace/Megatron-LM/pretrain_gpt.py", line 262, in <module>',
  '    pretrain(',
  '  File "/workspace/Megatron-LM/megatron/training/training.py", line 288, in pretrain',
  '    initialize_megatron(',
  '  File "/workspace/Megatron-LM/megatron/training/initialize.py", line 72, in initialize_megatron',
  '    validate_args(args, args_defaults)',
  '  File "/workspace/Megatron-LM/megatron/training/arguments.py", line 997, in validate_args',
  '    assert num_layers % args.transformer_pipeline_model_parallel_size == 0, \\',
  'AssertionError: Number of layers should be divisible by the pipeline-model-parallel size',
);

// DeepSpeed: DeepSpeedConfig._batch_assertion (runtime/config.py) under deepspeed.initialize.
const deepspeedBatch = tb(
  '  File "/home/u/proj/train.py", line 120, in <module>',
  '    engine, _, _, _ = deepspeed.initialize(model=model, config="ds_config.json")',
  `  File "${SP}/deepspeed/__init__.py", line 179, in initialize`,
  '    config_class = DeepSpeedConfig(config, mpu, mesh_device=mesh_device)',
  `  File "${SP}/deepspeed/runtime/config.py", line 724, in __init__`,
  '    self._configure_train_batch_size()',
  `  File "${SP}/deepspeed/runtime/config.py", line 1003, in _configure_train_batch_size`,
  '    self._batch_assertion()',
  `  File "${SP}/deepspeed/runtime/config.py", line 933, in _batch_assertion`,
  '    assert (micro_batch > 0), f"Micro batch size per gpu: {micro_batch} has to be greater than 0"',
  'AssertionError: Micro batch size per gpu: 0 has to be greater than 0',
);

// TRL: GRPOConfig.__post_init__ (trl/trainer/grpo_config.py), under torchrun's rank prefix.
const grpoConfig = [
  '[rank0]: Traceback (most recent call last):',
  '[rank0]:   File "/workspace/open-r1/src/open_r1/grpo.py", line 301, in <module>',
  '[rank0]:     script_args, training_args, model_args = parser.parse_args_and_config()',
  `[rank0]:   File "${SP}/trl/scripts/utils.py", line 210, in parse_args_and_config`,
  '[rank0]:     output = self.parse_args_into_dataclasses(args=args, return_remaining_strings=return_remaining_strings)',
  `[rank0]:   File "${SP}/transformers/hf_argparser.py", line 358, in parse_args_into_dataclasses`,
  '[rank0]:     obj = dtype(**inputs)',
  '[rank0]:   File "<string>", line 190, in __init__',
  `[rank0]:   File "${SP}/trl/trainer/grpo_config.py", line 1117, in __post_init__`,
  '[rank0]:     raise ValueError(',
  '[rank0]: ValueError: GRPO requires at least 2 generations per prompt to calculate the advantages. You provided 1, which is less than the minimum required.',
].join('\n');

// verl: the actor worker normalises its batch sizes in ActorRolloutRefWorker.__init__ (fsdp_workers.py, not
// a validation site by name): the message template decides.
const verlWorker = tb(
  `  File "${SP}/ray/_private/worker.py", line 2961, in get`,
  '    values, debugger_breakpoint = worker.get_objects(',
  `  File "${SP}/verl/workers/fsdp_workers.py", line 256, in __init__`,
  '    assert self.config.actor.ppo_mini_batch_size % self.config.actor.ppo_micro_batch_size_per_gpu == 0, (',
  'AssertionError: normalized ppo_mini_batch_size 6 should be divisible by ppo_micro_batch_size_per_gpu 4',
);

describe('a settings check raised where the producer validates its settings (config.validation_site)', () => {
  it.each([
    ['transformers TrainingArguments._validate_args', trainingArgs],
    ['Megatron validate_args, run from a checkout (the run\'s own tree)', megatronCheckout],
    ['DeepSpeed DeepSpeedConfig._batch_assertion', deepspeedBatch],
    ['TRL GRPOConfig.__post_init__ under a rank prefix', grpoConfig],
  ])('%s is config.error', (_name, log) => {
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]?.rule).toBe('config.validation_site');
  });

  it('knows the sites by the producers\' naming, and not a library\'s input checks', () => {
    expect(isValidationSite(`${SP}/transformers/generation/configuration_utils.py`, 'validate')).toBe(true);
    expect(isValidationSite(`${SP}/llamafactory/hparams/parser.py`, 'get_train_args')).toBe(true);
    expect(isValidationSite(`${SP}/vllm/config.py`, '_verify_args')).toBe(true);
    expect(isValidationSite(`${SP}/vllm/config/parallel.py`, '__post_init__')).toBe(true);
    expect(isValidationSite(`${SP}/vllm/engine/arg_utils.py`, '_check_feature_supported')).toBe(true);
    expect(isValidationSite(`${SP}/llamafactory/hparams/parser.py`, '_verify_model_args')).toBe(true);
    expect(isValidationSite(`${SP}/verl/workers/config/actor.py`, 'validate')).toBe(true);
    expect(isValidationSite(`${SP}/accelerate/commands/launch.py`, '_validate_launch_command')).toBe(true);
    expect(isValidationSite(`${SP}/accelerate/utils/dataclasses.py`, '__post_init__')).toBe(true);
    // Python's own dataclasses module is not a settings module.
    expect(isValidationSite('/usr/lib/python3.10/dataclasses.py', '__post_init__')).toBe(false);
    // torch's BatchNorm checks the user's tensor, a distribution its sample: not settings.
    expect(isValidationSite(`${SP}/torch/nn/modules/batchnorm.py`, '_check_input_dim')).toBe(false);
    expect(isValidationSite(`${SP}/torch/distributions/distribution.py`, '_validate_sample')).toBe(false);
    // A checkpoint helper in a config module is not a check.
    expect(isValidationSite(`${SP}/deepspeed/runtime/config.py`, 'checkpoint_tag_validation_enabled')).toBe(false);
    expect(isValidationSite('/workspace/proj/train.py', 'build_loader')).toBe(false);
  });
});

it("vLLM SchedulerConfig.verify_max_model_len (config/scheduler.py) is a validation site", () => {
  const log = tb(
    `  File "${SP}/vllm/engine/arg_utils.py", line 1402, in create_engine_config`,
    '    scheduler_config = SchedulerConfig(',
    `  File "${SP}/vllm/config/scheduler.py", line 190, in __post_init__`,
    '    self.verify_max_model_len(max_model_len)',
    `  File "${SP}/vllm/config/scheduler.py", line 205, in verify_max_model_len`,
    '    raise ValueError(',
    'ValueError: max_num_batched_tokens (2048) is smaller than max_model_len (32768). This effectively limits the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences. Please increase max_num_batched_tokens or decrease max_model_len.',
  );
  const d = classifyText(log);
  expect(d.class).toBe('config.error');
  expect(d.evidence[0]?.rule).toBe('config.validation_site');
  // Its message is a check's template too, without the frames.
  expect(classifyText(log.split('\n').at(-1)!).evidence[0]?.rule).toBe('config.validation_message');
});

describe("a settings check's message from installed code or with no frames (config.validation_message)", () => {
  it.each([
    ['verl worker batch normalisation (library frame)', verlWorker],
    // transformers' TF32 check, as a Ray worker prints the exception line without its frames.
    ['transformers tf32 on a pre-Ampere GPU', '(TaskRunner pid=4121) ValueError: --tf32 requires Ampere or a newer GPU arch, cuda>=11 and torch>=1.7'],
    // flash-attn's C++ TORCH_CHECK on a pre-Ampere GPU.
    ['flash-attn capability check', '[rank3]: RuntimeError: FlashAttention only supports Ampere GPUs or newer.'],
    // vLLM's engine input check against max_model_len.
    ['vLLM prompt against max_model_len', 'ValueError: The decoder prompt (length 9120) is longer than the maximum model length of 8192. Make sure that `max_model_len` is no smaller than the number of text tokens.'],
    // TRL's option checks.
    ['TRL exclusive options', "ValueError: 'generation_batch_size' and 'steps_per_generation' can not be both configured at the same time"],
    ['TRL allowed values', "ValueError: Unknown importance sampling level: tokens. Possible values are 'token' and 'sequence'."],
    // transformers' enum conversion of a strategy name in TrainingArguments.__post_init__ (Python's enum.py raises it).
    ['an enum setting with an unknown name', "ValueError: 'epochs' is not a valid IntervalStrategy"],
    // LLaMA-Factory's hparams checks.
    ['LLaMA-Factory method check', 'ValueError: Quantization is only compatible with the LoRA method.'],
    // Lightning's accelerator connector (trainer/connectors/accelerator_connector.py), its own exception type.
    ['Lightning invalid strategy name', "ValueError: You selected an invalid strategy name: `strategy='dpp'`. It must be either a string or an instance of `lightning.pytorch.strategies.Strategy`. Example choices: auto, ddp, ddp_spawn, deepspeed, ..."],
    ['Lightning strategy unsupported on the accelerator', 'ValueError: You set `strategy=ddp` but strategies from the DDP family are not supported on the MPS accelerator. Either explicitly set `accelerator=\'cpu\'` or change the strategy.'],
    // vLLM's ParallelConfig.__post_init__ as an engine process prints it without frames.
    ['vLLM more GPUs than the node has', '(EngineCore_DP0 pid=311) ValueError: World size (8) is larger than the number of available GPUs (4) in this node. If this is intentional and you are using:'],
    ['vLLM option only with another', 'ValueError: Elastic EP is only supported with enable_eplb=True.'],
    // flash-attn's kernel checks, transformers' loader, peft's adapter injection, HF datasets' builder.
    ['flash-attn head dim on a smaller GPU', '[rank1]: RuntimeError: FlashAttention backward for head dim > 192 requires A100/A800 or H100/H800'],
    ['transformers ZeRO-3 with an incompatible loading option', 'ValueError: DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True` or with passing a `device_map`.'],
    ['peft target modules the model lacks', "ValueError: Target modules {'query_key_value'} not found in the base model. Please check the target modules and try again."],
    ['datasets config name not there', "ValueError: BuilderConfig 'en' not found. Available: ['20220301.de', '20220301.en', '20220301.fr']"],
    // TRL GRPOTrainer's parallelism check.
    ['TRL unsupported parallelism', 'NotImplementedError: GRPOTrainer does not support sequence-dim parallelism (`parallelism_config.cp_size > 1` or `parallelism_config.sp_size > 1`) yet.'],
  ])('%s is config.error', (_name, log) => {
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]?.rule).toBe('config.validation_message');
  });

  it.each([
    // Lightning's accelerator connector, a setting given twice.
    ['Lightning MisconfigurationException', 'lightning.fabric.utilities.exceptions.MisconfigurationException: precision set through both strategy class and plugins, choose one'],
    // DeepSpeed's config readers (runtime/config.py get_checkpoint_tag_validation_mode).
    ['DeepSpeedConfigError', "deepspeed.runtime.config.DeepSpeedConfigError: Checkpoint config contains invalid tag_validation value of STRICT, expecting one of ['IGNORE', 'WARN', 'FAIL']"],
  ])('%s: an exception class that says configuration is config.error', (_name, log) => {
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]?.rule).toBe('config.validation_exception');
  });

  it('HfArgumentParser.parse_dict refusing keys no dataclass declares is an argument error', () => {
    const d = classifyText("ValueError: Some keys are not used by the HfArgumentParser: ['lora_tag', 'packing_mode']");
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]?.rule).toBe('config.argparse');
  });

  it('DeepSpeed\'s batch check still counts when a rich traceback wraps its message', () => {
    const d = classifyText('AssertionError: Check batch related parameters. train_batch_size is not\nequal to micro_batch_per_gpu * gradient_acc_step * world_size 32 != 2 * 4 * 2');
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]?.rule).toBe('config.batch_arithmetic');
  });

  it('the same check recorded in exceptions.json by the capture agent keeps its site', () => {
    const records = parseTracebacks(deepspeedBatch, 'logs/rank0.log');
    expect(records).toHaveLength(1);
    const d = classifyFiles({ 'exceptions.json': JSON.stringify(records) });
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]?.rule).toBe('config.validation_site');
  });
});

describe('a check that takes one rank down', () => {
  it("is the root cause of the other ranks' watchdog timeouts", () => {
    const log = [
      grpoConfig,
      '[rank1]:[E1202 06:10:41.311245 812 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=3, OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600088 milliseconds before timing out.',
    ].join('\n');
    const d = classifyText(log);
    expect(d.class).toBe('config.error');
    expect(d.evidence[0]?.rule).toBe('config.validation_site');
  });
});

describe('what stays a bug in the run\'s code', () => {
  it("a ValueError with a check's wording raised by the run's own helper is user.code_error", () => {
    const own = tb(
      '  File "/workspace/proj/train.py", line 210, in <module>',
      '    main()',
      '  File "/workspace/proj/train.py", line 180, in main',
      '    loader = build_loader(ds, cfg.batch_size)',
      '  File "/workspace/proj/train.py", line 61, in build_loader',
      '    raise ValueError(f"batch size must be divisible by {n_views}")',
      'ValueError: batch size must be divisible by 3',
    );
    const d = classifyText(own);
    expect(d.class).toBe('user.code_error');
    expect(d.evidence.map((e) => e.rule)).not.toContain('config.validation_message');
  });

  it("torch checking the user's tensor in a validator-named function is user.code_error", () => {
    const bn = tb(
      '  File "/workspace/proj/model.py", line 44, in forward',
      '    x = self.bn(x)',
      `  File "${SP}/torch/nn/modules/module.py", line 1553, in _call_impl`,
      '    return forward_call(*args, **kwargs)',
      `  File "${SP}/torch/nn/modules/batchnorm.py", line 138, in forward`,
      '    self._check_input_dim(input)',
      `  File "${SP}/torch/nn/modules/batchnorm.py", line 421, in _check_input_dim`,
      '    raise ValueError(f"expected 4D input (got {input.dim()}D input)")',
      'ValueError: expected 4D input (got 3D input)',
    );
    expect(classifyText(bn).class).toBe('user.code_error');
  });

  it("a library raising about a Python object the code misused is user.code_error, whatever the wording", () => {
    const lib = tb(
      '  File "/workspace/proj/train.py", line 30, in main',
      '    collate(batch)',
      `  File "${SP}/torch/utils/data/_utils/collate.py", line 171, in collate`,
      "TypeError: 'NoneType' object does not support item assignment",
    );
    expect(classifyText(lib).class).toBe('user.code_error');
  });

  it("torch's own 'not compatible with' about a tensor stays the shape error it is", () => {
    const d = classifyText("RuntimeError: view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
    expect(d.class).toBe('user.code_error');
    expect(d.evidence[0]?.rule).toBe('user.tensor_mismatch');
  });

  it('a quoted check (the source line under a frame, a handler) is not the check failing', () => {
    const quoted = [`  File "${SP}/trl/trainer/grpo_config.py", line 1110, in __post_init__`, '    raise ValueError(f"generation_batch_size ({x}) must be divisible by num_generations ({n}).")'].join('\n');
    expect(classifyText(quoted).evidence.map((e) => e.rule)).not.toContain('config.validation_message');
  });

  it('an infrastructure failure later in the same log still outranks the check', () => {
    const log = `${verlWorker}\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.10 GiB of which 1.10 GiB is free.`;
    expect(classifyText(log).class).toBe('cuda.oom');
  });
});
