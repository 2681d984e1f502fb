/** The paymentMethod flow: its chart, its connectPaymentMethod, and what its views provide. */
export * from './paymentMethod.machine';
export * from './paymentMethod.connect';
export * from './paymentMethod.actors';
export * as paymentMethodAddress from './paymentMethod.address';
