/** The password flow: its chart, its connectPassword, and what its views provide. */
export * from './password.machine';
export * from './password.connect';
