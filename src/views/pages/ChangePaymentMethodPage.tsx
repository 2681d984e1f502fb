/**
 * Change payment method (product.md#change-payment-method, product.md#method-selector, product.md#other-rules, product.md#errors; issue 9).
 * The selector's chart decides; the card and wallet parts are the flows the subscribe wizard uses.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { subscriptionStatusQuery } from '../../api/queries';
import { m } from '../../i18n';
import { renewalConsentSchema, type RenewalConsent as RenewalConsentValue } from '../../api/schemas';
import { routes } from '../../lib/route-paths';
import { currentMethod } from '../../machines/changePlan/changePlan.connect';
import { createPaymentMethodActors } from '../../machines/paymentMethod/paymentMethod.actors';
import { format, parse, walletReturnPath } from '../../machines/paymentMethod/paymentMethod.address';
import {
  CHECKOUT_CONFIRMATION, CHECKOUT_EXPLANATION, METHOD_NOTE, OPTIONS, VOUCHER_METHOD_NOTE, connectPaymentMethod,
} from '../../machines/paymentMethod/paymentMethod.connect';
import { parseCardReturn, parseConfirmedCard, withoutCardReturn } from '../../machines/cardEntry/cardEntry.address';
import { formatPrice } from '../../lib/format';
import { paymentMethodMachine } from '../../machines/paymentMethod/paymentMethod.machine';
import { refreshSubscription } from '../../machines/subscription/subscription.actors';
import { button, card, heading, muted, mediumPage } from '../../styles/ui.css';
import { goToAction, notifyFor } from '../parts/bindings';
import { CardForm } from '../parts/CardForm';
import { CheckoutConfirm } from '../parts/CheckoutConfirm';
import * as wizardCss from './subscribe.css';
import { ErrorBox } from '../parts/ErrorBox';
import { WalletPanel } from '../parts/WalletPanel';
import { RenewalConsent } from '../parts/RenewalConsent';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import * as css from './changePlan.css';
import * as sub from './subscription.css';

const CONSENT_KEY = 'renewalConsent';
/** The tick kept in this tab across the bank's page (read once, on the return of a verified card). */
function keptConsent(): RenewalConsentValue | null {
  try {
    const kept = sessionStorage.getItem(CONSENT_KEY);
    sessionStorage.removeItem(CONSENT_KEY);
    const parsed = kept ? renewalConsentSchema.safeParse(JSON.parse(kept)) : null;
    return parsed?.success ? parsed.data : null;
  } catch {
    return null;
  }
}
function keepConsent(consent: RenewalConsentValue | null): void {
  try {
    if (consent) sessionStorage.setItem(CONSENT_KEY, JSON.stringify(consent));
    else sessionStorage.removeItem(CONSENT_KEY);
  } catch {
    /* storage blocked: the viewer ticks again after the bank */
  }
}

