/**
 * The local sandbox's fault switch (server/sandbox/faults.ts, issue 32): the route and the in-process
 * functions, each mode as our real Maya client meets it (nothing charged, or charged and the answer
 * lost or unreadable), the count-down, a share of the calls, webhooks lost, released late and
 * doubled, a switch set by another process, and a dropped connection over real HTTP.
 */
import { serve } from '@hono/node-server';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { devModules } from '../../../server/dev';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { GatewayError, createMayaClient, type Gateway } from '../../../server/gateway/maya';
import { createTokens } from '../../../server/identity/tokens';
import { clearSandboxFaults, readSandboxFaults, type FaultState, releaseLostWebhooks, sandboxSettled, setSandboxFaults } from '../../../server/sandbox/faults';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { abortableFetch, openTestDatabase, startTestServer, type TestServer } from '../support/helpers';

let server: TestServer;
let maya: Gateway;
let customerId: string;
const CARD = 'seed-card-premium';
const redirectUrl = { success: 'http://localhost/ok', failure: 'http://localhost/failed', cancel: 'http://localhost/cancel' };


beforeAll(async () => {
  server = await startTestServer();
  maya = createMayaClient({ ...defaultGatewayConfig(0), fetch: abortableFetch(server.app) });
  customerId = (await server.db.query<{ customer_id: string }>('SELECT customer_id FROM sandbox_cards WHERE card_token_id = $1', [CARD])).rows[0]!.customer_id;
}, SERVER_START_TIMEOUT_MS);
beforeEach(async () => {
  await clearSandboxFaults(server.db);
  await server.db.exec('DELETE FROM sandbox_payments; DELETE FROM sandbox_webhooks');
  server.logs.length = 0;
});
afterEach(() => sandboxSettled(server.db));

let references = 0;
const pay = (client: Gateway = maya) =>
  client.payWithCard(customerId, CARD, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: `SB-FAULT-${++references}`, redirectUrl });
const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as GatewayError);
const charges = async () => (await server.db.query<{ status: string }>('SELECT status FROM sandbox_payments ORDER BY created_at')).rows.map((r) => r.status);
/** Webhooks for a payment reach a callback that answers 404, so each delivery leaves a line in the log. */
const registerDeadCallback = () => maya.createWebhook({ name: 'PAYMENT_SUCCESS', callbackUrl: 'http://127.0.0.1/nowhere/webhook' });
const deliveries = (paymentId: string) => server.logs.filter((line) => line === `sandbox: webhook for payment ${paymentId} answered 404`).length;

describe('the route', () => {
  it('sets, reads and clears the switch; refuses a bad one; answers only this machine', async () => {
    const set = await server.call('POST', '/sandbox/maya/_faults', { body: { faults: [{ on: 'charge', mode: 'http500', times: 2 }], webhooks: 'lost' } });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ faults: [{ on: 'charge', mode: 'http500', timesLeft: 2, every: 1, holdMs: 0 }], webhooks: 'lost' });
    expect((await server.call('GET', '/sandbox/maya/_faults')).json).toEqual(set.json);
    // Only what is given changes: the webhook mode alone.
    expect(((await server.call('POST', '/sandbox/maya/_faults', { body: { webhooks: 'doubled' } })).json as unknown as FaultState).faults).toHaveLength(1);
    const bad = await server.call('POST', '/sandbox/maya/_faults', { body: { faults: [{ on: 'charge', mode: 'explode', times: 1 }] } });
    expect([bad.status, bad.json.message]).toEqual([400, expect.stringContaining('faults.0.mode')]);
    expect((await server.call('POST', '/sandbox/maya/_faults', { body: { faults: [{ on: 'charge', mode: 'timeout', times: 0 }] } })).status).toBe(400);
    expect((await server.call('POST', '/sandbox/maya/_faults', { raw: '{' })).status).toBe(400);
    expect((await server.call('POST', '/sandbox/maya/_faults', { body: {}, client: '203.0.113.9' })).status).toBe(404);
    expect((await server.call('DELETE', '/sandbox/maya/_faults')).json).toEqual({ faults: [], webhooks: 'normal' });
  });
});

