/**
 * The back office in tests (issue 35): a billing test server with operators. `operator(email, role)`
 * makes one (POST /dev/operators), signs in, enrols in TOTP with a code computed here from the secret,
 * and answers its ops token, its secret and recovery codes, and calls as it.
 */
import * as OTPAuth from 'otpauth';
import { OPS } from '../../../src/api/ops/schemas';
import { startBillingServer, type BillingServer } from './billing-helpers';

export const totpCode = (secret: string, atMs = Date.now()) =>
  OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: atMs });

export interface TestOperator {
  email: string;
  userId: string;
  accessToken: string;
  opsToken: string;
  secret: string;
  recoveryCodes: string[];
  get: (path: string) => ReturnType<BillingServer['call']>;
  post: (path: string, body?: unknown) => ReturnType<BillingServer['call']>;
}

export async function startOpsServer() {
  const server = await startBillingServer();
  let made = 0;
  const as = (token: string) => ({
    get: (path: string) => server.call('GET', `${OPS}${path}`, { token }),
    post: (path: string, body: unknown = {}) => server.call('POST', `${OPS}${path}`, { token, body }),
  });
  const operator = async (role: 'support' | 'finance' | 'admin', email = `op${++made}-${role}-${Date.now()}@example.com`): Promise<TestOperator> => {
    const granted = await server.call('POST', '/dev/operators', { body: { email, role } });
    if (granted.status !== 200) throw new Error(`operator: ${granted.status} ${granted.json?.message}`);
    const signIn = await server.signIn(email);
    const accessToken = signIn.json.data.accessToken as string;
    const viewer = as(accessToken);
    const enrol = await viewer.post('/enrol');
    if (enrol.status !== 200) throw new Error(`enrol: ${enrol.status} ${enrol.json?.message}`);
    const secret = enrol.json.data.secret as string;
    const confirmed = await viewer.post('/enrol/confirm', { code: totpCode(secret) });
    if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.json?.message}`);
    const opsToken = confirmed.json.data.session.opsToken as string;
    return {
      email, userId: granted.json.data.userId as string, accessToken, opsToken, secret, recoveryCodes: confirmed.json.data.recoveryCodes as string[],
      ...as(opsToken),
    };
  };
  return { ...server, operator, opsAs: as };
}

export type OpsServer = Awaited<ReturnType<typeof startOpsServer>>;
