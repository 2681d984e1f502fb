/** The changePlan flow: its chart, its connectChangePlan, and what its views provide. */
export * from './changePlan.machine';
export * from './changePlan.connect';
export * from './changePlan.actors';
