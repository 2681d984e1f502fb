import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../../src/api/endpoints';
import { ApiError, createHttp } from '../../src/api/http';
import { demoUser } from '../support/render';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

function client(fetchImpl: typeof fetch, token: string | null = 'tok') {
  const onUnauthorized = vi.fn();
  const http = createHttp({ host: 'https://api.test', fetch: fetchImpl, getToken: () => token, onUnauthorized });
  return { api: createApi(http), onUnauthorized };
}

const profile = { firstName: 'Maria', middleName: null, lastName: 'Santos', email: 'free@example.com', photo: null };

describe('the request function (spec §7, §8)', () => {
  it('adds the bearer token and unwraps data', async () => {
    const fetchImpl = vi.fn(async () => json(200, { success: true, message: 'OK', data: profile }));
    const { api } = client(fetchImpl);
    await expect(api.getProfile()).resolves.toEqual(profile);
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.test/api/v1/mobile/account/profile');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
  });
  it('leaves the token off when a call switches authentication off', async () => {
    const fetchImpl = vi.fn(async () => json(200, { success: true, message: 'OK', data: { verifyToken: 'v' } }));
    await client(fetchImpl).api.sendRecoveryCode({ email: 'a@b.co' });
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.co' }));
  });
  it('raises the message when success is false', async () => {
    const { api } = client(async () => json(200, { success: false, message: 'Voucher already used', data: null }));
    await expect(api.redeemVoucher({ code: 'X' })).rejects.toThrow('Voucher already used');
  });
  it("uses the body's message for a non-OK response, or 'Something went wrong'", async () => {
    await expect(client(async () => json(400, { success: false, message: 'Bad code' })).api.getProfile()).rejects.toThrow('Bad code');
    await expect(client(async () => new Response('<html>', { status: 502 })).api.getProfile()).rejects.toThrow('Something went wrong');
  });
  it("reads 'Network error' for a browser's fetch failure (a TypeError), whatever its text", async () => {
    for (const text of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed', '']) {
      await expect(client(async () => { throw new TypeError(text); }).api.getProfile()).rejects.toThrow(/^Network error$/);
    }
  });
  it("keeps the error's own message for other failures, or 'Network error' when it has none", async () => {
    await expect(client(async () => { throw new Error('Proxy refused the request'); }).api.getProfile()).rejects.toThrow('Proxy refused the request');
    await expect(client(async () => { throw new Error('  '); }).api.getProfile()).rejects.toThrow(/^Network error$/);
    await expect(client(async () => { throw 'down'; }).api.getProfile()).rejects.toThrow(/^Network error$/);
  });
  it('tells the session on a 401', async () => {
    const { api, onUnauthorized } = client(async () => json(401, { success: false, message: 'Expired' }));
    await expect(api.getProfile()).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
  it('refuses data that breaks the contract', async () => {
    const { api } = client(async () => json(200, { success: true, message: 'OK', data: { firstName: 1 } }));
    await expect(api.getProfile()).rejects.toThrow('Something went wrong');
  });
  it('sends the photo as multipart without a JSON content type', async () => {
    const fetchImpl = vi.fn(async () => json(200, { success: true, message: 'OK', data: { photo: '/uploads/a.png' } }));
    await client(fetchImpl).api.uploadPhoto(new Blob(['x'], { type: 'image/png' }));
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});

describe('sign-in returns the result instead of throwing (spec §7)', () => {
  it('answers success with the data', async () => {
    const data = { accessToken: 'a', refreshToken: 'r', user: demoUser };
    const { api } = client(async () => json(200, { success: true, message: 'Signed in', data }));
    await expect(api.signIn({ email: 'a@b.co', password: 'p' })).resolves.toEqual({ success: true, message: 'Signed in', data });
  });
  it('answers failure with the server message', async () => {
    const { api } = client(async () => json(401, { success: false, message: 'Invalid email or password' }));
    await expect(api.signIn({ email: 'a@b.co', password: 'p' })).resolves.toEqual({ success: false, message: 'Invalid email or password' });
  });
  it('answers a network failure as a result too', async () => {
    const { api } = client(async () => { throw new TypeError(''); });
    await expect(api.signIn({ email: 'a@b.co', password: 'p' })).resolves.toEqual({ success: false, message: 'Network error' });
  });
});

describe('a read the boot script started early (issue 21)', () => {
  afterEach(() => {
    delete (globalThis as { __sbEarly?: unknown }).__sbEarly;
  });
  const early = (q: Record<string, Promise<{ s: number; b: string }> | undefined>, t = 'tok') => {
    (globalThis as { __sbEarly?: unknown }).__sbEarly = { t, q };
  };
  const sameOrigin = (fetchImpl: typeof fetch, token = 'tok') => {
    const onUnauthorized = vi.fn();
    return { api: createApi(createHttp({ host: '', fetch: fetchImpl, getToken: () => token, onUnauthorized })), onUnauthorized };
  };
  const body = (data: unknown) => JSON.stringify({ success: true, message: 'OK', data });

  it('answers the first read of its address with the same token, and only that one', async () => {
    early({ '/api/v1/mobile/account/profile': Promise.resolve({ s: 200, b: body(profile) }) });
    const fetchImpl = vi.fn(async () => json(200, { success: true, message: 'OK', data: { ...profile, firstName: 'Again' } }));
    const { api } = sameOrigin(fetchImpl);
    await expect(api.getProfile()).resolves.toEqual(profile);
    expect(fetchImpl).not.toHaveBeenCalled();
    await expect(api.getProfile()).resolves.toMatchObject({ firstName: 'Again' });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });
  it('is not used with another token', async () => {
    early({ '/api/v1/mobile/account/profile': Promise.resolve({ s: 200, b: body({ ...profile, firstName: 'Other' }) }) }, 'old-token');
    const fetchImpl = vi.fn(async () => json(200, { success: true, message: 'OK', data: profile }));
    await expect(sameOrigin(fetchImpl).api.getProfile()).resolves.toEqual(profile);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });
  it('reads as any answer: a 401 tells the session, a body that is not JSON is no body', async () => {
    early({ '/api/v1/mobile/account/profile': Promise.resolve({ s: 401, b: JSON.stringify({ success: false, message: 'Expired' }) }) });
    const { api, onUnauthorized } = sameOrigin(vi.fn());
    await expect(api.getProfile()).rejects.toThrow('Expired');
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    early({ '/api/v1/mobile/account/profile': Promise.resolve({ s: 502, b: '<html>' }) });
    await expect(sameOrigin(vi.fn()).api.getProfile()).rejects.toThrow('Something went wrong');
  });
  it('is asked for again when it failed on the network', async () => {
    early({ '/api/v1/mobile/account/profile': Promise.reject(new TypeError('Failed to fetch')) });
    const fetchImpl = vi.fn(async () => json(200, { success: true, message: 'OK', data: profile }));
    await expect(sameOrigin(fetchImpl).api.getProfile()).resolves.toEqual(profile);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });
});
