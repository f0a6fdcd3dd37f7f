import type { z } from 'zod';
import { AppError, type FieldProblem } from './errors';

function problemsOf(error: z.ZodError): FieldProblem[] {
  return error.issues.flatMap((issue): FieldProblem[] => {
    // `.strict()` reports every unknown key in one issue: name each of them.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...issue.path, key].join('.'), message: 'unknown field' }));
    }
    return [{ field: issue.path.join('.') || '(body)', message: issue.message }];
  });
}

/** Parses untrusted input; failure is a 400 naming every failing field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where = 'request body'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = problemsOf(result.error);
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  throw new AppError('validation_failed', `Invalid ${where}: ${summary}`, { details });
}
