/** Every flow's machine, for the diagram writer and QA's inspector. */
import { sessionMachine } from './session.machine';
import { signInMachine } from './signIn.machine';

export const machines = {
  session: sessionMachine,
  signIn: signInMachine,
} as const;
