import { beforeAll, describe, expect, it } from 'vitest';
import { authResultSchema, profileSchema } from '../../../src/api/schemas';
import { startTestServer } from '../support/helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});

describe('POST /api/v1/mobile/auth/sign-in-email', () => {
  it('signs a seeded account in with tokens and the user of the contract', async () => {
    const { status, json } = await server.signIn('free@example.com');
    expect(status).toBe(200);
    expect(json.success).toBe(true);
    const result = authResultSchema.parse(json.data);
    expect(result.user.email).toBe('free@example.com');
    expect(result.user.subscription?.planType).toBe('FREE');
    expect(result.accessToken.split('.')).toHaveLength(3);
    expect(JSON.stringify(json)).not.toMatch(/scrypt|passwordHash|password_hash|Bisaya-Demo/);
  });

  it('treats the email case-insensitively', async () => {
    expect((await server.signIn('Free@Example.com')).status).toBe(200);
  });

  it('refuses a wrong password and an unknown email with the same message', async () => {
    const wrong = await server.signIn('premium@example.com', 'not-it');
    const unknown = await server.signIn('nobody@example.com', 'not-it');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual({ success: false, message: 'Invalid email or password', data: null });
    expect(unknown.json).toEqual(wrong.json);
  });

  it('validates the body with the shared messages', async () => {
    const empty = await server.call('POST', '/api/v1/mobile/auth/sign-in-email', { body: { email: '', password: '' } });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe('Email is required');
    const noPassword = await server.call('POST', '/api/v1/mobile/auth/sign-in-email', { body: { email: 'a@b.co' } });
    expect(noPassword.json.message).toBe('Password is required');
  });

  it('answers a malformed body with a 400 in the envelope, never a crash', async () => {
    const bad = await server.call('POST', '/api/v1/mobile/auth/sign-in-email', { raw: '{"email": ' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ success: false, message: 'The request body must be valid JSON.', data: null });
    const array = await server.call('POST', '/api/v1/mobile/auth/sign-in-email', { raw: '[1,2]' });
    expect(array.status).toBe(400);
  });

  it('refuses bodies over the limit with 413', async () => {
    const huge = await server.call('POST', '/api/v1/mobile/auth/sign-in-email', { body: { email: 'a@b.co', password: 'x'.repeat(70_000) } });
    expect(huge.status).toBe(413);
    expect(huge.json.success).toBe(false);
  });
  // Throttling (growing delays, never an hour's lock): test/server/identity/throttle.test.ts.
});

describe('GET /api/v1/mobile/account/profile', () => {
  it('reads the profile of the signed-in account', async () => {
    const { json } = await server.signIn('premium@example.com');
    const profile = await server.call('GET', '/api/v1/mobile/account/profile', { token: json.data.accessToken });
    expect(profile.status).toBe(200);
    expect(profileSchema.parse(profile.json.data)).toMatchObject({ firstName: 'Juan', lastName: 'Dela Cruz', email: 'premium@example.com' });
  });
  it('answers 401 without a token or with a forged one', async () => {
    expect((await server.call('GET', '/api/v1/mobile/account/profile')).status).toBe(401);
    const forged = await server.call('GET', '/api/v1/mobile/account/profile', { token: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' });
    expect(forged.status).toBe(401);
    expect(forged.json.success).toBe(false);
  });
});
