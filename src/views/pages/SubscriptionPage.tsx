/**
 * Subscription (product.md#subscription): the current-subscription card, the history with Active and
 * All tabs, and the payments panel. The page machine says which part is loading, ready or failed;
 * the data is read from React Query, which the machine's actors filled and which a change refreshes.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link } from 'wouter';
import { invoicesQuery } from '../../api/invoiceQueries';
import { paymentHistoryQuery, subscriptionHistoryQuery, subscriptionStatusQuery } from '../../api/queries';
import { m } from '../../i18n';
import { formatDate } from '../../lib/dates';
import type { PaymentRecord, SubscriptionHistoryItem, SubscriptionStatusDetails } from '../../api/schemas';
import { invoicePath } from '../../lib/invoice-paths';
import { routes } from '../../lib/route-paths';
import { cancelSubscriptionMachine, connectCancelSubscription } from '../../machines/cancelSubscription';
import { createSubscriptionActors, refreshSubscription } from '../../machines/subscription/subscription.actors';
import {
  historyItems, historyRow, paymentRows, renewalNotice, subscriptionCardView, type HistoryTab,
} from '../../machines/subscription/subscription.format';
import { connectRenewNow, type RenewNowProps } from '../../machines/renewNow/renewNow.connect';
import { renewNowMachine } from '../../machines/renewNow/renewNow.machine';
import { leaveFor } from '../../lib/leave';
import { connectSubscription, subscriptionMachine } from '../../machines/subscription';
import { button, card, heading, page } from '../../styles/ui.css';
import { notifyAction } from '../parts/bindings';
import { ErrorBox } from '../parts/ErrorBox';
import { Tabs } from '../parts/Tabs';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import { lazyPage } from '../lazyPage';
import type { CancelDialogProps } from '../parts/CancelDialog';
import { DialogLoading, OnDemand } from '../parts/OnDemand';
import { ScheduledChange } from '../parts/ScheduledChange';
import * as css from './subscription.css';
import { invoiceListRows } from './invoiceList.format';

// The confirmation dialog (Ark UI, ~21 KB) is not needed to show the page: its code comes when a person
// points at or focuses the button that opens it (on a phone, a touch starts it), or at the latest when
// asked for; never with the page (scripts/bundle-budget.ts: a part loaded when asked for).
const CancelDialog = lazyPage<CancelDialogProps>(() => import('../parts/CancelDialog').then((module) => ({ default: module.CancelDialog })));

/** When, after the cancel dialog closed, the focus is looked for (ms). */
const FOCUS_CHECKS_MS = [0, 50, 150, 400];

function Skeleton({ label, lines }: { label: string; lines: Array<keyof typeof css.skeletonWidth> }) {
  return (
    <div aria-busy="true">
      <p role="status" className="visually-hidden">{label}</p>
      {lines.map((width, index) => <span key={index} aria-hidden="true" className={`${css.skeleton} ${css.skeletonWidth[width]}`} />)}
    </div>
  );
}

function LoadError({ message, onRetry }: { message: string | null; onRetry: () => void }) {
  return (
    <div className={css.errorArea}>
      <ErrorBox message={message} />
      <button type="button" className={button.secondary} onClick={onRetry}>{m.try_again()}</button>
    </div>
  );
}

function RenewalNotice({ status, renewNow }: { status: SubscriptionStatusDetails; renewNow: RenewNowProps }) {
  const notice = renewalNotice(status);
  if (!notice) return null;
  // The first action is the way forward; a second one (Renew now beside Change Payment Method) is outlined.
  const emphasis = (index: number) => (index === 0 ? button.primary : button.secondary);
  return (
    <section className={css.notice[notice.kind]} aria-labelledby="renewal-title">
      <h3 id="renewal-title" className={css.noticeTitle}>{notice.title}</h3>
      {notice.lines.map((line) => <p key={line} className={css.noticeText}>{line}</p>)}
      {renewNow.error && notice.actions.some((action) => action.kind === 'renew') && <ErrorBox message={renewNow.error} />}
      <div className={css.actions}>
        {notice.actions.map((action, index) => (action.kind === 'renew' ? (
          <button key={action.kind} type="button" className={emphasis(index)} disabled={renewNow.busy} onClick={() => renewNow.renew(action.subscriptionId)}>
            {renewNow.busy ? renewNow.label : (action.label ?? renewNow.label)}
          </button>
        ) : (
          <Link key={action.kind} href={routes.changePaymentMethod} className={emphasis(index)}>{m.change_payment_method()}</Link>
        )))}
      </div>
    </section>
  );
}

