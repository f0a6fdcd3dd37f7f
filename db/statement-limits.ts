// PostgreSQL's wire protocol numbers a statement's parameters in 16 bits: a statement with more than 65,535 fails
// ("bind message has N parameter formats but 0 parameters"). A scan of a large account writes and resolves tens of
// thousands of findings at once, so an insert of many rows goes in chunks under the limit, and a list of ids goes as
// one array parameter (`= any($1)`), whatever its length.

export const MAX_STATEMENT_PARAMETERS = 65_535;

/** `rows` in consecutive chunks whose insert stays within MAX_STATEMENT_PARAMETERS (one per column of each row). */
export function insertChunks<T extends object>(rows: readonly T[]): T[][] {
  const columns = new Set(rows.flatMap((row) => Object.keys(row))).size;
  const size = Math.max(1, Math.floor(MAX_STATEMENT_PARAMETERS / Math.max(1, columns)));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
