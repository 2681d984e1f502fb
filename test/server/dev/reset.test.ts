/** POST /dev/reset: the demo accounts as seeded again (what the browser tests start from). */
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/helpers';
import { CONSENT } from '../support/consent';

const V1 = '/api/v1/mobile';
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
}, 120_000);

describe('POST /dev/reset', () => {
  it('undoes a cancel, a moved clock and the sessions, and seeds the four accounts again', async () => {
    const token = (await server.signIn('premium@example.com')).json.data.accessToken as string;
    const status = async (t: string) => (await server.call('GET', `${V1}/subscription/status`, { token: t })).json.data;
    const { subscriptionId } = await status(token);
    expect((await server.call('POST', `${V1}/subscription/cancel`, { token, body: { subscriptionId } })).status).toBe(200);
    expect((await status(token)).status).toBe('CANCELED');
    expect((await server.call('POST', '/dev/clock', { body: { now: '2030-01-01T00:00:00Z' } })).status).toBe(200);

    const reset = await server.call('POST', '/dev/reset');
    expect(reset.status).toBe(200);

    expect((await server.call('GET', `${V1}/subscription/status`, { token })).status).toBe(401);
    expect((await server.call('GET', '/dev/clock')).json.data.source).toBe('system');
    const fresh = (await server.signIn('premium@example.com')).json.data.accessToken as string;
    expect(await status(fresh)).toMatchObject({ status: 'ACTIVE', planType: 'PREMIUM', paymentMethod: 'MAYA_VAULT' });
    for (const email of ['free@example.com', 'canceled@example.com', 'voucher@example.com']) {
      expect((await server.signIn(email)).status).toBe(200);
    }
  });

  it('is a dev route: another machine gets 404', async () => {
    expect((await server.call('POST', '/dev/reset', { client: '203.0.113.9' })).status).toBe(404);
  });
});

describe('POST /dev/reset and the sandbox', () => {
  it('leaves premium@ chargeable: the seeded card exists on the sandbox again after a reset', async () => {
    expect((await server.call('POST', '/dev/reset')).status).toBe(200);
    expect((await server.call('POST', '/dev/reset')).status).toBe(200);
    const token = (await server.signIn('premium@example.com')).json.data.accessToken as string;
    const { subscriptionId } = (await server.call('GET', `${V1}/subscription/status`, { token })).json.data;
    const changed = await server.call('POST', `${V1}/subscription/update-plan`, { token, body: { ...CONSENT, subscriptionId, planId: 2 } });
    expect(changed.status).toBe(200);
    expect((await server.call('GET', `${V1}/subscription/status`, { token })).json.data.planId).toBe(2);
  });
});
