/** Every flow's machine, for the diagram writer and QA's inspector. */
import { cancelSubscriptionMachine } from './cancelSubscription/cancelSubscription.machine';
import { changePlanMachine } from './changePlan/changePlan.machine';
import { paymentMethodMachine } from './paymentMethod/paymentMethod.machine';
import { loginLinkMachine } from './loginLink/loginLink.machine';
import { passwordMachine } from './password/password.machine';
import { photoMachine } from './photo/photo.machine';
import { profileMachine } from './profile/profile.machine';
import { recoveryMachine } from './recovery/recovery.machine';
import { sessionMachine } from './session/session.machine';
import { signInMachine } from './signIn/signIn.machine';
import { signUpMachine } from './signUp/signUp.machine';
import { subscriptionMachine } from './subscription/subscription.machine';
import { voucherMachine } from './voucher/voucher.machine';
import { subscribeMachine } from './subscribe/subscribe.machine';
import { cardEntryMachine } from './cardEntry/cardEntry.machine';
import { walletLinkMachine } from './walletLink/walletLink.machine';
import { renewNowMachine } from './renewNow/renewNow.machine';
import { keepPlanMachine } from './keepPlan/keepPlan.machine';
import { invoicePdfMachine } from './invoicePdf/invoicePdf.machine';
import { devicesMachine } from './devices/devices.machine';
import { changeEmailMachine } from './changeEmail/changeEmail.machine';
import { emailUndoMachine } from './emailUndo/emailUndo.machine';
import { opsGateMachine } from './opsGate/opsGate.machine';
import { opsActionMachine } from './opsAction/opsAction.machine';
import { voucherBatchMachine } from './voucherBatch/voucherBatch.machine';
import { dataExportMachine } from './dataExport/dataExport.machine';
import { deleteAccountMachine } from './deleteAccount/deleteAccount.machine';

export const machines = {
  session: sessionMachine,
  signIn: signInMachine,
  signUp: signUpMachine,
  recovery: recoveryMachine,
  loginLink: loginLinkMachine,
  profile: profileMachine,
  password: passwordMachine,
  devices: devicesMachine,
  changeEmail: changeEmailMachine,
  emailUndo: emailUndoMachine,
  photo: photoMachine,
  subscription: subscriptionMachine,
  cancelSubscription: cancelSubscriptionMachine,
  renewNow: renewNowMachine,
  keepPlan: keepPlanMachine,
  invoicePdf: invoicePdfMachine,
  voucher: voucherMachine,
  changePlan: changePlanMachine,
  paymentMethod: paymentMethodMachine,
  subscribe: subscribeMachine,
  cardEntry: cardEntryMachine,
  walletLink: walletLinkMachine,
  opsGate: opsGateMachine,
  opsAction: opsActionMachine,
  voucherBatch: voucherBatchMachine,
  dataExport: dataExportMachine,
  deleteAccount: deleteAccountMachine,
} as const;
