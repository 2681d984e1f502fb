/** The lazy API object: plain named functions, so `await api` settles and calls reach the endpoints. */
import { describe, expect, it } from 'vitest';
import { createHttp } from '../../src/api/http';
import { createLazyApi } from '../../src/api/lazyApi';

describe('lazy API', () => {
  it('settles when awaited (a Proxy answering `then` never did) and loads the endpoints on the first call', async () => {
    const seen: string[] = [];
    const http = createHttp({
      host: '', getToken: () => null, onUnauthorized: () => {},
      fetch: async (url) => {
        seen.push(String(url));
        return new Response(JSON.stringify({ success: true, message: 'OK', data: { verifyToken: 'vt' } }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
    });
    const api = createLazyApi(http);
    expect(await api).toBe(api);
    expect('then' in api).toBe(false);
    await expect(api.sendRecoveryCode({ email: 'premium@example.com' })).resolves.toEqual({ verifyToken: 'vt' });
    expect(seen).toEqual(['/api/v1/mobile/auth/forgot/send-otp']);
  });
});
