/** The back office's words for money and for each action (both languages, from the catalogs). */
import { m } from '../../i18n';
import type { OpsActionTarget, OpsActionValues } from './opsAction.machine';

/** An amount as the console shows it, to the centavo: '99' reads '₱99.00', '1234.5' reads '₱1,234.50'. */
export function formatPesos(amount: string | number): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `₱${amount}`;
  return `₱${value.toLocaleString('en-PH', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** The action's name (its button and the panel's heading). */
export function actionTitle(target: OpsActionTarget): string {
  switch (target.kind) {
    case 'reverse': return target.reverseKind === 'void' ? m.ops_void_payment() : m.ops_refund_payment();
    case 'retry': return m.ops_retry_renewal();
    case 'dunning': return target.stop ? m.ops_stop_dunning() : m.ops_resume_dunning();
    case 'extend': return m.ops_extend_period();
    case 'cancel': return m.ops_cancel_subscription();
    case 'resolve': return m.ops_resolve_record();
    case 'resend': return m.ops_resend_mail();
    case 'disableCode': return m.ops_disable_code();
    case 'disableBatch': return m.ops_disable_batch();
    case 'revokeSessions': return m.ops_revoke_sessions();
  }
}

/** The confirmation: one sentence that states the amount (or what changes) and the viewer's email. */
export function confirmationOf(target: OpsActionTarget, values: OpsActionValues): string {
  const email = target.email;
  switch (target.kind) {
    case 'reverse':
      return target.reverseKind === 'void'
        ? m.ops_confirm_void({ amount: formatPesos(values.amount), email })
        : m.ops_confirm_refund({ amount: formatPesos(values.amount), email });
    case 'retry': return m.ops_confirm_retry({ email });
    case 'dunning': return target.stop ? m.ops_confirm_stop_dunning({ email }) : m.ops_confirm_resume_dunning({ email });
    case 'extend': return m.ops_confirm_extend({ days: values.days, email });
    case 'cancel': return values.when === 'now' ? m.ops_confirm_cancel_now({ email }) : m.ops_confirm_cancel_period_end({ email });
    case 'resolve': return m.ops_confirm_resolve({ email });
    case 'resend': return m.ops_confirm_resend({ subject: target.subject ?? '', email });
    case 'disableCode': return m.ops_confirm_disable_code({ code: target.id });
    case 'disableBatch': return m.ops_confirm_disable_batch({ partner: email });
    case 'revokeSessions': return m.ops_confirm_revoke_sessions({ email });
  }
}
