/** The signed-in devices flow: its chart, its connectDevices, and what its views provide. */
export * from './devices.machine';
export * from './devices.connect';
