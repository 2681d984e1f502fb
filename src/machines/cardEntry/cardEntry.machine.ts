/**
 * Card entry (product.md#card-option, product.md#card-rules): the saved default card ('Use this card') or a new
 * card, checked here, then saved at Maya through the API (POST vault/cards), which keeps only Maya's
 * token and the masked number. As Maya documents, a new card is confirmed with the bank before it can
 * be charged: the flow leaves for the bank's page (an action the view binds) and the viewer comes back
 * to the same page, where the confirmed card is offered (or the bank's refusal is said). The machine ends with the card token to pay or save with, so the
 * subscribe wizard and the change-payment-method page use the same chart with their own labels.
 * The typed card lives in context only while the save call runs (masked in the inspector).
 */
import { assign, setup } from 'xstate';
import type { SavedCard } from '../../api/schemas';
import { CARD_MESSAGES, cardErrors, newCardRequest, type CardErrors, type CardInput } from '../../lib/card';
import { m } from '../../i18n';
import { notProvided, placeholder } from '../actors';
import { errorMessageOf, type Notify } from '../shared';

export interface CardEntryInput {
  /** Today, for 'Card expired' (tests fix it). */
  now?: Date;
  /** The page to come back to after the bank confirms a new card (cardEntry.address.ts). */
  returnTo?: string;
  /** Back from the bank: whether it confirmed the card (cardEntry.address.ts). */
  cardReturn?: 'verified' | 'failed' | null;
  /** Back from the bank: the card it confirmed (cardEntry.address.ts); when it is the saved default, it is chosen at once. */
  confirmedCardId?: string | null;
  /** The last payment with the saved card was refused ("Try again" on a failed result): it is offered, not pre-selected. */
  avoidSaved?: boolean;
}

/** Catalog messages (issue 20): read when the flow says them, in the language in use. */
export const CARD_RETURN_MESSAGES = {
  failed: m.your_bank_did_not_confirm_the_card,
  verified: m.your_card_is_confirmed,
} as const;

/** What the flow ends with: the token to pay or save with, and how to show the card. */
export interface ChosenCard {
  cardTokenId: string;
  cardType: string;
  last4: string;
}

export interface CardEntryContext {
  now: Date | null;
  returnTo: string | null;
  cardReturn: 'verified' | 'failed' | null;
  confirmedCardId: string | null;
  avoidSaved: boolean;
  savedCard: SavedCard | null;
  /** 'Use this card' (on when the saved card is the default, product.md#method-selector). */
  useSaved: boolean;
  /** The card being saved: only while the save call runs. */
  card: ReturnType<typeof newCardRequest> | null;
  fieldErrors: CardErrors;
  formError: string | null;
  serverMessage: string | null;
  chosen: ChosenCard | null;
}

export type CardEntryEvent =
  | { type: 'card.useSaved'; on: boolean }
  | { type: 'card.submit'; card: CardInput; isDefault: boolean }
  | { type: 'card.retry' };

const chosenFrom = (card: SavedCard): ChosenCard => ({ cardTokenId: card.cardTokenId, cardType: card.cardType, last4: card.last4 });

