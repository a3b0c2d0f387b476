// Every rule family, in one list. Order does not decide the outcome (strength, time and rank do); it only
// orders evidence lines of equal standing.
import type { Rule } from '../rule.js';
import { agentRules } from './agent.js';
import { agentCliRules } from './agent-cli.js';
import { agentStartRules } from './agent-start.js';
import { awsRules } from './aws.js';
import { buildRules } from './build.js';
import { clientRules } from './client.js';
import { configRules } from './config.js';
import { cudaRules } from './cuda.js';
import { diskRules } from './disk.js';
import { errnoRules } from './errno.js';
import { evalHarnessRules } from './eval-harness.js';
import { gatewayRules } from './gateway.js';
import { harborRules } from './harbor.js';
import { hostRules, stallRules } from './host.js';
import { k8sReasonRules, k8sRules } from './k8s.js';
import { kubeSchedulerRules } from './kube-scheduler.js';
import { ncclRules } from './nccl.js';
import { networkRules } from './network.js';
import { netlibRules } from './node-go-grpc.js';
import { outcomeRules } from './outcome.js';
import { pkgRules } from './pkg.js';
import { ociRuntimeRules } from './oci-runtime.js';
import { rayRules, rayVocabRules } from './ray.js';
import { registryRules } from './registry.js';
import { proxyRules } from './proxy.js';
import { sandboxProviderRules } from './sandbox-providers.js';
import { sandboxSdkRules } from './sandbox-sdk.js';
import { RUN_LOG_ONLY } from './sections.js';
import { logStallRules } from './stall.js';
import { trackerRules } from './tracker.js';
import { userCodeRules } from './usercode.js';
import { validationRules } from './validation.js';
import { verifierRules } from './verifier.js';

/**
 * GPU, NCCL, Ray and host-memory failures are the run's own: in an agent's session log or trajectory the
 * same words are output of the task the agent works on (or text the model wrote), not the trial failing.
 */
const runOnly = <Id extends string>(rules: readonly Rule<Id>[]): Rule<Id>[] => rules.map((r) => (r.sections ? r : { ...r, sections: RUN_LOG_ONLY }));

const ALL = [
  ...runOnly(cudaRules),
  ...runOnly(hostRules),
  ...runOnly(stallRules),
  ...runOnly(logStallRules),
  ...diskRules,
  ...runOnly(ncclRules),
  ...runOnly(rayRules),
  ...runOnly(rayVocabRules),
  ...k8sRules,
  ...kubeSchedulerRules,
  ...k8sReasonRules,
  ...ociRuntimeRules,
  ...sandboxProviderRules,
  ...sandboxSdkRules,
  ...buildRules,
  ...registryRules,
  ...gatewayRules,
  ...proxyRules,
  ...networkRules,
  ...clientRules,
  ...netlibRules,
  ...awsRules,
  ...pkgRules,
  ...configRules,
  ...trackerRules,
  ...errnoRules,
  ...validationRules,
  ...harborRules,
  ...agentRules,
  ...agentStartRules,
  ...agentCliRules,
  ...verifierRules,
  ...outcomeRules,
  ...evalHarnessRules,
  ...userCodeRules,
];

/** Every rule id there is: naming one that does not exist (a typo, a removed rule) is a type error. */
export type RuleId = (typeof ALL)[number]['id'];

export const RULES: readonly Rule<RuleId>[] = ALL;

/** Fails to compile when a family is typed `Rule[]` (its ids would widen RuleId to string): build it with defineRules. */
export const RULE_IDS_ARE_LITERAL: string extends RuleId ? 'a rule family lost its literal ids: use defineRules' : true = true;
