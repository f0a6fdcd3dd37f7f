import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { AcceptanceSource } from '../domain/records/exports';
import { CRLF, csvTable } from './csv';
import {
  ATTACK_PATH_COLUMNS,
  type AttackPathSource,
  attackPathCsvRecord,
  attackPathRecord,
  ACCEPTANCE_COLUMNS,
  acceptanceRecord,
  ACCOUNT_COLUMNS,
  ACTIVITY_COLUMNS,
  activityCsvRecord,
  type ActivitySource,
  activityRecord,
  accountCsvRecord,
  scoreCsvRecord,
  type AccountRecord,
  CHECKLIST_COLUMNS,
  type ChecklistRecord,
  SCORE_COLUMNS,
  type ScoreRecord,
  SIGNAL_COLUMNS,
  signalCsvRecord,
  type SignalSource,
  signalRecord,
} from './records';

// The panic export package: one zip with the account's findings, score history, recovery checklist and
// account record, each as JSON and CSV, plus a README that explains them. Findings are streamed
// page by page into the zip, so an account with many signals never sits in memory.

export interface PackageSource {
  exportId: string;
  exportedAt: Date;
  account: AccountRecord;
  counts: { signals: number; openSignals: number };
  /** Every signal, oldest first, a page at a time. Called once per file that lists them. */
  signalPages: () => AsyncIterable<SignalSource[]>;
  scoreHistory: ScoreRecord[];
  checklist: ChecklistRecord[];
  /** Every acceptance of a signal's risk, oldest first. */
  acceptances: AcceptanceSource[];
  /** The audit log's events about the account, oldest first. */
  activity: ActivitySource[];
  /** The account's attack paths, most severe first. */
  attackPaths: AttackPathSource[];
}

export const PACKAGE_FILES = [
  'README.txt',
  'account.json',
  'account.csv',
  'findings.json',
  'findings.csv',
  'score-history.json',
  'score-history.csv',
  'recovery-checklist.json',
  'recovery-checklist.csv',
  'accepted-risks.json',
  'accepted-risks.csv',
  'account-activity.json',
  'account-activity.csv',
  'attack-paths.json',
  'attack-paths.csv',
] as const;

export function packageFilename(awsAccountId: string, at: Date): string {
  return `sentinel-${awsAccountId}-export-${at.toISOString().slice(0, 10).replace(/-/g, '')}.zip`;
}

/** Writes the package to `file`. Rejects (leaving a partial file for the caller to remove) if a source fails. */
export async function writeExportPackage(source: PackageSource, file: string): Promise<void> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on('error', (err: Error) => output.destroy(err));
  const written = pipeline(output, createWriteStream(file, { mode: 0o600 }));

  const options = { mtime: source.exportedAt };
  const text = (name: string, content: string) => zip.addBuffer(Buffer.from(content, 'utf8'), name, options);
  const streamed = (name: string, chunks: () => AsyncIterable<string>) =>
    zip.addReadStreamLazy(name, options, (callback) => {
      // yazl reads each entry only when the previous one is done; a failing source fails the whole zip.
      const stream = Readable.from(chunks(), { objectMode: false });
      stream.on('error', (err) => zip.emit('error', err));
      callback(null, stream);
    });
  const awsAccountId = source.account.aws_account_id;
  const signals = () => mapPages(source.signalPages(), (s) => signalRecord(awsAccountId, s, source.exportedAt));
  const acceptances = source.acceptances.map((a) => acceptanceRecord(a, source.exportedAt));
  const activity = source.activity.map(activityRecord);
  const attackPaths = source.attackPaths.map(attackPathRecord);

  text('README.txt', readme(source));
  text(
    'account.json',
    json({
      export_id: source.exportId,
      exported_at: source.exportedAt.toISOString(),
      account: source.account,
      counts: {
        signals: source.counts.signals,
        open_signals: source.counts.openSignals,
        score_history_days: source.scoreHistory.length,
        checklist_steps: source.checklist.length,
        accepted_risks: source.acceptances.length,
        activity_events: source.activity.length,
        attack_paths: source.attackPaths.length,
      },
    }),
  );
  streamed('account.csv', () => csvTable(ACCOUNT_COLUMNS, once([accountCsvRecord(source.account)])));
  streamed('findings.json', () => jsonArray(signals()));
  streamed('findings.csv', () => csvTable(SIGNAL_COLUMNS, mapPages(signals(), signalCsvRecord)));
  text('score-history.json', json(source.scoreHistory));
  streamed('score-history.csv', () => csvTable(SCORE_COLUMNS, once(source.scoreHistory.map(scoreCsvRecord))));
  text('recovery-checklist.json', json(source.checklist));
  streamed('recovery-checklist.csv', () => csvTable(CHECKLIST_COLUMNS, once(source.checklist)));
  text('accepted-risks.json', json(acceptances));
  streamed('accepted-risks.csv', () => csvTable(ACCEPTANCE_COLUMNS, once(acceptances)));
  text('account-activity.json', json(activity));
  streamed('account-activity.csv', () => csvTable(ACTIVITY_COLUMNS, once(activity.map(activityCsvRecord))));
  text('attack-paths.json', json(attackPaths));
  streamed('attack-paths.csv', () => csvTable(ATTACK_PATH_COLUMNS, once(attackPaths.map(attackPathCsvRecord))));
  zip.end();
  await written;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function* once<T>(items: T[]): AsyncIterable<T[]> {
  if (items.length > 0) yield items;
}

