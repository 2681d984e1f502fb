/** The signUp flow: its chart, its connectSignUp, and what its views provide. */
export * from './signUp.machine';
export * from './signUp.connect';
export * as signUpAddress from './signUp.address';
