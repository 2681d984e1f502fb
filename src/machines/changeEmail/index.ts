/** The change-of-email flow on /account (its undo link: ../emailUndo). */
export * from './changeEmail.machine';
export * from './changeEmail.connect';