export const cardEntryMachine = setup({
  types: {
    context: {} as CardEntryContext,
    events: {} as CardEntryEvent,
    input: {} as CardEntryInput,
    output: {} as ChosenCard,
  },
  actors: {
    loadDefaultCard: placeholder<SavedCard | null>('loadDefaultCard'),
    saveCard: notProvided<'saveCard'>('saveCard'),
  },
  guards: {
    isPresent: (_, params: { value: unknown }) => params.value !== null && params.value !== undefined,
    needsVerification: (_, params: { url: string | null | undefined }) => Boolean(params.url),
    bankRefused: ({ context }) => context.cardReturn === 'failed',
    /** The bank confirmed the very card now saved as the default: the person already pressed the button for it. */
    bankConfirmedSaved: ({ context }, params: { card: SavedCard | null }) =>
      context.cardReturn === 'verified' && context.confirmedCardId !== null && params.card?.cardTokenId === context.confirmedCardId,
    avoidsSaved: ({ context }, params: { value: unknown }) => context.avoidSaved && params.value !== null && params.value !== undefined,
    bankRefusedWithSaved: ({ context }, params: { value: unknown }) => context.cardReturn === 'failed' && params.value !== null && params.value !== undefined,
    isOff: (_, params: { on: boolean }) => !params.on,
    canUseSaved: ({ context }, params: { on: boolean }) => params.on && context.savedCard !== null,
    isCardIncomplete: ({ context, event }) =>
      event.type === 'card.submit' && cardErrors(event.card, context.now ?? new Date()).form !== null,
    isCardValid: ({ context, event }) => {
      if (event.type !== 'card.submit') return false;
      const { form, fields } = cardErrors(event.card, context.now ?? new Date());
      return !form && Object.keys(fields).length === 0;
    },
  },
  actions: {
    assignSavedCard: assign((_, params: { card: SavedCard | null }) => ({
      savedCard: params.card,
      useSaved: params.card?.default ?? false,
    })),
    assignUseSaved: assign(({ event }) => (event.type === 'card.useSaved' ? { useSaved: event.on, formError: null, serverMessage: null, fieldErrors: {} } : {})),
    assignCard: assign(({ context, event }) =>
      event.type === 'card.submit'
        ? {
            card: { ...newCardRequest(event.card, event.isDefault), ...(context.returnTo ? { returnTo: context.returnTo } : {}) },
            fieldErrors: {}, formError: null, serverMessage: null,
          }
        : {},
    ),
    assignCardErrors: assign(({ context, event }) => {
      if (event.type !== 'card.submit') return {};
      const { form, fields } = cardErrors(event.card, context.now ?? new Date());
      return { formError: form, fieldErrors: fields, serverMessage: null };
    }),
    assignServerMessage: assign((_, params: { message: string }) => ({ serverMessage: params.message })),
    assignChosen: assign((_, params: { chosen: ChosenCard }) => ({ chosen: params.chosen })),
    forgetCard: assign({ card: null }),
    // Bound by the view: toasts, what the page does with the chosen card, and leaving for the bank's page.
    notify: (_, _params: Notify) => {},
    cardChosen: (_, _params: ChosenCard) => {},
    leaveForVerification: (_, _params: { url: string }) => {},
  },
}).createMachine({
  id: 'cardEntry',
  description:
    'The card part of the subscribe wizard and of the change-payment-method page. A saved default card is offered with \'Use this card\' on; with no saved card, or the switch off, the person types a new card, which is checked here (number, expiry, security code) and saved at Maya. It ends with the card to pay or save with; the card number itself is never kept.',
  meta: {
    title: 'Card entry',
    events: {
      'card.useSaved': 'The person turns Use this card on or off',
      'card.submit': 'The person presses the card button (Continue or Save Payment Method)',
      'card.retry': 'The person tries loading the saved card again',
    },
  },
  context: ({ input }) => ({
    now: input.now ?? null, returnTo: input.returnTo ?? null, cardReturn: input.cardReturn ?? null,
    confirmedCardId: input.confirmedCardId ?? null, avoidSaved: input.avoidSaved ?? false,
    savedCard: null, useSaved: false, card: null, fieldErrors: {}, formError: null, serverMessage: null, chosen: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      description: 'Loading the saved card',
      invoke: {
        id: 'loadDefaultCard',
        src: 'loadDefaultCard',
        onDone: [
          {
            // The bank confirmed the new card the person pressed Save (or Continue) for: carry on with it,
            // no second press (a viewer who left here kept paying with the old card).
            guard: { type: 'bankConfirmedSaved', params: ({ event }) => ({ card: event.output }) },
            target: 'done',
            description: 'Back from the bank that confirmed the new card: chosen at once',
            actions: [
              { type: 'assignSavedCard', params: ({ event }) => ({ card: event.output }) },
              { type: 'assignChosen', params: ({ event }) => ({ chosen: chosenFrom(event.output!) }) },
            ],
          },
          {
            // The bank refused the new card while an older one is saved: say so over the entry form
            // (the older card stays one switch away). The refusal was lost behind the saved card.
            guard: { type: 'bankRefusedWithSaved', params: ({ event }) => ({ value: event.output }) },
            target: 'newCard.rejected',
            description: 'A saved card, back from a bank that refused the new one',
            actions: [
              { type: 'assignSavedCard', params: ({ event }) => ({ card: event.output }) },
              assign({ useSaved: false, serverMessage: () => CARD_RETURN_MESSAGES.failed() }),
            ],
          },
          {
            // "Try again" after the saved card was declined: it stays one switch away, not pre-selected.
            guard: { type: 'avoidsSaved', params: ({ event }) => ({ value: event.output }) },
            target: 'newCard',
            description: 'A saved card whose last payment was refused',
            actions: [{ type: 'assignSavedCard', params: ({ event }) => ({ card: event.output }) }, assign({ useSaved: false })],
          },
          {
            guard: { type: 'isPresent', params: ({ event }) => ({ value: event.output }) },
            target: 'savedCard',
            description: 'A saved card',
            actions: { type: 'assignSavedCard', params: ({ event }) => ({ card: event.output }) },
          },
          {
            guard: 'bankRefused',
            target: 'newCard.rejected',
            description: 'No saved card, back from a bank that refused the new one',
            actions: [{ type: 'assignSavedCard', params: { card: null } }, assign({ serverMessage: () => CARD_RETURN_MESSAGES.failed() })],
          },
          { target: 'newCard', description: 'No saved card', actions: { type: 'assignSavedCard', params: { card: null } } },
        ],
        onError: { target: 'loadFailed', actions: { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) } },
      },
    },
    loadFailed: {
      description: 'The saved card could not be loaded',
      on: { 'card.retry': { target: 'loading', actions: assign({ serverMessage: null }) } },
    },
    // The saved card with 'Use this card' on: the card to pay or save with.
    savedCard: {
      description: 'Offering the saved card',
      on: {
        'card.useSaved': {
          guard: { type: 'isOff', params: ({ event }) => ({ on: event.on }) },
          target: 'newCard',
          description: 'Use this card turned off',
          actions: 'assignUseSaved',
        },
        'card.submit': {
          target: 'done',
          description: 'The saved card is chosen',
          actions: { type: 'assignChosen', params: ({ context }) => ({ chosen: chosenFrom(context.savedCard!) }) },
        },
      },
    },
    // The entry form (no saved card, or the switch off).
    newCard: {
      description: 'Entering a new card',
      initial: 'editing',
      states: {
        editing: { description: 'Waiting for the card details' },
        invalid: { description: 'Showing what to fix in the card' },
        rejected: { description: 'Showing why the card was refused' },
      },
      on: {
        'card.useSaved': {
          guard: { type: 'canUseSaved', params: ({ event }) => ({ on: event.on }) },
          target: 'savedCard',
          description: 'Use this card turned back on',
          actions: 'assignUseSaved',
        },
        'card.submit': [
          { guard: 'isCardValid', target: 'saving', actions: 'assignCard', description: 'A valid card' },
          {
            guard: 'isCardIncomplete',
            target: '.invalid',
            description: 'A field left empty',
            actions: ['assignCardErrors', { type: 'notify', params: { kind: 'error', message: CARD_MESSAGES.fillAll } }],
          },
          { target: '.invalid', actions: 'assignCardErrors', description: 'A field wrong (number, expiry or security code)' },
        ],
      },
    },
    saving: {
      description: 'Saving the card at Maya',
      invoke: {
        id: 'saveCard',
        src: 'saveCard',
        input: ({ context }) => context.card!,
        onDone: [
          {
            guard: { type: 'needsVerification', params: ({ event }) => ({ url: event.output.verificationUrl }) },
            target: 'verifying',
            description: 'Card saved, to be confirmed with the bank',
            actions: { type: 'leaveForVerification', params: ({ event }) => ({ url: event.output.verificationUrl! }) },
          },
          {
            target: 'done',
            description: 'Card saved and usable',
            actions: { type: 'assignChosen', params: ({ event }) => ({ chosen: chosenFrom(event.output) }) },
          },
        ],
        onError: {
          target: 'newCard.rejected',
          description: 'Card refused',
          actions: [
            { type: 'assignServerMessage', params: ({ event }) => ({ message: errorMessageOf(event) }) },
            { type: 'notify', params: ({ event }) => ({ kind: 'error', message: errorMessageOf(event) }) },
          ],
        },
      },
      exit: 'forgetCard',
    },
    verifying: {
      description: 'Gone to the bank to confirm the new card',
      meta: { screen: "the bank's page (Maya's 3-D Secure)" },
    },
    done: {
      type: 'final',
      description: 'Card chosen',
      entry: { type: 'cardChosen', params: ({ context }) => context.chosen! },
    },
  },
  output: ({ context }) => context.chosen!,
});

export type CardEntryMachine = typeof cardEntryMachine;
