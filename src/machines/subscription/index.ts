/** The subscription flow: its chart, its connectSubscription, and what its views provide. */
export * from './subscription.machine';
export * from './subscription.connect';
export * from './subscription.actors';
