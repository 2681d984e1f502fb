/**
 * Issue 11 "Also": arbitrary JSON values, strings of every Unicode category and wrong types sent to
 * every JSON endpoint the app has: always the envelope with a 2xx or 4xx, never a 5xx, never a hang.
 * Endpoints are read from the app's own route table, so new endpoints are fuzzed too.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/helpers';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn('premium@example.com')).json.data.accessToken;
});

/** Any string, with characters drawn from every plane and category (controls, surrogates, bidi, emoji). */
const anyString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom('\u0000', '\u0007', '\t', '\n', '\u007f', '\u0085', '\u200b', '\u202e', '\ufeff', '\ud800', '\udfff', '\uffff', 'a', '@', '.', ' ') }),
);
const anyValue = fc.oneof(fc.jsonValue(), anyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(anyString));
/** Objects with the keys the contract uses, holding values of any type. */
const KEYS = ['email', 'password', 'passwordConfirm', 'confirmPassword', 'firstName', 'middleName', 'lastName', 'birthdate', 'otpCode',
  'verificationToken', 'verifyToken', 'resetToken', 'token', 'oldPassword', 'newPassword', 'confirmNewPassword', 'redirectUrl', 'code',
  'subscriptionId', 'planId', 'paymentMethod', 'cardToken', 'linkId', 'idToken', 'isDefault', 'now', 'newEmail'];
const contractShaped = fc.dictionary(fc.constantFrom(...KEYS), anyValue, { maxKeys: 8 });
/** Valid bodies of the endpoints we know, so that one odd field reaches past the first check. */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  '/api/v1/mobile/auth/sign-in-email': { email: 'fuzz@example.com', password: 'Lami-kaayo-2026' },
  '/api/v1/mobile/auth/sign-up': {
    email: 'fuzz@example.com', password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026', firstName: 'Nena', lastName: 'Cabahug', birthdate: '1995-03-14',
  },
  '/api/v1/mobile/auth/forgot/send-otp': { email: 'fuzz@example.com' },
  '/api/v1/mobile/account/profile': { firstName: 'Juan', middleName: 'M', lastName: 'Dela Cruz' },
  '/dev/login-link': { email: 'free@example.com', redirectUrl: '/account' },
  // Issue 36: the change of email and its undo.
  '/api/v1/mobile/account/email/change': { password: 'Bisaya-Demo-2026', newEmail: 'fuzz-moved@example.com' },
  '/api/v1/mobile/account/email/change/verify': { verificationToken: 'vt', otpCode: 'ABC123' },
  '/api/v1/mobile/auth/email/undo': { token: 'undo-token' },
};
/** A known valid body with one field replaced by anything (or the whole body by a stray shape). */
const bodyFor = (path: string) => {
  const example = EXAMPLES[path] ?? {};
  const keys = Object.keys(example);
  return fc.oneof(
    ...(keys.length > 0 ? [fc.tuple(fc.constantFrom(...keys), anyValue).map(([key, value]) => JSON.stringify({ ...example, [key]: value }))] : []),
    contractShaped.map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    anyString, // not JSON at all, or JSON of a wrong type
  );
};

const jsonEndpoints = () => {
  const seen = new Set<string>();
  return server.app.routes
    .filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.path.endsWith('/photo'))
    .map((r) => ({ method: r.method, path: r.path.replace(/:[^/]+/g, 'x') }))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && Boolean(seen.add(`${r.method} ${r.path}`)));
};

describe('every JSON endpoint under arbitrary input', () => {
  it('is found in the route table', () => {
    const paths = jsonEndpoints().map((e) => `${e.method} ${e.path}`);
    expect(paths).toContain('POST /api/v1/mobile/auth/sign-in-email');
    expect(paths).toContain('PUT /api/v1/mobile/account/profile');
    expect(paths).toContain('POST /dev/login-link');
    expect(paths).toContain('POST /api/v1/mobile/account/email/change');
    expect(paths).toContain('POST /api/v1/mobile/auth/email/undo');
    expect(paths).toContain('POST /api/v1/mobile/account/sessions/sign-out-others');
  });

  it('answers the envelope with a 2xx or 4xx, never a 5xx', async () => {
    for (const endpoint of jsonEndpoints()) {
      await fc.assert(
        fc.asyncProperty(bodyFor(endpoint.path), fc.boolean(), async (raw, withToken) => {
          const response = await server.app.request(endpoint.path, {
            method: endpoint.method,
            headers: { 'Content-Type': 'application/json', ...(withToken ? { Authorization: `Bearer ${token}` } : {}) },
            body: raw,
          }, `198.51.100.${raw.length % 250}`);
          expect(response.status, `${endpoint.method} ${endpoint.path} ${JSON.stringify(raw)}`).toBeLessThan(500);
          const json = (await response.json()) as { success: unknown; message: unknown };
          expect(typeof json.success).toBe('boolean');
          expect(typeof json.message).toBe('string');
        }),
        { numRuns: 40 },
      );
    }
  }, 120_000);

  it('answers odd query strings on the mailbox with the envelope, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(anyString, async (to) => {
        const response = await server.app.request(`/dev/mailbox.json?${new URLSearchParams({ to }).toString()}`);
        expect(response.status).toBeLessThan(500);
      }),
      { numRuns: 100 },
    );
  });
});
