/**
 * A strict RFC 4180 reader for tests: records end with CRLF, fields with quotes, commas, CR or LF are quoted
 * (quotes doubled). Anything else (a bare LF between records, a stray quote) throws, so a writer that bends
 * the format fails the test instead of being read leniently.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string) => {
    throw new Error(`invalid CSV at offset ${i}: ${why}`);
  };
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) fail('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') fail('quote inside an unquoted field');
        field += text[i];
        i += 1;
      }
    }
    record.push(field);
    if (text[i] === ',') {
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      records.push(record);
      record = [];
      i += 2;
    } else if (i < text.length) {
      fail('expected a comma or CRLF');
    }
  }
  if (record.length > 0) fail('the last record does not end with CRLF');
  return records;
}

/** Records as objects keyed by the header row. */
export function parseCsvTable(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error('no header row');
  return rows.map((row) => {
    if (row.length !== header.length) throw new Error(`a row has ${row.length} fields, the header ${header.length}`);
    return Object.fromEntries(header.map((name, i) => [name, row[i] as string]));
  });
}
