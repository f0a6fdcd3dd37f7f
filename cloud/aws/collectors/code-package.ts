import { fromBufferPromise } from 'yauzl';
import type { FileSecret, SecretsReading } from '../../../domain/scans/inventory';
import { findInText } from '../../../domain/secrets/detector';

// Reads a Lambda code package (a .zip AWS hands out through a presigned S3 URL) for secrets, in memory, and keeps
// only what was found (kind, file, line). The work is bounded so that one account's packages cannot hold a scan:
// - a package larger than MAX_PACKAGE_BYTES (by the size Lambda reports, then by what is downloaded) is not read,
//   and is named unread with that reason; so is one that would take a region past MAX_REGION_BYTES;
// - within a package, at most MAX_FILES files are opened, each at most MAX_FILE_BYTES uncompressed (larger files
//   are bundles or data, not configuration) and at most MAX_TEXT_BYTES in all; binary files (a NUL byte in their
//   first KiB) are skipped;
// - third-party dependencies bundled with the code (node_modules, site-packages, vendor) are not read: keys in them
//   are test fixtures of those libraries far more often than the customer's secrets.

export const MAX_PACKAGE_BYTES = 50 * 1024 * 1024;
/** Bytes of packages downloaded per region and scan; the packages past it are named unread. */
export const MAX_REGION_BYTES = 250 * 1024 * 1024;
export const MAX_FILES = 2_000;
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_TEXT_BYTES = 20 * 1024 * 1024;
/** Secrets named per package: enough to act on; the rest add nothing to the finding. */
const MAX_SECRETS = 50;
const DOWNLOAD_TIMEOUT_MS = 60_000;

const DEPENDENCIES = /(^|\/)(node_modules|site-packages|dist-packages|vendor|\.venv)\//;
const BINARY_EXTENSIONS =
  /\.(so|dll|dylib|node|pyc|pyo|class|jar|war|zip|gz|tgz|bz2|xz|png|jpe?g|gif|ico|pdf|woff2?|ttf|wasm|bin)$/i;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** What a region's reads of code packages have used of MAX_REGION_BYTES. */
export interface DownloadBudget {
  remaining: number;
}

/** The package at a presigned URL, downloaded within the bounds, or why it was not. */
async function download(
  location: string,
  budget: DownloadBudget,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; reason: string }> {
  const response = await fetch(location, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) }).catch(
    (err: unknown) => err as Error,
  );
  if (response instanceof Error)
    return { ok: false, reason: `The code package could not be downloaded: ${response.message}.` };
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    return { ok: false, reason: `The code package could not be downloaded (HTTP ${response.status}).` };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_PACKAGE_BYTES || size > budget.remaining) {
      // Leaving the loop cancels the download.
      return {
        ok: false,
        reason:
          size > MAX_PACKAGE_BYTES
            ? `The code package is larger than ${megabytes(MAX_PACKAGE_BYTES)}: Sentinel does not read packages that large.`
            : `Not read: the code packages of this region already took the ${megabytes(MAX_REGION_BYTES)} a scan reads per region.`,
      };
    }
    chunks.push(Buffer.from(chunk));
  }
  budget.remaining -= size;
  return { ok: true, bytes: Buffer.concat(chunks) };
}

/** The secrets in the text files of a .zip package. */
export async function secretsInZip(bytes: Buffer): Promise<FileSecret[]> {
  const zip = await fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  const found: FileSecret[] = [];
  let files = 0;
  let text = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (found.length >= MAX_SECRETS || files >= MAX_FILES || text >= MAX_TEXT_BYTES) break;
      const name = entry.fileName;
      if (name.endsWith('/') || DEPENDENCIES.test(name) || BINARY_EXTENSIONS.test(name)) continue;
      if (entry.uncompressedSize > MAX_FILE_BYTES || text + entry.uncompressedSize > MAX_TEXT_BYTES) continue;
      files += 1;
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      const content = Buffer.concat(chunks);
      text += content.length;
      if (content.subarray(0, 1024).includes(0)) continue;
      for (const secret of findInText(content.toString('utf8'))) found.push({ file: name, ...secret });
    }
  } finally {
    zip.close();
  }
  return found.slice(0, MAX_SECRETS);
}

/** Reads the package at `location` (its reported size `codeSize`) for secrets, within the bounds above. */
export async function readCodePackage(
  location: string,
  codeSize: number,
  budget: DownloadBudget,
): Promise<SecretsReading<FileSecret>> {
  if (codeSize > MAX_PACKAGE_BYTES) {
    return {
      read: false,
      reason: `The code package is ${megabytes(codeSize)}, larger than the ${megabytes(MAX_PACKAGE_BYTES)} Sentinel reads.`,
    };
  }
  const downloaded = await download(location, budget);
  if (!downloaded.ok) return { read: false, reason: downloaded.reason };
  try {
    return { read: true, secrets: await secretsInZip(downloaded.bytes) };
  } catch (err) {
    return {
      read: false,
      reason: `The code package is not a .zip archive Sentinel can read: ${err instanceof Error ? err.message : String(err)}.`,
    };
  }
}
