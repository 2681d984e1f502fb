/**
 * The subscribe wizard (product.md#subscribe-wizard): 1 Select Plan, 2 Payment Method, 3 Confirm.
 * One flow (subscribe.machine) whose address is the URL; the card form and the wallet panel are
 * their own flows and report the card token or the link back to it.
 */
import { leaveFor } from '../../lib/leave';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { plansQuery } from '../../api/queries';
import { m } from '../../i18n';
import type { Plan } from '../../api/schemas';
import { routes } from '../../lib/route-paths';
import { createSubscribeActors } from '../../machines/subscribe/subscribe.actors';
import { parseCardReturn, parseConfirmedCard } from '../../machines/cardEntry/cardEntry.address';
import { isAfterDecline, parse, readChoice, walletReturnPath } from '../../machines/subscribe/subscribe.address';
import { connectSubscribe, METHOD_HINTS, METHOD_LABELS, planPrice, STEP_TITLES } from '../../machines/subscribe/subscribe.connect';
import { subscribeMachine, type WizardMethod } from '../../machines/subscribe/subscribe.machine';
import { refreshSubscription } from '../../machines/subscription/subscription.actors';
import { button, card, heading, muted } from '../../styles/ui.css';
import { goToAction, notifyFor } from '../parts/bindings';
import { CardForm } from '../parts/CardForm';
import { CheckoutConfirm } from '../parts/CheckoutConfirm';
import { ErrorBox } from '../parts/ErrorBox';
import { RenewalConsent } from '../parts/RenewalConsent';
import { WalletPanel } from '../parts/WalletPanel';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import { useLocationEvents } from '../useUrlProjection';
import * as css from './subscribe.css';

/** What checkout means, said beside the choice (catalog messages, called when rendering). */
const CHECKOUT_EXPLANATION = [
  m.checkout_is_a_one_time_charge_for_2,
  m.when_your_next_payment_is_due_the,
  m.it_suits_you_if_you_are_testing_the,
] as const;

function Steps({ current }: { current: number }) {
  return (
    <ol className={css.steps} aria-label={m.steps()}>
      {STEP_TITLES.map((message, index) => {
        const title = message();
        const number = index + 1;
        const tone = number < current ? 'done' : number === current ? 'current' : 'todo';
        return (
          <li key={title} className={css.step[tone]} aria-current={number === current ? 'step' : undefined}>
            <span className={css.stepNumber} aria-hidden="true">{number}</span>
            <span>{title}</span>
          </li>
        );
      })}
    </ol>
  );
}

function PlanCard({ plan, selected, onSelect }: { plan: Plan; selected: boolean; onSelect: (plan: Plan) => void }) {
  return (
    <article className={css.planCard} aria-label={plan.name}>
      <h3 className={css.planTitle}>
        {plan.name}
        {plan.popular && <span className={css.popular}>{m.popular()}</span>}
      </h3>
      <p className={muted}>{plan.description}</p>
      <p className={css.price}>{planPrice(plan)}</p>
      <p className={css.vat}>{m.vat_included()}</p>
      <ul className={css.features}>{plan.features.map((feature) => <li key={feature}>{feature}</li>)}</ul>
      <button type="button" className={selected ? button.secondary : button.primary} onClick={() => onSelect(plan)}>
        {m.choose({ planName: plan.name })}
      </button>
    </article>
  );
}

