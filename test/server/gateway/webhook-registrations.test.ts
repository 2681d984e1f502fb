/**
 * `npm run maya:webhooks` (server/gateway/webhookRegistrations.ts) against the sandbox's
 * /checkout/v1/webhooks: creates what is missing, updates what points elsewhere, and a second run
 * changes nothing; others' events are kept unless pruned.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { createMayaClient, type Gateway } from '../../../server/gateway/maya';
import { syncWebhooks, WEBHOOK_EVENTS, webhookCallbackUrl } from '../../../server/gateway/webhookRegistrations';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startTestServer } from '../support/helpers';

let gateway: Gateway;
beforeAll(async () => {
  const server = await startTestServer();
  gateway = createMayaClient({ ...defaultGatewayConfig(0), fetch: ((input: RequestInfo | URL, init?: RequestInit) => server.app.request(String(input), init)) as typeof fetch });
}, SERVER_START_TIMEOUT_MS);

describe('syncWebhooks', () => {
  it('registers every event once, fixes what differs, and is idempotent', async () => {
    const url = webhookCallbackUrl('https://sinebisaya.example/');
    expect(url).toBe('https://sinebisaya.example/api/v1/mobile/payment/webhook/maya');
    // One event registered elsewhere (an old address), and an event we do not listen to.
    await gateway.createWebhook({ name: 'PAYMENT_SUCCESS', callbackUrl: 'https://old.example/hook' });
    await gateway.createWebhook({ name: 'CHECKOUT_DROPOUT', callbackUrl: 'https://other-app.example/hook' });

    const first = await syncWebhooks(gateway, url);
    expect(first.filter((c) => c.name === 'PAYMENT_SUCCESS').map((c) => c.action)).toEqual(['updated']);
    expect(first.filter((c) => c.name !== 'PAYMENT_SUCCESS').map((c) => c.action)).toEqual(WEBHOOK_EVENTS.slice(1).map(() => 'created'));
    const registered = await gateway.listWebhooks();
    for (const name of WEBHOOK_EVENTS) expect(registered.filter((h) => h.name === name).map((h) => h.callbackUrl)).toEqual([url]);
    expect(registered.find((h) => h.name === 'CHECKOUT_DROPOUT')?.callbackUrl).toBe('https://other-app.example/hook');

    const second = await syncWebhooks(gateway, url);
    expect(second.map((c) => c.action)).toEqual(WEBHOOK_EVENTS.map(() => 'unchanged'));
    expect(await gateway.listWebhooks()).toEqual(registered);

    const pruned = await syncWebhooks(gateway, url, { prune: true });
    expect(pruned.filter((c) => c.action !== 'unchanged')).toEqual([{ name: 'CHECKOUT_DROPOUT', action: 'deleted', callbackUrl: 'https://other-app.example/hook' }]);
    expect((await gateway.listWebhooks()).map((h) => h.name).sort()).toEqual([...WEBHOOK_EVENTS].sort());
  });
});
