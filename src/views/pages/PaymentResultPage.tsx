/**
 * Payment result (product.md#payment-result): standalone, redirects home when status is missing.
 * Beyond the spec: a signed-in viewer sees what the server says of the payment (plan, amount,
 * reference, date and the next billing date), never what the address claims; a failed result offers
 * "Try again" on the plan it names.
 */
import { useQuery } from '@tanstack/react-query';
import { Link, Redirect, useSearch } from 'wouter';
import { paymentHistoryQuery, receiptQuery, subscriptionStatusQuery } from '../../api/queries';
import { m } from '../../i18n';
import { routes } from '../../lib/route-paths';
import { tryAgainPath } from '../../machines/subscribe/subscribe.address';
import { isConfirming, latestPayment, paymentResultView } from './receipt.format';
import { PRODUCT_NAME } from '../../lib/product';
import { AppBadges } from '../parts/AppBadges';
import { button, card, centered, detailLabel, detailRow, details, detailValue, heading, muted } from '../../styles/ui.css';
import { useServices } from '../services';
import { useApi } from '../useApi';
import * as css from './paymentResult.css';
import { connectSession } from '../../machines/session';
import { useConnect } from '../useFlow';

// Catalog messages, called when the page renders.
const RESULTS: Record<string, { title: () => string; text: () => string }> = {
  success: { title: m.payment_successful, text: m.thank_you_your_premium_subscription },
  failed: { title: m.payment_failed, text: m.your_payment_did_not_go_through_no },
  canceled: { title: m.payment_cancelled, text: m.you_cancelled_the_payment_no_charge },
};
const UNKNOWN_RESULT = { title: m.error, text: m.we_could_not_read_the_result_of_this };

/** How long the page asks again while Maya is still confirming a payment (every 2 s, 15 times). */
const CONFIRMING_POLL_MS = 2000;
const CONFIRMING_POLLS = 15;

/** A signed-in viewer's success: what the server says of the newest payment, its card once paid, and the words that fit it. */
function PaidDetails() {
  const api = useApi();
  const payments = useQuery({
    ...paymentHistoryQuery(api),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data && isConfirming(query.state.data) && query.state.dataUpdateCount < CONFIRMING_POLLS ? CONFIRMING_POLL_MS : false,
  });
  const latest = payments.data ? latestPayment(payments.data) : undefined;
  const paid = latest?.status === 'PAYMENT_SUCCESS';
  // The next billing date is read once Maya has confirmed the payment; the receipt names its card and says whether it renewed.
  const status = useQuery({ ...subscriptionStatusQuery(api), staleTime: 0, enabled: Boolean(payments.data?.length && !isConfirming(payments.data)) });
  const receipt = useQuery({ ...receiptQuery(api, latest?.id ?? ''), enabled: paid });
  // While the receipt comes (a moment), the details show the method's name and the lead says 'active'.
  if (payments.isPending) {
    return (
      <>
        <p>{m.thank_you_your_premium_subscription()}</p>
        <p role="status" className={muted}>{m.loading_your_payment_details()}</p>
      </>
    );
  }
  if (payments.isError) return <p role="alert" className={muted}>{m.we_could_not_load_your_payment()}</p>;
  const view = paymentResultView(payments.data, status.data ?? null, receipt.data ?? null);
  if (!view) return <p>{m.thank_you_your_premium_subscription()}</p>;
  return (
    <>
      {view.lead && <p>{view.lead}</p>}
      <section aria-label={m.payment_details()} className={css.details}>
        {view.confirming && <p role="status">{view.confirming}</p>}
        <dl className={`${details} ${css.list}`}>
          {view.rows.map((row) => (
            <div key={row.label} className={detailRow}>
              <dt className={detailLabel}>{row.label}</dt>
              <dd className={detailValue}>{row.value}</dd>
            </div>
          ))}
        </dl>
        {view.receipt && <Link href={view.receipt}>{view.receiptLabel}</Link>}
      </section>
    </>
  );
}

/** After a successful payment: where the films are (the mobile apps; review finding 19). */
function StartWatching() {
  return (
    <section aria-labelledby="start-watching" className={css.watch}>
      <h2 id="start-watching" className={css.watchTitle}>{m.start_watching()}</h2>
      <p className={muted}>{m.watch_in_the_app_on_your_phone({ PRODUCT_NAME })}</p>
      <AppBadges />
    </section>
  );
}

export default function PaymentResultPage() {
  const search = useSearch();
  const status = new URLSearchParams(search).get('status');
  const { session } = useServices();
  const signedIn = useConnect(session, connectSession).signedIn;
  if (!status) return <Redirect to={routes.home} replace />;
  const result = RESULTS[status] ?? UNKNOWN_RESULT;
  return (
    <div className={css.page}>
      <div className={`${card} ${centered}`}>
        <h1 className={heading}>{result.title()}</h1>
        {status === 'success' && signedIn ? <PaidDetails /> : <p>{result.text()}</p>}
        <div className={css.actions}>
          {status === 'failed' && signedIn && <Link href={tryAgainPath(search)} className={button.primary}>{m.try_again()}</Link>}
          <Link href={routes.subscription} className={status === 'failed' && signedIn ? button.secondary : button.primary}>{m.go_to_subscription()}</Link>
        </div>
        {status === 'success' && <StartWatching />}
      </div>
    </div>
  );
}
