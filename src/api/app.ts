// The app. API routes are one a file under routes/, each a createRoute object (path, scope,
// request and response schemas) that /openapi.json is generated from. Auth resolves the bearer
// token's scopes once; routes ask for the scope they need.
import { OpenAPIHono } from '@hono/zod-openapi';
import { validationHook } from './openapi.js';
import { apiError, asApiError } from './errors.js';
import { clientAddress, closeUnreadBodies, formBodyLimit } from './guard.js';
import * as bundles from './routes/bundles.js';
import * as classes from './routes/classes.js';
import * as failure from './routes/failure.js';
import * as failureBundle from './routes/failure-bundle.js';
import * as failureFile from './routes/failure-file.js';
import * as failures from './routes/failures.js';
import * as health from './routes/health.js';
import * as openapi from './routes/openapi.js';
import type { ApiDeps, App, AppEnv } from './types.js';
// triage: groups, weekly export, metrics, web UI
import * as exportWeekly from './routes/export.js';
import * as group from './routes/group.js';
import * as groupPatch from './routes/group-patch.js';
import * as groups from './routes/groups.js';
import * as metrics from './routes/metrics.js';
import { registerWebRoutes } from './web/index.js';
import { uiCookieScopes } from './web/session.js';

export function createApp(deps: ApiDeps): App {
  const app: App = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  // Bounds first (src/api/guard.ts): an unread body is never drained, forms and JSON are capped.
  app.use('*', closeUnreadBodies());
  app.use('*', async (c, next) => {
    const auth = c.req.header('authorization');
    const m = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
    if (m) {
      const addr = clientAddress(c);
      const wait = deps.tokens.guesses.blockedFor(addr);
      if (wait) {
        c.header('retry-after', String(wait));
        return apiError(c, 'too_many_requests', `too many unknown tokens from this address; retry in ${wait} s`);
      }
      const scopes = deps.tokens.scopesOf(m[1]);
      if (scopes) c.set('scopes', scopes);
      else deps.tokens.guesses.failed(addr);
    } else {
      // The web UI's login cookie, for GET/HEAD of /ui pages only (src/api/web/session.ts).
      const scopes = await uiCookieScopes(c, deps);
      if (scopes) c.set('scopes', scopes);
    }
    await next();
  });
  app.use('*', formBodyLimit());

  const apiMetrics = new metrics.ApiMetrics(deps);
  app.use('/v1/bundles', metrics.ingestTimer(apiMetrics));
  health.registerHealthRoute(app, deps);
  bundles.registerBundlesRoute(app, deps);
  failures.registerFailuresRoute(app, deps);
  failureFile.registerFailureFileRoute(app, deps);
  failureBundle.registerFailureBundleRoute(app, deps);
  failure.registerFailureRoute(app, deps);
  classes.registerClassesRoute(app, deps);
  groups.registerGroupsRoute(app, deps);
  group.registerGroupRoute(app, deps);
  groupPatch.registerGroupPatchRoute(app, deps);
  exportWeekly.registerExportRoute(app, deps);
  metrics.registerMetricsRoute(app, apiMetrics);
  registerWebRoutes(app, deps);
  openapi.registerOpenApiRoute(app);

  app.notFound((c) => apiError(c, 'not_found', 'no such route'));
  app.onError((err, c) => {
    const known = asApiError(err);
    if (known) return apiError(c, known.code, known.message);
    // Log the detail server-side; the client gets a stable shape and no stack trace.
    process.stderr.write(`fdiag serve: ${c.req.method} ${new URL(c.req.url).pathname}: ${err.stack ?? err.message}\n`);
    return apiError(c, 'internal', 'internal error');
  });
  return app;
}
