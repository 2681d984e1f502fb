/** The loginLink flow: its chart, its connectLoginLink, and what its views provide. */
export * from './loginLink.machine';
export * from './loginLink.connect';
