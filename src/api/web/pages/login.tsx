// /ui/login and /ui/logout: a token typed once, kept in an HttpOnly cookie for the pages (session.ts).
import { hasScope } from '../../auth.js';
import type { ApiDeps } from '../../types.js';
import { Layout } from '../layout.js';
import { errorPage, page, type C } from '../render.js';
import { clientAddress } from '../../guard.js';
import { clearUiCookie, sameOrigin, setUiCookie } from '../session.js';

export function loginPage(c: C) {
  return page(
    c,
    200,
    <Layout title="Log in" nav={false}>
      <form class="login" method="post" action="/ui/login">
        <h1>fdiag archive</h1>
        {c.req.query('error') ? <p class="err">That token is unknown or lacks the read scope.</p> : null}
        <label for="token">API token (read scope)</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required />
        <button type="submit">Log in</button>
      </form>
    </Layout>,
  );
}

export async function loginPost(c: C, deps: ApiDeps) {
  if (!sameOrigin(c)) return errorPage(c, 403, 'cross-site login refused');
  // The body is bounded while it streams in (formBodyLimit, src/api/guard.ts), chunked or not.
  const wait = deps.tokens.guesses.blockedFor(clientAddress(c));
  if (wait) {
    c.header('retry-after', String(wait));
    return errorPage(c, 429, `too many unknown tokens from this address; try again in ${wait} s`);
  }
  const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const token = typeof form.token === 'string' ? form.token.trim() : '';
  const scopes = token && token.length <= 512 ? deps.tokens.scopesOf(token) : null;
  if (!scopes) deps.tokens.guesses.failed(clientAddress(c));
  if (!scopes || !hasScope(scopes, 'read')) return c.redirect('/ui/login?error=1', 303);
  await setUiCookie(c, deps, token);
  return c.redirect('/ui', 303);
}

export async function logoutPost(c: C, deps: ApiDeps) {
  if (!sameOrigin(c)) return errorPage(c, 403, 'cross-site logout refused');
  await clearUiCookie(c, deps);
  return c.redirect('/ui/login', 303);
}
