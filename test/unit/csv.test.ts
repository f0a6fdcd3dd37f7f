import { csvCell, csvRow, neutralise } from '../../exports/csv';
import { parseCsv } from '../helpers/csv';
import { formulaCells, spreadsheetReadings } from '../helpers/spreadsheet';

describe('CSV writer (RFC 4180)', () => {
  it('ends records with CRLF and leaves plain cells unquoted', () => {
    expect(csvRow(['a', 'b c', 42, null, undefined])).toBe('a,b c,42,,\r\n');
  });

  it('quotes cells with a comma or a quote and doubles the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
  });

  it('writes every record on one line: a line break inside a cell becomes a space', () => {
    expect(csvCell('line1\nline2')).toBe('line1 line2');
    expect(csvCell('line1\r\nline2')).toBe('line1 line2');
    expect(csvCell('line1\rline2, and more')).toBe('"line1 line2, and more"');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(csvCell("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1:A9)')).toBe("'@SUM(A1:A9)");
    expect(csvCell('\t=1+1')).toBe("'\t'=1+1");
    expect(csvCell('\r=1+1')).toBe(" '=1+1");
    expect(csvCell('  =1+1')).toBe("  '=1+1");
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('neutralises what follows a line break, a `;`, a `,` or a tab: where some reader starts a cell or a line', () => {
    expect(csvCell('web\r\n=HYPERLINK("http://evil.example")')).toBe(`"web '=HYPERLINK(""http://evil.example"")"`);
    expect(csvCell('web;=HYPERLINK("http://evil.example")')).toBe(`"web;'=HYPERLINK(""http://evil.example"")"`);
    expect(csvCell('a;-1;+2;@A1;\t=1')).toBe("a;'-1;'+2;'@A1;'\t'=1");
    expect(csvCell('=1;=2')).toBe("'=1;'=2");
    expect(neutralise('a; =b,"-c"\t@d')).toBe(`a; '=b,"'-c"\t'@d`);
  });

  it('leaves formula characters alone where no reader starts a cell', () => {
    for (const value of ['a=b', '1-2', 'user@example.com', 'x+y', "it's", 'a;b', 'a, b']) {
      expect(neutralise(value)).toBe(value);
    }
  });

  it('keeps unicode as it is', () => {
    expect(csvRow(['Zürich — 東京 🚀', 'ça va'])).toBe('Zürich — 東京 🚀,ça va\r\n');
  });

  const NASTY = [
    'plain',
    'comma, inside',
    'quote " inside',
    '"quoted"',
    'new\nline',
    'cr\rreturn',
    'crlf\r\nboth',
    '',
    "=cmd|' /C calc'!A0",
    '+1',
    '-1',
    '@SUM(A1)',
    '\tTab',
    '=A1,"b"\r\n',
    'Zürich — 東京 🚀',
    ' leading space',
    'trailing space ',
    'a;=b;-c',
    'web\r\n=HYPERLINK("http://evil.example","x")',
    'web\n;=HYPERLINK("http://evil.example")',
    'x\r\n"=HYPERLINK(""http://evil.example"")"',
    'a,"=1";"@2"\t"+3"',
    '\r\n\r\n-2+3',
    ';;=1',
  ];

  it('reads back what it wrote with an RFC 4180 reader, line breaks as spaces and the neutralising quotes added', () => {
    const text = csvRow(['header', 'row']) + NASTY.map((cell) => csvRow([cell, cell.length])).join('');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['header', 'row']);
    expect(rows.map(([cell]) => cell)).toEqual(NASTY.map(neutralise));
    expect(rows.map(([, length]) => Number(length))).toEqual(NASTY.map((cell) => cell.length));
    // Strip the quotes added and the cells are the values, each line break a space.
    const strip = (cell: string) => cell.replace(/'(?=[=+\-@\t])/g, '');
    expect(rows.map(([cell]) => strip(cell as string))).toEqual(
      NASTY.map((cell) => strip(cell.replace(/\r\n|\r|\n/g, ' '))),
    );
  });

  it('shows no formula at the start of any cell or line, read with `,`, `;` or a tab as the separator, or split into lines', () => {
    const text = csvRow(['header', 'row']) + NASTY.map((cell) => csvRow([cell, cell])).join('');
    const readings = spreadsheetReadings(text);
    expect(Object.keys(readings)).toEqual([
      'comma, quotes honoured',
      'comma, quotes ignored',
      'semicolon, quotes honoured',
      'semicolon, quotes ignored',
      'tab, quotes honoured',
      'tab, quotes ignored',
      'lines',
    ]);
    for (const [reading, cells] of Object.entries(readings))
      expect({ reading, formulas: formulaCells(cells) }).toEqual({ reading, formulas: [] });
    // A record per line: every reading has the header and one line per value.
    expect(readings.lines).toHaveLength(NASTY.length + 1);
    expect(readings['comma, quotes honoured']).toHaveLength(2 * (NASTY.length + 1));
  });
});
