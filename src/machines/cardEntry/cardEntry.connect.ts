/** Card entry's view props: the saved card and its switch, the entry form, errors, pending. */
import type { SnapshotFrom } from 'xstate';
import { cardTypeLabel, maskedCardNumber, type CardInput } from '../../lib/card';
import { CARD_RETURN_MESSAGES, type CardEntryEvent, type CardEntryMachine } from './cardEntry.machine';

export function connectCardEntry(state: SnapshotFrom<CardEntryMachine>, send: (event: CardEntryEvent) => void) {
  const { savedCard, useSaved, fieldErrors, formError, serverMessage } = state.context;
  return {
    loading: state.matches('loading'),
    loadFailed: state.matches('loadFailed'),
    saving: state.matches('saving') || state.matches('verifying'),
    verifying: state.matches('verifying'),
    done: state.matches('done'),
    savedCard: savedCard
      ? { number: maskedCardNumber(savedCard.last4), type: cardTypeLabel(savedCard.cardType), isDefault: savedCard.default }
      : null,
    useSaved: state.matches('savedCard') || (state.matches('done') && useSaved),
    showForm: state.matches('newCard') || state.matches('saving') || state.matches('verifying'),
    fieldErrors,
    // Said in the form only when no field carries it (an empty field is marked itself; the toast says the rest).
    formError: Object.keys(fieldErrors).length > 0 ? null : formError,
    serverMessage,
    /** Back from the bank that confirmed the new card, now offered as the saved card. */
    /** The saved card's last payment was refused: said beside its switch, which starts off. */
    declinedBefore: state.context.avoidSaved && savedCard !== null && state.matches('newCard') && !useSaved,
    confirmed: state.context.cardReturn === 'verified' && state.matches('savedCard') ? CARD_RETURN_MESSAGES.verified() : null,
    onUseSaved: (on: boolean) => send({ type: 'card.useSaved', on }),
    onSubmit: (card: CardInput, isDefault: boolean) => send({ type: 'card.submit', card, isDefault }),
    onRetry: () => send({ type: 'card.retry' }),
  } as const;
}
