// Verify → classify → fingerprint one bundle: the CPU-heavy part of ingest and reclassification.
// Pure of the archive (no index, no blob store), so it runs in a worker thread (ingest-worker.ts)
// as well as inline. A small bundle is read into memory, never unpacked to disk.
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { BundleError } from '../bundle/errors.js';
import { DEFAULT_LIMITS, extractBundle, loadBundleTexts, type BundleLimits, type ExtractedBundle } from '../bundle/reader.js';
import type { Manifest } from '../bundle/schema.js';
import { readHarborResult } from '../classifiers/harbor-result.js';
import { classifyBundle, type Diagnosis } from '../classifiers/index.js';
import { fingerprintOf, type Fingerprint } from '../classifiers/fingerprint.js';
import type { FileEntry } from './failure-index.js';
import { packExtracted, redactExtractedBundle } from './redact-bundle.js';

/** Compressed bundles up to this size are verified and classified in memory. */
export const IN_MEMORY_MAX_BUNDLE_BYTES = 16 * 1024 ** 2;
/** …as long as they unpack to at most this; a bigger one is unpacked to scratch disk instead. */
export const IN_MEMORY_MAX_UNPACKED_BYTES = 256 * 1024 ** 2;
/** The structured files a failure page reads: JSON files and configs (e.g. config/hydra/overrides.yaml). */
const STORED_FILE = /(\.json$)|(^config\/.*\.(ya?ml|json|toml|txt)$)/;
/** Such files up to this size are kept in the index, so pages never inflate the blob for them. */
export const STORED_JSON_MAX_BYTES = 256 * 1024;
const STORED_JSON_TOTAL_BYTES = 2 * 1024 ** 2;

export interface BundleFacts {
  kind: 'run' | 'harbor_trial';
  harborReward: number | null;
  exceptionType: string | null;
  gpuCount: number | null;
}

export interface Analysis {
  manifest: Manifest;
  files: FileEntry[];
  diagnosis: Diagnosis;
  fingerprint: Fingerprint;
  facts: BundleFacts;
  /** Small JSON files (path → text) stored beside the row. */
  storedFiles: Record<string, string>;
  /** Size of the file at `task.path` now: the bytes sent, or the redacted copy that replaced them. */
  bundleBytes: number;
}

export interface AnalyzeTask {
  /** The spooled bundle. */
  path: string;
  /** A scratch folder path (not yet created) for bundles too big for memory. */
  scratchDir: string;
  limits: Partial<BundleLimits>;
}

/** Verify and classify the bundle at `task.path`. Throws BundleError for a bad bundle. */
export async function analyzeBundle(task: AnalyzeTask): Promise<Analysis> {
  const lim = { ...DEFAULT_LIMITS, ...task.limits };
  let size = (await stat(task.path)).size;
  let bundle: ExtractedBundle | null = null;
  if (size <= IN_MEMORY_MAX_BUNDLE_BYTES) {
    const memLimit = Math.min(lim.maxUnpackedBytes, IN_MEMORY_MAX_UNPACKED_BYTES);
    try {
      bundle = await extractBundle(await readFile(task.path), null, { ...lim, maxUnpackedBytes: memLimit });
    } catch (err) {
      // Over the in-memory budget but maybe within the real limit: go to disk below.
      if (!(err instanceof BundleError && err.code === 'too_large' && memLimit < lim.maxUnpackedBytes)) throw err;
    }
  }
  try {
    if (!bundle) {
      await mkdir(task.scratchDir, { mode: 0o700 });
      bundle = await extractBundle(task.path, task.scratchDir, lim);
    }
    // Secrets never reach the index or a blob: a bundle that held any is stored redacted, and the
    // redacted copy replaces the spooled file that becomes the blob.
    const redacted = await redactExtractedBundle(bundle);
    if (redacted) {
      bundle = { ...bundle, manifest: redacted.manifest, files: redacted.files };
      if (bundle.dir === null) await mkdir(task.scratchDir, { mode: 0o700 });
      await rm(task.path, { force: true });
      size = await packExtracted(bundle.dir ?? task.scratchDir, redacted, task.path, bundle.dir === null ? bundle.contents : undefined);
    }
    const texts = await loadBundleTexts(bundle);
    const diagnosis = classifyBundle({ manifest: bundle.manifest, files: texts });
    const fingerprint = fingerprintOf({ diagnosis, files: texts, exit: bundle.manifest.exit });
    const storedFiles: Record<string, string> = {};
    let total = 0;
    for (const f of bundle.files) {
      if (f.path === 'manifest.json' || !STORED_FILE.test(f.path) || f.bytes > STORED_JSON_MAX_BYTES || total + f.bytes > STORED_JSON_TOTAL_BYTES) continue;
      const text = texts.get(f.path);
      if (text === undefined) continue;
      storedFiles[f.path] = text;
      total += f.bytes;
    }
    return { manifest: bundle.manifest, files: bundle.files, diagnosis, fingerprint, facts: bundleFacts(texts), storedFiles, bundleBytes: size };
  } finally {
    await rm(task.scratchDir, { recursive: true, force: true });
  }
}

/** Facts indexed beside the diagnosis, read from the bundle's structured files when present. */
export function bundleFacts(texts: Map<string, string>): BundleFacts {
  const json = (p: string): any => {
    const t = texts.get(p);
    if (t === undefined) return undefined;
    try {
      return JSON.parse(t);
    } catch {
      return undefined;
    }
  };
  const resultText = texts.get('harbor/result.json');
  const harbor = resultText !== undefined ? readHarborResult(resultText) : null;
  const harborReward = harbor?.reward ?? null;
  let exceptionType: string | null = harbor?.exception?.type ?? null;
  const exceptions = json('exceptions.json');
  if (!exceptionType && Array.isArray(exceptions) && typeof exceptions[0]?.type === 'string') exceptionType = exceptions[0].type;
  const topo = json('gpu/topology.json');
  const gpuCount = Array.isArray(topo?.gpus) ? topo.gpus.length : null;
  // A Harbor trial killed before result.json still has its trial.log / config.json.
  const harborTrial = resultText !== undefined || texts.has('harbor/trial.log') || texts.has('harbor/config.json');
  return { kind: harborTrial ? 'harbor_trial' : 'run', harborReward, exceptionType, gpuCount };
}
