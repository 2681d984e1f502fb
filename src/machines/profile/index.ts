/** The profile flow: its chart, its connectProfile, and what its views provide. */
export * from './profile.machine';
export * from './profile.connect';
