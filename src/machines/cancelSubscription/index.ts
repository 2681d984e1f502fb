/** The cancelSubscription flow: its chart, its connectCancelSubscription, and what its views provide. */
export * from './cancelSubscription.machine';
export * from './cancelSubscription.connect';
