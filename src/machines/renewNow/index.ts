/** The renewNow flow: its chart, its connectRenewNow, and what its views provide. */
export * from './renewNow.machine';
export * from './renewNow.connect';