export default function SubscribePage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [path, navigate] = useLocation();
  const search = useSearch();
  const actor = useFlow(subscribeMachine, {
    actors: createSubscribeActors(api, queryClient),
    actions: {
      goTo: goToAction(navigate),
      notify: notifyFor('subscribe'),
      redirect: (_, { url }) => leaveFor(url),
      subscriptionChanged: () => void refreshSubscription(queryClient),
    },
    // The address, and the card or wallet kept with this history entry (a reload of Confirm stays there).
    input: { ...parse(path, search), ...readChoice(typeof window === 'undefined' ? null : window.history.state) },
  });
  useLocationEvents(actor, path, search, parse);
  // The bank's answer on arrival: the wizard writes its own address (without it) before the card form shows.
  const [cardReturn] = useState(() => parseCardReturn(search));
  // The card the bank just confirmed (the viewer pressed Continue for it): chosen once, so the wizard goes
  // on to Confirm; back on step 2 later, the card form asks again as usual.
  const [confirmedCardId, setConfirmedCardId] = useState(() => parseConfirmedCard(search));
  // "Try again" after the card was declined: the card form offers the saved card switched off (read once).
  const [afterDecline] = useState(() => isAfterDecline(search));
  const methods = useRef<HTMLFieldSetElement>(null);
  const wizard = useConnect(actor, connectSubscribe);
  const plans = useQuery({ ...plansQuery(api), enabled: wizard.view === 'selectPlan' });

  let body;
  if (wizard.view === 'loading' || wizard.view === 'leaving') {
    body = <p role="status">{wizard.view === 'loading' ? m.loading_subscription_plans() : m.please_wait()}</p>;
  } else if (wizard.view === 'loadFailed') {
    body = (
      <div className={css.panel}>
        <ErrorBox message={wizard.loadError} />
        <button type="button" className={button.secondary} onClick={wizard.onRetry}>{m.try_again()}</button>
      </div>
    );
  } else if (wizard.view === 'invalidQuery') {
    body = (
      <div className={css.panel}>
        <p role="alert" className={css.banner.bad}>{wizard.invalidQuery}</p>
        <button type="button" className={button.secondary} onClick={wizard.onRestart}>{wizard.restartLabel}</button>
      </div>
    );
  } else if (wizard.view === 'selectPlan') {
    body = (
      <section aria-labelledby="wizard-step" className={css.stepBody}>
        <h2 id="wizard-step">{m.select_plan()}</h2>
        {plans.data ? (
          <div className={css.planGrid}>
            {plans.data.map((plan) => (
              <PlanCard key={plan.id} plan={plan} selected={plan.slug === wizard.planSlug} onSelect={wizard.onSelectPlan} />
            ))}
          </div>
        ) : (
          <p role="status">{m.loading_subscription_plans()}</p>
        )}
      </section>
    );
  } else if (wizard.view === 'paymentMethod') {
    body = (
      <section aria-labelledby="wizard-step" className={css.stepBody}>
        <h2 id="wizard-step">{m.payment_method()}</h2>
        {wizard.plan && <p className={muted}>{wizard.plan.name}: {planPrice(wizard.plan)}</p>}
        <fieldset ref={methods} className={css.methods}>
          <legend className={css.legend}>{m.how_would_you_like_to_pay()}</legend>
          {(Object.keys(METHOD_LABELS) as WizardMethod[]).map((method) => (
            <label key={method} className={css.methodOption}>
              <input
                type="radio"
                name="payment-method"
                value={method}
                checked={wizard.method === method}
                aria-labelledby={`wizard-name-${method}`}
                aria-describedby={`wizard-hint-${method}`}
                onChange={() => wizard.onSelectMethod(method)}
              />
              <span className={css.optionText}>
                <span id={`wizard-name-${method}`}>{METHOD_LABELS[method]()}</span>
                <span id={`wizard-hint-${method}`} className={css.optionHint}>{METHOD_HINTS[method]()}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {wizard.checkoutQuestion && (
          <CheckoutConfirm
            question={wizard.checkoutQuestion}
            onConfirm={wizard.onConfirmCheckout}
            onDecline={wizard.onDeclineCheckout}
            returnFocus={() => methods.current?.querySelector<HTMLInputElement>('input:checked') ?? methods.current?.querySelector<HTMLInputElement>('input')}
          />
        )}
        {wizard.method === 'card' && (
          <CardForm
            key="card"
            submitLabel={m.continue_label()}
            onChosen={(chosen) => { setConfirmedCardId(null); wizard.onCardChosen(chosen); }}
            cardReturn={cardReturn}
            confirmedCardId={confirmedCardId}
            avoidSaved={afterDecline}
            secondary={<button type="button" className={button.secondary} onClick={wizard.onBack}>{m.back()}</button>}
          />
        )}
        {wizard.method === 'maya' && wizard.planSlug && (
          <WalletPanel key="maya" linkStatus={wizard.walletLinkStatus} returnPath={walletReturnPath(wizard.planSlug)} onLinkChanged={wizard.onWalletChanged} />
        )}
        {wizard.method === 'checkout' && (
          <div className={css.panel}>{CHECKOUT_EXPLANATION.map((line, index) => <p key={index} className={muted}>{line()}</p>)}</div>
        )}
        {/* Back and Continue in one row for every method (the card form carries its own row, its Continue submits it). */}
        {wizard.method !== 'card' && (
          <div className={css.actions}>
            <button type="button" className={button.secondary} onClick={wizard.onBack}>{m.back()}</button>
            {(wizard.method === 'maya' || wizard.method === 'checkout') && (
              <button type="button" className={button.primary} onClick={wizard.onContinue}>{m.continue_label()}</button>
            )}
          </div>
        )}
      </section>
    );
  } else if (wizard.confirm) {
    const { confirm } = wizard;
    body = (
      <section aria-labelledby="wizard-step" className={css.stepBody}>
        <h2 id="wizard-step">{m.confirm()}</h2>
        <dl className={css.summary}>
          <dt className={css.summaryLabel}>{m.plan()}</dt>
          <dd className={css.summaryValue}>{confirm.planName}</dd>
          <dd className={css.summaryValue}>
            <button type="button" className={css.linkButton} onClick={() => wizard.onEdit(1)} disabled={confirm.paying} aria-label={m.edit_plan()}>{m.edit()}</button>
          </dd>
          <dt className={css.summaryLabel}>{m.price()}</dt>
          <dd className={css.summaryValue}>{m.price_vat_included({ price: confirm.price })}</dd>
          <dd />
          <dt className={css.summaryLabel}>{m.payment_method_2()}</dt>
          <dd className={css.summaryValue}>{confirm.method}</dd>
          <dd className={css.summaryValue}>
            <button type="button" className={css.linkButton} onClick={() => wizard.onEdit(2)} disabled={confirm.paying} aria-label={m.edit_payment_method()}>{m.edit()}</button>
          </dd>
        </dl>
        <p>{confirm.next}</p>
        {confirm.consent && <RenewalConsent {...confirm.consent} disabled={confirm.paying} />}
        <div className={css.actions}>
          <button type="button" className={button.secondary} onClick={wizard.onBack} disabled={confirm.paying}>{m.back()}</button>
          <button type="button" className={button.primary} onClick={wizard.onPay} disabled={confirm.paying} aria-busy={confirm.paying}>
            {confirm.payLabel}
          </button>
        </div>
      </section>
    );
  }

  return (
    <div className={css.wizard}>
      <div className={css.topRow}>
        <Link href={routes.subscription}>{m.back_to_subscription_2()}</Link>
      </div>
      <div className={card}>
        <h1 className={heading}>{m.subscribe_to_premium()}</h1>
        {wizard.view !== 'invalidQuery' && wizard.view !== 'loadFailed' && <Steps current={wizard.step} />}
        {body}
      </div>
    </div>
  );
}
