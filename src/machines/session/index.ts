/** The session flow: its chart, its connectSession, and what its views provide. */
export * from './session.machine';
export * from './session.connect';
