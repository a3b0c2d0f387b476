// Web UI sessions: the token typed once on /ui/login opens a server-side session; the HttpOnly,
// SameSite=Strict cookie scoped to /ui holds only the session's random id, never the token (a
// cookie that leaks, from a proxy log or a shared machine, is not the API token and dies at
// logout, which revokes it, or after SESSION_TTL_MS). Sessions are rows of the index (table
// ui_sessions), so every replica on one database honours a session any of them issued, and a
// logout on one ends it on all; a restart keeps them. The row holds the sha256 of the session id
// and of the token, never either: a copy of the table opens nothing. A session has the scopes its
// token has now, so a token taken out of FDIAG_TOKENS ends its sessions at once. Secure when the
// request came over TLS, directly or through a proxy that says X-Forwarded-Proto: https. The cookie
// is honoured for GET/HEAD of /ui pages only: the JSON API keeps Bearer, and nothing that changes state is ever authorised by the cookie alone (a cross-site form or fetch
// would carry it in some browsers' lax modes; Strict plus GET-only closes that).
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { tokenDigest, type Scope } from '../auth.js';
import type { ApiDeps } from '../types.js';

export const SESSION_TTL_MS = 7 * 86400e3;

/** The index keys a session by the digest of its id: the cookie's value is never stored. */
function sessionKey(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/** Scopes of the session this cookie value names: its token's scopes now, or null (unknown, expired, logged out, token withdrawn). */
async function sessionScopes(deps: ApiDeps, id: string | undefined): Promise<Set<Scope> | null> {
  if (!id || id.length > 512) return null;
  const digest = await deps.archive.sessionToken(sessionKey(id));
  return digest ? deps.tokens.scopesOfDigest(digest) : null;
}

export const UI_COOKIE = 'fdiag_ui';
export const UI_PREFIX = '/ui';

function isUiPath(path: string): boolean {
  return path === UI_PREFIX || path.startsWith(`${UI_PREFIX}/`);
}

/** Scopes from the UI cookie, when this request may use it (a GET/HEAD of a /ui page); else null. */
export async function uiCookieScopes(c: Context, deps: ApiDeps): Promise<Set<Scope> | null> {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
  if (!isUiPath(new URL(c.req.url).pathname)) return null;
  return sessionScopes(deps, getCookie(c, UI_COOKIE));
}

/**
 * A state-changing form post (login, logout) must come from a page of this server: browsers send
 * Origin on every cross-site POST, so a missing Origin is tolerated (curl, old agents) and a foreign
 * one refused. Sec-Fetch-Site, when present, must say same-origin (or none: typed by the user).
 */
export function sameOrigin(c: Context): boolean {
  // Sec-Fetch-Site is set by the browser and cannot be forged by a page: when present it decides.
  const site = c.req.header('sec-fetch-site');
  if (site) return site === 'same-origin' || site === 'none';
  const origin = c.req.header('origin');
  if (!origin) return true;
  if (origin === 'null') return false;
  const self = new URL(c.req.url);
  const host = c.req.header('host') ?? self.host;
  try {
    const o = new URL(origin);
    return o.host === host && o.protocol === self.protocol;
  } catch {
    return false;
  }
}

/**
 * Scopes for a state-changing form post from a /ui page (the triage buttons): the cookie counts only
 * when the post comes from this server's own page. SameSite=Strict already keeps the cookie off
 * cross-site requests; the same-origin check holds even where a browser ignores SameSite.
 */
export async function uiFormScopes(c: Context, deps: ApiDeps): Promise<Set<Scope> | null> {
  if (c.req.method !== 'POST' || !isUiPath(new URL(c.req.url).pathname) || !sameOrigin(c)) return null;
  return sessionScopes(deps, getCookie(c, UI_COOKIE));
}

function overTls(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || (c.req.header('x-forwarded-proto') ?? '').split(',')[0].trim().toLowerCase() === 'https';
}

/** Opens a session for this (accepted) token and sets its id as the UI cookie. */
export async function setUiCookie(c: Context, deps: ApiDeps, token: string): Promise<void> {
  const id = randomBytes(32).toString('base64url');
  const now = Date.now();
  await deps.archive.putSession({ idHash: sessionKey(id), tokenDigest: tokenDigest(token), createdAt: now, expiresAt: now + SESSION_TTL_MS });
  setCookie(c, UI_COOKIE, id, {
    path: UI_PREFIX,
    httpOnly: true,
    sameSite: 'Strict',
    secure: overTls(c),
    maxAge: SESSION_TTL_MS / 1000,
  });
}

/** Revokes the session of this request's cookie (in the index: on every replica) and clears the cookie. */
export async function clearUiCookie(c: Context, deps: ApiDeps): Promise<void> {
  const t = getCookie(c, UI_COOKIE);
  if (t && t.length <= 512) await deps.archive.deleteSession(sessionKey(t));
  deleteCookie(c, UI_COOKIE, { path: UI_PREFIX, secure: overTls(c) });
}
