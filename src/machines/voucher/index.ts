/** The voucher flow: its chart, its connectVoucher, and what its views provide. */
export * from './voucher.machine';
export * from './voucher.connect';
