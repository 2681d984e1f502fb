/** Every flow's machine, for the diagram writer and QA's inspector. */
import { loginLinkMachine } from './loginLink.machine';
import { passwordMachine } from './password.machine';
import { photoMachine } from './photo.machine';
import { profileMachine } from './profile.machine';
import { recoveryMachine } from './recovery.machine';
import { sessionMachine } from './session.machine';
import { signInMachine } from './signIn.machine';
import { signUpMachine } from './signUp.machine';

export const machines = {
  session: sessionMachine,
  signIn: signInMachine,
  signUp: signUpMachine,
  recovery: recoveryMachine,
  loginLink: loginLinkMachine,
  profile: profileMachine,
  password: passwordMachine,
  photo: photoMachine,
} as const;
