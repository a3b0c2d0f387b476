// Secret shapes a red-team pass found passing the redactor: cookies in HTTP debug output (curl -v,
// http.client's debuglevel) and a token given as a URL's user name (git remotes). Each in the
// shape its producer prints, through both pipelines (prefiltered and the reference oracle).
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/redact/index.js';

const SECRET = 'Zq8vN3xK7pL2mR9tW4yB6cD1fH5j';
const modes = ['prefiltered', 'reference'] as const;

describe.each(modes)('redactor (%s)', (mode) => {
  const red = (s: string) => createRedactor({}, [], { mode }).text(s);

  it('Cookie and Set-Cookie header values, as curl -v and http.client print them', () => {
    for (const line of [
      `> Cookie: session=${SECRET}; theme=dark`,
      `< set-cookie: _session_id=${SECRET}; Path=/; HttpOnly; SameSite=Lax`,
      `send: b'GET /api HTTP/1.1\\r\\nHost: x\\r\\nCookie: sid=${SECRET}\\r\\n\\r\\n'`,
      `header: Set-Cookie: AWSALB=${SECRET}; Expires=Tue, 09 Dec 2026 03:00:00 GMT; Path=/`,
      `"Cookie": "token=${SECRET}"`,
    ]) {
      const out = red(line);
      expect(out.text, line).not.toContain(SECRET);
      expect(out.count, line).toBeGreaterThan(0);
    }
    // the cookie's name and the attributes stay readable
    expect(red(`< set-cookie: _session_id=${SECRET}; Path=/; HttpOnly`).text).toBe(`< set-cookie: _session_id=${REDACTED}; Path=/; HttpOnly`);
  });

  it("Authorization right after http.client's escaped line break (debuglevel=1 prints the request as bytes)", () => {
    const basic = Buffer.from(`user:${SECRET}`).toString('base64');
    const out = red(`send: b'GET /v1/models HTTP/1.1\\r\\nHost: api.example.com\\r\\nAuthorization: Basic ${basic}\\r\\n\\r\\n'`);
    // before: no word boundary between the escape's n and Authorization, so the header was not seen
    expect(out.text).not.toContain(basic);
    expect(out.text).toContain(`Authorization: Basic ${REDACTED}`);
  });

  it('a token as the user name of a URL (https://TOKEN@github.com/...)', () => {
    for (const line of [
      `Cloning into 'repo'... fatal: unable to access 'https://${SECRET}@github.com/org/repo.git/': Could not resolve host`,
      `git remote add origin https://oauth2-${SECRET}@gitlab.example.com/g/r.git`,
      `pip install git+https://0123456789abcdef0123456789abcdef01234567@github.com/org/pkg.git`,
    ]) {
      const out = red(line);
      expect(out.text, line).not.toMatch(/Zq8vN3xK7pL2mR9tW4yB6cD1fH5j|0123456789abcdef0123456789abcdef01234567/);
      expect(out.text).toContain(`://${REDACTED}@`);
    }
  });

  it('what is not a secret stays: short or word-like URL users, a cookie word in prose', () => {
    for (const line of [
      'git clone ssh://git@github.com/org/repo.git',
      'https://jane.doe@example.com/calendar',
      'https://builder-bot@ci.example.com/job/42',
      'no cookie: found in the jar',
      'cookies: 3 set',
    ]) expect(red(line).text, line).toBe(line);
  });
});
