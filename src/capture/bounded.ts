// Bounded text: a run can print gigabytes, but a bundle keeps the head (how it started: config,
// versions) and the tail (how it died), and says how much was cut between them.
import type { FileHandle } from 'node:fs/promises';
import { trimCutEdges } from '../redact/index.js';
import { NotRegularFile, openRegular, type OpenOptions } from '../regular-file.js';

// 1 MiB of head (start-up, resolved config, NCCL init) and 4 MiB of tail (~40k lines before the
// failure) per stream: enough for a post-mortem, and small enough that a capture on the failing
// node stays under a second even after 50 MB of output.
export const DEFAULT_HEAD_BYTES = 1024 * 1024;
export const DEFAULT_TAIL_BYTES = 4 * 1024 * 1024;

export function cutMarker(cut: number): string {
  return `\n[fdiag: ${cut} bytes cut]\n`;
}

export interface Bounded {
  data: Buffer;
  totalBytes: number;
  cutBytes: number;
}

/** Keeps the first `headLimit` and the last `tailLimit` bytes of a stream, in O(limits) memory. */
export class HeadTailBuffer {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(
    readonly headLimit = DEFAULT_HEAD_BYTES,
    readonly tailLimit = DEFAULT_TAIL_BYTES,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let c = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(this.headLimit - this.headBytes, c.length);
      this.head.push(c.subarray(0, take));
      this.headBytes += take;
      c = c.subarray(take);
      if (c.length === 0) return;
    }
    if (this.tailLimit <= 0) return;
    this.tail.push(Buffer.from(c)); // copy: node may reuse the chunk's memory
    this.tailBytes += c.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit) {
      this.tailBytes -= this.tail[0].length;
      this.tail.shift();
    }
  }

  result(): Bounded {
    let head: Buffer = Buffer.concat(this.head);
    let tail: Buffer = Buffer.concat(this.tail);
    if (tail.length > this.tailLimit) tail = tail.subarray(tail.length - this.tailLimit);
    if (this.total - head.length - tail.length <= 0) return { data: Buffer.concat([head, tail]), totalBytes: this.total, cutBytes: 0 };
    // No half of a token either side of the cut (src/redact: trimCutEdges).
    ({ head, tail } = trimCutEdges(head, tail));
    const cut = this.total - head.length - tail.length;
    return { data: Buffer.concat([head, Buffer.from(cutMarker(cut)), tail]), totalBytes: this.total, cutBytes: cut };
  }
}

/**
 * Head and tail of a file with two bounded reads: a 50 GB log costs the same as a 10 MB one.
 * Reads at most headLimit + tailLimit bytes even if the file grows while it is read.
 */
export async function readHeadTail(path: string, headLimit = DEFAULT_HEAD_BYTES, tailLimit = DEFAULT_TAIL_BYTES, opts: OpenOptions = {}): Promise<Bounded> {
  const fh = await openRegular(path, opts);
  try {
    const size = (await fh.stat()).size;
    if (size <= headLimit + tailLimit) {
      const buf = Buffer.alloc(size);
      const { bytesRead } = await fh.read(buf, 0, size, 0);
      return { data: buf.subarray(0, bytesRead), totalBytes: bytesRead, cutBytes: 0 };
    }
    const head = Buffer.alloc(headLimit);
    const h = await fh.read(head, 0, headLimit, 0);
    const tail = Buffer.alloc(tailLimit);
    const t = await fh.read(tail, 0, tailLimit, size - tailLimit);
    // No half of a token either side of the cut (src/redact: trimCutEdges).
    const edges = trimCutEdges(head.subarray(0, h.bytesRead), tail.subarray(0, t.bytesRead));
    const cut = size - edges.head.length - edges.tail.length;
    return {
      data: Buffer.concat([edges.head, Buffer.from(cutMarker(cut)), edges.tail]),
      totalBytes: size,
      cutBytes: cut,
    };
  } finally {
    await fh.close();
  }
}

/** A small file read whole, or refused when larger than `max` (JSON that cannot be cut). */
export async function readSmall(path: string, max = 4 * 1024 * 1024, opts: OpenOptions = {}): Promise<Buffer | null> {
  let fh: FileHandle;
  try {
    fh = await openRegular(path, opts);
  } catch (err) {
    if (err instanceof NotRegularFile) return null;
    throw err;
  }
  return readWhole(fh, max);
}

/** An opened file read whole and closed, or null (closed) when larger than `max`. */
export async function readWhole(fh: FileHandle, max: number): Promise<Buffer | null> {
  try {
    const st = await fh.stat();
    if (st.size > max) return null;
    const buf = Buffer.alloc(st.size);
    const { bytesRead } = await fh.read(buf, 0, st.size, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

// Regular files only, checked on the descriptor (src/regular-file.ts, shared with the Harbor reader).
export { NotRegularFile, openRegular, type OpenOptions } from '../regular-file.js';
