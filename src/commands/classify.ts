// `fdiag classify PATH… [--format text|json|jsonl]`: bundles (.tar.gz), plain log files (streamed, so a
// 1 GiB log stays within a small memory budget) and folders of logs. An unreadable PATH is reported and
// skipped; the exit status is then 2.
import { mkdtemp, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Option, type Command } from 'commander';
import { withExamples } from './program.js';
import { extractBundle, loadBundleTexts } from '../bundle/reader.js';
import { classifyBundle, createLogClassifier, isStructuredPath, type BundleInput, type Diagnosis, type LogClassifier } from '../classifiers/index.js';
import { classifyTrialDir, isHarborJobDir, isHarborTrialDir, trialDirsOf } from '../harbor/trial.js';
import { terminalSafe } from './common.js';

const FORMATS = ['text', 'json', 'jsonl'] as const;
type Format = (typeof FORMATS)[number];

const MAX_FOLDER_FILES = 5000;
const MAX_STRUCTURED_BYTES = 32 * 1024 ** 2;
const READ_CHUNK = 1024 * 1024;

export interface PathDiagnosis extends Diagnosis {
  path: string;
}

/**
 * Stream one file into a classifier under the name `as`, through one reused buffer: a classifier keeps
 * nothing of a chunk past `feed` (engine.ts copies what it must), and a fresh megabyte per read costs
 * page faults and collection on a log of gigabytes.
 */
export async function feedFile(classifier: LogClassifier, file: string, as: string): Promise<void> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_CHUNK);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, READ_CHUNK, null);
      if (bytesRead === 0) break;
      classifier.feed(as, buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
}

/** Classify a plain log file by streaming it. */
export async function classifyLogFile(file: string, as = 'logs/input.log'): Promise<Diagnosis> {
  const classifier = createLogClassifier();
  await feedFile(classifier, file, as);
  return classifier.finish();
}

async function isGzip(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(2);
    const { bytesRead } = await fh.read(buf, 0, 2, 0);
    return bytesRead === 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  } finally {
    await fh.close();
  }
}

async function classifyBundleFile(file: string): Promise<Diagnosis> {
  const dir = await mkdtemp(join(tmpdir(), 'fdiag-classify-'));
  try {
    const ex = await extractBundle(file, dir);
    const files = await loadBundleTexts(ex);
    return classifyBundle({ manifest: { exit: ex.manifest.exit, labels: ex.manifest.labels, command: ex.manifest.command, trigger: ex.manifest.trigger as string | undefined, stall: ex.manifest.stall }, files });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 8 || out.length >= MAX_FOLDER_FILES) return;
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (out.length >= MAX_FOLDER_FILES) return;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full, depth + 1);
      else if (e.isFile()) out.push(full);
    }
  };
  await walk(root, 0);
  return out;
}

async function classifyFolder(dir: string): Promise<Diagnosis> {
  // Harbor trial folders get their own reader: result.json, exception.txt, logs, verifier output.
  if (isHarborTrialDir(dir)) return (await classifyTrialDir(dir)).diagnosis;
  // Here every folder is a folder of logs, with bundle-layout structured files read as such.
  const classifier = createLogClassifier();
  const structured = new Map<string, string>();
  for (const full of await listFiles(dir)) {
    const rel = relative(dir, full).split(sep).join('/');
    if (isStructuredPath(rel)) {
      if ((await stat(full)).size <= MAX_STRUCTURED_BYTES) structured.set(rel, await readFile(full, 'utf8'));
      continue;
    }
    await feedFile(classifier, full, rel);
  }
  // An unpacked bundle: its manifest carries the exit status.
  let manifest: BundleInput['manifest'];
  try {
    const m = JSON.parse(structured.get('manifest.json') ?? 'null') as { exit?: { code: number | null; signal: string | null } } | null;
    if (m && typeof m === 'object' && m.exit && typeof m.exit === 'object') manifest = { exit: { code: m.exit.code ?? null, signal: m.exit.signal ?? null } };
  } catch {
    manifest = undefined;
  }
  return classifier.finish({ files: structured, manifest });
}

export async function classifyPath(path: string): Promise<Diagnosis> {
  const st = await stat(path);
  if (st.isDirectory()) return classifyFolder(path);
  if (/\.(tar\.gz|tgz)$/i.test(path) || (await isGzip(path))) return classifyBundleFile(path);
  return classifyLogFile(path, `logs/${path.split(/[\\/]/).pop() ?? 'input.log'}`);
}

function formatText(d: PathDiagnosis): string {
  const lines = [`${d.path}: ${d.class}${d.category ? ` (${d.category})` : ''}  confidence ${d.confidence.toFixed(2)}`];
  if (d.hint) lines.push(`  hint: ${d.hint}`);
  for (const e of d.evidence) lines.push(`  ${e.file}:${e.line} [${e.rule}] ${e.text}`);
  return lines.join('\n');
}

export async function runClassify(paths: string[], format: Format, out: (s: string) => void = (s) => process.stdout.write(s), err: (s: string) => void = (s) => process.stderr.write(s)): Promise<number> {
  let code = 0;
  const results: PathDiagnosis[] = [];
  // A Harbor job folder stands for its trial folders, one diagnosis each.
  paths = paths.flatMap((p) => (isHarborJobDir(p) ? trialDirsOf(p) : [p]));
  for (const path of paths) {
    let d: Diagnosis;
    try {
      d = await classifyPath(path);
    } catch (e) {
      err(`fdiag classify: cannot read ${path}: ${(e as Error).message}\n`);
      code = 2;
      continue;
    }
    const pd: PathDiagnosis = { path, ...d };
    if (format === 'jsonl') {
      out(`${JSON.stringify({ path, class: d.class, category: d.category, confidence: d.confidence, evidence: d.evidence, hint: d.hint })}\n`);
    } else if (format === 'text') {
      out(`${terminalSafe(formatText(pd))}\n`);
    }
    results.push(pd);
  }
  if (format === 'json') out(`${JSON.stringify(paths.length === 1 && results.length === 1 ? results[0] : results, null, 2)}\n`);
  return code;
}

export function registerClassifyCommand(program: Command): void {
  const classify = program
    .command('classify')
    .description('name the root cause of a failure in bundles (.tar.gz), log files or folders of logs')
    .argument('<paths...>', 'bundles, log files or folders')
    .addOption(new Option('--format <format>', 'output').choices(FORMATS).default('text'))
    .action(async (paths: string[], opts: { format: string }) => {
      process.exitCode = await runClassify(paths, opts.format as Format);
    });
  withExamples(classify, ['fdiag classify train.log', 'fdiag classify fdiag-bundles/*.tar.gz --format jsonl', 'fdiag classify jobs/2026-11-30__10-00-00   # a Harbor job: one diagnosis per trial'], 'Exit codes: 0 classified, 2 some PATH could not be read (the others are classified).');
}
