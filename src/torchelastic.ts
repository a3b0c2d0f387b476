// torchelastic's ChildFailedError report, read once for everyone: the capture agent (exceptions
// collector) turns its Root Cause entry into an exception record, the classifiers' engine into the
// first worker to fail, and both read its fields through this module, so an entry means the same
// thing when a bundle is written and when it is classified. The shape is PyTorch's
// torch/distributed/elastic/multiprocessing/errors/__init__.py: `_MSG_FORMAT_TEMPLATE` heads the
// entry with "Root Cause (first observed failure):", `_FAILURE_FORMAT_TEMPLATE` writes its fields
//   time      : ${time}                       (time.strftime "%Y-%m-%d_%H:%M:%S", the host's zone)
//   host      : ${hostname}
//   rank      : ${rank} (local_rank: ${local_rank})
//   exitcode  : ${exitcode} (pid: ${pid})
//   error_file: ${error_file}                 ("<N/A>" without @record)
//   traceback : ${message}                    (more lines may follow, indented)
// No dependencies: capture and classifiers may both import it (like logline.ts).

/** The line that opens the entry of the first worker to fail. */
export const ROOT_CAUSE_HEADER = 'Root Cause (first observed failure)';

export type RootCauseFieldName = 'time' | 'host' | 'rank' | 'exitcode' | 'error_file' | 'traceback';

export interface RootCauseField {
  name: RootCauseFieldName;
  /** The text after `name :`, trimmed. */
  value: string;
}

/** A field as the template writes it, its name padded to ten characters (`exitcode  :`): a fixed literal to look for. */
export function rootCauseFieldKey(name: RootCauseFieldName): string {
  return `${name.padEnd(10)}:`;
}

// Looser than the template's padding; a launcher prefix is split off by the caller (logline.splitPrefix).
const FIELD_RE = /^\s*(time|host|rank|exitcode|error_file|traceback)\s{0,12}: ?(.{0,4096})$/;
const RANK_RE = /^(\d{1,6})(?:\s{0,4}\(local_rank:\s{0,4}(\d{1,6})\))?/;
const EXIT_RE = /^(-?\d{1,4})(?:\s{0,4}\(pid:\s{0,4}(\d{1,10})\))?/;

/** One field line of a Root Cause entry, or null for any other line (a traceback's continuation). */
export function parseRootCauseField(rest: string): RootCauseField | null {
  const m = FIELD_RE.exec(rest.replace(/\r$/, ''));
  return m ? { name: m[1] as RootCauseFieldName, value: m[2]!.trim() } : null;
}

/** `5 (local_rank: 1)`: the global rank and, when given, the local one. */
export function rootCauseRank(value: string): { rank: number; localRank: number | null } | null {
  const m = RANK_RE.exec(value);
  return m ? { rank: Number(m[1]), localRank: m[2] !== undefined ? Number(m[2]) : null } : null;
}

/** `-9 (pid: 77)`: the worker's exit code (negative: the signal that killed it) and its pid. */
export function rootCauseExit(value: string): { exitcode: number; pid: number | null } | null {
  const m = EXIT_RE.exec(value);
  return m ? { exitcode: Number(m[1]), pid: m[2] !== undefined ? Number(m[2]) : null } : null;
}
