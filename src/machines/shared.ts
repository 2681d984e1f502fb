/** Pieces every form flow shares, so each chart reads the same way. */
import type { AuthResult } from '../api/schemas';
import { NETWORK_MESSAGE } from '../api/http';

/** The three faces of a form: being filled in, showing field errors, showing the server's refusal. */
export const formStates = {
  initial: 'editing',
  states: { editing: {}, invalid: {}, rejected: {} },
} as const;

/** The message a person should read for a failed call (spec §8). */
export function errorMessageOf(event: unknown): string {
  const error = (event as { error?: unknown }).error;
  return error instanceof Error && error.message ? error.message : NETWORK_MESSAGE;
}

/** The output of a done event. */
export function outputOf<T>(event: unknown): T {
  return (event as { output: T }).output;
}

export type Notify = { kind: 'success' | 'error' | 'info'; message: string };
export type StartSession = { result: AuthResult };
