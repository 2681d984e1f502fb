/** The "this wasn't me" flow after an email change: its chart, its connectEmailUndo. */
export * from './emailUndo.machine';
export * from './emailUndo.connect';
