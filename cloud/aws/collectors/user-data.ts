import { gunzipSync } from 'node:zlib';
import type { UserDataSecrets } from '../../../domain/scans/compute';
import { findInText } from '../../../domain/secrets/detector';

// User data as EC2 and Auto Scaling return it (base64, and often gzipped by the tools that write it: cloud-init
// accepts both), searched for secrets as it is read. Only the findings leave this file: the text is never kept.

/** EC2 takes at most 16 KB of user data; a gzipped one that inflates past this is not a script to read. */
const MAX_INFLATED_BYTES = 1024 * 1024;
const GZIP_MAGIC = [0x1f, 0x8b];
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The secrets in base64 user data; [] without any; null when it is not text (see UserDataSecrets). */
export function userDataSecrets(base64: string | undefined | null): UserDataSecrets {
  if (!base64) return [];
  let bytes: Buffer = Buffer.from(base64, 'base64');
  try {
    if (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1])
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES });
    return findInText(utf8.decode(bytes));
  } catch {
    return null;
  }
}
