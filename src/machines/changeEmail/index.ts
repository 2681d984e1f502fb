/** The change-of-email flows: the change on /account and the "this wasn't me" link. */
export * from './changeEmail.machine';
export * from './changeEmail.connect';
export * from './emailUndo.machine';
