import type { z } from 'zod';
import { AppError, type FieldProblem } from './errors';

function problemsOf(error: Pick<z.ZodError, 'issues'>): FieldProblem[] {
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
  throw validationFailed(result.error, where);
}

/** The 400 for a failed parse, naming every failing field (shared with the tRPC router's input errors). */
export function validationFailed(error: Pick<z.ZodError, 'issues'>, where: string): AppError {
  const details = problemsOf(error);
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return new AppError('validation_failed', `Invalid ${where}: ${summary}`, { details });
}
