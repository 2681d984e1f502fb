/**
 * `npm run maya:contract` (issue 17): runs every call our Maya client makes (server/gateway/maya.ts)
 * against a Maya API and checks each answer's shape with the client's own schemas (a call whose answer
 * does not parse fails with BAD_RESPONSE). One line per call: ok, FAILED with the reason, or skipped
 * with the reason. Exits 1 if any call failed.
 *
 * - Without MAYA_BASE_URL it starts the API on CONTRACT_PORT (4292) with an in-memory database and
 *   runs against its local sandbox; the steps a person takes on Maya's hosted pages (confirming a card,
 *   linking a wallet) are taken by posting the page's form, as the browser tests do. CI runs this.
 * - With MAYA_BASE_URL, MAYA_PUBLIC_KEY and MAYA_SECRET_KEY (e.g. Maya's sandbox,
 *   https://pg-sandbox.paymaya.com) it runs against that; steps that need a person on a hosted page
 *   are reported as skipped, with what to do by hand. It changes no webhook registration there (only
 *   lists them) and voids what it charges. This is how the first run against Maya's sandbox is done.
 *   No key is printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { SANDBOX_PATH, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../server/gateway/config';
import { createMayaClient, GatewayError, VERIFIED_CARD, type Gateway } from '../server/gateway/maya';

const root = resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const remote = Boolean(process.env.MAYA_BASE_URL);

/** Maya's published sandbox test card that approves without 3-D Secure (README, "Payments"). */
const TEST_CARD = { number: '5123456789012346', expMonth: '12', expYear: '2030', cvc: '111' };

const CUSTOMER = { firstName: 'Juan', lastName: 'Dela Cruz', contact: { email: 'contract@example.com' } };

class Skip extends Error {}
const skip = (reason: string): never => {
  throw new Skip(reason);
};

