// Configuration, argument and capability checks that frameworks raise as plain Python exceptions
// (ValueError, AssertionError, RuntimeError, NotImplementedError, TypeError): the user's settings were
// rejected, which is `config.error`, not a bug in the run's code. Told from a code bug by mechanism, not by
// one log's wording:
//   1. where it was raised: the traceback's innermost frame is a validation site by the producers' own
//      naming conventions (VALIDATION_SITE below), in installed code or a framework checkout alike;
//   2. what it says: the message templates these checks are written in, read in the producers' source
//      (VALIDATION_TEMPLATES), counted only when the run's own code did not raise it: a ValueError from
//      the user's own helper in train.py stays `user.code_error` whatever it says.
// Both sit above the traceback catch-alls (usercode.ts) and below any infrastructure cause.
import { defineRules, type Extracted } from '../rule.js';
import { RUN_LOG_ONLY } from './sections.js';

/**
 * Validation sites, by the producers' own conventions. A frame is one when its function's name says it
 * validates settings wherever it is (Megatron `validate_args`, vLLM `_verify_args` /
 * `verify_with_parallel_config`, transformers `TrainingArguments._validate_args`, verl `_validate_config`,
 * LLaMA-Factory hparams/parser.py `_verify_model_args`, accelerate commands/launch.py `_validate_launch_command`),
 * or when a validator-shaped function (`__post_init__`, `validate*`, `verify*`, `check*`, `*_assertion`)
 * sits in a settings module (transformers training_args.py / configuration_*.py, TRL grpo_config.py,
 * DeepSpeed runtime/config.py `_batch_assertion`, vLLM config.py / config/*.py / engine/arg_utils.py,
 * Megatron training/arguments.py, verl workers/config/*.py).
 */
export const VALIDATION_SITE = {
  /** A function that names settings as what it checks. */
  // (Also the noun first: pyabsa's `config_check`, `args_validation`.)
  settingsValidator: /^_{0,2}(?:validate|verify|check|sanity_check)(?:_\w*?)?_?(?:args|arguments|argument|config|configs|cfg|settings|options|params|parameters|kwargs|command)(?:_\w+)?$|^_{0,2}(?:args|arguments|config|cfg|settings|params)_(?:check|checks|validation|verification)$/,
  /** A validator-shaped function: counts inside a settings module. */
  // (LLaMA-Factory's hparams/parser.py checks inside `get_train_args` / `_parse_train_args` themselves.)
  validator: /^(?:__post_init__|_{0,2}(?:validate|verify|check|assert)(?:_\w+)?|_{0,2}validate\w+|\w+_(?:assertion|check|checks|validation)|_?(?:get|parse)_\w{0,40}args)$/,
  /** A settings module by its file name or its folder. */
  // (accelerate keeps its plugin settings, each checked in __post_init__, in utils/dataclasses.py.)
  settingsModule: /[\\/]accelerate[\\/]utils[\\/]dataclasses\.py$|(?:^|[\\/])(?:config|configs|configuration|cfg|settings|arguments|args|arg_utils|training_args|\w+_config|\w+_configs|\w+_args|\w+_arguments|configuration_\w+|config_\w+)\.py$|[\\/](?:config|configs|hparams)[\\/][\w.-]{1,80}\.py$/,
} as const;

/** Whether a traceback frame (its file path and function) is a validation site (VALIDATION_SITE). */
export function isValidationSite(path: string, fn: string | null): boolean {
  if (!fn) return false;
  if (VALIDATION_SITE.settingsValidator.test(fn)) return true;
  return VALIDATION_SITE.validator.test(fn) && VALIDATION_SITE.settingsModule.test(path);
}

/** The exception types these checks raise, as the exception line names them (module-qualified or not, after a launcher's rank prefix). */
const CHECK_EXCEPTION = String.raw`(?:^|[\s:(\]>|])(?:[A-Za-z_]\w{0,40}\.){0,6}(?:ValueError|AssertionError|RuntimeError|NotImplementedError|TypeError|MisconfigurationException|(?:[A-Z]\w{0,40})?Config(?:uration)?Error|UsageError): `;

