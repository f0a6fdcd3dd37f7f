import { findInSettings, findInText, type NamedSecret } from './detector';

// Secrets in a structured document (a state machine's definition, an SSM document's content): every value is
// weighed as a setting named by its path in the document (States.Notify.Parameters.Headers.Authorization), so a
// finding says exactly where it is; a value of several lines (a script) is read line by line.

/** At most this many findings per document: a few are enough to act on. */
const LIMIT = 20;

export function findInDocument(document: unknown): NamedSecret[] {
  const found: NamedSecret[] = [];
  const visit = (value: unknown, path: string): void => {
    if (found.length >= LIMIT) return;
    if (typeof value === 'string') {
      if (value.includes('\n')) {
        for (const { line, kind } of findInText(value, LIMIT)) found.push({ name: `${path} (line ${line})`, kind });
      } else found.push(...findInSettings([[path, value]]));
    } else if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${path}[${i}]`));
    else if (typeof value === 'object' && value !== null)
      for (const [key, item] of Object.entries(value)) visit(item, path ? `${path}.${key}` : key);
  };
  visit(document, '');
  return found.slice(0, LIMIT);
}
