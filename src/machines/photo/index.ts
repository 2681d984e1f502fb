/** The photo flow: its chart, its connectPhoto, and what its views provide. */
export * from './photo.machine';
export * from './photo.connect';