/** product.md#card-expiry: the card it renews on expires before the next billing date (said from 30 days before), with 'Update card'. */
function CardExpiryNotice({ status }: { status: SubscriptionStatusDetails }) {
  const expiring = status.cardExpiresBeforeRenewal;
  if (!expiring) return null;
  return (
    <section className={css.notice.due} aria-labelledby="card-expiry-title">
      <h3 id="card-expiry-title" className={css.noticeTitle}>{m.your_card_expires_soon()}</h3>
      <p className={css.noticeText}>
        {m.your_card_expires_before_your_next_2({ card: `${expiring.cardType} •••• ${expiring.last4}`, expiry: expiring.expiry, date: formatDate(expiring.billingDate) })}
      </p>
      <div className={css.actions}>
        <Link href={routes.changePaymentMethod} className={button.primary}>{m.update_card()}</Link>
      </div>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className={css.factLabel}>{label}</dt>
      <dd className={css.factValue}>{children}</dd>
    </>
  );
}

function CurrentSubscription({ status, onChange, opener, renewNow }: {
  status: SubscriptionStatusDetails;
  onChange: () => void;
  opener: RefObject<HTMLButtonElement | null>;
  renewNow: RenewNowProps;
}) {
  const view = subscriptionCardView(status);
  const notice = renewalNotice(status);
  // The way forward first, the destructive Cancel last and outlined in the danger colour (review finding 25).
  const { links, change } = view;
  return (
    <>
      <RenewalNotice status={status} renewNow={renewNow} />
      <CardExpiryNotice status={status} />
      <ScheduledChange status={status} className={css.notice.due} />
      <div className={css.planHeader}>
        <p className={css.planName}>{view.planName}</p>
      </div>
      {view.summary && <p className={css.summary}>{view.summary}</p>}
      {view.ended && <p className={css.summary}>{view.ended}</p>}
      {view.premiumPitch && <p className={css.pitch}>{view.premiumPitch}</p>}
      {!view.isFree && (
        <dl className={css.facts}>
          <Fact label={m.status()}><span className={css.badge[view.statusTone]}>{view.status}</span></Fact>
          {view.price && <Fact label={m.price()}>{view.price}</Fact>}
          {view.amountDue && <Fact label={m.amount_due()}>{view.amountDue}</Fact>}
          <Fact label={m.start_date()}>{view.startDate}</Fact>
          {view.voucher && <Fact label={m.voucher()}>{view.voucher}</Fact>}
          {view.nextPeriod && <Fact label={m.next_period()}>{view.nextPeriod}</Fact>}
          {view.dateLabel && <Fact label={view.dateLabel}>{view.date}</Fact>}
          {view.paymentMethod && <Fact label={m.payment_method()}>{view.paymentMethod}</Fact>}
        </dl>
      )}
      <div className={css.actions}>
        {view.isFree ? (
          <>
            <Link href={routes.subscribe} className={button.primary}>{m.subscribe_to_premium_plan()}</Link>
            <Link href={routes.redeemVoucher} className={button.secondary}>{m.redeem_voucher()}</Link>
          </>
        ) : (
          <>
            {links.changePlan && <Link href={routes.changePlan} className={button.secondary}>{m.change_plan()}</Link>}
            {links.changePaymentMethod && !notice?.actions.some((action) => action.kind === 'changePaymentMethod') && (
              <Link href={routes.changePaymentMethod} className={button.secondary}>{m.change_payment_method()}</Link>
            )}
            {change && (
              // One button whose words change, so focus can return to it after the dialog closes: last in the row,
              // Cancel outlined in the danger colour and set apart, Reactivate filled as the way forward.
              <button ref={opener} type="button" className={change.kind === 'cancel' ? `${button.danger} ${css.last}` : button.primary} onClick={onChange}>
                {change.kind === 'cancel' ? m.cancel_subscription() : m.reactivate_subscription()}
              </button>
            )}
          </>
        )}
      </div>
      {/* Review finding 24: a quiet link, not a fourth button (a voucher adds its days here, product.md#subscription-actions). */}
      {!view.isFree && links.redeemVoucher && (
        <p className={css.aside}><Link href={routes.redeemVoucher}>{m.redeem_voucher()}</Link></p>
      )}
    </>
  );
}

function HistoryList({ items, tab }: { items: SubscriptionHistoryItem[]; tab: HistoryTab }) {
  const rows = historyItems(items, tab).map((item) => historyRow(item, items));
  if (!rows.length) return <p className={css.empty}>{m.no_subscriptions_found()}</p>;
  return (
    <ul className={css.scrollList} aria-label={tab === 'active' ? m.active_subscriptions() : m.all_subscriptions()} tabIndex={0}>
      {rows.map((row) => (
        <li key={row.id} className={css.listItem}>
          <div className={css.itemHeader}>
            <strong>{row.plan}</strong>
            <span className={css.badge[row.statusTone]}>{row.status}</span>
          </div>
          <p className={css.itemMeta}>{row.planType} · {row.price}</p>
          <p className={css.itemMeta}>{row.period}</p>
          <p className={css.itemMeta}>{row.autoRenew}</p>
        </li>
      ))}
    </ul>
  );
}