describe('faults our Maya client meets', () => {
  for (const [mode, status, code] of [['http500', 500, 'PY9999'], ['http401', 401, 'K003'], ['http429', 429, 'PY0429']] as const) {
    it(`${mode}: Maya's error shape, nothing charged; the next call is itself again`, async () => {
      await setSandboxFaults(server.db, { faults: [{ on: 'charge', mode, times: 1 }] });
      const error = await failure(pay());
      expect(error).toBeInstanceOf(GatewayError);
      expect([error!.status, error!.code]).toEqual([status, code]);
      expect(await charges()).toEqual([]);
      expect((await pay()).status).toBe('PAYMENT_SUCCESS');
      expect(await readSandboxFaults(server.db)).toEqual({ faults: [], webhooks: 'normal' });
    });
  }

  it('unreadable: Maya charged, the answer is one the client schema refuses', async () => {
    await setSandboxFaults(server.db, { faults: [{ on: 'charge', mode: 'unreadable', times: 1 }] });
    const error = await failure(pay());
    expect([error!.status, error!.code]).toEqual([200, 'BAD_RESPONSE']);
    expect(await charges()).toEqual(['PAYMENT_SUCCESS']);
  });

  it('timeout: nothing is done, and a client with a shorter timeout gives up (status 0); without one it gets a 504 after the hold', async () => {
    await setSandboxFaults(server.db, { faults: [{ on: 'charge', mode: 'timeout', times: 2, holdMs: 400 }] });
    const impatient = createMayaClient({ ...defaultGatewayConfig(0), fetch: abortableFetch(server.app), timeoutMs: 100 });
    const started = Date.now();
    const error = await failure(pay(impatient));
    expect([error!.status, error!.code]).toEqual([0, 'UNREACHABLE']);
    expect(Date.now() - started).toBeLessThan(400);
    const patient = await failure(pay());
    expect([patient!.status, patient!.code]).toEqual([504, 'PY9998']);
    expect(await charges()).toEqual([]);
  });

  it('charge-then-timeout: the charge is made and stored, its answer lost', async () => {
    await setSandboxFaults(server.db, { faults: [{ on: 'charge', mode: 'charge-then-timeout', times: 1, holdMs: 300 }] });
    const impatient = createMayaClient({ ...defaultGatewayConfig(0), fetch: abortableFetch(server.app), timeoutMs: 100 });
    const error = await failure(pay(impatient));
    expect(error!.status).toBe(0);
    expect(await charges()).toEqual(['PAYMENT_SUCCESS']);
    // Maya knows it: a read by reference finds the charge.
    expect((await maya.getPaymentsByReference(`SB-FAULT-${references}`)).map((p) => p.status)).toEqual(['PAYMENT_SUCCESS']);
  });

  it('a fault on reads leaves charges alone, and one on any call takes the first call', async () => {
    await setSandboxFaults(server.db, { faults: [{ on: 'read', mode: 'http500', times: 1 }] });
    const paid = await pay();
    expect((await failure(maya.getPayment(paid.id)))!.status).toBe(500);
    expect((await maya.getPayment(paid.id)).status).toBe('PAYMENT_SUCCESS');
    await setSandboxFaults(server.db, { faults: [{ on: 'any', mode: 'http500', times: 1 }] });
    expect((await failure(maya.listWebhooks()))!.status).toBe(500);
    expect(await maya.listWebhooks()).toEqual([]);
  });

  it('void and refund faults: nothing is reversed', async () => {
    const paid = await pay();
    await setSandboxFaults(server.db, { faults: [{ on: 'void', mode: 'http500', times: 1 }, { on: 'refund', mode: 'http500', times: 1 }] });
    expect((await failure(maya.voidPayment(paid.id, { reason: 'test' })))!.status).toBe(500);
    expect((await failure(maya.refundPayment(paid.id, { totalAmount: { amount: 99, currency: 'PHP' }, reason: 'test' })))!.status).toBe(500);
    expect(await charges()).toEqual(['PAYMENT_SUCCESS']);
    await maya.voidPayment(paid.id, { reason: 'test' });
    expect(await charges()).toEqual(['VOIDED']);
  });

  it('every n-th call: a share of the calls, until its times are used', async () => {
    await setSandboxFaults(server.db, { faults: [{ on: 'charge', mode: 'http500', times: 2, every: 3 }] });
    const outcomes: Array<number | string> = [];
    for (let i = 0; i < 8; i++) outcomes.push((await failure(pay()))?.status ?? 'paid');
    expect(outcomes).toEqual(['paid', 'paid', 500, 'paid', 'paid', 500, 'paid', 'paid']);
  });

  it('a switch written by another process is seen within a quarter second', async () => {
    // As another API process on the same database writes it: no in-process notice.
    await server.db.query(`INSERT INTO sandbox_faults (on_call, mode, times_left) VALUES ('charge', 'http500', 1)`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await failure(pay()))!.status).toBe(500);
  });
});

