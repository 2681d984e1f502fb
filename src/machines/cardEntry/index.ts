/** The cardEntry flow: its chart, its connectCardEntry, and what its views provide. */
export * from './cardEntry.machine';
export * from './cardEntry.connect';
export * as cardEntryAddress from './cardEntry.address';
