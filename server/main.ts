/**
 * `npm start`'s entry: first lets Node load `?raw` text imports (the common-password list the app and
 * the server share, see src/api/commonPasswordList.ts), then starts the server. Any `tsx server/main.ts`
 * works without extra flags.
 */
import './platform/text-imports.mjs';

await import('./serve');
