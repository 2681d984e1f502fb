/**
 * The product's languages and where a choice is kept (issue 20), in one small module the app, the server
 * (server/platform/language.ts) and the catalog compile (scripts/i18n.ts) all read. The locales are
 * project.inlang/settings.json's (a test checks they agree).
 */
export const LANGUAGES = ['en', 'ceb'] as const;
export type Language = (typeof LANGUAGES)[number];
/** The cookie the server reads to serve a viewer's language. */
export const LANGUAGE_COOKIE = 'lang';
/** The local storage key of the choice (it survives a cleared cookie). */
export const LANGUAGE_STORAGE_KEY = 'language';
