// PATCH /v1/groups/{id} {status}: the triage decision. Admin scope: resolving or ignoring a group
// hides it from the weekly review for everyone, so a read token must not do it.
import { createRoute, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { SETTABLE_STATUSES } from '../../archive/groups.js';
import { ApiError } from '../errors.js';
import { requireScope } from '../middleware.js';
import { AUTH_ERRORS, errors, json, needs } from '../openapi.js';
import { GroupSummary } from '../schemas.js';
import type { ApiDeps, App } from '../types.js';
import { GROUP_ID_PATTERN, GroupParams } from './group.js';

export const body = z.strictObject({ status: z.enum(SETTABLE_STATUSES) });
const MAX_BODY = 4096;

export const route = createRoute({
  method: 'patch',
  path: '/v1/groups/{id}',
  summary: 'Set a group status: resolved, ignored or ongoing (new and regressed are set by the archive)',
  security: needs('admin'),
  middleware: [
    requireScope('admin'),
    bodyLimit({
      maxSize: MAX_BODY,
      onError: () => {
        throw new ApiError('too_large', `body over ${MAX_BODY} bytes`);
      },
    }),
  ] as const,
  request: { params: GroupParams, body: { required: true, content: { 'application/json': { schema: body } } } },
  responses: { 200: json(GroupSummary, 'the updated group'), ...errors({ ...AUTH_ERRORS, invalid_body: 'not JSON, or not {"status": resolved|ignored|ongoing}', unsupported_media_type: 'a body that is not application/json', not_found: 'no such group', too_large: `body over ${MAX_BODY} bytes` }) },
});

export function registerGroupPatchRoute(app: App, deps: ApiDeps): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid('param');
    const { status } = c.req.valid('json');
    const g = GROUP_ID_PATTERN.test(id) ? await deps.archive.setGroupStatus(id, status) : null;
    if (!g) throw new ApiError('not_found', 'no such group');
    return c.json(g, 200);
  });
}
