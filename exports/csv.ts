// RFC 4180 CSV: comma-separated, CRLF line endings, fields quoted when they hold a quote, comma, CR or LF
// (quotes doubled inside). Cells that a spreadsheet would run as a formula are neutralised first.

export const CRLF = '\r\n';

/**
 * Characters that make Excel, LibreOffice or Sheets treat a cell as a formula (OWASP "CSV injection"): a
 * finding's title or resource name comes from the customer's AWS account, so it is untrusted text.
 */
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * A spreadsheet whose list separator is `;` (most of continental Europe) splits a line at every `;`, quoted or
 * not: what follows one starts a cell of its own.
 */
const AFTER_SEMICOLON = /;([=+\-@\t\r])/g;

/**
 * Prefixes a single quote to a cell a spreadsheet would evaluate, and to what follows each `;` that a `;`-reading
 * spreadsheet would evaluate, so it is shown as text instead.
 */
export function neutralise(value: string): string {
  const inner = value.replace(AFTER_SEMICOLON, ";'$1");
  return FORMULA_TRIGGERS.has(inner.charAt(0)) ? `'${inner}` : inner;
}

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = neutralise(String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, terminated by CRLF. */
export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return values.map(csvCell).join(',') + CRLF;
}

/** A table: the header row, then one chunk of records per page, each record's cells in the order of `columns`. */
export async function* csvTable<K extends string>(
  columns: readonly K[],
  pages: AsyncIterable<readonly { [key in K]: string | number | null }[]>,
): AsyncIterable<string> {
  yield csvRow(columns);
  for await (const page of pages) yield page.map((record) => csvRow(columns.map((c) => record[c]))).join('');
}
