import { createRoute, z } from '@hono/zod-openapi';
import { PAGE_LIMIT_MAX } from '../../archive/failure-index.js';
import { parseTimeBound } from '../../archive/time.js';
import { ApiError } from '../errors.js';
import { requireScope } from '../middleware.js';
import { AUTH_ERRORS, errors, json, needs } from '../openapi.js';
import { FailurePage } from '../schemas.js';
import type { ApiDeps, App } from '../types.js';

/** since/until: read by the archive's one time parser (src/archive/time.ts), checked here so the answer names the field. */
export const timeBound = z.string().max(64).refine((v) => {
  try {
    parseTimeBound(v);
    return true;
  } catch {
    return false;
  }
}, 'not a time (use 7d, 24h, epoch ms or an ISO date)');

/** Category filter values: the taxonomy's three, and `unknown` for a diagnosis without one. */
export const CATEGORY_FILTERS = ['infra', 'user', 'outcome', 'unknown'] as const;
export { PAGE_LIMIT_MAX };

/**
 * A whole number in `min..max` as people write it in a URL: decimal digits only, no sign, leading zero,
 * hex (`0x10`), exponent (`1e2`), fraction (`16.0`) or blank, which z.coerce.number() (Number()) all took.
 */
export function decimalInteger(min: number, max: number) {
  return z
    .string()
    .regex(/^(?:0|[1-9][0-9]{0,14})$/, 'a whole number in decimal digits')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .openapi({ type: 'integer', minimum: min, maximum: max });
}

/** `limit`: the page size, 1..PAGE_LIMIT_MAX (archive/failure-index.ts); failures and groups alike. */
export const pageLimitParam = decimalInteger(1, PAGE_LIMIT_MAX);

export const query = z.object({
  class: z.string().max(64).optional(),
  category: z.enum(CATEGORY_FILTERS).optional(),
  runId: z.string().max(200).optional(),
  since: timeBound.optional(),
  until: timeBound.optional(),
  limit: pageLimitParam.optional(),
  cursor: z.string().max(200).optional(),
}).catchall(z.string().max(500)); // label.<k>=<v>

export const route = createRoute({
  method: 'get',
  path: '/v1/failures',
  summary: 'List failures, newest first; filter by class, category, runId, label.<k>, since/until; cursor pagination',
  security: needs('read'),
  middleware: [requireScope('read')] as const,
  request: { query },
  responses: { 200: json(FailurePage, 'a page of failures; nextCursor continues it'), ...errors({ ...AUTH_ERRORS, invalid_query: 'invalid filter, cursor or unknown parameter' }) },
});

export function registerFailuresRoute(app: App, deps: ApiDeps): void {
  app.openapi(route, async (c) => {
    const { class: cls, category, runId, since, until, limit, cursor, ...rest } = c.req.valid('query');
    // No prototype, and read from the URL itself: a `label.__proto__` filter is a key like any
    // other, not one that vanishes into an object's prototype on the way.
    const labels: Record<string, string> = Object.create(null);
    for (const [k, v] of new URL(c.req.url).searchParams) if (k.startsWith('label.') && k.length > 6) labels[k.slice(6)] = v;
    for (const k of Object.keys(rest)) {
      if (!k.startsWith('label.') || k.length <= 6) throw new ApiError('invalid_query', `unknown query parameter ${JSON.stringify(k)}`);
    }
    return c.json(await deps.archive.query({ class: cls, category, runId, since, until, limit, cursor, labels }), 200);
  });
}
