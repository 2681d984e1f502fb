/** Redeem voucher (product.md#redeem-voucher, product.md#voucher-flow, product.md#form-rules, product.md#errors). */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { subscriptionStatusQuery } from '../../api/queries';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { m } from '../../i18n';
import { routes } from '../../lib/route-paths';
import { createSubscriptionActors, refreshSubscription } from '../../machines/subscription';
import { connectVoucher, voucherEffect, voucherMachine } from '../../machines/voucher';
import { button, card, fieldset, form, heading, muted, narrowPage } from '../../styles/ui.css';
import { notifyFor } from '../parts/bindings';
import { TextField } from '../parts/TextField';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import * as css from './subscription.css';

/** Upper-cases what is typed while keeping the caret where the person left it (product.md#form-rules). */
function forceUpperCase(event: FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const upper = input.value.toUpperCase();
  if (upper === input.value) return;
  const { selectionStart, selectionEnd } = input;
  input.value = upper;
  input.setSelectionRange(selectionStart, selectionEnd);
}

export default function RedeemVoucherPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [actors] = useState(() => createSubscriptionActors(api, queryClient));
  const actor = useFlow(voucherMachine, {
    actors,
    actions: {
      // One toast for the flow: the success replaces a refusal still on screen (review finding 23).
      notify: notifyFor('voucher'),
      subscriptionChanged: () => void refreshSubscription(queryClient),
      goToSubscription: () => navigate(routes.subscription),
    },
  });
  const { fieldError, redeeming, onSubmit: redeem } = useConnect(actor, connectVoucher);
  // Said before redeeming: what the voucher does to a paid plan (product.md#voucher-on-renewing).
  const effect = voucherEffect(useQuery(subscriptionStatusQuery(api)).data);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = new FormData(event.currentTarget).get('code');
    redeem(typeof code === 'string' ? code : '');
  }

  return (
    <div className={narrowPage}>
      <Link href={routes.subscription} className={css.backLink}>{m.back_to_subscription()}</Link>
      <section className={card} aria-labelledby="voucher-title">
        <h1 id="voucher-title" className={heading}>{m.redeem_voucher()}</h1>
        <p className={muted}>{m.enter_your_voucher_code_to_activate()}</p>
        {effect && <p className={`${css.notice.due} ${css.noticeText}`}>{effect}</p>}
        {/* product.md#renewal-consent: a voucher's own Premium does not renew (the line above says what it does to a paid plan). */}
        {!effect && <p className={muted}>{m.a_voucher_does_not_renew()}</p>}
        <form className={form} onSubmit={onSubmit} noValidate aria-label={m.redeem_voucher()}>
          <fieldset className={fieldset} disabled={redeeming}>
            <TextField
              label={m.voucher_code()} name="code" placeholder="BISAYA30" autoComplete="off" autoCapitalize="characters"
              spellCheck={false} maxLength={32} onInput={forceUpperCase} error={fieldError ?? undefined} focusOnLateError
            />
            <button type="submit" className={button.primary} aria-busy={redeeming}>{redeeming ? m.redeeming() : m.redeem_voucher()}</button>
          </fieldset>
        </form>
      </section>
    </div>
  );
}