async function* mapPages<T, U>(pages: AsyncIterable<T[]>, map: (item: T) => U): AsyncIterable<U[]> {
  for await (const page of pages) yield page.map(map);
}

async function* jsonArray(pages: AsyncIterable<unknown[]>): AsyncIterable<string> {
  let first = true;
  yield '[';
  for await (const page of pages) {
    yield (first ? '\n' : ',\n') + page.map((item) => `  ${JSON.stringify(item)}`).join(',\n');
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

function readme(source: PackageSource): string {
  const a = source.account;
  const lines = [
    'Sentinel emergency export',
    '=========================',
    '',
    `AWS account:  ${a.aws_account_id}${a.display_name ? ` (${a.display_name})` : ''}`,
    `Exported at:  ${source.exportedAt.toISOString()}`,
    `Export id:    ${source.exportId}`,
    '',
    'Everything Sentinel holds about this account at the time of the export, read in one consistent snapshot.',
    'Times are ISO 8601 in UTC. Text files are UTF-8. Tables come twice: as JSON (an array of objects) and as',
    'CSV (RFC 4180: comma-separated, CRLF line endings, a header row, fields with quotes or commas in double',
    'quotes, one record per line). Both have the same columns, in the order listed below.',
    '',
    'Files',
    '-----',
    '',
    'account.json, account.csv',
    '  The account record (status, display name, tags, current Security Risk Score, role name, when it was',
    '  connected, scanned and disconnected); account.json also says how many records each file holds.',
    '  account.csv is the record as one row, its tags as a JSON array. The ExternalId of the role is not',
    '  included. Columns:',
    `  ${ACCOUNT_COLUMNS.join(', ')}`,
    '',
    `findings.json, findings.csv  (${source.counts.signals} signals, ${source.counts.openSignals} open)`,
    '  Every finding ("signal"), open and resolved, oldest first by detection time. Columns:',
    `  ${SIGNAL_COLUMNS.join(', ')}`,
    '  status is "open" or "resolved"; resolved_at is empty (null in JSON) while a signal is open. accepted says',
    "  whether an acceptance of the signal's risk was in force at the time of the export; acceptances lists every",
    '  acceptance of the signal (in the CSV as a JSON array), with the columns of accepted-risks below. mitre',
    "  names the MITRE ATT&CK tactic/technique ids of the finding's event detection (empty for a scan check's).",
    '',
    `score-history.json, score-history.csv  (${source.scoreHistory.length} days)`,
    "  The Security Risk Score (0-100, lower is riskier), one point per UTC day: the score of that day's",
    '  last scan, newest first, for the whole life of the account. Columns:',
    `  ${SCORE_COLUMNS.join(', ')}`,
    '  complete says whether that score read every core source of the account (IAM, CloudTrail, EC2, S3, ...);',
    '  false: it covers only what was read. Empty (null in JSON) for days recorded before this was kept.',
    '',
    `recovery-checklist.json, recovery-checklist.csv  (${source.checklist.length} steps)`,
    '  What to do, most urgent first: one step per failing check with its remediation and AWS',
    '  documentation, tailored to the findings open at the time of the export (a baseline hardening list',
    '  when none are open). Columns:',
    `  ${CHECKLIST_COLUMNS.join(', ')}`,
    '',
    `accepted-risks.json, accepted-risks.csv  (${source.acceptances.length} acceptances)`,
    '  Every time someone accepted the risk of a finding: who, when, why, until when, and whether it is still',
    '  in force, expired, or ended (undone, or replaced by a later acceptance; ended_by says who). Oldest first.',
    '  Columns:',
    `  ${ACCEPTANCE_COLUMNS.join(', ')}`,
    '',
    `account-activity.json, account-activity.csv  (${source.activity.length} events)`,
    '  What the audit log holds about this account, oldest first: connected, verified, disconnected, risks',
    '  accepted and undone, exports and their downloads; who (e-mail), from which address, and when. details',
    '  is an object (in the CSV as JSON text). Columns:',
    `  ${ACTIVITY_COLUMNS.join(', ')}`,
    '',
    `attack-paths.json, attack-paths.csv  (${source.attackPaths.length} paths)`,
    '  What an attacker can reach in the account, as its latest full scan found it, most severe first: toxic',
    '  combinations (CRITICAL), privilege-escalation paths and internet exposures. steps is the chain read left',
    '  to right; nodes and edges are the path as a graph (in the CSV as JSON text), each edge with the policy',
    '  statements, rules or detections that allow it. certainty "possible": a step depends on a condition or a',
    '  document Sentinel could not decide. Columns:',
    `  ${ATTACK_PATH_COLUMNS.join(', ')}`,
    '',
    'Spreadsheet safety',
    '------------------',
    '',
    'Finding titles and resource names come from the AWS account and its events, reasons and names from people:',
    'untrusted text. The CSV files are written so that a spreadsheet never runs any of it as a formula, whether it',
    'splits lines at commas, semicolons or tabs: a line break inside a value is written as a space (every record is',
    "one line), and a single quote (') goes before =, +, -, @ or a tab wherever a cell may start: at the start of a",
    'value, and after a comma, semicolon, tab or line break inside it (spaces and double quotes in between skipped).',
    'The spreadsheet then shows the text. The JSON files hold the values exactly as they are.',
    '',
  ];
  return lines.join(CRLF);
}
