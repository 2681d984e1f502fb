/** The signIn flow: its chart, its connectSignIn, and what its views provide. */
export * from './signIn.machine';
export * from './signIn.connect';
