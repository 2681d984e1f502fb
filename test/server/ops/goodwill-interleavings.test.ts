/**
 * Issue 35 with issue 32's invariants: an operator's reversal (whole or part; a goodwill refund,
 * docs/product.md#back-office) in every order with what else touches the same payment: Maya's webhook
 * for it, the reconciler's pass, the renewal of the next period, the viewer's own cancel. After every
 * step the money invariants hold (test/server/support/money-invariants.ts); at the end, with everything
 * settled, nothing may be left settling.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reconcile } from '../../../server/billing/reconciler';
import { renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { checkMoneyInvariants } from '../support/money-invariants';
import { startOpsServer, type OpsServer, type TestOperator } from '../support/ops-helpers';
import { deliverWebhook, faultyGateway, FREE, latestSubscription, newRecords, resetSeams, snapshotPaymentMethods, verifiedCard } from '../support/seams-harness';
import { CONSENT } from '../support/consent';

let server: OpsServer;
let finance: TestOperator;
let deps: RenewalDeps;

beforeAll(async () => {
  server = await startOpsServer();
  await snapshotPaymentMethods(server);
  deps = faultyGateway(server).deps;
  finance = await server.operator('finance');
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await resetSeams(server);
});
afterAll(async () => {
  await server?.db.close();
});

type StepName = 'refund' | 'webhook' | 'reconcile' | 'renewal' | 'cancel';

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

const check = (settlingMs?: number) => checkMoneyInvariants((sql, params) => server.db.query(sql, params), settlingMs === undefined ? {} : { settlingMs });

async function walk(order: StepName[], amount: 'whole' | 'part') {
  const bought = await server.freezeClock();
  const card = await verifiedCard(server, FREE);
  expect((await server.as(FREE).post('/payment/vault/create', { ...CONSENT, planId: 1, cardToken: card })).status).toBe(200);
  const record = (await newRecords(server, FREE))[0]!;
  const subscription = await latestSubscription(server, FREE);
  // A part is refunded the next day (a void is whole); the whole, on the day (a void) unless the renewal moved the clock.
  if (amount === 'part') await server.setClock(new Date(bought.getTime() + 86_400_000));
  const done: string[] = [];
  for (const step of order) {
    switch (step) {
      case 'refund': {
        const answer = await finance.post(`/payments/${record.id}/reverse`, { amount: amount === 'whole' ? '99.00' : '25.00', reason: 'Goodwill for the outage', requestKey: randomUUID() });
        expect(answer.status, `${order.join(' ')}: ${answer.json.message}`).toBe(200);
        break;
      }
      case 'webhook': {
        const id = (await server.db.query<{ id: string }>('SELECT id FROM sandbox_payments WHERE request_reference_number = $1', [record.reference_id])).rows[0]!.id;
        expect((await deliverWebhook(server, id)).status).toBe(200);
        break;
      }
      case 'reconcile':
        await reconcile(deps, { realNow: new Date(Date.now() + 3 * 86_400_000) });
        break;
      case 'renewal':
        await server.setClock(new Date(subscription.end_date.getTime() + 60_000));
        await renewSubscription(deps, subscription.id);
        break;
      case 'cancel':
        await server.as(FREE).post('/subscription/cancel', { subscriptionId: subscription.id });
        break;
    }
    done.push(step);
    try {
      await check();
    } catch (error) {
      throw new Error(`after ${done.join(' → ')} (${amount}): ${(error as Error).message}`, { cause: error });
    }
  }
  // Everything settles: the reconciler reads what is left, twice.
  await reconcile(deps, { realNow: new Date(Date.now() + 10 * 86_400_000) });
  await reconcile(deps, { realNow: new Date(Date.now() + 20 * 86_400_000) });
  try {
    await check(0);
  } catch (error) {
    throw new Error(`settled after ${order.join(' → ')} (${amount}): ${(error as Error).message}`, { cause: error });
  }
  const reversals = await server.db.query(`SELECT 1 FROM gateway_attempts WHERE record_id = $1 AND reverses IS NOT NULL AND operator_audit_id IS NOT NULL AND outcome = 'SUCCEEDED'`, [record.id]);
  expect(reversals.rows).toHaveLength(1);
}

describe("an operator's reversal in every order with the payment's other events", () => {
  const orders = permutations<StepName>(['refund', 'webhook', 'reconcile', 'renewal']);
  it.each(orders.map((order) => [order.join(' → '), order] as const))('whole: %s', async (_, order) => {
    await walk([...order], 'whole');
  });
  it.each(orders.map((order) => [order.join(' → '), order] as const))('part: %s', async (_, order) => {
    await walk([...order], 'part');
  });
  it.each([['refund', 'cancel'], ['cancel', 'refund'], ['refund', 'cancel', 'renewal'], ['cancel', 'renewal', 'refund']] as StepName[][])('with the viewer\'s cancel: %s', async (...order) => {
    await walk(order, 'whole');
  });
});
