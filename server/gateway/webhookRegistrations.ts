/**
 * Our callback registrations at Maya (`/checkout/v1/webhooks`), kept as they should be: one per event
 * we settle on, each pointing at the API's webhook address. `syncWebhooks` is idempotent: a second run
 * changes nothing. It never deletes a registration of an event we do not listen to unless asked
 * (`prune`), since the merchant account may serve other apps.
 */
import { WEBHOOK_PATH } from './config';
import type { Gateway } from './maya';

/**
 * The events the API settles on (server/billing/settlement.ts asks Maya about each anyway). Maya's
 * documentation lists these names for payments; it is silent on void and refund events, so none is
 * registered for them (a reversal is read back by the API that made it).
 */
export const WEBHOOK_EVENTS = ['PAYMENT_SUCCESS', 'PAYMENT_FAILED', 'PAYMENT_EXPIRED', 'PAYMENT_CANCELLED', 'AUTHORIZED'] as const;

export type WebhookAction = 'created' | 'updated' | 'unchanged' | 'deleted';

export interface WebhookChange {
  name: string;
  action: WebhookAction;
  callbackUrl: string;
}

/** The API's webhook address for a public base URL ('https://sinebisaya.ph' → '.../payment/webhook/maya'). */
export const webhookCallbackUrl = (publicBaseUrl: string) => `${publicBaseUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`;

export async function syncWebhooks(
  gateway: Pick<Gateway, 'listWebhooks' | 'createWebhook' | 'updateWebhook' | 'deleteWebhook'>,
  callbackUrl: string,
  options: { prune?: boolean; events?: readonly string[] } = {},
): Promise<WebhookChange[]> {
  const events = options.events ?? WEBHOOK_EVENTS;
  const existing = await gateway.listWebhooks();
  const changes: WebhookChange[] = [];
  for (const name of events) {
    // One registration per event name (Maya, like the sandbox, refuses a second of the same name).
    const first = existing.find((hook) => hook.name === name);
    if (!first) {
      await gateway.createWebhook({ name, callbackUrl });
      changes.push({ name, action: 'created', callbackUrl });
    } else if (first.callbackUrl !== callbackUrl) {
      await gateway.updateWebhook(first.id, { name, callbackUrl });
      changes.push({ name, action: 'updated', callbackUrl });
    } else {
      changes.push({ name, action: 'unchanged', callbackUrl });
    }
  }
  if (options.prune) {
    for (const hook of existing.filter((h) => !events.includes(h.name))) {
      await gateway.deleteWebhook(hook.id);
      changes.push({ name: hook.name, action: 'deleted', callbackUrl: hook.callbackUrl });
    }
  }
  return changes;
}
