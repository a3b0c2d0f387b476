// Configuration rejected before or while the run starts: Hydra/OmegaConf, argparse, missing required
// settings. These are the user's to fix, and are more specific than the traceback around them.
import { defineRules, type Extracted } from '../rule.js';
import { byAnswerer } from './answerer.js';
import { RUN_LOG_ONLY } from './sections.js';

/**
 * A host that is no host: empty, a null rendered as text (Python `None`, JS `null`/`undefined`, Go `nil`),
 * an unexpanded shell variable (`$MASTER_ADDR`, `${HEAD_IP}`), a `<placeholder>` or a documentation
 * name left in (`your-server`, RFC 2606 `example.com`, README `someserver`, `x.x.x.x`). A transport failure
 * to such an address is the launch configuration's: the variable was never set or the template never filled.
 */
const PLACEHOLDER_HOST = String.raw`(?:None|none|null|undefined|nil|\$\{?[A-Za-z_]\w{0,60}\}?|<[^<>\s]{1,40}>|your[-_][\w.-]{1,40}|(?:[\w-]{1,40}\.)*example\.(?:com|org|net)|some-?(?:server|host)|x{1,3}(?:\.x{1,3}){3})`;
const placeholder = (before: string, after: string): RegExp => new RegExp(before + PLACEHOLDER_HOST + after);

/** Ray's own port check (_private/services.py): "Ray component worker_ports is trying to use a port number 10002 that is used by other components." */
const RAY_PORT_CLASH = /Ray component \w{1,40} is trying to use a port number \d+ that is used by other components/;

