// Hostile-input suite, text output (issue 10): uploader text (log lines, file names) reaches a
// terminal through `fdiag classify`/`query` and a rendered report through the md export; neither
// may carry terminal escapes or a link.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageFor } from '../helpers/backends.js';
import { renderExport } from '../../src/archive/export.js';
import { isoWeekName } from '../../src/archive/groups.js';
import { openArchive } from '../../src/archive/index.js';
import { runClassify } from '../../src/commands/classify.js';
import { terminalSafe } from '../../src/commands/common.js';
import { makeBundle, tempDir } from '../helpers/bundles.js';

const OSC8 = '\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07';
const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
const TITLE = '\x1b]0;pwned\x1b\\';
const CSI = '\x1b[2K\x1b[1A';

describe('terminal escapes never reach a terminal', () => {
  it('terminalSafe removes OSC (BEL or ST ended), CSI, C1 and other controls, keeps text, tabs and newlines', () => {
    expect(terminalSafe(`a${OSC8}b${OSC52}c${TITLE}d${CSI}e\x9b31mf\x07g\x00h\ti\nj`)).toBe('aclickbcde31mfgh\ti\nj');
  });

  it('fdiag classify text output of a log whose evidence line carries escapes', async () => {
    const d = tempDir();
    const log = join(d, 'train.log');
    writeFileSync(log, `step 1\ntorch.OutOfMemoryError: CUDA out of memory. ${OSC8}${OSC52}${TITLE}${CSI} Tried to allocate 2.00 GiB\n`);
    let out = '';
    const code = await runClassify([log], 'text', (s) => (out += s), () => {});
    expect(code).toBe(0);
    expect(out).toContain('cuda.oom');
    expect(out).toContain('Tried to allocate 2.00 GiB');
    expect(out).not.toMatch(/[\x1b\x07\x9b]/);
  });
});

describe('the md export keeps uploader text as text', () => {
  it('a file name in markdown link syntax is escaped, not a link', async () => {
    const d = tempDir();
    const archive = await openArchive({ ...storageFor(d), dataDir: d });
    try {
      const at = new Date(Date.now() - 3600e3);
      const name = 'logs/[click me](evil.example).log';
      const b = await makeBundle({ endedAt: at, files: [{ path: name, data: 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n' }] });
      await archive.ingestBundleFile(b.path);
      const md = renderExport(await archive.weeklyExport(isoWeekName(at.getTime())), 'md');
      expect(md).toContain('click me');
      expect(md).not.toMatch(/(?<!\\)\[click me(?<!\\)\]\(/);
      expect(md).toContain('\\[click me\\](evil.example)');
    } finally {
      await archive.close();
    }
  });
});