export default function ChangePaymentMethodPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const search = useSearch();
  // The bank's answer about a new card is read once, then dropped from the address (a reload or the
  // card form shown again must not act on it twice).
  // A new card goes to its bank before it is saved as the method: the tick given before leaving is kept
  // for the return (product.md#renewal-consent), so the card is saved at once as before (finding 6).
  const [input] = useState(() => {
    const cardReturn = parseCardReturn(search);
    return { ...parse(search), cardReturn, renewalConsent: cardReturn === 'verified' ? keptConsent() : null };
  });
  const [confirmedCardId] = useState(() => parseConfirmedCard(search));
  useEffect(() => {
    const rest = withoutCardReturn(search);
    if (input.cardReturn) navigate(rest ? `${routes.changePaymentMethod}?${rest}` : routes.changePaymentMethod, { replace: true });
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const options = useRef<HTMLFieldSetElement>(null);
  const [actors] = useState(() => createPaymentMethodActors(api, queryClient));
  const flow = useFlow(paymentMethodMachine, {
    actors,
    input,
    actions: {
      notify: notifyFor('paymentMethod'),
      subscriptionChanged: () => void refreshSubscription(queryClient),
      goTo: goToAction(navigate),
      showAddress: (_, location) => navigate(format(location), { replace: true }),
    },
  });
  const view = useConnect(flow, connectPaymentMethod);
  const status = useQuery({ ...subscriptionStatusQuery(api), enabled: view.stage !== 'loading' && view.stage !== 'failed' }).data;
  const method = currentMethod(status);
  const consent = view.consentFor(status);
  useEffect(() => keepConsent(view.renewalConsent), [view.renewalConsent]);
  const [linkId, setLinkId] = useState<string | null>(null);

  return (
    <div className={mediumPage}>
      <Link href={routes.subscription} className={sub.backLink}>{m.back_to_subscription()}</Link>
      <h1 className={heading}>{m.change_payment_method()}</h1>
      {view.stage === 'loading' && <p role="status" className={muted}>{m.loading_subscription_status()}</p>}
      {view.stage === 'failed' && (
        <div className={sub.errorArea}>
          <ErrorBox message={view.error} />
          <button type="button" className={button.secondary} onClick={view.retry}>{m.try_again()}</button>
        </div>
      )}
      {view.stage === 'noSubscription' && <p className={sub.empty}>{m.no_subscription_found()}</p>}
      {view.stage === 'voucher' && (
        <section className={card} aria-labelledby="method-title">
          <h2 id="method-title" className={sub.cardTitle}>{m.current_payment_method()}</h2>
          <p>{m.voucher()} {method?.detail && <span className={sub.mono}>{method.detail}</span>}</p>
          <p className={css.note}>{VOUCHER_METHOD_NOTE()}</p>
        </section>
      )}
      {!['loading', 'failed', 'noSubscription', 'voucher'].includes(view.stage) && (
        <div className={css.sections}>
          <section className={card} aria-labelledby="method-title">
            <h2 id="method-title" className={sub.cardTitle}>{m.current_payment_method()}</h2>
            {method && (
              <p>
                {method.name}
                {method.detail && <> <span className={sub.mono}>{method.detail}</span></>}
              </p>
            )}
            {/* product.md#method-while-past-due: the spec's note is true only for a subscription in good standing. */}
            <p className={css.note}>
              {view.pastDue && status
                ? m.your_subscription_is_past_due_a({ amount: formatPrice(status.planAmount, status.planCurrency) })
                : METHOD_NOTE()}
            </p>
          </section>
          <section className={card} aria-labelledby="new-method-title">
            <h2 id="new-method-title" className={sub.cardTitle}>{m.new_payment_method()}</h2>
            <fieldset ref={options} className={css.options} disabled={view.busy}>
              <legend className="visually-hidden">{m.payment_method_2()}</legend>
              {OPTIONS.map((option) => (
                <label key={option.value} className={css.option}>
                  <input
                    type="radio" name="method" value={option.value} checked={view.option === option.value}
                    aria-labelledby={`method-name-${option.value}`} aria-describedby={`method-hint-${option.value}`} onChange={() => view.select(option.value)}
                  />
                  <span className={wizardCss.optionText}>
                    <span id={`method-name-${option.value}`}>{option.label()}</span>
                    <span id={`method-hint-${option.value}`} className={wizardCss.optionHint}>{option.hint()}</span>
                  </span>
                </label>
              ))}
            </fieldset>
            {view.stage === 'confirming' && (
              <CheckoutConfirm
                question={CHECKOUT_CONFIRMATION()}
                onConfirm={view.confirmCheckout}
                onDecline={view.declineCheckout}
                returnFocus={() => options.current?.querySelector<HTMLInputElement>('input:checked')}
              />
            )}
            <ErrorBox message={view.error} />
            {consent && <RenewalConsent {...consent} disabled={view.busy} />}
            {view.option === 'card' && (
              <CardForm
                key={`card-${view.attempt}`}
                submitLabel={m.save_payment_method()}
                onChosen={view.chooseCard}
                cardReturn={view.attempt === 0 ? input.cardReturn : null}
                confirmedCardId={view.attempt === 0 ? confirmedCardId : null}
              />
            )}
            {view.option === 'wallet' && (
              <div className={css.intro}>
                <WalletPanel linkStatus={view.linkStatus} returnPath={walletReturnPath} onLinkChanged={setLinkId} renewsOnWallet={view.renewsOnWallet} />
                <button type="button" className={button.primary} disabled={view.busy} aria-busy={view.stage === 'saving'} onClick={() => view.saveWallet(linkId)}>
                  {view.stage === 'saving' ? m.saving() : m.save_payment_method()}
                </button>
              </div>
            )}
            {view.option === 'checkout' && (
              <div className={css.intro}>
                {CHECKOUT_EXPLANATION.map((text, index) => <p key={index} className={css.note}>{text()}</p>)}
                <button type="button" className={button.primary} disabled={view.busy} aria-busy={view.stage === 'saving'} onClick={view.saveCheckout}>
                  {view.stage === 'saving' ? m.saving() : m.save_payment_method()}
                </button>
              </div>
            )}
            {view.option === 'card' && view.stage === 'saving' && <p role="status" className={muted}>{m.saving()}</p>}
            {view.stage === 'charging' && <p role="status" className={muted}>{m.charging_your_new_payment_method()}</p>}
          </section>
        </div>
      )}
    </div>
  );
}
