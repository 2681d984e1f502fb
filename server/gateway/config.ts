/** Where the gateway client points, with which keys, and how the sandbox reaches the API's webhook. */
import { randomBytes } from 'node:crypto';

/** The local sandbox's own keys (like Maya's published sandbox keys, they guard nothing secret). */
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
  /** Shared by the sandbox (signs) and the API (verifies). */
  webhookSecret: string;
  /** Where the local sandbox delivers its webhooks (the API's webhook endpoint). */
  webhookUrl: string;
  /** Injected by tests (a fetch that calls app.request); the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** The local sandbox on this machine's loopback address, so the dev-route gate lets the server in. */
export function defaultGatewayConfig(port: number, webhookSecret = randomBytes(32).toString('hex')): GatewayConfig {
  const origin = `http://127.0.0.1${port ? `:${port}` : ''}`;
  return {
    baseUrl: `${origin}${SANDBOX_PATH}`,
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    webhookSecret,
    webhookUrl: `${origin}${WEBHOOK_PATH}`,
  };
}
