/** The keepPlan flow (undo a scheduled move down): its chart and its connect. */
export * from './keepPlan.machine';
export * from './keepPlan.connect';
