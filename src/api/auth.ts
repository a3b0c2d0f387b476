// Bearer tokens with scopes (DESIGN §3). Tokens are compared by their sha256 digests in
// constant time so response timing does not leak how much of a guess was right.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GuessThrottle } from './guard.js';

/** Shorter tokens fall to guessing even with the login back-off (16 base64url chars: 96 bits). */
export const MIN_TOKEN_LENGTH = 16;

export const DEFAULT_GUESSES_PER_MINUTE = 10;

export const SCOPES = ['ingest', 'read', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export interface TokenEntry {
  digest: Buffer;
  scopes: Set<Scope>;
}

export class TokenStore {
  /** Unknown tokens presented per address and minute before that address gets 429. */
  readonly guesses: GuessThrottle;
  constructor(
    private readonly entries: TokenEntry[],
    guessesPerMinute = DEFAULT_GUESSES_PER_MINUTE,
  ) {
    this.guesses = new GuessThrottle(guessesPerMinute);
  }

  /** Scopes of a presented token, or null when it is unknown. admin implies every scope. */
  scopesOf(token: string): Set<Scope> | null {
    const d = digest(token);
    let found: Set<Scope> | null = null;
    for (const e of this.entries) if (timingSafeEqual(e.digest, d)) found = e.scopes;
    return found;
  }

  /** Scopes of the token with this sha256 digest (hex, as tokenDigest gives), or null when no such token is accepted now. */
  scopesOfDigest(hex: string): Set<Scope> | null {
    if (!/^[0-9a-f]{64}$/.test(hex)) return null;
    const d = Buffer.from(hex, 'hex');
    let found: Set<Scope> | null = null;
    for (const e of this.entries) if (timingSafeEqual(e.digest, d)) found = e.scopes;
    return found;
  }

  get size(): number {
    return this.entries.length;
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** A token's sha256 in hex: what a web session keeps instead of the token (src/api/web/session.ts). */
export function tokenDigest(token: string): string {
  return digest(token).toString('hex');
}

/** `FDIAG_TOKENS=abc123:ingest+read,def456:read` */
export function parseTokens(spec: string): TokenEntry[] {
  const out: TokenEntry[] = [];
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const idx = part.lastIndexOf(':');
    if (idx <= 0) throw new Error(`FDIAG_TOKENS entry without scopes: expected token:scope+scope`);
    const token = part.slice(0, idx);
    const scopes = part.slice(idx + 1).split('+').map((s) => s.trim());
    for (const s of scopes) if (!(SCOPES as readonly string[]).includes(s)) throw new Error(`FDIAG_TOKENS: unknown scope ${JSON.stringify(s)} (ingest, read, admin)`);
    if (token.length < MIN_TOKEN_LENGTH) throw new Error(`FDIAG_TOKENS: tokens must be at least ${MIN_TOKEN_LENGTH} characters`);
    out.push({ digest: digest(token), scopes: new Set(scopes as Scope[]) });
  }
  return out;
}

/**
 * Tokens from FDIAG_TOKENS; with none set, one admin token kept in `<dataDir>/admin-token`
 * (mode 0600, created once) so the embedded default is usable but never open.
 */
export function loadTokenStore(env: NodeJS.ProcessEnv, dataDir: string): { store: TokenStore; generatedTokenFile: string | null } {
  const perMin = env.FDIAG_AUTH_GUESSES_PER_MIN && /^\d+$/.test(env.FDIAG_AUTH_GUESSES_PER_MIN) ? Number(env.FDIAG_AUTH_GUESSES_PER_MIN) : DEFAULT_GUESSES_PER_MINUTE;
  if (env.FDIAG_TOKENS && env.FDIAG_TOKENS.trim()) return { store: new TokenStore(parseTokens(env.FDIAG_TOKENS), perMin), generatedTokenFile: null };
  const file = join(dataDir, 'admin-token');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, randomBytes(24).toString('base64url') + '\n', { mode: 0o600 });
    renameSync(tmp, file);
  }
  // Owner-only even when the file was made (or copied) with a wider mode: it is the admin key.
  chmodSync(file, 0o600);
  const token = readFileSync(file, 'utf8').trim();
  if (token.length < MIN_TOKEN_LENGTH) throw new Error(`${file}: the admin token must be at least ${MIN_TOKEN_LENGTH} characters`);
  return { store: new TokenStore([{ digest: digest(token), scopes: new Set(['admin']) }], perMin), generatedTokenFile: file };
}

export function hasScope(scopes: Set<Scope>, needed: Scope): boolean {
  return scopes.has('admin') || scopes.has(needed);
}
