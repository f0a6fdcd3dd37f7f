import { csvCell, csvRow, neutralise } from '../../exports/csv';
import { parseCsv } from '../helpers/csv';

describe('CSV writer (RFC 4180)', () => {
  it('ends records with CRLF and leaves plain cells unquoted', () => {
    expect(csvRow(['a', 'b c', 42, null, undefined])).toBe('a,b c,42,,\r\n');
  });

  it('quotes cells with a comma, a quote, CR or LF and doubles the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
    expect(csvCell('"')).toBe('""""');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(csvCell("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1:A9)')).toBe("'@SUM(A1:A9)");
    expect(csvCell('\t=1+1')).toBe("'\t=1+1");
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvCell('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('neutralises what follows a semicolon, where a spreadsheet with `;` as its separator starts a cell', () => {
    expect(csvCell('web;=HYPERLINK("http://evil.example")')).toBe(`"web;'=HYPERLINK(""http://evil.example"")"`);
    expect(csvCell('a;-1;+2;@A1;\t=1')).toBe("a;'-1;'+2;'@A1;'\t=1");
    expect(csvCell('=1;=2')).toBe("'=1;'=2");
    expect(neutralise('a; =b;c')).toBe('a; =b;c');
  });

  it('leaves formula characters alone when they are not first', () => {
    for (const value of ['a=b', '1-2', 'user@example.com', 'x+y', "it's"]) expect(neutralise(value)).toBe(value);
  });

  it('keeps unicode as it is', () => {
    expect(csvRow(['Zürich — 東京 🚀', 'ça va'])).toBe('Zürich — 東京 🚀,ça va\r\n');
  });

  it('reads back what it wrote, nasty cells included', () => {
    const nasty = [
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
    ];
    const text = csvRow(['header', 'row']) + nasty.map((cell) => csvRow([cell, cell.length])).join('');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['header', 'row']);
    expect(rows.map(([cell]) => cell)).toEqual(nasty.map(neutralise));
    expect(rows.map(([, length]) => Number(length))).toEqual(nasty.map((cell) => cell.length));
    // The neutralising quotes are the only change: strip them and every value comes back exactly.
    const strip = (cell: string) => cell.replace(/^'([=+\-@\t\r])/, '$1').replace(/;'([=+\-@\t\r])/g, ';$1');
    expect(rows.map(([cell]) => strip(cell as string))).toEqual(nasty);
  });
});