function History({ items }: { items: SubscriptionHistoryItem[] }) {
  return (
    <Tabs
      label={m.subscription_history_2()}
      listClassName={css.tabList}
      tabClassName={css.tab}
      items={[
        { value: 'active', label: m.active(), panel: <HistoryList items={items} tab="active" /> },
        { value: 'all', label: m.all(), panel: <HistoryList items={items} tab="all" /> },
      ]}
    />
  );
}

function Payments({ payments }: { payments: PaymentRecord[] }) {
  const rows = paymentRows(payments);
  if (!rows.length) return <p className={css.empty}>{m.no_payments_yet()}</p>;
  // The column names, in the header and on each cell (the narrow layout shows them beside the values).
  const labels = { date: m.date(), plan: m.plan(), method: m.method(), amount: m.amount(), status: m.status(), reference: m.reference() };
  return (
    <div className={css.tableScroll} tabIndex={0} role="region" aria-label={m.payment_records()}>
      <table className={css.table}>
        <thead className={css.thead}>
          <tr>
            <th scope="col" className={css.th}>{labels.date}</th>
            <th scope="col" className={css.th}>{labels.plan}</th>
            <th scope="col" className={css.th}>{labels.method}</th>
            <th scope="col" className={css.th}>{labels.amount}</th>
            <th scope="col" className={css.th}>{labels.status}</th>
            <th scope="col" className={css.th}>{labels.reference}</th>
          </tr>
        </thead>
        <tbody className={css.tbody}>
          {rows.map((row) => (
            <tr key={row.id} className={css.row}>
              <td className={css.td} data-label={labels.date}>{row.date}</td>
              <td className={css.td} data-label={labels.plan}>{row.plan}</td>
              <td className={css.td} data-label={labels.method}>{row.method}</td>
              <td className={css.td} data-label={labels.amount}>{row.amount}</td>
              <td className={css.td} data-label={labels.status}>
                <span className={css.badge[row.statusTone]}>{row.status}</span>
                {row.retries && <span className={css.retries}>{row.retries}</span>}
              </td>
              <td className={`${css.td} ${css.referenceCell}`} data-label={labels.reference}>
                <span className={css.reference}>{row.reference}</span>
                {row.receipt && (
                  row.paper === 'invoice'
                    ? <Link href={row.receipt} className={css.receiptLink} aria-label={m.invoice_for({ reference: row.reference })}>{m.invoice()}</Link>
                    : <Link href={row.receipt} className={css.receiptLink} aria-label={m.receipt_for({ reference: row.reference })}>{m.receipt()}</Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Every invoice and credit memo of the viewer (issue 34), also after the subscription ended: read with
 * the payments (its query key is under theirs, so a new payment refreshes it).
 */
function InvoiceList({ className, titleClassName }: { className: string; titleClassName: string }) {
  const api = useApi();
  const docs = useQuery(invoicesQuery(api));
  const rows = docs.data ? invoiceListRows(docs.data.items) : null;
  return (
    <section className={className} aria-labelledby="invoices-title" aria-busy={docs.isPending}>
      <h2 id="invoices-title" className={titleClassName}>{m.invoice_documents()}</h2>
      {docs.isError && <LoadError message={docs.error.message} onRetry={() => void docs.refetch()} />}
      {docs.isPending && <Skeleton label={m.loading_invoices()} lines={['long', 'medium']} />}
      {rows && !rows.length && <p className={css.empty}>{m.no_invoices_yet()}</p>}
      {rows && rows.length > 0 && (
        <ul className={css.invoiceList}>
          {rows.map((row) => (
            <li key={row.id} className={css.invoiceItem}>
              <Link href={invoicePath(row.id)} className={css.invoiceLink}>{m.document_number({ kind: row.kind, number: row.number })}</Link>
              <span className={css.invoiceMeta}>{row.date} · {row.description}</span>
              <span className={css.invoiceTotal}>{row.memo ? `−${row.total}` : row.total}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function SubscriptionPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [actors] = useState(() => createSubscriptionActors(api, queryClient));
  const flow = useFlow(subscriptionMachine, { actors });
  const dialog = useFlow(cancelSubscriptionMachine, {
    actors,
    actions: { notify: notifyAction, subscriptionChanged: () => void refreshSubscription(queryClient) },
  });
  const renewFlow = useFlow(renewNowMachine, {
    actors,
    actions: {
      notify: notifyAction,
      openPaymentLink: (_, { url }) => leaveFor(url),
      subscriptionChanged: () => void refreshSubscription(queryClient),
    },
  });
  const renewNow = useConnect(renewFlow, connectRenewNow);
  const opener = useRef<HTMLButtonElement>(null);
  const parts = useConnect(flow, connectSubscription);
  const { request: requestChange, open: dialogOpen, dismiss: dismissDialog } = useConnect(dialog, connectCancelSubscription);
  const [dialogLoaded, setDialogLoaded] = useState(false);
  // The dialog's code, asked for when the opener is pointed at or focused (a delegated listener on its card).
  const loadDialog = () => void CancelDialog.load().then(() => setDialogLoaded(true), () => undefined);
  function loadDialogFor(target: EventTarget) {
    if (!dialogLoaded && target === opener.current) loadDialog();
  }
  const { retry } = parts;

  // The machine's actors filled these entries; a change invalidates them and these observers refetch.
  const status = useQuery({ ...subscriptionStatusQuery(api), enabled: parts.status.state === 'ready' }).data;
  const history = useQuery({ ...subscriptionHistoryQuery(api), enabled: parts.history.state === 'ready' }).data;
  const payments = useQuery({ ...paymentHistoryQuery(api), enabled: parts.payments.state === 'ready' }).data;
  // Closed, the dialog gives the focus back to its opener; when the card is drawn again just after (the
  // subscription read again after a cancel), the focus would be lost on the page: it goes to the opener,
  // until the subscription read after the close has been shown.
  const closedWith = useRef<{ status: unknown } | null>(null);
  useEffect(() => {
    if (dialogOpen) {
      closedWith.current = { status };
      return;
    }
    const closed = closedWith.current;
    if (!closed) return;
    if (closed.status !== status) closedWith.current = null;
    // Looked at a few times while the dialog's own hand-back and the card's redraw settle.
    const lost = () => !document.activeElement || document.activeElement === document.body || document.activeElement === document.documentElement;
    const timers = FOCUS_CHECKS_MS.map((ms) => setTimeout(() => { if (lost()) opener.current?.focus(); }, ms));
    return () => timers.forEach(clearTimeout);
  }, [dialogOpen, status]);

  function openChange() {
    if (!status) return;
    const change = subscriptionCardView(status).change;
    // Pressed with no pointer or focus before (the pointer already resting there): once in, the dialog
    // stays mounted, so that on closing it gives the focus back to the opener.
    if (!dialogLoaded) loadDialog();
    if (change) requestChange(change.open);
  }

  return (
    <div className={page}>
      <h1 className={heading}>{m.subscription()}</h1>
      <div className={css.layout}>
        <section
          className={card} aria-labelledby="current-title" aria-busy={parts.status.state === 'loading'}
          onPointerOver={(event) => loadDialogFor(event.target)} onFocus={(event) => loadDialogFor(event.target)}
        >
          <h2 id="current-title" className={css.cardTitle}>{m.current_subscription()}</h2>
          {parts.status.state === 'failed' && <LoadError message={parts.status.error} onRetry={retry} />}
          {parts.status.state === 'ready' && status
            ? <CurrentSubscription status={status} onChange={openChange} opener={opener} renewNow={renewNow} />
            : parts.status.state !== 'failed' && <Skeleton label={m.loading_subscription()} lines={['medium', 'long', 'long', 'short']} />}
        </section>
        <section className={card} aria-labelledby="history-title" aria-busy={parts.history.state === 'loading'}>
          <h2 id="history-title" className={css.cardTitle}>{m.subscription_history()}</h2>
          {parts.history.state === 'failed' && <LoadError message={parts.history.error} onRetry={retry} />}
          {parts.history.state === 'ready' && history
            ? <History items={history} />
            : parts.history.state !== 'failed' && <Skeleton label={m.loading_history()} lines={['short', 'long', 'long']} />}
        </section>
        <section className={`${card} ${css.wide}`} aria-labelledby="payments-title" aria-busy={parts.payments.state === 'loading'}>
          <h2 id="payments-title" className={css.cardTitle}>{m.payments()}</h2>
          {parts.payments.state === 'failed' && <LoadError message={parts.payments.error} onRetry={retry} />}
          {parts.payments.state === 'ready' && payments
            ? <Payments payments={payments} />
            : parts.payments.state !== 'failed' && <Skeleton label={m.loading_payments()} lines={['long', 'long', 'medium']} />}
        </section>
        <InvoiceList className={`${card} ${css.wide}`} titleClassName={css.cardTitle} />
      </div>
      {(dialogLoaded || dialogOpen) && (
        <OnDemand part={CancelDialog} fallback={dialogOpen ? <DialogLoading className={css.backdrop} /> : null} resetKey={dialogOpen} onFailed={dismissDialog}>
          <CancelDialog actor={dialog} opener={opener} />
        </OnDemand>
      )}
    </div>
  );
}
