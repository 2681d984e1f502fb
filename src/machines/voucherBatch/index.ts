/** Mint voucher codes: the chart and its connectVoucherBatch. */
export * from './voucherBatch.machine';
export * from './voucherBatch.connect';
