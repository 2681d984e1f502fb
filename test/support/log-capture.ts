/** The process logger's JSON lines into memory, for a test to read (server/platform/log.ts). */
import { Writable } from 'node:stream';
import { configureLogger, restoreLogger } from '../../server/platform/log';

export type LogRecord = Record<string, unknown> & { msg?: string; requestId?: string; jobId?: string; level: number };

export function captureLogs(level: 'trace' | 'debug' | 'info' = 'info') {
  let text = '';
  const previous = configureLogger({ level, format: 'json' }, new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  }));
  return {
    /** Everything written so far, as written. */
    text: () => text,
    /** Every line, parsed. */
    records: (): LogRecord[] => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as LogRecord),
    clear: () => (text = ''),
    restore: () => restoreLogger(previous),
  };
}
