/** Redeem voucher's view props (zag's connect). */
import type { SnapshotFrom } from 'xstate';
import type { SubscriptionStatusDetails } from '../../api/schemas';
import { m } from '../../i18n';
import { formatDate } from '../../lib/dates';
import { paymentMethodView } from '../subscription/subscription.format';
import { textOf } from '../shared';
import type { VoucherEvent, VoucherMachine } from './voucher.machine';

export function connectVoucher(state: SnapshotFrom<VoucherMachine>, send: (event: VoucherEvent) => void) {
  return {
    // The form's own check, or the server's refusal: both shown at the field (the toast fades after 4 s).
    fieldError: state.context.fieldError ? textOf(state.context.fieldError) : (state.matches({ form: 'rejected' }) ? state.context.serverMessage : null),
    redeeming: state.matches('redeeming'),
    onSubmit: (code: string) => send({ type: 'form.submit', code }),
  };
}

/**
 * What redeeming does to the viewer's current plan, said before the code is sent
 * (product.md#voucher-on-renewing; review finding 4): a renewing card or wallet plan keeps renewing
 * after the voucher's days (from today when its renewal is overdue); any other Premium is replaced.
 * Null for a FREE viewer (the voucher simply starts Premium) or while the status is not known.
 */
export function voucherEffect(status: SubscriptionStatusDetails | undefined): string | null {
  if (!status || status.planType !== 'PREMIUM' || !status.endDate) return null;
  const { planName } = status;
  const renewing = status.paymentMethod === 'MAYA_VAULT' || status.paymentMethod === 'MAYA_WALLET';
  if (renewing && (status.status === 'ACTIVE' || status.status === 'PAST_DUE')) {
    const view = paymentMethodView(status);
    const method = [view?.name, view?.detail ? `**** ${view.detail.slice(-4)}` : null].filter(Boolean).join(' ');
    return status.status === 'PAST_DUE'
      ? m.voucher_pays_overdue_plan({ planName, method })
      : m.voucher_extends_renewing_plan({ planName, date: formatDate(status.endDate), method });
  }
  return m.voucher_replaces_plan({ planName, date: formatDate(status.endDate) });
}
