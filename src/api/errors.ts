// The API's one error shape, {"error": {"code", "message"}}, and the one table from code to HTTP
// status. Handlers either answer with apiError() or throw: ApiError, an archive input error
// (bad time, week, cursor) and a refused bundle all reach app.onError, which answers from this
// table; anything else is a 500 with no detail (the detail goes to the server log).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import { ArchiveInputError } from '../archive/errors.js';
import { BundleError, type BundleErrorCode } from '../bundle/errors.js';

export const API_ERROR_STATUS = {
  invalid_query: 400,
  invalid_body: 400,
  invalid_path: 400,
  empty_body: 400,
  // a bundle the reader refuses (src/bundle/errors.ts)
  corrupt: 400,
  unsafe_entry: 400,
  duplicate_entry: 400,
  missing_manifest: 400,
  invalid_manifest: 400,
  integrity: 400,
  invalid_file: 400,
  trailing_data: 400,
  unauthorized: 401,
  forbidden: 403,
  too_many_requests: 429,
  not_found: 404,
  too_large: 413,
  too_many_entries: 413,
  unsupported_media_type: 415,
  disk_full: 507,
  internal: 500,
} as const satisfies Record<string, ContentfulStatusCode> & Record<BundleErrorCode, ContentfulStatusCode>;

export type ApiErrorCode = keyof typeof API_ERROR_STATUS;

export class ApiError extends Error {
  readonly code: ApiErrorCode;
  constructor(code: ApiErrorCode, message: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
  }
  get status(): ContentfulStatusCode {
    return API_ERROR_STATUS[this.code];
  }
}

/** The body every error answer has; never a stack trace. */
export const ErrorBody = z.object({ error: z.object({ code: z.enum(Object.keys(API_ERROR_STATUS) as [ApiErrorCode, ...ApiErrorCode[]]), message: z.string() }) });

export function apiError(c: Context, code: ApiErrorCode, message: string) {
  return c.json({ error: { code, message } }, API_ERROR_STATUS[code]);
}

/** The ApiError a thrown error stands for; null for one that is the server's own fault. */
export function asApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof ArchiveInputError) return new ApiError('invalid_query', err.message);
  if (err instanceof BundleError) return new ApiError(err.code, err.message);
  // Hono's own: the JSON validator on a body that is not JSON, a body limit.
  if (err instanceof HTTPException && err.status === 400) return new ApiError('invalid_body', err.message || 'malformed request body');
  if (err instanceof HTTPException && err.status === 413) return new ApiError('too_large', err.message || 'request body too large');
  // @hono/zod-openapi's media-type gate: a body whose content type the route does not declare.
  if (err instanceof HTTPException && err.status === 415) return new ApiError('unsupported_media_type', 'the body must be application/json');
  if ((err as NodeJS.ErrnoException | null)?.code === 'ENOSPC') return new ApiError('disk_full', 'the archive has no space left; nothing was stored, retry later');
  return null;
}
