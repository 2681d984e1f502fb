/** The invoicePdf flow (download an invoice's PDF): its chart and its connect. */
export * from './invoicePdf.machine';
export * from './invoicePdf.connect';
