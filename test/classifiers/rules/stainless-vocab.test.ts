// The Stainless-generated clients' classes (rules/stainless-vocab.ts), one table read by three families:
// the same class name means the model API's failure from openai / anthropic (client.*) and the TypeScript
// SDKs (netlib.*), and the sandbox provider's from runloop_api_client (sandbox.sdk_*).
import { describe, expect, it } from 'vitest';
import { STAINLESS_CLASSES } from '../../../src/classifiers/rules/stainless-vocab.js';
import { classifyText } from '../helpers.js';

const read = (line: string) => {
  const d = classifyText(line);
  return [d.class, d.evidence[0]?.rule.split('.')[0]];
};

describe('one class, read by the family of its producer', () => {
  it.each([
    ['openai.APIConnectionError: Connection error.', 'network.error', 'network'],
    ['APIConnectionError: Connection error.', 'network.error', 'network'],
    ['runloop_api_client.APIConnectionError: Connection error.', 'sandbox.failure', 'sandbox'],
    ["anthropic.RateLimitError: Error code: 429 - {'type': 'error', 'error': {'type': 'rate_limit_error', 'message': 'Number of request tokens has exceeded your per-minute rate limit'}}", 'gateway.4xx', 'gateway'],
    ["runloop_api_client.RateLimitError: Error code: 429 - {'message': 'Too many running devboxes'}", 'sandbox.failure', 'sandbox'],
    ["runloop_api_client.NotFoundError: Error code: 404 - {'message': 'devbox dbx_31Xk not found'}", 'sandbox.failure', 'sandbox'],
    ['anthropic.InternalServerError: Error code: 500 - {\'type\': \'error\', \'error\': {\'type\': \'api_error\', \'message\': \'Internal server error\'}}', 'gateway.5xx', 'gateway'],
    // gateway.server_error, stronger, names this one first.
    ['InternalServerError: 502 status code (no body)', 'gateway.5xx', 'gateway'],
    ['APIConnectionTimeoutError: Request timed out.', 'api.timeout', 'api'],
    ['  ⎿  API Error: Connection error.', 'network.error', 'netlib'],
  ])('%s', (line, cls, family) => {
    expect(read(line)).toEqual([cls, family]);
  });

  it('names each class once, each with at least one producer', () => {
    expect(new Set(STAINLESS_CLASSES.map((c) => c.name)).size).toBe(STAINLESS_CLASSES.length);
    for (const c of STAINLESS_CLASSES) expect(Object.keys(c.by).length, c.name).toBeGreaterThan(0);
  });
});
