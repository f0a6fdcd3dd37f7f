import { createReadStream, type ReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config/config';
import { sign, verifySignature } from '../security/crypto';

// Where finished export packages live: an S3 bucket (downloaded through presigned GET links) or, without a
// bucket, a local directory the API serves through its own HMAC-signed links. Both the worker (which writes)
// and the API (which links and, locally, serves) build one from the same configuration.

/** The spec's validity of a download link. */
export const DOWNLOAD_TTL_SECONDS = 15 * 60;

export interface DownloadLink {
  url: string;
  expiresAt: Date;
}

interface StorageCommon {
  /** Stores the finished package at `file` (a local file) under `key`. */
  put(input: { key: string; file: string; filename: string }): Promise<void>;
  remove(key: string): Promise<void>;
  /** A link valid for DOWNLOAD_TTL_SECONDS. */
  downloadLink(input: { exportId: string; key: string }): Promise<DownloadLink>;
}

export interface LocalExportStorage extends StorageCommon {
  kind: 'local';
  /** The stored package, or undefined when it is gone. */
  open(key: string): Promise<{ stream: ReadStream; size: number } | undefined>;
}

export interface S3ExportStorage extends StorageCommon {
  kind: 's3';
}

export type ExportStorage = LocalExportStorage | S3ExportStorage;

export function exportStorageKey(tenantId: string, exportId: string): string {
  return `${tenantId}/${exportId}.zip`;
}

export function createExportStorage(config: Pick<Config, 'exports' | 'cloud' | 'http' | 'secrets'>): ExportStorage {
  return config.exports.s3Bucket
    ? s3Storage({ bucket: config.exports.s3Bucket, region: config.cloud.region, endpointUrl: config.cloud.endpointUrl })
    : localDirStorage({
        dir: config.exports.localDir,
        publicBaseUrl: config.http.publicBaseUrl,
        signingKey: config.secrets.urlSigningKey,
      });
}

function s3Storage({
  bucket,
  region,
  endpointUrl,
}: {
  bucket: string;
  region: string;
  endpointUrl?: string;
}): S3ExportStorage {
  // The service's own credentials (default provider chain), never a customer's role. A custom endpoint
  // (an S3-compatible store, or moto in tests) is addressed by path, as it has no per-bucket host names.
  const s3 = new S3Client({ region, ...(endpointUrl ? { endpoint: endpointUrl, forcePathStyle: true } : {}) });
  return {
    kind: 's3',
    async put({ key, file, filename }) {
      const { size } = await stat(file);
      await s3.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: 'application/zip',
          ContentDisposition: attachment(filename),
        }),
      );
    },
    async remove(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async downloadLink({ key }) {
      // S3 counts the validity from the signing time, which the URL carries to the second.
      const signedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
      const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: key }), {
        expiresIn: DOWNLOAD_TTL_SECONDS,
        signingDate: signedAt,
      });
      return { url, expiresAt: new Date(signedAt.getTime() + DOWNLOAD_TTL_SECONDS * 1000) };
    },
  };
}

function localDirStorage({
  dir,
  publicBaseUrl,
  signingKey,
}: {
  dir: string;
  publicBaseUrl: string;
  signingKey: Buffer;
}): LocalExportStorage {
  const root = path.resolve(dir);
  const pathOf = (key: string) => {
    const full = path.resolve(root, key);
    // Keys are built by us, but a path outside the store must never be read or written.
    if (!full.startsWith(root + path.sep)) throw new Error('storage key escapes the export directory');
    return full;
  };
  return {
    kind: 'local',
    async put({ key, file }) {
      const target = pathOf(key);
      // A package holds the account's findings: readable by the service's own user only.
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      // Renamed into place, so a reader (the API, maybe another process) never sees half a file.
      const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await copyFile(file, partial);
        await chmod(partial, 0o600);
        await rename(partial, target);
      } finally {
        await rm(partial, { force: true });
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async open(key) {
      const file = pathOf(key);
      try {
        const { size } = await stat(file);
        return { stream: createReadStream(file), size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async downloadLink({ exportId }) {
      const expires = Math.floor(Date.now() / 1000) + DOWNLOAD_TTL_SECONDS;
      return {
        url: localDownloadUrl({ publicBaseUrl, signingKey, exportId, expires }),
        expiresAt: new Date(expires * 1000),
      };
    },
  };
}

const downloadMessage = (exportId: string, expires: number) => `export-download:${exportId}:${expires}`;

/** The API's own signed link to a locally stored export: `expires` is a Unix time in seconds. */
export function localDownloadUrl({
  publicBaseUrl,
  signingKey,
  exportId,
  expires,
}: {
  publicBaseUrl: string;
  signingKey: Buffer;
  exportId: string;
  expires: number;
}): string {
  const query = new URLSearchParams({
    expires: String(expires),
    signature: sign(signingKey, downloadMessage(exportId, expires)),
  });
  return `${publicBaseUrl}/exports/${encodeURIComponent(exportId)}/download?${query}`;
}

/** Checks a local download link: the signature first (any change to the id or the expiry breaks it), then the time. */
export function checkDownloadLink({
  signingKey,
  exportId,
  expires,
  signature,
  now = new Date(),
}: {
  signingKey: Buffer;
  exportId: string;
  expires: unknown;
  signature: unknown;
  now?: Date;
}): 'valid' | 'invalid' | 'expired' {
  if (typeof expires !== 'string' || !/^[0-9]{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
  if (!verifySignature(signingKey, downloadMessage(exportId, Number(expires)), signature)) return 'invalid';
  return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
}

/** A Content-Disposition that names the file; our file names are plain ASCII. */
export function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;
}
