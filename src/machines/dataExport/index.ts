/** The dataExport flow ("Download my data"): its chart and its connect. */
export * from './dataExport.machine';
export * from './dataExport.connect';
