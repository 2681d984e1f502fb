/** Every flow's machine, for the diagram writer and QA's inspector. */
import { cancelSubscriptionMachine } from './cancelSubscription/cancelSubscription.machine';
import { loginLinkMachine } from './loginLink.machine';
import { passwordMachine } from './password.machine';
import { photoMachine } from './photo.machine';
import { profileMachine } from './profile.machine';
import { recoveryMachine } from './recovery.machine';
import { sessionMachine } from './session.machine';
import { signInMachine } from './signIn.machine';
import { signUpMachine } from './signUp.machine';
import { subscriptionMachine } from './subscription/subscription.machine';
import { voucherMachine } from './voucher/voucher.machine';

export const machines = {
  session: sessionMachine,
  signIn: signInMachine,
  signUp: signUpMachine,
  recovery: recoveryMachine,
  loginLink: loginLinkMachine,
  profile: profileMachine,
  password: passwordMachine,
  photo: photoMachine,
  subscription: subscriptionMachine,
  cancelSubscription: cancelSubscriptionMachine,
  voucher: voucherMachine,
} as const;
