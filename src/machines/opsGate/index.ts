/** The back office door: its chart, its connectOpsGate, and what its view provides. */
export * from './opsGate.machine';
export * from './opsGate.connect';
export * from './opsGate.actors';