describe('webhooks', () => {
  it('normal: once; doubled: twice; lost: never, until released late (then once, as the payment is now)', async () => {
    await registerDeadCallback();
    const once = await pay();
    await sandboxSettled(server.db);
    expect(deliveries(once.id)).toBe(1);

    await setSandboxFaults(server.db, { webhooks: 'doubled' });
    const twice = await pay();
    await sandboxSettled(server.db);
    expect(deliveries(twice.id)).toBe(2);

    await setSandboxFaults(server.db, { webhooks: 'lost' });
    const lost = await pay();
    await sandboxSettled(server.db);
    expect(deliveries(lost.id)).toBe(0);
    expect(server.logs).toContain(`sandbox: webhook for payment ${lost.id} (PAYMENT_SUCCESS) lost (fault switch)`);
    // A void of it is lost too; the late delivery sends the payment as it is now (voided), once.
    await maya.voidPayment(lost.id, { reason: 'test' });
    await maya.createWebhook({ name: 'VOIDED', callbackUrl: 'http://127.0.0.1/nowhere/webhook' });
    expect(await releaseLostWebhooks(server.db)).toBe(1);
    await sandboxSettled(server.db);
    expect(deliveries(lost.id)).toBe(1);
    // Released once: nothing is left to send.
    expect((await server.call('POST', '/sandbox/maya/_faults/webhooks/release')).json).toEqual({ released: 0 });
  });
});

describe('over real HTTP', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it('a timed-out answer is a dropped connection: the client sees it closed at once', { timeout: 60_000 }, async () => {
    const port = await new Promise<number>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const db = await openTestDatabase();
    const gatewayConfig = defaultGatewayConfig(port);
    const hono = createApp({ devModules, gatewayConfig, db, tokens: createTokens(db, randomBytes(32)), log: () => {}, publicBaseUrl: `http://127.0.0.1:${port}`, devRoutes: 'local' });
    const listening = serve({ fetch: hono.fetch, port, hostname: '127.0.0.1' });
    stop = async () => {
      (listening as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise((resolve) => listening.close(resolve));
      await db.close();
    };
    const client = createMayaClient({ ...gatewayConfig, timeoutMs: 10_000 });
    const customer = (await db.query<{ customer_id: string }>('SELECT customer_id FROM sandbox_cards WHERE card_token_id = $1', [CARD])).rows[0]!.customer_id;
    await setSandboxFaults(db, { faults: [{ on: 'charge', mode: 'charge-then-timeout', times: 1 }] });
    const started = Date.now();
    const error = await failure(client.payWithCard(customer, CARD, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: 'SB-FAULT-HTTP', redirectUrl }));
    expect([error!.status, error!.code]).toEqual([0, 'UNREACHABLE']);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await db.query<{ status: string }>(`SELECT status FROM sandbox_payments WHERE request_reference_number = 'SB-FAULT-HTTP'`)).rows).toEqual([{ status: 'PAYMENT_SUCCESS' }]);
    // The server itself is unharmed: the next call is answered.
    expect((await client.getPaymentsByReference('SB-FAULT-HTTP')).map((p) => p.status)).toEqual(['PAYMENT_SUCCESS']);
  });
});
