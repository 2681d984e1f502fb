/** The subscribe flow: its chart, its connectSubscribe, and what its views provide. */
export * from './subscribe.machine';
export * from './subscribe.connect';
export * from './subscribe.actors';
export * as subscribeAddress from './subscribe.address';
