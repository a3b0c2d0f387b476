// The web UI under /ui: one file per page in pages/, each over the same archive service and the
// same zod schemas as the API routes. Server-rendered with Hono's JSX, which escapes every text and
// attribute: logs are hostile text and are only ever rendered as text. No script, no CDN; one
// stylesheet served from here. This file holds only the routing and the page-wide auth.
import { hasScope } from '../auth.js';
import type { ApiDeps, App } from '../types.js';
import { CSS } from './layout.js';
import { failureBundle, failurePage } from './pages/failure.js';
import { failuresPage } from './pages/failures.js';
import { filePage } from './pages/file.js';
import { groupPage, groupStatusPost } from './pages/group.js';
import { groupsPage } from './pages/groups.js';
import { loginPage, loginPost, logoutPost } from './pages/login.js';
import { reportExport, reportPage } from './pages/report.js';
import { errorPage } from './render.js';
import { sameOrigin, uiFormScopes } from './session.js';

export function registerWebRoutes(app: App, deps: ApiDeps): void {
  app.get('/', (c) => c.redirect('/ui', 302));
  app.get('/ui/static/app.css', (c) => {
    c.header('content-type', 'text/css; charset=utf-8');
    c.header('cache-control', 'public, max-age=3600');
    return c.body(CSS);
  });

  app.get('/ui/login', (c) => loginPage(c));
  app.post('/ui/login', (c) => loginPost(c, deps));
  app.post('/ui/logout', (c) => logoutPost(c, deps));

  // Every other /ui page needs the read scope, from the cookie (GET) or a bearer token.
  app.use('/ui/*', async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (path === '/ui/login' || path === '/ui/logout' || path.startsWith('/ui/static/')) return next();
    if (c.req.method === 'POST') {
      if (!sameOrigin(c)) return errorPage(c, 403, 'cross-site form post refused');
      const form = await uiFormScopes(c, deps);
      if (form && !c.get('scopes')) c.set('scopes', form);
    }
    const scopes = c.get('scopes');
    if (!scopes) return c.redirect('/ui/login', 302);
    if (!hasScope(scopes, 'read')) return errorPage(c, 403, 'this token lacks the read scope');
    return next();
  });
  app.use('/ui', async (c, next) => {
    const scopes = c.get('scopes');
    if (!scopes) return c.redirect('/ui/login', 302);
    if (!hasScope(scopes, 'read')) return errorPage(c, 403, 'this token lacks the read scope');
    return next();
  });

  app.get('/ui', (c) => failuresPage(c, deps));
  app.get('/ui/failures/:id', (c) => failurePage(c, deps));
  app.get('/ui/failures/:id/bundle', (c) => failureBundle(c, deps));
  app.get('/ui/failures/:id/files/*', (c) => filePage(c, deps));
  app.get('/ui/groups', (c) => groupsPage(c, deps));
  app.get('/ui/groups/:id', (c) => groupPage(c, deps));
  app.post('/ui/groups/:id/status', (c) => groupStatusPost(c, deps));
  app.get('/ui/report', (c) => reportPage(c, deps));
  app.get('/ui/report/export', (c) => reportExport(c, deps));
}

