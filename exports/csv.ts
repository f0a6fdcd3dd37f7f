// The one CSV writer of everything Sentinel exports (the CSV export, the panic package's tables): RFC 4180,
// comma-separated, CRLF line endings, fields quoted when they hold a quote or a comma (quotes doubled inside). Cells
// are untrusted text (a finding's resource name comes from the customer's AWS account or its forwarded events, an
// acceptance's reason and an account's display name from a user), so each is made inert for a spreadsheet first,
// whatever separator the spreadsheet splits lines with (docs/decisions.md, "Exports", "Spreadsheet safety"):
//
// - No line break inside a cell: each CR, LF or CRLF becomes a space. A spreadsheet reading the file with `;` or a
//   tab as its separator does not see our quotes where a cell starts mid-field, so a quoted line break would end its
//   row and start the next with whatever follows. One record is one line, for every reader.
// - A single quote before a formula character (= + - @ or a tab) wherever some reader may start a cell or a line: at
//   the start of the cell, and after each `,`, `;`, tab, CR or LF inside it, skipping spaces and double quotes in
//   between (a reader that trims the spaces, or opens a quoted field there, still finds the quote first). The
//   spreadsheet then shows text. A CR, the sixth character OWASP lists, starts no cell once it is a space.
//
// The JSON files of the panic package hold every value exactly; the CSV is what a spreadsheet opens.

export const CRLF = '\r\n';

const LINE_BREAKS = /\r\n|\r|\n/g;

/**
 * A formula character where a `,`-, `;`- or tab-separated reader may start a cell, or a naive one a line: the quote
 * goes before it, after any spaces (other than a tab, itself a separator) and double quotes.
 */
const CELL_STARTS = /(?<=^|[,;\t\r\n])((?:[^\S\t\r\n]|")*)(?=[=+\-@\t])/g;

/** The text of a cell as it is written, before quoting: on one line, with no formula where a reader starts a cell. */
export function neutralise(value: string): string {
  return value.replace(CELL_STARTS, "$1'").replace(LINE_BREAKS, ' ');
}

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = neutralise(String(value));
  return /[",]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
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
