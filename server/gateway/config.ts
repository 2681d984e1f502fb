/** Where the gateway client points, with which keys, and how webhooks are checked. */
import type { WebhookCheck } from './webhook';

/** The local sandbox's own API keys (like Maya's published sandbox keys, they guard nothing secret). */
export const SANDBOX_PUBLIC_KEY = 'pk-sandbox-sine-bisaya-local';
export const SANDBOX_SECRET_KEY = 'sk-sandbox-sine-bisaya-local';
export const SANDBOX_PATH = '/sandbox/maya';
export const WEBHOOK_PATH = '/api/v1/mobile/payment/webhook/maya';
export const MERCHANT_NAME = 'Sine Bisaya';

export interface GatewayConfig {
  /** Maya's API root, or the local sandbox's (default). */
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /**
   * How a webhook is believed to come from Maya: its public keys and source addresses. For the local
   * sandbox, the sandbox's own public key (the start-up reads it from the database) and any address.
   */
  webhook: WebhookCheck;
  /** Where the local sandbox delivers a webhook no registration names (the API's own endpoint). */
  webhookUrl: string;
  /** Injected by tests (a fetch that calls app.request); the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** True when the gateway is the local sandbox (not Maya). */
export const isLocalSandbox = (config: Pick<GatewayConfig, 'publicKey'>) => config.publicKey === SANDBOX_PUBLIC_KEY;

/** The local sandbox on this machine's loopback address, so the dev-route gate lets the server in. */
export function defaultGatewayConfig(port: number, webhookPublicKeys: string[] = []): GatewayConfig {
  const origin = `http://127.0.0.1${port ? `:${port}` : ''}`;
  return {
    baseUrl: `${origin}${SANDBOX_PATH}`,
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    webhook: { publicKeys: webhookPublicKeys, allowedIps: [] },
    webhookUrl: `${origin}${WEBHOOK_PATH}`,
  };
}
