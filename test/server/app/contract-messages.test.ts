/**
 * The contract is on zod/mini, which has no default locale; the server loads zod's English messages
 * (server/platform/http.ts), so a rule without a message of its own still answers in words, as it did with
 * classic zod, never a bare 'Invalid input'.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer } from '../support/billing-helpers';

let server: BillingServer;
beforeAll(async () => {
  server = await startBillingServer();
}, SERVER_START_TIMEOUT_MS);

describe("the server's messages for rules without their own", () => {
  it('are zod English text, not Invalid input', async () => {
    const answers = [
      [await server.as('premium@example.com').post('/subscription/update-plan', { subscriptionId: 'x', planId: -1 }), 'Too small: expected number to be >0'],
      [await server.as('premium@example.com').post('/subscription/update-payment-method', { subscriptionId: 'x', paymentMethod: 'CASH' }), 'Invalid option: expected one of "MAYA_VAULT"|"MAYA_WALLET"|"MAYA_CHECKOUT"'],
    ] as const;
    for (const [answer, message] of answers) {
      expect(answer.status).toBe(400);
      expect(answer.json.message).toBe(message);
    }
  });
});
