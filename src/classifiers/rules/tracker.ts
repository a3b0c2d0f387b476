// Experiment trackers failing the run at start: Weights & Biases' own wordings, read in wandb/wandb.
// A tracker's retries and warnings are chatter (network.ts TRACKER_NOISE keeps them from deciding a
// network failure); these rows are the errors wandb raises that end wandb.init() and with it the run.
import { defineRules } from '../rule.js';
import { RUN_LOG_ONLY } from './sections.js';

export const trackerRules = defineRules([
  {
    // No key, or a malformed one, where wandb.init() must log in without a terminal (a cluster job, a Pod):
    // current wandb/sdk/lib/wbauth/authenticate.py "No API key configured. Use `wandb login` to log in.",
    // older wandb/sdk/wandb_login.py UsageError("api_key not configured (no-tty). call
    // wandb.login(key=[your_api_key])"); the key's format check (wbauth/validation.py "API key must have
    // 40+ characters, has N.", older lib/apikey.py "API key must be 40 characters long, yours was N"), as
    // authenticate.py wraps it ("WANDB_API_KEY invalid: …") or the login prompt prints it ("Invalid API key: …").
    id: 'config.tracker_credentials',
    class: 'config.error',
    patterns: [
      /api_key not configured \(no-tty\)/,
      /No API key configured\. Use `wandb login` to log in/,
      /API key must (?:have 40\+ characters, has|be 40 characters long, yours was) \d+/,
      /\bWANDB_API_KEY invalid: /,
    ],
    strength: 84,
    sections: RUN_LOG_ONLY,
    why: 'Weights & Biases had no usable API key, so wandb.init() failed before training started',
    hint: 'wandb.init() found no valid API key on this node (jobs without a terminal cannot prompt): pass WANDB_API_KEY (a 40+ character key from wandb.ai/authorize) to every node or Pod, or run with WANDB_MODE=offline / disabled when no tracking is wanted.',
  },
  {
    // wandb.init() waiting on the W&B server past init_timeout (default 90 s): wandb-core
    // core/internal/runupserter/runupdateerror.go fromTimeout ("Timed out initializing run: …" or "Timed out
    // while retrying: …", then "Consider increasing the init_timeout setting:"), raised as a CommError; older
    // wandb/sdk/wandb_init.py "Run initialization has timed out after N sec.".
    id: 'tracker.init_timeout',
    class: 'api.timeout',
    patterns: [/Consider increasing the init_timeout setting/, /(?:CommError: |wandb: ERROR )Run initialization has timed out after [\d.]+ ?sec/],
    strength: 62,
    sections: RUN_LOG_ONLY,
    why: 'wandb.init() timed out waiting for the W&B server, which ended the run at start',
    hint: 'wandb.init() gave up waiting for the W&B server (init_timeout, 90 s by default): check that the node reaches api.wandb.ai or your W&B host (proxy, egress policy, WANDB_BASE_URL), raise wandb.Settings(init_timeout=…), or run with WANDB_MODE=offline and sync later.',
  },
  {
    // wandb's retry note (wandb/sdk/lib/retry.py _print_entered_retry_loop: "{prefix} ({ExceptionClass}),
    // entering retry loop.", prefix "Network error" for the API client) where the W&B server cannot be
    // reached. Usually chatter: it recovers ("… resolved after …, resuming normal operation") or another
    // failure ends the run, so it is the weakest rule of all and decides only a log that holds nothing else,
    // such as a run that hung inside wandb.init() on a node without a route to the W&B host.
    id: 'tracker.network_retry',
    class: 'network.error',
    patterns: [/\bNetwork error \((?:ConnectTimeout|ConnectionError|ProxyError|SSLError|ReadTimeout|NewConnectionError|MaxRetryError|\w{1,40}Error)\), entering retry loop\./],
    strength: 12,
    sections: RUN_LOG_ONLY,
    why: 'wandb could not reach the W&B server and kept retrying, with nothing else failing in the log',
    hint: "wandb kept retrying its connection to the W&B server and nothing else in the log failed: if the run hung here, this node has no route to api.wandb.ai or your W&B host (egress policy, proxy: HTTPS_PROXY / NO_PROXY, WANDB_BASE_URL). Run with WANDB_MODE=offline and `wandb sync` later, or open the route.",
  },
]);
