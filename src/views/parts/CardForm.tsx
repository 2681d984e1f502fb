/**
 * Card entry (product.md#card-option, product.md#card-rules): the saved default card with its 'Use this card'
 * switch, or the form for a new one. Its own flow (cardEntry.machine), so the subscribe wizard and
 * the change-payment-method page share it; `onChosen` receives the card token to pay or save with.
 * The typed number, expiry and CVC stay in this form until submitted; they are never stored.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { BRAND_NAMES, CARD_MESSAGES, CVC_LENGTH, MAX_CARD_LENGTH, cardBrand, digitsOf, formatCardNumber, formatCvc, formatExpiry, type CardErrors, type CardInput } from '../../lib/card';
import { m } from '../../i18n';
import { connectCardEntry } from '../../machines/cardEntry/cardEntry.connect';
import { parseCardReturn, parseConfirmedCard, returnPathOf } from '../../machines/cardEntry/cardEntry.address';
import { cardEntryMachine, type ChosenCard } from '../../machines/cardEntry/cardEntry.machine';
import { leaveFor } from '../../lib/leave';
import { createCardEntryActors } from '../../machines/subscribe/subscribe.actors';
import { button, fieldError, fieldset, form, muted } from '../../styles/ui.css';
import * as css from '../pages/subscribe.css';
import { notifyFor } from './bindings';
import { ErrorBox } from './ErrorBox';
import { TextField } from './TextField';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';

export function CardForm({ submitLabel, onChosen, secondary, cardReturn, confirmedCardId, avoidSaved = false }: {
  submitLabel: string;
  onChosen: (card: ChosenCard) => void;
  /** A button shown beside the submit button, in the page's own button row (the wizard's Back). */
  secondary?: ReactNode;
  /** The bank's answer as the page arrived with it, when the page corrects its address before the form shows (the wizard). */
  cardReturn?: ReturnType<typeof parseCardReturn>;
  /** The card the bank confirmed, as the page arrived with it (`card-id`): chosen at once when it is the saved default. */
  confirmedCardId?: string | null;
  /** The saved card was just declined ("Try again"): offered with its switch off. */
  avoidSaved?: boolean;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [path] = useLocation();
  const search = useSearch();
  const actor = useFlow(cardEntryMachine, {
    actors: createCardEntryActors(api, queryClient),
    actions: { notify: notifyFor('cardEntry'), cardChosen: (_, card) => onChosen(card), leaveForVerification: (_, { url }) => leaveFor(url) },
    input: {
      returnTo: returnPathOf(path, search),
      cardReturn: cardReturn !== undefined ? cardReturn : parseCardReturn(search),
      confirmedCardId: confirmedCardId !== undefined ? confirmedCardId : parseConfirmedCard(search),
      avoidSaved,
    },
  });
  const props = useConnect(actor, connectCardEntry);
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [isDefault, setIsDefault] = useState(true);
  // What was checked at the last submit: a field's error stays only while the field still holds it
  // ('Card expired' went on showing after the date was corrected, until Continue).
  const [checked, setChecked] = useState<CardInput | null>(null);
  const errorOf = (field: keyof CardErrors): string | undefined => {
    const current = { number, expiry, cvc }[field];
    return checked && checked[field] !== current ? undefined : props.fieldErrors[field];
  };
  const switchId = useId();
  const brand = cardBrand(number);
  const unsupported = digitsOf(number).length === 16 && !brand;

  if (props.loading) {
    return (
      <>
        <p role="status">{m.loading_your_saved_card()}</p>
        {secondary && <div className={css.actions}>{secondary}</div>}
      </>
    );
  }
  if (props.loadFailed) {
    return (
      <div className={css.panel}>
        <ErrorBox message={props.serverMessage} />
        <div className={css.actions}>
          {secondary}
          <button type="button" className={button.secondary} onClick={props.onRetry}>{m.try_again()}</button>
        </div>
      </div>
    );
  }

  const submit = (
    <button type="submit" className={button.primary} disabled={props.saving || props.done} aria-busy={props.saving}>
      {props.saving ? m.saving_card() : submitLabel}
    </button>
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setChecked({ number, expiry, cvc });
    props.onSubmit({ number, expiry, cvc }, isDefault);
  };

  return (
    <form className={form} onSubmit={onSubmit} noValidate aria-label={m.card_details()}>
      {props.confirmed && <p className={css.banner.good} role="status">{props.confirmed}</p>}
      {props.savedCard && (
        <div className={css.savedCard}>
          <span className={css.savedNumber}>{props.savedCard.number}</span>
          <span>{props.savedCard.type}{props.savedCard.isDefault ? ` · ${m.default_payment_method()}` : ''}</span>
          <label className={css.checkRow} htmlFor={switchId}>
            <input
              id={switchId}
              type="checkbox"
              role="switch"
              className={css.switchInput}
              checked={props.useSaved}
              disabled={props.saving}
              onChange={(event) => props.onUseSaved(event.currentTarget.checked)}
            />
            {m.use_this_card()}
          </label>
          {props.declinedBefore && <p className={muted}>{m.your_last_payment_with_this_card_did()}</p>}
        </div>
      )}
      {props.showForm && (
        <fieldset className={fieldset} disabled={props.saving}>
          <p className={muted}>{m.enter_new_card_details()}</p>
          <ErrorBox message={props.serverMessage} />
          <div className={css.numberWrap}>
            <TextField
              label={m.card_number()}
              name="cardNumber"
              autoComplete="cc-number"
              inputMode="numeric"
              maxLength={MAX_CARD_LENGTH}
              placeholder="1234 5678 9012 3456"
              value={number}
              onChange={(event) => setNumber(formatCardNumber(event.currentTarget.value))}
              error={errorOf('number') ?? (unsupported ? CARD_MESSAGES.unsupported() : undefined)}
            />
            {brand && <span className={css.brandMark} aria-label={m.card_brand({ brand: BRAND_NAMES[brand] })}>{BRAND_NAMES[brand]}</span>}
          </div>
          <div className={css.cardRow}>
            <TextField
              label={m.expiry_mm_yy()}
              name="cardExpiry"
              autoComplete="cc-exp"
              inputMode="numeric"
              maxLength={5}
              placeholder="MM/YY"
              value={expiry}
              onChange={(event) => setExpiry(formatExpiry(event.currentTarget.value))}
              error={errorOf('expiry')}
            />
            <TextField
              label={m.cvc()}
              name="cardCvc"
              autoComplete="cc-csc"
              inputMode="numeric"
              maxLength={CVC_LENGTH}
              placeholder="123"
              value={cvc}
              onChange={(event) => setCvc(formatCvc(event.currentTarget.value))}
              error={errorOf('cvc')}
            />
          </div>
          <label className={css.checkRow}>
            <input type="checkbox" checked={isDefault} onChange={(event) => setIsDefault(event.currentTarget.checked)} />
            {m.save_as_default_payment_method()}
          </label>
          {props.formError && <p className={fieldError}>{props.formError}</p>}
        </fieldset>
      )}
      {secondary ? (
        <div className={css.actions}>
          {secondary}
          {submit}
        </div>
      ) : submit}
    </form>
  );
}