export const configRules = defineRules([
  {
    // A transport failure whose own wording shows the address was never configured (PLACEHOLDER_HOST, or
    // an empty host): Ray's GCS client (src/ray/rpc/gcs_rpc_client.h "Failed to connect to GCS at address
    // <host>:<port> within N seconds", python/ray/_private/node.py "Failed to connect to GCS at
    // address=<addr>") after `ray start --address=:6379` with an unset head variable; PyTorch c10d
    // (torch/csrc/distributed/c10d/socket.cpp "The client socket has failed to connect to any network
    // address of (<host>, <port>)", "… has timed out after Ns while trying to connect to (<host>, <port>)")
    // with MASTER_ADDR rendered as None; NCCL's socket layer (src/misc/socket.cc ncclSocketInit
    // "connecting to address %s with family %d is neither AF_INET(2) nor AF_INET6(10)") given an address
    // that was never filled in (empty, garbage family: NCCL_SOCKET_IFNAME naming an interface the host
    // lacks); a DNS lookup of a placeholder name (curl "Could not resolve host: someserver", urllib3
    // "Failed to resolve 'None'", Node "getaddrinfo ENOTFOUND undefined"). The network is fine; the
    // address is not one.
    id: 'config.placeholder_address',
    class: 'config.error',
    patterns: [
      /Failed to connect to GCS at address[ =]?:\d{1,5}\b/,
      placeholder('Failed to connect to GCS at address[ =]?', ':\\d{1,5}\\b'),
      /failed to connect to any network address of \(\s*, \d{1,5}\)|while trying to connect to \(\s*, \d{1,5}\)/,
      placeholder('(?:failed to connect to any network address of|while trying to connect to) \\(\\s*', ', \\d{1,5}\\)'),
      /ncclSocketInit: connecting to address\s+with family \d+ is neither AF_INET/,
      placeholder("(?:Could not resolve host: |Failed to resolve '|getaddrinfo (?:ENOTFOUND|EAI_AGAIN) |HTTPS?ConnectionPool\\(host=')", "(?:['\\s),:]|$)"),
    ],
    strength: 85,
    sections: RUN_LOG_ONLY,
    extract: (line) =>
      /GCS at address/.test(line)
        ? { hint: 'Ray was pointed at a GCS address with no real host (an empty or placeholder head address: `ray start --address=:6379`, `ray.init(address="None:6379")`): the variable holding the head node\'s IP was unset or never filled. Set it to the head\'s reachable IP (the one `ray start --head` printed) on every worker.' }
        : /ncclSocketInit/.test(line)
          ? { hint: 'NCCL tried to connect to an address that was never filled in (empty address, garbage family): usually NCCL_SOCKET_IFNAME (or NCCL_OOB_NET_IFNAME) names an interface this host does not have, so NCCL found no address to use. Set it to an interface `ip addr` lists on every node, or unset it.' }
          : {},
    why: 'a connection or lookup went to an address with an empty or placeholder host, so the launch configuration never set it',
    hint: 'The address the run connected to has no real host (empty, None, an unexpanded $VARIABLE, a placeholder from an example): set the variable or setting that names the server (MASTER_ADDR, the Ray head address, the endpoint URL) to the real host.',
  },
  {
    // A file the run opens under a path that was never filled in: CPython's ENOENT text ("[Errno 2] No such
    // file or directory: '<path>'") for a path that is a documentation placeholder ("your_data_path",
    // "/path/to/model", "<dataset_dir>"; a "your…" name only when it ends in path/dir/folder: real folders
    // such as yourtts_model or your_project_files do not), an unexpanded shell variable (Python does not expand "$DATA_DIR"),
    // or an unset setting rendered into it ("None/train.json"). The launch settings, not the code, are wrong.
    id: 'config.placeholder_path',
    class: 'config.error',
    patterns: [
      /No such file or directory: '(?:[^']{0,200}[\\/])?(?:your[_-]?(?:[a-z]{1,20}[_-])?(?:path|dir|directory|folder)|YOUR[_-]?(?:[A-Z]{1,20}[_-])?(?:PATH|DIR|DIRECTORY|FOLDER)|path[\\/]to|<[\w -]{1,40}>|\$\{?[A-Z_][A-Z0-9_]{1,40}\}?|None)(?:[\\/'])/,
    ],
    strength: 70,
    sections: RUN_LOG_ONLY,
    why: 'a path the run opens is a placeholder or an unset setting (never filled in), so the launch settings are wrong',
    hint: "The run opened a path that was never set: a placeholder copied from an example (your_data_path, /path/to/…, <dir>), a shell variable that was not expanded (Python does not expand $VAR in strings; export it and pass it through the shell), or an unset setting rendered as None. Set the data/model path argument to the real location.",
  },
  {
    id: 'config.omegaconf',
    class: 'config.error',
    patterns: [
      // omegaconf/errors.py and hydra/errors.py class names.
      /\b(?:ConfigAttributeError|ConfigKeyError|ConfigTypeError|ConfigValueError|ConfigIndexError|MissingMandatoryValue|ConfigCompositionException|MissingConfigException|InterpolationResolutionError|InterpolationKeyError|InterpolationToMissingValueError|InterpolationValidationError|UnsupportedInterpolationType|OverrideParseException|KeyValidationError|ReadonlyConfigError|ConfigCycleDetectedException|GrammarParseError|UnsupportedValueType)\b/,
      // OmegaConf's messages as Hydra prints them without HYDRA_FULL_ERROR (the message alone, then
      // format_and_raise's "    full_key: …" / "    object_type=…" block).
      /Missing mandatory value: \S/,
      /Value '[^']{0,200}' (?:of type '[^']{1,100}' )?(?:could not be converted to (?:Integer|Float|Boolean|Path|String)|is incompatible with type hint ')/,
      /Invalid value '[^']{0,200}', expected one of \[/,
      /Interpolation key '[^']{1,200}' not found|Unsupported interpolation type \w/,
      // (Indented under OmegaConf's errors; flush left under Hydra's instantiate errors, _with_full_key.)
      /^\s{0,8}full_key: [\w.\[\]-]{1,300}$/,
      // The override grammar's parse error and the pointer Hydra appends to it.
      /mismatched input '[^']{1,100}' expecting |See https:\/\/hydra\.cc\/docs\/[\w./]{0,40}override_grammar/,
      // Hydra's own composition and override errors (hydra/_internal/config_loader_impl.py, defaults_list.py,
      // core/override_parser): a config group option or primary config that is not there, an override it
      // cannot apply or parse.
      /^(?:In '[^']{1,200}': )?Could not (?:find|load) '[^']{1,200}'\.?$/,
      /Cannot find primary config '[^']{0,200}'\. Check that it's in your config search path|Primary config directory not found\./,
      /^Available options in '[^']{1,200}':$/,
      /looks like a config group override, but config group '[^']{1,200}' does not exist/,
      /Error parsing override '|Could not delete from config\.|Could not delete '[^']{1,200}'\. No match in the defaults list/,
      /Multiple values for [\w/@.-]{1,200}\. To override a value use 'override /,
      /Error locating target '/,
      // Hydra's command-line checks (_internal/utils.py, core/override_parser, defaults_list.py): a sweep
      // without --multirun, a comma value it cannot read, a config group left unselected, a primary config
      // module that is not there, a searchpath set outside the primary config.
      /Sweep parameters '[^']{1,200}' requires --multirun|Ambiguous value for argument '[^']{1,200}'/,
      /^You must specify '[^']{1,200}', e\.g, [^\s=]{1,200}=<OPTION>/,
      /Primary config module '[^']{1,200}' not found\./,
      /Overriding hydra\.searchpath is only supported from the primary config/,
      // OmegaConf words it "Key 'x' is not in struct"; Hydra's own struct checks and older releases
      // print the lower-case "key 'x' is not in struct" followed by full_key/object_type lines.
      /[Kk]ey '[^']{1,200}' is not in struct/,
      /Could not override '|Could not append to config|Error merging override/,
      /\b(?:omegaconf|hydra)\.errors\.\w+/,
      /\bInstantiationException\b|Error in call to target '/,
      // (PyYAML's yaml/error.py MarkedYAMLError family: scanner, parser, composer, constructor.)
      /yaml\.(?:scanner\.ScannerError|parser\.ParserError|composer\.ComposerError|constructor\.ConstructorError)/,
      // A TOML config that does not parse (tomllib, the toml package).
      /\btomllib\.TOMLDecodeError\b|\btoml\.decoder\.TomlDecodeError\b/,
    ],
    unless: [/\bexcept\b/],
    strength: 85,
    sections: RUN_LOG_ONLY,
    why: 'Hydra/OmegaConf rejected the configuration',
    hint: "The config does not match its schema: the key is missing, misspelt or not declared in the structured config. Add it to the config (or use +key=value to append a new key) and check the config version the code expects.",
  },
  {
    id: 'config.argparse',
    class: 'config.error',
    patterns: [
      // CPython Lib/argparse.py ArgumentParser.error() messages ("prog: error: …"); jsonargparse capitalises them.
      /: error: (?:[Uu]nrecognized arguments|the following arguments are required|one of the arguments .{1,300} is required|argument [^:]{1,120}: (?:invalid|expected|conflicting|not allowed|ignored explicit argument)|ambiguous option|invalid choice)/,
      // transformers' HfArgumentParser refusing flags no dataclass declares.
      // (parse_args_into_dataclasses words it "specified arguments"; parse_dict / parse_yaml_file / parse_json_file "keys".)
      /Some (?:specified arguments|keys) are not used by the HfArgumentParser: /,
      // absl flags (FlagsError subclasses as absl.app reports them) and python-fire.
      /FATAL Flags parsing error: |\b(?:UnrecognizedFlagError|IllegalFlagValueError)\b|^ERROR: Could not consume arg: /,
      // click / typer (click/exceptions.py UsageError subclasses): "Error: No such option: --lr", "Error:
      // Missing option '--model'", "Error: Invalid value for '--lr': 'x' is not a valid float."
      /^(?:│ )?Error: (?:No such option: |Missing option '|Missing argument '|Invalid value for '|Got unexpected extra argument|No such command '|Option '[^']{1,60}' requires (?:an argument|\d+ arguments))/,
      // typer's rich help prints the same messages inside a box titled "Error" ("│ Missing argument 'name'. │").
      /^│ (?:No such option: |Missing option '|Missing argument '|Invalid value for '|No such command '|Got unexpected extra argument)/,
      // argparse's two commonest messages with the "prog:" before "error:" cut off (a launcher that injects
      // --local_rank into a script that does not declare it prints one per rank).
      /^\s*error: (?:unrecognized arguments: -|the following arguments are required: )/,
    ],
    strength: 85,
    sections: RUN_LOG_ONLY,
    why: 'the command line was rejected by argparse',
    hint: 'The launch command has flags the script does not accept: compare it with the script --help (flags are often renamed between versions).',
  },
  {
    // Components of one cluster or client built from different releases, refused by the component's own
    // version check: Ray's check_version_info ("Version mismatch: The cluster was started with: Ray: …
    // This process on node … was started with: …"), Ray client's "Python minor versions differ".
    id: 'config.version_mismatch',
    class: 'config.error',
    patterns: [/Version mismatch: The cluster was started with/, /Python minor versions differ between client and server/],
    strength: 85,
    sections: RUN_LOG_ONLY,
    why: "a component refused to talk to another built from a different release",
    hint: 'The processes of one cluster run different Ray/Python versions: install the same Ray (and Python minor) version on every node, the head, the client and the job image.',
  },
  {
    // An API key that is empty: the SDK sends "Authorization: Bearer " with nothing after it, which
    // h11 (under httpx/httpcore) refuses to send: "LocalProtocolError: Illegal header value b'Bearer '".
    id: 'config.empty_api_key',
    class: 'config.error',
    patterns: [/Illegal header value b'Bearer ?'/],
    strength: 82,
    why: 'the API key is empty, so the client could not even form its Authorization header',
    hint: 'The client was given an empty API key (Authorization: "Bearer " with no token): set the key variable (OPENAI_API_KEY / the harness key setting); a local server that needs no key still needs a non-empty placeholder.',
  },
  {
    // Slurm refusing a job or step as requested, as srun/sbatch/salloc print slurmctld's answer
    // (src/common/slurm_errno.c texts behind "Unable to allocate resources: ", "Batch job submission
    // failed: ", "Job submit/allocate failed: ", "Unable to create job step: "): no node, partition,
    // account or QOS can take the request as written. A controller that could not be reached ("Socket
    // timed out on send/recv operation") is not in the list: that is the network; nor is "Job violates
    // accounting/QOS policy (job submit limit, …)", most often a sweep at its submit quota, which passes.
    id: 'config.slurm_request',
    class: 'config.error',
    patterns: [
      /\b(?:srun|sbatch|salloc): error: (?:Unable to allocate resources|Batch job submission failed|Job submit\/allocate failed|Unable to create job step|Unable to create step for job \d+): (?:Requested node configuration is not available|Requested partition configuration not available now|Invalid account or account\/partition combination specified|Invalid partition name specified|Invalid generic resource \(gres\) specification|Invalid qos specification|Invalid feature specification|Requested time limit is invalid|Node count specification invalid|More processors requested than permitted|Memory required by task is not available|CPU count per node can not be satisfied|Access\/permission denied)/,
    ],
    strength: 78,
    why: 'Slurm refused the job as requested: no node, partition, account or QOS can satisfy it',
    hint: "Slurm rejected the request itself (its message says which part): the GPUs/memory/CPUs per node asked for exceed every node of the partition, or the partition, account, QOS, gres type or time limit is not valid for this user. Compare with `sinfo -O partition,gres:40,cpus,memory` and `sacctmgr show assoc user=$USER`, then resubmit; nothing ran.",
  },
  {
    // EADDRINUSE (errno 98, "Address already in use"): the port the run listens on (MASTER_PORT, a server
    // port) is taken by another process, usually an earlier run still alive or a second job on the host.
    // PyTorch's TCPStore words it "…failed to listen on any local network address… name: EADDRINUSE".
    id: 'config.port_in_use',
    class: 'config.error',
    patterns: [/\bEADDRINUSE\b|[Aa]ddress already in use/, RAY_PORT_CLASH],
    strength: 80,
    sections: RUN_LOG_ONLY,
    why: 'the port the run wanted to listen on is already taken on this host',
    extract: (line): Extracted => (RAY_PORT_CLASH.test(line) ? { hint: "Two Ray components were given the same port: usually one of Ray's own agent ports (dashboard agent, metrics export, runtime-env agent), picked at random, landed in the worker port range, so it comes and goes between runs. Pin those ports (--dashboard-agent-listen-port, --metrics-export-port, --runtime-env-agent-port) outside --min-worker-port/--max-worker-port." } : {}),
    hint: 'The port is already in use on this host (EADDRINUSE): an earlier run still holds it or two jobs share one MASTER_PORT / server port. Pick a free port per job (e.g. --master-port / --rdzv-endpoint with a job-specific port) and make sure old processes are gone.',
  },
  {
    // The server has no such route: the client's base URL or path is wrong (the OpenAI-compatible API lives
    // under /v1), not a model the server lacks. Go's net/http NotFound handler and gin's default 404 body
    // ("404 page not found": Ollama, Go gateways), Starlette's default 404 for an unmounted path
    // ({"detail":"Not Found"}: vLLM, SGLang, LiteLLM proxy, any FastAPI server), OpenAI's own API for a path
    // it does not serve ("Invalid URL (POST /v1/chat/completion)"). A model the server lacks is worded
    // otherwise (vLLM "The model `x` does not exist", Ollama "model 'x' not found"): gateway.4xx. Only as a
    // client reports the status (a 404 or an error word before the body): a command's bare output, a
    // registry's 404 page quoted by a pull and a test's assert are not it; a sandbox runtime's 404 is the
    // sandbox's (answerer.ts).
    id: 'config.endpoint_route',
    class: 'config.error',
    patterns: [/(?:\b404\b|[Ee]rror|ERROR|NotFound).{0,300}?\b404 page not found\b/, /(?:\b404\b|NotFound).{0,300}?["']detail["']:\s?["']Not Found["']/, /\bInvalid URL \((?:GET|POST|PUT|PATCH|DELETE) \/[^)\s]{0,200}\)/],
    unless: [/response body|from daemon|[Pp]ull(?:ing)? image|\/v2\/|registry/, /^\s*E\s|\bassert\b/],
    extract: byAnswerer(() => ({})),
    strength: 80,
    why: 'the server answered 404 for a route it does not have: the client called a wrong URL path',
    hint: "The server has no such route (a 404 for the path, not for a model): the client's base URL is wrong. OpenAI-compatible servers (vLLM, SGLang, Ollama, LiteLLM) serve under /v1 (base_url http://host:port/v1, the SDK appends /chat/completions); check the path the client printed against the server's routes.",
  },
  {
    // vLLM's OpenAI server refusing tool calls it was not launched for (entrypoints/openai/serving_chat.py:
    // "\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set"): a 400 that
    // names the server's own launch flags, so the serving configuration is what to change.
    id: 'config.server_launch_flag',
    class: 'config.error',
    patterns: [/\\?"auto\\?" tool choice requires --enable-auto-tool-choice and --tool-call-parser/],
    strength: 80,
    why: "the inference server rejected the request for a feature its launch flags did not enable",
    hint: 'The vLLM server was started without tool calling: relaunch it with --enable-auto-tool-choice and the --tool-call-parser of the model family (hermes, llama3_json, mistral, qwen3_coder …), or have the client send tool_choice other than "auto".',
  },
  {
    // Open MPI / PRRTE mapping more processes than the hosts declare slots for (help-orte-rmaps-base.txt,
    // prte help-prte-rmaps-base.txt "orte-rmaps-base:alloc-error": "There are not enough slots available
    // in the system to satisfy the N slots that were requested by the application"): mpirun / horovodrun
    // -np larger than the hostfile's or -H host:slots' count.
    id: 'config.mpi_slots',
    class: 'config.error',
    patterns: [/There are not enough slots available in the system to satisfy the \d+/],
    strength: 80,
    why: 'mpirun was asked for more processes than the hosts it was given declare slots for',
    hint: 'mpirun / horovodrun asked for more processes (-np) than the hosts it was given have slots: list the slots per host (-H localhost:8, or "host slots=8" in the hostfile), lower -np, or pass --oversubscribe if more processes than cores is intended.',
  },
  {
    // The SDKs refusing to build a client without a key: openai-python ("The api_key client option must be
    // set either by passing api_key to the client or by setting the OPENAI_API_KEY environment variable";
    // newer "Missing credentials. Please pass an `api_key` … or set the `OPENAI_API_KEY` … environment
    // variable"), anthropic-sdk-python ("Could not resolve authentication method. Expected either api_key
    // or auth_token to be set").
    id: 'config.missing_api_key',
    class: 'config.error',
    patterns: [/The api_key client option must be set either by passing api_key to the client or by setting the \w+ environment variable/, /Missing credentials\. Please pass an `api_key`/, /Could not resolve authentication method\. Expected either api_key or auth_token to be set/],
    strength: 84,
    why: 'the API client was created without an API key',
    hint: 'No API key reached the client: set the key variable the SDK names (OPENAI_API_KEY, ANTHROPIC_API_KEY) in the environment or the .env file the program loads, or pass api_key explicitly.',
  },
  {
    // pydantic v2's per-field error lines ("  Field required [type=missing, input_value={…}, input_type=dict]",
    // "Extra inputs are not permitted [type=extra_forbidden, …]"): a config or settings object rejected.
    id: 'config.pydantic_field',
    class: 'config.error',
    patterns: [
      // pydantic-core's error line: "<msg> [type=<ErrorType>, input_value=…, input_type=…]" (any ErrorType).
      /\[type=[a-z_]{2,60}, input_value=/,
      // pydantic v1: "field required (type=value_error.missing)", "extra fields not permitted (type=value_error.extra)".
      /\(type=(?:value_error|type_error)\.[\w.]{1,80}(?:; [^)]{0,200})?\)$/,
      // The header of a pydantic ValidationError on any model (vLLM's engine config is one since 0.10).
      /\b\d+ validation errors? for [A-Z]\w{0,100}$/,
    ],
    // A request or response model failing is the API's business (a 4xx answer), not the run's configuration.
    unless: [/validation errors? for \w*(?:Request|Response|Message|Completion|Chunk)\w*$/],
    strength: 78,
    sections: RUN_LOG_ONLY,
    why: 'a configuration object failed pydantic validation (a field missing, extra or of the wrong type)',
    hint: 'A config field is missing, misspelt or of the wrong type (pydantic validation): the error names the field and the value it got; fix the config file or the arguments that fill it.',
  },
  {
    // The model a run loads does not fit the installed library, or the settings it is served with do not
    // fit the model: transformers' loaders (configuration_auto, tokenization_auto, utils/hub.py) and vLLM's
    // model registry and ModelConfig checks. The user's choice of model, version or settings to fix.
    id: 'config.model_config',
    class: 'config.error',
    patterns: [
      /does not appear to have a file named [\w./-]{1,200}/,
      /but Transformers does not recognize this architecture|Unrecognized model in \S{1,300}\. Should have a `model_type` key/,
      /Unrecognized configuration class .{1,300} for this kind of AutoModel/,
      /Tokenizer class \w{1,200} does not exist or is not currently imported/,
      /contains custom code which must be executed to correctly load the model|requires you to execute the configuration file in that repo on your local machine/,
      /Model architectures? \[[^\]]{1,300}\] (?:are|is) not supported for now|Model architectures? \[[^\]]{1,300}\] failed to be inspected/,
      /User-specified max_model_len \(\d+\) is greater than the derived max_model_len/,
      /Total number of attention heads \(\d+\) must be divisible by tensor parallel size \(\d+\)/,
      // vLLM's config loader (transformers_utils/config.py) on a model id or directory it cannot read.
      /Invalid repository ID or local directory specified: |No supported config format found in \S/,
      // transformers' loaders pointed at a directory or repo without what they need.
      /Can't load (?:tokenizer|the model|config|the configuration|feature extractor|image processor|processor) for '/,
      /Error no file named [\w.]{1,80}(?:, [\w.]{1,80}){0,8},? (?:or [\w.]{1,80} )?found in directory/,
      // safetensors reading a file that is not one (a git-lfs pointer, an interrupted download).
      /Error while deserializing header: (?:HeaderTooLarge|HeaderTooSmall|InvalidHeaderDeserialization|MetadataIncompleteBuffer)/,
      // torch.load of a file that is not a whole zip checkpoint (caffe2/serialize/inline_container.cc): a
      // git-lfs pointer, an interrupted download or save ("PytorchStreamReader failed reading zip archive:
      // failed finding central directory").
      /PytorchStreamReader failed reading zip archive: (?:failed finding central directory|invalid header or archive is corrupted)/,
    ],
    strength: 80,
    sections: RUN_LOG_ONLY,
    why: 'the model the run loads does not fit the installed library, or the settings do not fit the model',
    hint: 'The model and its settings do not fit: check the model id/path (a local checkpoint directory must hold config.json and the weights), that the installed transformers/vLLM release supports the architecture (upgrade, or trust_remote_code=True for custom code you trust), and that max_model_len / tensor-parallel size fit the model config.',
  },
  {
    // The data the run points Hugging Face datasets at is not there (datasets load.py dataset_module_factory:
    // "Couldn't find any data file at <path>. Couldn't find '<path>' on the Hugging Face Hub either", "Couldn't
    // find a dataset script at <path> or any data file in the same directory"; data_files.py resolve_pattern
    // "Unable to find '<pattern>'"; DatasetNotFoundError "Dataset '<id>' doesn't exist on the Hub or cannot be
    // accessed"; load_from_disk on a folder that is not a saved dataset): a data path or id in the settings.
    id: 'config.dataset_path',
    class: 'config.error',
    patterns: [
      /Couldn't find any data file at \S/,
      /Couldn't find a dataset script at \S.{0,400}? or any data file in the same directory/,
      /FileNotFoundError: Unable to find '[^']{1,400}'/,
      /DatasetNotFoundError: Dataset '[^']{1,300}' doesn't exist on the Hub/,
      /is neither a `Dataset` directory nor a `DatasetDict` directory/,
    ],
    strength: 80,
    sections: RUN_LOG_ONLY,
    why: 'the dataset path or id the run gives Hugging Face datasets does not exist (or is not readable)',
    hint: "The dataset the config names is not where it points: check the data path (a local folder must hold the data files; a single file goes in data_files=) or the Hub id, and for a private or gated dataset the HF token.",
  },
  {
    // The environment lacks a package or a build feature the run asks for, in the library's own words:
    // transformers' import_utils ("X requires the Y library but it was not found in your environment",
    // FlashAttention2 "the package flash_attn seems to be not installed"), a CPU-only or NCCL-less torch
    // build ("Torch not compiled with CUDA enabled", "Distributed package doesn't have NCCL built in").
    id: 'config.missing_package',
    class: 'config.error',
    patterns: [
      /requires the [^\n]{1,80} librar(?:y|ies) but (?:it was|they were) not found in your environment/,
      /FlashAttention2 has been toggled on, but it cannot be used due to the following error: the package flash_attn seems to be not installed/,
      /Torch not compiled with CUDA enabled|Distributed package doesn't have NCCL built in/,
      // torch.compile's inductor backend without a usable Triton (torch/utils/_triton.py, torch/_inductor):
      // "Cannot find a working triton installation. Either the package is not installed or it is too old."
      /Cannot find a working triton installation/,
      // torch/utils/cpp_extension.py building a C++/CUDA extension at run time: verify_ninja_availability
      // ("Ninja is required to load C++ extensions"), _join_cuda_home ("CUDA_HOME environment variable is not
      // set. Please set it to your CUDA install root.").
      /Ninja is required to load C\+\+ extensions|CUDA_HOME environment variable is not set\. Please set it to your CUDA install root/,
    ],
    strength: 80,
    sections: RUN_LOG_ONLY,
    why: 'the environment lacks a package or a build feature the run needs',
    hint: 'A package (or a build of it) the run needs is not installed in its environment: install what the message names (pip install …, the CUDA build of torch from the matching index URL), preferably pinned in the image or requirements.',
  },
  {
    // Megatron's indexed dataset given a path that is not a dataset prefix (megatron/data/indexed_dataset.py,
    // megatron/core/datasets/indexed_dataset.py make_dataset: "Dataset does not exist: {path}" then "Path
    // should be a basename that both .idx and .bin can be appended to get full filenames."); make_dataset
    // returns None and the AttributeError on None that follows is the symptom.
    id: 'config.dataset_prefix',
    class: 'config.error',
    patterns: [/Path should be a basename that both \.idx and \.bin can be appended to get full filenames/, /^(?:\S{0,80}\s)?Dataset does not exist: \S/],
    strength: 50,
    sections: RUN_LOG_ONLY,
    why: "the data path is not a Megatron dataset prefix (no <prefix>.bin / <prefix>.idx there)",
    hint: "The data path given to Megatron (--data-path / data_prefix) is not a dataset prefix: it must be the path without extension of a preprocessed pair <prefix>.bin + <prefix>.idx (e.g. /data/my-corpus_text_document), not a folder or a raw file. Point it at the prefix tools/preprocess_data.py wrote.",
  },
  {
    // DeepSpeed's _batch_assertion (runtime/config.py: "Check batch related parameters. train_batch_size is
    // not equal to micro_batch_per_gpu * gradient_acc_step * world_size"), which a rich traceback wraps after
    // "is not". The "must be divisible by" checks of other trainers are validation.ts's templates.
    id: 'config.batch_arithmetic',
    class: 'config.error',
    patterns: [
      /Check batch related parameters\. train_batch_size is not\b/,
      // verl's DataProto (verl/protocol.py chunk / split): the batch must divide evenly among the workers it
      // is dispatched to ("only support equal chunk. Got size of DataProto 512 and chunk 6."). Read wherever
      // verl runs from (a clone's frames are not library frames, so the validation rules' raisedIn does not fit).
      /only support equal (?:chunk|split)\. Got size of DataProto \d+ and (?:chunk|split) \d+/,
      // DeepSpeed ZeRO resuming on another data-parallel world size (stage_1_and_2.py / stage3.py raise
      // ZeRORuntimeException: "The checkpoint being loaded used a DP world size of N but the current world size is M").
      /The checkpoint being loaded used a DP world size of \d+ but the current world size is \d+/,
    ],
    strength: 45,
    sections: RUN_LOG_ONLY,
    why: 'the configured batch sizes or parallel sizes do not fit each other',
    hint: 'Configured batch or parallel sizes do not divide: make the global batch = micro batch × gradient accumulation × data-parallel size (and each size divisible by the next), and heads/experts divisible by the tensor/expert parallel size.',
  },
  {
    // A URL that is not a URL: requests' MissingSchema / InvalidSchema / InvalidURL, httpx's
    // UnsupportedProtocol. The endpoint setting (base_url, a placeholder left in) is wrong.
    id: 'config.invalid_url',
    class: 'config.error',
    patterns: [
      /\b(?:MissingSchema|InvalidSchema|InvalidURL|UnsupportedProtocol)\b: /,
      /No connection adapters were found for '|Request URL is missing an 'http:\/\/' or 'https:\/\/' protocol/,
    ],
    strength: 79,
    sections: RUN_LOG_ONLY,
    why: 'an endpoint setting is not a usable URL',
    hint: 'The configured URL is not a valid http(s) URL (missing scheme, a placeholder left in, a typo): fix base_url / the endpoint variable.',
  },
  {
    // EMFILE (24, "Too many open files"): the process hit RLIMIT_NOFILE, a limit of its launch
    // configuration (ulimit -n, the container's nofile), typical of DataLoader workers passing tensors
    // through file descriptors.
    id: 'config.fd_limit',
    class: 'config.error',
    // ENFILE (23, "Too many open files in system") is the host-wide table, set by the same configuration.
    patterns: [/\[Errno 2[34]\] Too many open files|\bE[MN]FILE\b|: Too many open files/],
    strength: 78,
    sections: RUN_LOG_ONLY,
    why: "the process ran out of file descriptors (RLIMIT_NOFILE)",
    hint: "The open-file limit is too low for the run (EMFILE): raise it (ulimit -n 65536, the container's nofile ulimit), or for PyTorch DataLoader workers use torch.multiprocessing.set_sharing_strategy('file_system').",
  },
  {
    // An import that fails inside installed code: one package imports a module or name another installed
    // package does not have (grpcio without grpc.aio under Ray, a transformers release without a class a
    // plugin imports, an optional dependency never installed). The installed versions do not fit each other:
    // the environment's configuration, not the run's code, which the same import in the run's own frame is.
    id: 'config.dependency_mismatch',
    class: 'config.error',
    patterns: [
      /\bAttributeError: module '[\w.]{1,200}' has no attribute '\w{1,200}'/,
      /\bImportError: cannot import name '?\w{1,200}'? from '?[\w.]{1,200}'?/,
      /\b(?:ModuleNotFoundError|ImportError): No module named '?[\w.]{1,200}'?/,
    ],
    raisedIn: 'library',
    strength: 24,
    sections: RUN_LOG_ONLY,
    why: 'installed packages do not fit each other: one imports a module or name that another, as installed, does not have',
    hint: 'Inside installed packages one imports what another (as installed) lacks: a version mismatch or a missing optional dependency in the environment. Install the versions the importing package declares (pip check, the project\'s pinned requirements / lock file), or the missing package.',
  },
  {
    // A process killed by SIGILL, as bash reports it ("Illegal instruction (core dumped)", jobs.c's
    // strsignal text) or faulthandler ("Fatal Python error: Illegal instruction"): a binary using
    // instructions this CPU lacks (a wheel or llama.cpp/TensorFlow build with AVX2/AVX-512 on an older or
    // emulated CPU, an arm64/x86 mix under emulation). Weak: any error the run printed decides first.
    id: 'config.cpu_instructions',
    class: 'config.error',
    patterns: [/^(?:.{0,200}\s)?Illegal instruction(?: \(core dumped\))?\s*$/, /\b\d+\s+Illegal instruction\s+(?:\(core dumped\)\s+)?\S/, /Fatal Python error: Illegal instruction/],
    strength: 30,
    why: 'a process died of SIGILL: a binary uses CPU instructions this machine does not have',
    hint: "The process executed an instruction this CPU does not support (SIGILL): a package built for newer CPUs (AVX2/AVX-512) or another architecture. `grep -o 'avx[^ ]*' /proc/cpuinfo | sort -u` shows what the CPU has; install a build for it (a generic/noavx wheel, build from source) or run on a newer host.",
  },
  {
    // A compiled extension that does not fit the installed libraries it links against: a wheel built
    // for another torch ("flash_attn_2_cuda…so: undefined symbol: _ZN3c10…") or a newer glibc/libstdc++
    // ("version `GLIBC_2.32' not found", "`GLIBCXX_3.4.29' not found"). The dynamic loader's words.
    id: 'config.binary_mismatch',
    class: 'config.error',
    patterns: [
      /\.so(?:\.[\d.]+)?: undefined symbol: \S/,
      // A package's compiled core (torch/vllm/apex/detectron2 name it `_C`) absent from the install: built
      // for another Python/torch, or a source checkout shadowing the installed wheel.
      /No module named '[\w.]{1,100}\._C'/,
      /version `GLIBC(?:XX)?_[\d.]{1,20}' not found/,
      /version `CXXABI_[\d.]{1,20}' not found/,
      // A CUDA toolkit library the binary was linked against is not installed (the dynamic loader's "…:
      // cannot open shared object file"): libcudart.so.11.0 wanted by a wheel built for CUDA 11 in a CUDA 12
      // environment, cuBLAS/cuDNN/NCCL/NVRTC/cuSPARSE/cuFFT/cuRAND/cuSOLVER not installed. Packages, not the
      // GPU: the driver's own libcuda/libnvidia-ml missing is cuda.fault's.
      /lib(?:cudart|cublas\w*|cudnn\w*|nccl|nvrtc\w*|cusparse\w*|cufft\w*|curand|cusolver\w*|nvJitLink|nvToolsExt)\.so[.\d]*: cannot open shared object file/,
      // Building an extension against another CUDA than torch's: torch/utils/cpp_extension.py
      // _check_cuda_version ("The detected CUDA version (X) mismatches the version that was used to compile
      // PyTorch (Y)"), DeepSpeed op_builder/builder.py CUDAMismatchException ("Installed CUDA version X does
      // not match the version torch was compiled with Y").
      /The detected CUDA version \([\d.]+\) mismatches the version that was used to compile/,
      /\bCUDAMismatchException\b|Installed CUDA version [\d.]+ does not match the version torch was compiled with [\d.]+, unable to compile/,
      // NumPy's ABI check of a module built against another NumPy, when it raises ("ValueError: numpy.dtype
      // size changed, may indicate binary incompatibility"; older releases only warn, and numpy 2's banner on a
      // module built for 1.x is a warning too).
      /ValueError: numpy\.dtype size changed, may indicate binary incompatibility/,
    ],
    // TensorFlow probing for CUDA libraries on a CPU host warns and goes on (dso_loader.cc).
    unless: [/dso_loader|Could not load dynamic library/],
    strength: 78,
    sections: RUN_LOG_ONLY,
    why: 'a compiled extension does not fit the installed libraries it was built against',
    hint: 'A binary extension was built for other library versions than installed (torch, CUDA, glibc/libstdc++): reinstall it for the installed torch (e.g. pip install flash-attn --no-build-isolation, or the wheel matching the torch/CUDA/Python triple) or use an image with a newer glibc.',
  },
  {
    id: 'config.missing_setting',
    class: 'config.error',
    patterns: [
      /(?:required )?environment variable [`'"]?[A-Z][A-Z0-9_]{2,80}[`'"]? (?:is not set|must be set|is required|not found|expected, but not set)/i,
      // The name first: "You must set the SENDGRID_KEY environment variable", "Missing OPENAI_API_KEY or
      // OPENAI_ACCESS_TOKEN environment variable", "Please set the HF_TOKEN environment variable".
      /\b(?:must set|[Mm]issing) (?:the )?[`'"$]?[A-Z][A-Z0-9_]{2,80}[`'"]?(?: (?:or|and) [`'"$]?[A-Z][A-Z0-9_]{2,80}[`'"]?)? (?:environment|env) variable/,
      // A credential variable named as required: "CODEX_API_KEY is required.", "ANTHROPIC_API_KEY is not set".
      /\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:KEY|TOKEN|SECRET)\b (?:is required|must be set)/,
      /KeyError: '(?:RANK|LOCAL_RANK|WORLD_SIZE|MASTER_ADDR|MASTER_PORT|LOCAL_WORLD_SIZE)'/,
      // os.environ[...] of an unset variable: upper-case names with an underscore or a settings suffix.
      /KeyError: '(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]*(?:KEY|TOKEN|SECRET|URL|HOST|PORT|HOME|PATH|DIR))'/,
      /\b\d+ validation errors? for [A-Za-z_]*(?:Config|Args|Arguments|Settings|Params)\b/,
    ],
    // A warning that a variable is unset and a default is used instead is not the run failing.
    unless: [/\b(?:WARN(?:ING)?|[Ww]arn(?:ing)?)\b|\busing (?:the )?default\b|\bdefaulting to\b|\bfalling back\b/],
    strength: 80,
    sections: RUN_LOG_ONLY,
    why: 'a required setting (environment variable or config field) is missing or invalid',
    hint: 'A required setting is missing or invalid: set it in the job config or environment.',
  },
  {
    // Hugging Face Hub refusing a model or dataset the config names (huggingface_hub/errors.py:
    // GatedRepoError, RepositoryNotFoundError, RevisionNotFoundError; transformers' "is not a local folder
    // and is not a valid model identifier"): a wrong id, revision, or a token without access.
    id: 'config.hub_repo',
    class: 'config.error',
    patterns: [
      /\b(?:GatedRepoError|RepositoryNotFoundError|RevisionNotFoundError|EntryNotFoundError)\b|Cannot access gated repo for url/,
      /is not a local folder and is not a valid model identifier listed on/,
      // requests' raise_for_status wording under huggingface_hub's HfHubHTTPError: the Hub refusing the repo.
      /\b40[134] Client Error: [\w ]{1,60} for url: https:\/\/huggingface\.co\//,
      /You are trying to access a gated repo\./,
      // transformers/huggingface_hub on a revision the repo does not have ("v2.0 is not a valid git identifier
      // (branch name, tag name or commit id) that exists for this model name"), and the Hub asked for while
      // HF_HUB_OFFLINE is set (huggingface_hub errors.py OfflineModeIsEnabled).
      /is not a valid git identifier \(branch name, tag name or commit id\)/,
      /\bOfflineModeIsEnabled\b/,
      // huggingface_hub utils/_cache_manager.py CacheNotFound ("Cache directory not found: /data/.cache/huggingface.
      // Please use `cache_dir` argument or set `HF_HUB_CACHE` environment variable.").
      /Cache directory not found: \S{1,300}\. Please use `cache_dir` argument or set `HF_HUB_CACHE`/,
    ],
    strength: 80,
    sections: RUN_LOG_ONLY,
    why: 'the Hugging Face Hub refused the model or dataset the run names (wrong id or revision, or a gated repo without access)',
    hint: 'The Hub refused the repository: check the model/dataset id and revision in the config, and for a gated repo accept its licence on the Hub and pass a token with access (HF_TOKEN).',
  },
  {
    // EACCES (13, "Permission denied") and EROFS (30, "Read-only file system") on the run's own paths:
    // the volume or directory the config points at is not writable by the run's user.
    id: 'config.path_permission',
    class: 'config.error',
    patterns: [/\[Errno 13\] Permission denied: /, /\[Errno 30\] Read-only file system: |: Read-only file system$/, /^Error: EACCES: permission denied, /],
    unless: [/^npm (?:error|ERR!)/],
    strength: 62,
    sections: RUN_LOG_ONLY,
    why: "a path the run writes to is not writable (permission denied or a read-only mount)",
    hint: "The run cannot write where it was configured to (EACCES / EROFS): point the output, cache (HF_HOME, TRITON_CACHE_DIR) or checkpoint directory at a writable volume, or fix the mount's permissions / the container's user.",
  },
]);
