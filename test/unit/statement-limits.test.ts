import { insertChunks, MAX_STATEMENT_PARAMETERS } from '../../db/statement-limits';

describe('insertChunks', () => {
  it('keeps every chunk within the parameters one statement may bind, in order, losing no row', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ id: i, a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }));
    const chunks = insertChunks(rows);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length * 8).toBeLessThanOrEqual(MAX_STATEMENT_PARAMETERS);
    expect(chunks.flat()).toEqual(rows);
  });

  it('counts the columns of every row, and gives nothing for no rows', () => {
    const rows = [{ a: 1 }, ...Array.from({ length: 40_000 }, () => ({ a: 1, b: 2 }))];
    for (const chunk of insertChunks(rows)) expect(chunk.length * 2).toBeLessThanOrEqual(MAX_STATEMENT_PARAMETERS);
    expect(insertChunks([])).toEqual([]);
  });
});
