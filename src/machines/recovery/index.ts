/** The recovery flow: its chart, its connectRecovery, and what its views provide. */
export * from './recovery.machine';
export * from './recovery.connect';
export * as recoveryAddress from './recovery.address';