/** verl's ResourcePoolManager finding its Ray cluster short of GPUs (a gpuCount template; its own hint in config.validation_message). */
const VERL_RAY_GPUS = /\bTotal available GPUs [\d.]+ is less than total desired GPUs\b|\bResource pool \S{1,80}: \d+\*\d+ ?cannot be satisfied in this ray cluster\b/;

/**
 * The message templates of settings checks, each read in its producers' source (the source is named
 * per family). Each family is matched in the message of an exception line of CHECK_EXCEPTION.
 */
export const VALIDATION_TEMPLATES = {
  // TRL grpo_config.py / grpo_trainer.py ("must be evenly divisible by the number of generations per
  // prompt", "generation_batch_size (…) must be divisible by num_generations"), Megatron
  // training/arguments.py validate_args ("should be divisible by", "must be divisible pipeline model
  // parallel size", "world size (…) is not divisible by"), vLLM config ("must be divisible by tensor
  // parallel size"), transformers training_args.py ("is not a round multiple of the evaluation steps").
  divisibility: /\b(?:must|should|needs? to|has to) be (?:evenly |exactly )?divisible\b|\bis not (?:evenly )?divisible by\b|\b(?:must|should) be a (?:round )?multiple of\b|\bis not a (?:round )?multiple of\b/,
  // transformers training_args.py ("At most one of fp16 and bf16 can be True, but not both"), TRL
  // ("can not be both configured at the same time", "is incompatible with"), vLLM arg_utils ("are mutually
  // exclusive", "cannot be used together").
  // LLaMA-Factory hparams/parser.py ("Adapter is only valid for the LoRA method", "Quantization is only
  // compatible with the LoRA method").
  // Lightning trainer/connectors/accelerator_connector.py ("accelerator set through both strategy class and
  // accelerator flag, choose one", "… but this is not allowed. Choose one or the other.").
  // vLLM config/parallel.py ("Elastic EP is only supported with enable_eplb=True.").
  // transformers modeling_utils ("DeepSpeed Zero-3 is not compatible with `low_cpu_mem_usage=True`"), vLLM ("Elastic EP
  // is not compatible with data_parallel_hybrid_lb"): not compatible with a named setting (a tensor's shape is not).
  exclusive: /\bis not compatible with (?:`|--|[a-z]\w{0,40}_\w{1,40}|\w{1,40}=)|\bis only (?:valid|compatible|supported) (?:for|with|when|in)\b|\b[Cc]hoose one(?: or the other)?\b|\bcan ?not be (?:both )?(?:used|set|configured|enabled|specified|passed|provided)(?: together| at the same time| simultaneously)|\bare mutually exclusive\b|\bAt most one of \S{1,80} and \S{1,80} can be\b|\b[Oo]nly one of .{1,120}? (?:can|should|must) be (?:set|specified|provided|passed|used|True|enabled)\b|\bis incompatible with\b|\bcan ?not be simultaneously (?:enabled|used|set|specified)\b|\bcannot specify (?:an? |the )?\w{1,40} in the (?:config|configuration)(?: file)? and in the code at the same time\b/,
  // A value outside its allowed set: vLLM ("Unknown quantization method … Must be one of"), TRL
  // ("Possible values are 'token' and 'sequence'"), Python's enum.py ("'x' is not a valid IntervalStrategy",
  // how TrainingArguments.__post_init__ rejects a strategy or optimizer name).
  // Lightning ("You selected an invalid strategy name: `strategy='dp'`", "`Trainer(devices=0)` value is not a
  // valid input using cuda accelerator").
  // HF datasets builder.py ("BuilderConfig 'en' not found. Available: ['20220301.de', …]").
  // accelerate ("Unknown mixed_precision mode: bf32. Choose between ['no', 'fp8', 'fp16', 'bf16']").
  choice: /\b(?:[Mm]ust|[Ss]hould) be (?:one of|either|in) [\[('"`{]|\bChoose (?:between|from|one of):? [\[('"`{]|\bUnsupported [a-z]\w{0,40}_\w{1,40} value\b|\bnot found\. Available(?: configs| options| names)?: \[|\b(?:selected|passed|provided|specified|gave|set) an invalid\b|\bis not a valid (?:input|value|option|choice|name)\b|\b(?:Possible|Available|Supported|Valid|Allowed) (?:values|options|choices) (?:are|is)\b|'[^']{0,120}' is not a valid [A-Z]\w{0,60}$/,
  // The hardware a setting needs: flash-attn ("FlashAttention only supports Ampere GPUs or newer"),
  // transformers training_args.py ("Your setup doesn't support bf16/gpu", "--tf32 requires Ampere or a
  // newer GPU arch"). The user asked for a precision or kernel the GPU does not have: a setting to change
  // (TAXONOMY: config). vLLM's bf16 check is cuda.ts's arch mismatch.
  // flash-attn's kernel checks (csrc/flash_attn: "FlashAttention backward for head dim > 192 requires A100/A800 or
  // H100/H800", "FlashAttention only support fp16 and bf16 data type").
  capability: /\bonly supports? (?:Ampere|Hopper|Turing|Volta|Ada|Blackwell|sm_?\d{2}|GPUs? with compute capability|fp16|bf16)|\brequires (?:an? )?(?:A100|H100|H800|A800|Ampere|Hopper|sm_?\d{2}|compute capability)\b|\b(?:Ampere|Hopper|Turing)(?:\+| or (?:a )?newer| or higher| or later)|\bdoesn't support bf16\b|\bdoes not support bf16\b/,
  // vLLM's input and engine checks against max_model_len ("Prompt length of N is longer than the maximum
  // model length of M", "The decoder prompt (length N) is longer than the maximum model length").
  modelLength: /\bis longer than the maximum model length\b/,
  // A setting naming what the model does not have: peft tuners_utils.py inject_adapter ("Target modules {'q_proj'}
  // not found in the base model. Please check the target modules and try again.").
  modelParts: /\bnot found in the base model\b/,
  // More GPUs asked for than the node has: vLLM config/parallel.py ("World size (8) is larger than the number of
  // available GPUs (4) in this node"), vLLM executor/ray_utils.py ("The number of required GPUs exceeds the total
  // number of available GPUs in the placement group."); verl's ResourcePoolManager against the Ray cluster
  // (trainer/ppo/ray_trainer.py _check_resource_available: "Total available GPUs 8.0 is less than total
  // desired GPUs 16", "Resource pool global_pool: 8*2cannot be satisfied in this ray cluster", no space in
  // current releases). Often the Ray worker nodes never joined the cluster (`ray status` shows it).
  gpuCount: new RegExp(String.raw`\b(?:is (?:larger|greater|bigger) than|exceeds) the (?:total )?number of (?:available |visible )?(?:GPUs|devices|CUDA devices)\b|${VERL_RAY_GPUS.source}`),
  // A feature the chosen settings do not support: vLLM arg_utils ("… is not supported by the V1 Engine"), TRL
  // ("GRPOTrainer does not support sequence-dim parallelism … yet"), Lightning ("strategies from the DDP
  // family are not supported on the MPS accelerator"). Only with what it is not supported with / by / on.
  unsupported: /\b(?:is|are) not (?:yet |currently )?supported (?:with|by|on|when|in combination with|together with|for (?:this|the current|multi|distributed|[\w-]{1,40} (?:models?|engine|backend|strategy|mode|accelerator|quantization|attention)))\b|\bdoes(?: not|n't) (?:yet |currently )?support (?:the |this |multi|distributed |sequence|tensor|pipeline|context|quantiz|LoRA|FSDP|DeepSpeed|bf16|fp16|fp8)/,
  // Bounds on a setting: verl fsdp_workers ("ppo_mini_batch_size 0 should be larger than 0 after
  // normalization"), transformers ("must be an integer bigger than 0"), TRL ("must be less than").
  // DeepSpeed runtime/config.py _batch_assertion ("Micro batch size per gpu: 0 has to be greater than 0").
  // transformers GenerationConfig.validate ("`temperature` (=0.0) has to be a strictly positive float").
  // vLLM config/scheduler.py verify_max_model_len ("max_num_batched_tokens (2048) is smaller than max_model_len
  // (4096)", "cannot be greater than the max_model_len"), config/parallel.py ("must be in the range [0, 2)").
  bound: /\b(?:must|should|has to|can ?not|may not) be (?:greater|larger|bigger|less|smaller|higher|lower|no (?:smaller|larger|greater|less)) than\b|\bis (?:smaller|less|larger|greater|bigger) than (?:the )?(?:max|min)\w{0,30}_\w{1,40}\b|\b(?:must|should) be (?:in|within) (?:the )?range\b|\b(?:must|should|has to) be (?:a )?(?:strictly )?(?:positive|non-negative|nonnegative|non-zero|an integer)\b|\b(?:must|should) be (?:>|>=|<|<=) ?-?\d/,
  // …or against another setting: verl ("train_batch_size (64) must be >= actor.ppo_mini_batch_size (256)"),
  // OpenRLHF ("actor_num_nodes * actor_num_gpus_per_node must be equal to vllm_num_engines * …", "rloo
  // requires n_samples_per_prompt > 1").
  // DeepSpeed ("requires a positive value for"), Ray ("Resource quantities may not be negative").
  boundBySetting: /\brequires a (?:positive|non-negative|non-zero) value for\b|\b(?:[a-z]\w{0,40}_\w{1,40}|[Rr]esource quantities|`[^`]{1,60}`) (?:can ?not|may not|must not) be negative\b|\(\d+\) (?:must|should) be (?:>|>=|<|<=|equal to) [a-z]\w{0,40}[._]\w{1,60} \(\d+\)|\b[a-z]\w{0,40}_\w{1,40}(?: \* [a-z]\w{0,40}_\w{1,40})? must be equal to [a-z]\w{0,40}_\w{1,40}\b|\brequires [a-z]\w{0,40}_\w{1,60} ?(?:>|>=|<|<=|==) ?-?\d/,
  // A setting that another one needs: transformers ("requires either non-zero --eval_steps or
  // --logging_steps", "--load_best_model_at_end requires the save and eval strategy to match"), TRL
  // ("must be set when `vllm_importance_sampling_mode` is"). A message that names a command-line flag
  // (`--name`) is about the command line.
  // DeepSpeed runtime/config.py ("Either train_batch_size or train_micro_batch_size_per_gpu needs to be
  // provided"), verl workers/config ("Please set at least one of 'a' or 'b'", "You have set both 'a' AND 'b'").
  // (The flag is told by what precedes it, a space the exception line's "Error: " may already have taken.)
  required: /\b(?:must|should|needs to) be (?:set|specified|provided|given|passed|enabled|disabled) (?:when|if|for|to|in|with)\b|\bis required (?:when|if|for)\b|(?<![\w-])--[a-z][\w-]{1,60}\b|\bEither \S{1,80} or \S{1,80} (?:needs? to|must|should) be (?:provided|set|specified|given)\b|\bPlease set (?:at least )?one of '|\bYou have set both '|\byou must (?:enable|disable|set|specify|provide) [`'"]|\brequires the [A-Z][A-Z0-9_]{2,60} environment variable\b|\benvironment variable [`'"]?[A-Z][A-Z0-9_]{2,60}[`'"]? (?:is not set|must be set)\b/,
} as const;

const templateRe = (family: RegExp): RegExp => new RegExp(`${CHECK_EXCEPTION}.{0,400}?(?:${family.source})`);

/** Lines that only quote a check (source shown under a frame, a handler) or are warnings. */
const NOT_RAISED = [/\bexcept\b|\braise\b|^\s*#|\bassert\b/, /Warning\b/];

export const validationRules = defineRules([
  {
    // 1. The exception was raised in a validation site: whatever it says, the settings were rejected.
    id: 'config.validation_site',
    class: 'config.error',
    // Any exception type (a bare `assert` prints AssertionError with no message).
    patterns: [/(?:^|[\s:(\]>|])(?:[A-Za-z_]\w{0,40}\.){0,6}[A-Z]\w{0,80}(?:Error|Exception):(?:\s|$)/, /(?:^|[\s:(\]>|])AssertionError$/],
    unless: NOT_RAISED,
    raisedIn: 'validation-site',
    strength: 46,
    sections: RUN_LOG_ONLY,
    why: "a framework's configuration or argument check rejected the settings (the exception was raised in its validation code)",
    hint: "A framework's own argument/config check rejected the run's settings before or while it started: the message names the setting; change the config or command line (its innermost frame is the check, the frames above it show which config object was built).",
  },
  {
    // 3. An exception class that says it is about configuration: DeepSpeed's DeepSpeedConfigError and
    // ElasticityConfigError (runtime/config.py, elasticity/config.py), torchtune's ConfigError
    // (config/_errors.py), Lightning's MisconfigurationException (fabric/utilities/exceptions.py: "used to
    // inform users of misuse with Lightning"). OmegaConf's Config*Error classes are config.omegaconf's.
    id: 'config.validation_exception',
    class: 'config.error',
    patterns: [/(?:^|[\s:(\]>|])(?:[A-Za-z_]\w{0,40}\.){0,6}(?:[A-Z]\w{0,40})?(?:Config|Configuration)Error(?::\s|:$|$)|\bMisconfigurationException(?::\s|:$|$)/],
    unless: NOT_RAISED,
    strength: 46,
    sections: RUN_LOG_ONLY,
    why: 'a framework raised its configuration-error exception: the settings were rejected',
    hint: "The framework rejected the run's configuration (its own configuration-error exception): the message names the setting; fix the config file or command line.",
  },
  {
    // 4. A bare `assert` whose condition is a divisibility of two quantities (`assert self.n_batch %
    // self.nminibatches == 0`, `assert hidden_size % num_heads == 0`), as Python echoes the failing statement
    // under its frame line in a traceback (the exception line is a bare "AssertionError" with no message to
    // read). Such an assert checks that settings fit each other: batch sizes, heads, world sizes.
    id: 'config.divisibility_assert',
    class: 'config.error',
    patterns: [/^\s{2,}assert\s+\(?[\w.\[\]()'" *+-]{1,160}\s%\s[\w.\[\]()'" *+-]{1,160}\)?\s*==\s*0\b/],
    // Below config.validation_message: an assert with a message is read by its message.
    strength: 42,
    sections: RUN_LOG_ONLY,
    why: 'an assert that two settings divide evenly failed: the configuration does not fit itself',
    hint: 'A divisibility assert failed (the traceback shows `assert a % b == 0`): one setting must be a multiple of another (batch size vs minibatches or GPUs, hidden size vs heads). Change the config so the two divide evenly.',
  },
  {
    // 2. The message is a settings check's, and the run's own code did not raise it.
    id: 'config.validation_message',
    class: 'config.error',
    patterns: Object.values(VALIDATION_TEMPLATES).map(templateRe),
    // (A Python object lacking an operation is the code's own doing, whoever raised it.)
    unless: [...NOT_RAISED, /\bobject does not support\b|\bobject is not (?:subscriptable|callable|iterable)\b/],
    raisedIn: 'not-own',
    strength: 44,
    sections: RUN_LOG_ONLY,
    // verl's check counts the GPUs of the Ray cluster it joined: short of them, the worker nodes often never
    // joined it (ray start --address on each, ray.init(address="auto")) rather than the config asking too much.
    extract: (line): Extracted =>
      VERL_RAY_GPUS.test(line)
        ? { hint: "verl found fewer GPUs in its Ray cluster than its resource pools ask for (trainer.n_gpus_per_node × trainer.nnodes): check `ray status` first. If the cluster is short of nodes, the worker nodes never joined it (`ray start --address=<head>:6379` on each, the driver's ray.init(address=\"auto\")); if the cluster is complete, lower n_gpus_per_node / nnodes to what it has." }
        : {},
    why: "a framework rejected the settings: the message is a configuration check's (divisibility, allowed values, bounds, GPU capability, exclusive or required options)",
    hint: "A framework's argument/config check rejected the run's settings: the message names the settings that do not fit (batch sizes vs GPU count, a value outside its allowed set, a precision or kernel this GPU lacks, options that exclude each other). Change the config or command line accordingly.",
  },
]);
