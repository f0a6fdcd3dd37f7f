import {
  CredentialReportExpiredException,
  CredentialReportNotPresentException,
  CredentialReportNotReadyException,
  GenerateCredentialReportCommand,
  GetCredentialReportCommand,
  IAMClient,
} from '@aws-sdk/client-iam';
import type { CredentialReport, ReportedUser } from '../../../domain/scans/inventory';
import { NotReadyError, ReadFailure } from './failures';
import { globalPart, type ReadContext } from './reader';

// IAM's credential report: every user's password, MFA and access-key use, and the root user's last use, in one
// CSV. IAM generates it on request (seconds for most accounts, longer for thousands of users) and serves the same
// report for 4 hours. One generation per scan, then polling until it is ready or the deadline passes.

const ROOT = '<root_account>';
const DEADLINE_MS = 120_000;
const FIRST_POLL_MS = 1_000;
const LONGEST_POLL_MS = 5_000;

/** A date column: 'N/A', 'no_information' and 'not_supported' mean none. */
function dateOf(value: string | undefined): string | null {
  const time = Date.parse(value ?? '');
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/**
 * The report as rows of named columns. It is not quoted, and IAM names may contain commas: a row with more
 * fields than the header has the extra ones in its user name and in the ARN that repeats it.
 */
function rows(csv: string): Record<string, string>[] {
  const [header = [], ...lines] = csv
    .trim()
    .split(/\r?\n/)
    .map((line) => line.split(','));
  return lines.map((fields) => {
    const extra = (fields.length - header.length) / 2;
    const joined =
      extra > 0 && Number.isInteger(extra)
        ? [
            fields.slice(0, extra + 1).join(','),
            fields.slice(extra + 1, 2 * extra + 2).join(','),
            ...fields.slice(2 * extra + 2),
          ]
        : fields;
    return Object.fromEntries(header.map((column, i) => [column, joined[i] ?? '']));
  });
}

export function parseCredentialReport(csv: string, generatedAt: Date): CredentialReport {
  const all = rows(csv);
  const root = all.find((row) => row.user === ROOT);
  const rootUses = root
    ? [root.password_last_used, root.access_key_1_last_used_date, root.access_key_2_last_used_date]
        .map(dateOf)
        .filter((d): d is string => d !== null)
    : [];
  return {
    generatedAt: generatedAt.toISOString(),
    root: root ? { lastUsedAt: rootUses.length > 0 ? (rootUses.sort().at(-1) as string) : null } : null,
    users: all
      .filter((row) => row.user !== ROOT)
      .map(
        (row): ReportedUser => ({
          arn: row.arn ?? '',
          passwordEnabled: row.password_enabled === 'true',
          passwordLastUsedAt: dateOf(row.password_last_used),
          passwordLastChangedAt: dateOf(row.password_last_changed),
          mfaActive: row.mfa_active === 'true',
          keys: [1, 2]
            .map((slot) => ({
              active: row[`access_key_${slot}_active`] === 'true',
              lastRotatedAt: dateOf(row[`access_key_${slot}_last_rotated`]),
              lastUsedAt: dateOf(row[`access_key_${slot}_last_used_date`]),
            }))
            .filter((key) => key.lastRotatedAt !== null),
        }),
      ),
  };
}

const notYet = (err: unknown) =>
  err instanceof ReadFailure &&
  (err.cause instanceof CredentialReportNotReadyException ||
    err.cause instanceof CredentialReportNotPresentException ||
    err.cause instanceof CredentialReportExpiredException);

export const credentialReportPart = globalPart({
  part: 'credentialReport',
  async read({ session }: ReadContext) {
    const iam = session.client((config) => new IAMClient(config));
    // Starts a generation when the latest report is missing or older than 4 hours; otherwise a no-op.
    await iam.send(new GenerateCredentialReportCommand({}));
    const deadline = Date.now() + DEADLINE_MS;
    for (let wait = FIRST_POLL_MS; ; wait = Math.min(wait * 2, LONGEST_POLL_MS)) {
      try {
        const { Content, GeneratedTime } = await iam.send(new GetCredentialReportCommand({}));
        return {
          value: parseCredentialReport(
            Buffer.from(Content ?? new Uint8Array()).toString('utf8'),
            GeneratedTime ?? new Date(),
          ),
        };
      } catch (err) {
        if (!notYet(err)) throw err;
      }
      if (Date.now() + wait > deadline) {
        throw new NotReadyError(`IAM had not finished the credential report after ${DEADLINE_MS / 1000} s.`);
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  },
});
