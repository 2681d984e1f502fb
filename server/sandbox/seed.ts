/** The local sandbox's own records for the demo data: a customer holding a card token, and a reset. */
import type { Db, Queryable } from '../platform/db';
import { forgetSwitch } from './faults';

/**
 * A customer (made when `customerId` is null) holding the card `cardTokenId`, verified and approving
 * like the Visa test card. Idempotent for the card. Returns the customer's id.
 */
export async function sandboxCard(
  tx: Queryable,
  card: {
    customerId: string | null;
    customer: { firstName: string; lastName: string; email: string };
    cardTokenId: string;
    brand: string;
    first6: string;
    last4: string;
    at: Date;
  },
): Promise<string> {
  const customerId =
    card.customerId ??
    (
      await tx.query<{ id: string }>('INSERT INTO sandbox_customers (first_name, last_name, email, created_at) VALUES ($1, $2, $3, $4) RETURNING id', [
        card.customer.firstName, card.customer.lastName, card.customer.email, card.at,
      ])
    ).rows[0]!.id;
  await tx.query(
    `INSERT INTO sandbox_cards (card_token_id, customer_id, brand, first6, last4, behaviour, state, is_default, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, 'APPROVE', 'VERIFIED', true, $6, $6) ON CONFLICT (card_token_id) DO NOTHING`,
    [card.cardTokenId, customerId, card.brand, card.first6, card.last4, card.at],
  );
  return customerId;
}

/** Forgets every record of the local sandbox (the demo reset), its fault switch and lost webhooks included. */
export async function resetSandbox(db: Db): Promise<void> {
  await db.exec(
    'TRUNCATE sandbox_payment_tokens, sandbox_customers, sandbox_cards, sandbox_payments, sandbox_wallet_links, sandbox_faults, sandbox_webhook_mode, sandbox_lost_webhooks CASCADE',
  );
  forgetSwitch(db);
}
