/** The language a signed-in viewer reads the product in (issue 20): `PUT /api/v1/mobile/account/language`. */
import * as z from 'zod/mini';
import type { Http } from './http';

export const LANGUAGE_CODES = ['en', 'ceb'] as const;
export const languageRequestSchema = z.object({ language: z.enum(LANGUAGE_CODES, { error: 'Choose English or Bisaya.' }) });
export type LanguageRequest = z.infer<typeof languageRequestSchema>;

/** Stores a signed-in viewer's language on the account (the app calls it when the viewer chooses one). */
export const saveLanguage = (http: Http, language: LanguageRequest['language']) =>
  http.request('/api/v1/mobile/account/language', { method: 'PUT', body: { language }, schema: languageRequestSchema });
