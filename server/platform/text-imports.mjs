/**
 * Lets Node (tsx) import a file's text with Vite's `?raw` suffix, so modules shared by the app and
 * the server (the common-password list) load the same way on both sides. Used as `tsx --import`.
 */
import { register } from 'node:module';

register('./text-imports-hooks.mjs', import.meta.url);
