/** Turns a zod result into one message per field, the first that applies, for forms to show. */
import type * as z from 'zod/mini';

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

export function fieldErrorsOf<T>(schema: z.ZodMiniType<T>, values: unknown): FieldErrors<T> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return errors as FieldErrors<T>;
}

/** The first message for a single value (a one-field form such as the code). */
export function firstErrorOf<T>(schema: z.ZodMiniType<T>, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
