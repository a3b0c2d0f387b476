// GET /v1/groups: failure groups (same fingerprint), most recently seen first.
import { createRoute, z } from '@hono/zod-openapi';
import { GROUP_STATUSES } from '../../archive/groups.js';
import { requireScope } from '../middleware.js';
import { AUTH_ERRORS, errors, json, needs } from '../openapi.js';
import { GroupPage } from '../schemas.js';
import type { ApiDeps, App } from '../types.js';
import { query as failuresQuery } from './failures.js';

export const query = z.strictObject({
  status: z.enum(GROUP_STATUSES).optional(),
  class: z.string().max(64).optional(),
  category: failuresQuery.shape.category,
  since: failuresQuery.shape.since,
  limit: failuresQuery.shape.limit,
  cursor: z.string().max(200).optional(),
});

export const route = createRoute({
  method: 'get',
  path: '/v1/groups',
  summary: 'Failure groups (one per fingerprint), most recently seen first; filter by status, class, category, since (last seen); cursor pagination',
  security: needs('read'),
  middleware: [requireScope('read')] as const,
  request: { query },
  responses: { 200: json(GroupPage, 'a page of groups'), ...errors({ ...AUTH_ERRORS, invalid_query: 'invalid filter or cursor' }) },
});

export function registerGroupsRoute(app: App, deps: ApiDeps): void {
  app.openapi(route, async (c) => c.json(await deps.archive.listGroups(c.req.valid('query')), 200));
}
