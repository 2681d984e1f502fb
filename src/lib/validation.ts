/** Turns a zod result into one message per field, the first that applies, for forms to show. */
import type { z } from 'zod';

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

export function fieldErrorsOf<T>(schema: z.ZodType<T>, values: unknown): FieldErrors<T> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors as FieldErrors<T>;
}
