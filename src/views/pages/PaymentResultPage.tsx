/**
 * Payment result (product.md#payment-result): standalone, redirects home when status is missing.
 * Beyond the spec: a signed-in viewer sees what the server says of the payment (plan, amount,
 * reference, date and the next billing date), never what the address claims; a failed result offers
 * "Try again" on the plan it names.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, Redirect, useSearch } from 'wouter';
import { paymentHistoryQuery, subscriptionStatusQuery } from '../../api/queries';
import { routes } from '../../lib/route-paths';
import { tryAgainPath } from '../../machines/subscribe/subscribe.address';
import { isConfirming, paymentResultView } from '../../machines/subscription/subscription.format';
import { button, card, centered, detailLabel, detailRow, details, detailValue, heading, muted } from '../../styles/ui.css';
import { useServices } from '../services';
import { useApi } from '../useApi';
import * as css from './paymentResult.css';
import { connectSession } from '../../machines/session';
import { useConnect } from '../useFlow';

const RESULTS: Record<string, { title: string; text: string }> = {
  success: { title: 'Payment Successful', text: 'Thank you! Your PREMIUM subscription is being activated.' },
  failed: { title: 'Payment Failed', text: 'Your payment did not go through. No charge was made; please try again.' },
  canceled: { title: 'Payment Cancelled', text: 'You cancelled the payment. No charge was made.' },
};

/** How long the page asks again while Maya is still confirming a payment (every 2 s, 15 times). */
const CONFIRMING_POLL_MS = 2000;
const CONFIRMING_POLLS = 15;

function PaidDetails() {
  const api = useApi();
  const payments = useQuery({
    ...paymentHistoryQuery(api),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && isConfirming(query.state.data) && query.state.dataUpdateCount < CONFIRMING_POLLS ? CONFIRMING_POLL_MS : false,
  });
  // The next billing date is read once Maya has confirmed the payment.
  const status = useQuery({ ...subscriptionStatusQuery(api), staleTime: 0, enabled: Boolean(payments.data?.length && !isConfirming(payments.data)) });
  if (payments.isPending) return <p role="status" className={muted}>Loading your payment details...</p>;
  if (payments.isError) return <p role="alert" className={muted}>We could not load your payment details. The Payments list on your subscription page has them.</p>;
  const view = paymentResultView(payments.data, status.data ?? null);
  if (!view) return null;
  return (
    <section aria-label="Payment details" className={css.details}>
      {view.confirming && <p role="status">{view.confirming}</p>}
      <dl className={`${details} ${css.list}`}>
        {view.rows.map((row) => (
          <div key={row.label} className={detailRow}>
            <dt className={detailLabel}>{row.label}</dt>
            <dd className={detailValue}>{row.value}</dd>
          </div>
        ))}
      </dl>
      {view.receipt && <Link href={view.receipt}>View receipt</Link>}
    </section>
  );
}

export default function PaymentResultPage() {
  const search = useSearch();
  const status = new URLSearchParams(search).get('status');
  const { session } = useServices();
  const signedIn = useConnect(session, connectSession).signedIn;
  if (!status) return <Redirect to={routes.home} replace />;
  const result = RESULTS[status] ?? { title: 'Error', text: 'We could not read the result of this payment.' };
  return (
    <div className={css.page}>
      <div className={`${card} ${centered}`}>
        <h1 className={heading}>{result.title}</h1>
        <p>{result.text}</p>
        {status === 'success' && signedIn && <PaidDetails />}
        <div className={css.actions}>
          {status === 'failed' && signedIn && <Link href={tryAgainPath(search)} className={button.primary}>Try again</Link>}
          <Link href={routes.subscription} className={status === 'failed' && signedIn ? button.secondary : button.primary}>Go to Subscription</Link>
        </div>
      </div>
    </div>
  );
}