async function startLocalApi(port: number): Promise<{ origin: string; child: ChildProcess }> {
  const origin = `http://127.0.0.1:${port}`;
  if (await fetch(`${origin}/app-config.json`).then(() => true, () => false)) {
    console.error(`Something already answers on port ${port}: set CONTRACT_PORT to a free port.`);
    process.exit(1);
  }
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: ':memory:', DEV_ROUTES: 'local', SERVE_SPA: 'false' };
  for (const name of Object.keys(env)) if (name.startsWith('MAYA_')) delete env[name];
  const child = spawn(process.execPath, [resolve(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; ; i++) {
    if (await fetch(`${origin}/app-config.json`).then((r) => r.ok, () => false)) return { origin, child };
    if (i > 600 || child.exitCode !== null) throw new Error('The API did not start');
    await sleep(200);
  }
}

/** A person pressing "approve" on a hosted page of the local sandbox (its form posts to the page's own address). */
async function approveOnPage(url: string) {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve', redirect: 'manual' });
  if (response.status >= 400) throw new Error(`the hosted page answered ${response.status}`);
}

async function main() {
  let local: { origin: string; child: ChildProcess } | null = null;
  let gateway: Gateway;
  let where: string;
  if (remote) {
    // Only the address and the keys: the webhook settings the server needs play no part here.
    const { MAYA_BASE_URL: baseUrl, MAYA_PUBLIC_KEY: publicKey, MAYA_SECRET_KEY: secretKey } = process.env;
    if (!baseUrl || !/^https?:\/\//.test(baseUrl) || !publicKey || !secretKey) {
      throw new Error('MAYA_BASE_URL must be an http(s) address, with MAYA_PUBLIC_KEY and MAYA_SECRET_KEY');
    }
    gateway = createMayaClient({ baseUrl, publicKey, secretKey });
    where = baseUrl.replace(/\/+$/, '');
  } else {
    local = await startLocalApi(Number(process.env.CONTRACT_PORT ?? 4292));
    gateway = createMayaClient({ baseUrl: `${local.origin}${SANDBOX_PATH}`, publicKey: SANDBOX_PUBLIC_KEY, secretKey: SANDBOX_SECRET_KEY });
    where = `the local sandbox (${local.origin}${SANDBOX_PATH})`;
  }
  console.info(`Maya contract against ${where}`);

  const back = local ? `${local.origin}/payment` : 'https://example.com/payment';
  const redirectUrl = { success: `${back}?status=success`, failure: `${back}?status=failed`, cancel: `${back}?status=canceled` };
  const rrn = () => `SB-CONTRACT-${randomUUID().slice(0, 8).toUpperCase()}`;
  const state: Record<string, string> = {};
  const results = { ok: 0, failed: 0, skipped: 0 };

  async function step(name: string, run: () => Promise<string | void>) {
    try {
      const note = await run();
      results.ok++;
      console.info(`  ok       ${name}${note ? `: ${note}` : ''}`);
    } catch (error) {
      if (error instanceof Skip) {
        results.skipped++;
        console.info(`  skipped  ${name}: ${error.message}`);
        return;
      }
      results.failed++;
      const reason = error instanceof GatewayError ? `${error.status || 'unreachable'} ${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
      console.info(`  FAILED   ${name}: ${reason}`);
    }
  }
  const need = (...keys: string[]) => {
    for (const key of keys) if (!state[key]) skip(`needs ${key} from an earlier step`);
  };
  const human = (what: string) => (remote ? skip(`a person must ${what}; the steps that need it are skipped`) : undefined);

  await step('POST /checkout/v1/checkouts', async () => {
    const value = 99;
    const created = await gateway.createCheckout({
      totalAmount: { value, currency: 'PHP' }, buyer: { firstName: 'Juan', lastName: 'Dela Cruz', contact: { email: 'contract@example.com' } },
      items: [{ name: 'Sine Bisaya Monthly', quantity: 1, code: 'monthly', description: 'Contract test', amount: { value }, totalAmount: { value } }],
      redirectUrl, requestReferenceNumber: rrn(), metadata: { contract: true },
    });
    state.checkoutId = created.checkoutId;
    return `checkoutId and redirectUrl`;
  });
  await step('GET /checkout/v1/checkouts/{id}', async () => {
    need('checkoutId');
    const checkout = await gateway.getCheckout(state.checkoutId!);
    return `status ${checkout.status}, paymentStatus ${checkout.paymentStatus}`;
  });
  await step('POST /payments/v1/payment-tokens', async () => {
    state.paymentTokenId = (await gateway.createPaymentToken(TEST_CARD)).paymentTokenId;
  });
  await step('POST /payments/v1/customers', async () => {
    state.customerId = (await gateway.createCustomer(CUSTOMER)).id;
  });
  await step('POST /payments/v1/customers/{id}/cards', async () => {
    need('customerId', 'paymentTokenId');
    const card = await gateway.addCustomerCard(state.customerId!, { paymentTokenId: state.paymentTokenId!, isDefault: true, redirectUrl, requestReferenceNumber: rrn() });
    state.cardTokenId = card.cardTokenId;
    if (card.verificationUrl) state.verificationUrl = card.verificationUrl;
    return `state ${card.state}${card.verificationUrl ? ', verificationUrl' : ''}`;
  });
  await step('card verification (hosted 3-D Secure page)', async () => {
    need('verificationUrl');
    human(`confirm the card on Maya's page (its verificationUrl)`);
    await approveOnPage(state.verificationUrl!);
  });
  await step('GET /payments/v1/customers/{id}/cards', async () => {
    need('customerId');
    const cards = await gateway.listCustomerCards(state.customerId!);
    const card = cards.find((c) => c.cardTokenId === state.cardTokenId);
    if (!card) throw new Error('the saved card is not listed');
    if (card.state === VERIFIED_CARD) state.verified = 'yes';
    return `${cards.length} card(s), ours ${card.state}`;
  });
  const payByCard = async (key: string) => {
    need('customerId', 'cardTokenId', 'verified');
    const reference = rrn();
    const payment = await gateway.payWithCard(state.customerId!, state.cardTokenId!, { totalAmount: { amount: 99, currency: 'PHP' }, requestReferenceNumber: reference, redirectUrl });
    state[key] = payment.id;
    state[`${key}Reference`] = reference;
    return `status ${payment.status}`;
  };
  await step('POST /payments/v1/customers/{id}/cards/{token}/payments', () => payByCard('paymentId'));
  await step('GET /payments/v1/payments/{id}', async () => {
    need('paymentId');
    return `status ${(await gateway.getPayment(state.paymentId!)).status}`;
  });
  await step('GET /payments/v1/payment-rrns/{rrn}', async () => {
    need('paymentId');
    const found = await gateway.getPaymentsByReference(state.paymentIdReference!);
    if (!found.some((p) => p.id === state.paymentId)) throw new Error('the payment is not found by its reference number');
    return `${found.length} payment(s)`;
  });
  await step('POST /payments/v1/payments/{id}/voids', async () => {
    need('paymentId');
    return `status ${(await gateway.voidPayment(state.paymentId!, { reason: 'Sine Bisaya contract test' })).status ?? '?'}`;
  });
  await step('POST /payments/v1/payments/{id}/refunds', async () => {
    await payByCard('refundedId');
    try {
      return `status ${(await gateway.refundPayment(state.refundedId!, { totalAmount: { amount: 99, currency: 'PHP' }, reason: 'Sine Bisaya contract test' })).status ?? '?'}`;
    } catch (error) {
      // Maya refunds only a settled payment (after the day it was made); before that it answers with a
      // coded refusal, which is the documented shape too. The payment is voided instead.
      if (error instanceof GatewayError && error.status >= 400 && error.status < 500 && error.code) {
        await gateway.voidPayment(state.refundedId!, { reason: 'Sine Bisaya contract test' });
        return `refused as documented (${error.code}: ${error.message}); voided instead`;
      }
      throw error;
    }
  });
  // Last of the card steps (issue 36): an erased account's cards are deleted at Maya.
  await step('DELETE /payments/v1/customers/{id}/cards/{token}', async () => {
    need('customerId', 'cardTokenId');
    await gateway.deleteCustomerCard(state.customerId!, state.cardTokenId!);
    const left = await gateway.listCustomerCards(state.customerId!);
    if (left.some((c) => c.cardTokenId === state.cardTokenId)) throw new Error('the deleted card is still listed');
    return `${left.length} card(s) left`;
  });
  await step('POST /payby/v2/paymaya/link', async () => {
    const link = await gateway.createWalletLink({ redirectUrl, requestReferenceNumber: rrn() });
    state.linkId = link.linkId;
    state.linkPage = link.redirectUrl;
  });
  await step('wallet link (hosted Maya login page)', async () => {
    need('linkPage');
    human('sign in to a Maya sandbox wallet on the link page');
    await approveOnPage(state.linkPage!);
    state.linkApproved = 'yes';
  });
  await step('GET /payby/v2/paymaya/link/{id}', async () => {
    need('linkId', 'linkApproved');
    const link = await gateway.getWalletLink(state.linkId!);
    if (link.card?.state) state.linked = String(link.card.state);
    return `card state ${String(link.card?.state ?? 'none')}`;
  });
  await step('POST /payby/v2/paymaya/link/{id}/execute', async () => {
    need('linkId', 'linked');
    const payment = await gateway.payWithWalletLink(state.linkId!, { totalAmount: { value: 99, currency: 'PHP' }, requestReferenceNumber: rrn() });
    if (payment.id) await gateway.voidPayment(payment.id, { reason: 'Sine Bisaya contract test' }).catch(() => undefined);
    return `status ${payment.status}`;
  });
  await step('DELETE /payby/v2/paymaya/link/{id}', async () => {
    need('linkId', 'linkApproved');
    await gateway.deleteWalletLink(state.linkId!);
  });
  await step('GET /checkout/v1/webhooks', async () => `${(await gateway.listWebhooks()).length} registration(s)`);
  await step('POST, PUT, DELETE /checkout/v1/webhooks', async () => {
    if (remote) skip('registrations at Maya are changed only by npm run maya:webhooks');
    const created = await gateway.createWebhook({ name: 'CHECKOUT_DROPOUT', callbackUrl: 'https://example.com/a' });
    const updated = await gateway.updateWebhook(created.id, { name: 'CHECKOUT_DROPOUT', callbackUrl: 'https://example.com/b' });
    if (updated.callbackUrl !== 'https://example.com/b') throw new Error('the update did not take');
    await gateway.deleteWebhook(created.id);
  });

  console.info(`${results.ok} ok, ${results.failed} failed, ${results.skipped} skipped`);
  if (local) {
    local.child.kill('SIGTERM');
    await new Promise((r) => local!.child.once('exit', r));
  }
  return results.failed === 0;
}

const passed = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  return false;
});
process.exit(passed ? 0 : 1);
