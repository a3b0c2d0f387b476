// Redaction work is linear in the text: a key run full of secret words (`key_key_…_key=`, 80 KB took
// 47 s before) is walked once, not once per word. Asserted on the work counter, not on time
// (bench/redact.ts measures speed).
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from '../../src/redact/index.js';
import { kvWork } from '../../src/redact/pipeline.js';

describe('redaction work bound', () => {
  for (const unit of ['key_', 'key.', 'key-', '-key', 'KEY', 'SECRET_', 'token_']) {
    it(`reads each key character once in ${JSON.stringify(unit)} repeated, and still redacts its value`, () => {
      const text = `${unit.repeat(5000)}= x ${unit.repeat(5000)} password=hunter2hunter2\n`;
      const before = kvWork.keyCharsRead;
      const out = createRedactor({}).text(text);
      expect(kvWork.keyCharsRead - before).toBeLessThanOrEqual(text.length);
      expect(out.text).toContain(`password=${REDACTED}`);
      expect(out.text).not.toContain('hunter2hunter2');
      expect(createRedactor({}, [], { mode: 'reference' }).text(text).text).toBe(out.text);
    });
  }

  it('flags and URL schemes inside long runs keep their meaning', () => {
    const r = createRedactor({});
    expect(r.text('python t.py --verbose --api-key=abcdefgh123 --lr 0.1').text).toBe(`python t.py --verbose --api-key=${REDACTED} --lr 0.1`);
    expect(r.text('git+ssh://u:s3cretpassw0rd@host/x').text).toBe(`git+ssh://u:${REDACTED}@host/x`);
    expect(r.text(`${'--key'.repeat(2000)} --token abcdefgh123`).text).toContain(`--token ${REDACTED}`);
  });
});
