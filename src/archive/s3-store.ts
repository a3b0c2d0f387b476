// Blobs in an S3-compatible bucket (FDIAG_BLOBS=s3://bucket/prefix): AWS S3, MinIO, OSS, COS, …
// Credentials and region come from the standard AWS_* variables (the SDK's own chain); with
// AWS_ENDPOINT_URL set (anything but AWS itself) requests are path-style. Keys are content
// addressed (`<prefix>/blobs/<aa>/<sha256>.tar.gz`): the same key is the same bytes, so a small
// blob is simply put again, and a large one (multipart parts) is skipped when it exists; reads are
// streamed.
import { createReadStream } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BlobStore } from './blob-store.js';

export function isS3Url(s: string | undefined): s is string {
  return !!s && /^s3:\/\//i.test(s);
}

export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/i.exec(url);
  if (!m) throw new Error(`FDIAG_BLOBS: not an s3://bucket/prefix URL: ${JSON.stringify(url)}`);
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: m[1]!, prefix: prefix ? `${prefix}/` : '' };
}

const PART_BYTES = 8 * 1024 ** 2;

export class S3BlobStore implements BlobStore {
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(url: string, env: NodeJS.ProcessEnv = process.env) {
    const { bucket, prefix } = parseS3Url(url);
    this.bucket = bucket;
    this.prefix = prefix;
    this.location = url;
    const endpoint = env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL;
    this.client = new S3Client({
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
      ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
      maxAttempts: 4,
    });
  }

  private k(key: string): string {
    return `${this.prefix}${key}`;
  }

  private async head(key: string): Promise<{ modifiedMs: number } | null> {
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
      return { modifiedMs: h.LastModified?.getTime() ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async putFile(key: string, localFile: string): Promise<void> {
    try {
      const size = (await stat(localFile)).size;
      // A blob of one part is put straight away (one round trip): the key is content-addressed,
      // so writing it again writes the same bytes and renews its age.
      if (size <= PART_BYTES) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.k(key), Body: await readFile(localFile), ContentType: 'application/gzip', ContentLength: size }));
        return;
      }
      // Content-addressed: present means the same bytes. A copy that has sat for a while (an
      // orphan the sweep may be about to judge) is written again, which renews its age.
      const have = await this.head(key);
      if (have && Date.now() - have.modifiedMs < 60_000) return;
      const up = new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: this.k(key), Body: createReadStream(localFile), ContentType: 'application/gzip', ContentLength: size },
        partSize: PART_BYTES,
        queueSize: 4,
        leavePartsOnError: false,
      });
      await up.done();
    } finally {
      await rm(localFile, { force: true });
    }
  }

  async read(key: string): Promise<Readable | null> {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
      return r.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.k(key) }));
  }

  async *list(): AsyncIterable<{ key: string; modifiedMs: number }> {
    let token: string | undefined;
    do {
      const r = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.k('blobs/'), ContinuationToken: token }));
      for (const o of r.Contents ?? []) {
        if (o.Key) yield { key: o.Key.slice(this.prefix.length), modifiedMs: o.LastModified?.getTime() ?? 0 };
      }
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
  }

  async deleteIfOrphan(key: string, olderThanMs: number, isReferenced: () => Promise<boolean>): Promise<boolean> {
    // A bucket has no rename to take the object out of sight first: age and reference are checked
    // once more right before the delete, and a put of an aged key rewrites it (putFile).
    const h = await this.head(key);
    if (!h || h.modifiedMs >= olderThanMs || (await isReferenced())) return false;
    await this.delete(key);
    return true;
  }

  close(): void {
    this.client.destroy();
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
