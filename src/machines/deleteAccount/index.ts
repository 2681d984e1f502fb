/** The deleteAccount flow ("Delete my account"): its chart and its connect. */
export * from './deleteAccount.machine';
export * from './deleteAccount.connect';
