import { parse } from 'csv-parse/sync';

/**
 * What a spreadsheet may make of a CSV file, every way it may read it: its cells with `,`, `;` or a tab as the
 * separator, quotes honoured (csv-parse, lenient where a quote comes mid-field, as spreadsheets are) or ignored, and
 * its lines split naively at every CR or LF. The comma reading with quotes is strict RFC 4180: it throws if the file
 * is not.
 */
export function spreadsheetReadings(text: string): Record<string, string[]> {
  const readings: Record<string, string[]> = {};
  for (const [name, delimiter] of [
    ['comma', ','],
    ['semicolon', ';'],
    ['tab', '\t'],
  ] as const) {
    for (const quotes of [true, false]) {
      const records: string[][] = parse(text, {
        delimiter,
        record_delimiter: ['\r\n', '\n', '\r'],
        quote: quotes ? '"' : false,
        relax_quotes: delimiter !== ',' || !quotes,
        relax_column_count: delimiter !== ',' || !quotes,
      });
      readings[`${name}, quotes ${quotes ? 'honoured' : 'ignored'}`] = records.flat();
    }
  }
  readings.lines = text.split(/\r\n|\r|\n/).filter((line) => line !== '');
  return readings;
}

/**
 * The cells a spreadsheet would run as a formula: those that start with = + - @, a tab or a carriage return,
 * after any spaces or double quotes (a reader may trim the first and open a quoted field at the second).
 */
export function formulaCells(cells: readonly string[]): string[] {
  return cells.filter((cell) => /^(?:[^\S\t\r\n]|")*[=+\-@\t\r]/.test(cell));
}
