import {
  CredentialReportExpiredException, CredentialReportNotPresentException, CredentialReportNotReadyException,
  GenerateCredentialReportCommand, GetCredentialReportCommand, type IAMClient,
} from '@aws-sdk/client-iam';
import { RefusedError } from './refusals';

// The root user's last sign-in or key use is only in the credential report, which IAM generates on request
// (in seconds for most accounts, and reuses for 4 hours).

const ROOT = '<root_account>';
const LAST_USED_COLUMNS = ['password_last_used', 'access_key_1_last_used_date', 'access_key_2_last_used_date'];
const ATTEMPTS = 10;
const POLL_MS = 1_000;

/** The latest date among the root row's last-used columns; they read 'N/A' or 'no_information' when unused. */
function rootLastUsedFromReport(csv: string): string | null {
  const [header = '', ...rows] = csv.trim().split(/\r?\n/).map((line) => line.split(','));
  const root = rows.find((row) => row[0] === ROOT);
  if (!root) return null;
  const times = LAST_USED_COLUMNS
    .map((column) => Date.parse(root[header.indexOf(column)] ?? ''))
    .filter((t) => !Number.isNaN(t));
  return times.length ? new Date(Math.max(...times)).toISOString() : null;
}

const notReady = (err: unknown) => err instanceof CredentialReportNotReadyException
  || err instanceof CredentialReportNotPresentException || err instanceof CredentialReportExpiredException;

/** null when the report cannot be had: refused, or still being generated after the polling. */
export async function rootLastUsedAt(iam: IAMClient): Promise<string | null> {
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      // Starts a generation when the latest report is missing or stale; a no-op while one is under way.
      await iam.send(new GenerateCredentialReportCommand({}));
      try {
        const { Content } = await iam.send(new GetCredentialReportCommand({}));
        return rootLastUsedFromReport(Buffer.from(Content ?? new Uint8Array()).toString('utf8'));
      } catch (err) {
        if (!notReady(err)) throw err;
      }
      if (attempt < ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return null;
  } catch (err) {
    if (err instanceof RefusedError) return null;
    throw err;
  }
}
