/**
 * Two payments of one viewer decided at once, on PostgreSQL (several connections, READ COMMITTED; PGlite
 * runs one transaction at a time, so this cannot happen there): found by review of issue 32 (F8 of
 * test/server/billing/review-findings.test.ts). Runs in the `postgres` project (`npm run test:postgres`).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { settleFromWebhook } from '../../server/billing/reconciler';
import { buyWithCard } from '../../server/billing/purchase';
import type { RenewalDeps } from '../../server/billing/renewals';
import { SERVER_START_TIMEOUT_MS, type BillingServer } from '../server/support/billing-helpers';
import { CARD_PAYMENT, FREE, faultyGateway, newRecords, resetSeams, startSeamsServer, userId, verifiedCard } from '../server/support/seams-harness';
import { CONSENTED } from '../server/support/consent';

let server: BillingServer;
let deps: RenewalDeps;
beforeAll(async () => {
  ({ server, deps } = await startSeamsServer());
}, SERVER_START_TIMEOUT_MS);
beforeEach(() => resetSeams(server));

/** PostgreSQL only (several connections, READ COMMITTED): `npm run test:postgres`, or scripts/with-postgres.sh on this file. */
describe('F8 (PostgreSQL): two payments of one viewer decided at once', () => {
  /** Another transaction holding the viewer's users row (as a foreign-key check of an INSERT INTO subscriptions needs it) until released. */
  function holdUser(userIdValue: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: (pid: number) => void;
    const pid = new Promise<number>((resolve) => (held = resolve));
    const done = server.db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userIdValue]);
      held(rows[0]!.pid);
      await released;
    });
    return { pid, release, done };
  }
  async function until(check: () => Promise<boolean>, what: string) {
    for (let i = 0; i < 1000; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`never: ${what}`);
  }
  const waitingOn = async (pid: number) =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).rows[0]!.n;
  const lockWaiters = async () =>
    (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).rows[0]!.n;

  it('a superseded checkout paid in the old tab and the card purchase that superseded it: the card is given back (409), never a raw 23505 (500)', async () => {
    const card = await verifiedCard(server, FREE);
    const user = await userId(server, FREE);
    await server.freezeClock();
    const checkout = await server.as(FREE).post('/payment/checkout/create', { planId: 1 });
    expect(checkout.status, checkout.json.message).toBe(200);
    const oldTab = (await newRecords(server, FREE))[0]!;

    let webhook: Promise<string | null> | undefined;
    const racing = faultyGateway(server).on({
      method: 'POST', path: CARD_PAYMENT, times: 1,
      // While the card purchase (which superseded the checkout) is at Maya, the old tab is paid and its webhook decided.
      before: async () => {
        // Paid on Maya's page; the browser does not come back (its return would settle it at once).
        await server.app.request(checkout.json.data.paymentLink, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
        const holder = holdUser(user);
        const pid = await holder.pid;
        webhook = settleFromWebhook(deps, oldTab.reference_id);
        await until(async () => (await waitingOn(pid)) >= 1, "the checkout's activation waits at its INSERT");
        // Released once the card purchase's activation waits too (behind the checkout's, on the old row both close).
        void until(async () => (await lockWaiters()) >= 2, "the card's activation waits behind it").then(holder.release, holder.release);
      },
    });
    const bought = await buyWithCard(racing.deps, user, 2, card, CONSENTED).then(
      () => null,
      (error: { status?: number; code?: string; message?: string }) => error,
    );
    expect(await webhook).toBe('PAYMENT_SUCCESS');
    expect(bought?.code, `unhandled database error: ${bought?.message}`).not.toBe('23505');
    expect(bought?.status).toBe(409);
  });
});
