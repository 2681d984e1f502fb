/**
 * The server project's setup: the process logger (server/platform/log.ts) writes nowhere, so test runs
 * are not flooded with request lines; it still formats every line (mixin, redaction, masks), as in
 * production. A test that reads the lines configures its own destination (test/server/platform/log.test.ts).
 */
import { Writable } from 'node:stream';
import { configureLogger } from '../../server/platform/log';

configureLogger({ level: 'info', format: 'json' }, new Writable({ write: (_chunk, _encoding, done) => done() }));
