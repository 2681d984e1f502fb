/** Back office actions: the chart, its connectOpsAction, and the words of each action. */
export * from './opsAction.machine';
export * from './opsAction.connect';
export * from './opsAction.format';
