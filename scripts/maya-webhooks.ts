/**
 * `npm run maya:webhooks [-- --prune]` (issue 17): registers or updates our callback URL at Maya for
 * every event the API settles on (server/gateway/webhookRegistrations.ts), and says per event what it
 * did: created, updated or unchanged. Idempotent: run it again and every line says unchanged.
 *
 * It reads the same settings as the server: MAYA_BASE_URL, MAYA_PUBLIC_KEY, MAYA_SECRET_KEY and
 * PUBLIC_BASE_URL (the address Maya calls back). Without MAYA_BASE_URL it talks to the local sandbox
 * of a running `npm start` (PORT, 8080 by default). No key is ever printed. `--prune` also deletes
 * registrations of events we do not listen to.
 */
import { createMayaClient, GatewayError } from '../server/gateway/maya';
import { syncWebhooks, webhookCallbackUrl } from '../server/gateway/webhookRegistrations';
import { readSettings } from '../server/settings';

const settings = readSettings(process.env);
const gateway = createMayaClient({ baseUrl: settings.gateway.baseUrl, publicKey: settings.gateway.publicKey, secretKey: settings.gateway.secretKey });
const callbackUrl = webhookCallbackUrl(settings.publicBaseUrl);
const where = process.env.MAYA_BASE_URL ? settings.gateway.baseUrl : `the local sandbox (${settings.gateway.baseUrl}; npm start must be running)`;

console.info(`Maya webhooks at ${where} → ${callbackUrl}`);
try {
  const changes = await syncWebhooks(gateway, callbackUrl, { prune: process.argv.includes('--prune') });
  for (const change of changes) console.info(`  ${change.name.padEnd(18)} ${change.action}${change.action.includes('deleted') ? ` (${change.callbackUrl})` : ''}`);
  const changed = changes.filter((c) => c.action !== 'unchanged').length;
  console.info(changed ? `${changed} change(s) made.` : 'Nothing to change.');
} catch (error) {
  const reason = error instanceof GatewayError ? `${error.status || 'unreachable'} ${error.code}: ${error.message}` : String(error);
  console.error(`Could not sync the webhooks: ${reason}`);
  process.exit(1);
}
