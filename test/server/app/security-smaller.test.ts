/** Issue 11 item 7: the smaller findings, one test each. */
import { SignJWT } from 'jose';
import { createConnection } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { createTokens } from '../../../server/identity/tokens';
import { safeRedirectPath } from '../../../src/lib/route-paths';
import { openTestDatabase, startTestServer, type TestServer } from '../support/helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});

const V1 = '/api/v1/mobile';

describe('an access token whose subject is not a user id', () => {
  it('is a 401, not a 500', async () => {
    const secret = new Uint8Array(32).fill(7);
    const db = await openTestDatabase();
    const app = createApp({ db, tokens: createTokens(db, secret), publicBaseUrl: 'http://localhost', log: () => {} });
    for (const sub of ['not-a-uuid', "' OR 1=1 --", '00000000-0000-0000-0000-000000000000']) {
      const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuer('sine-bisaya').setIssuedAt().setExpirationTime('1h').sign(secret);
      const response = await app.request(`${V1}/account/profile`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status, sub).toBe(401);
    }
  }, 60_000);
});

describe('a body over the limit', () => {
  let close: () => void;
  let port: number;
  beforeAll(async () => {
    const db = await openTestDatabase();
    const app = createApp({ db, tokens: createTokens(db, new Uint8Array(32).fill(1)), publicBaseUrl: 'http://localhost', log: () => {} });
    await new Promise<void>((resolve) => {
      const running = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        port = info.port;
        resolve();
      });
      close = () => running.close();
    });
  });
  afterAll(() => close());

  it('gets a 413 that says Connection: close, and the socket closes', async () => {
    const body = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70_000) });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.write(`POST ${V1}/auth/sign-in-email HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
        socket.write(body);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text)); // resolves only when the server closes the socket
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer.toLowerCase()).not.toContain('connection: keep-alive');
  });

  /** Sends `body` in chunks of 16 KB without a Content-Length (Transfer-Encoding: chunked); the answer's status line and body. */
  const sendChunked = (body: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.write(`POST ${V1}/auth/sign-in-email HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
        for (let at = 0; at < body.length; at += 16_384) {
          const chunk = body.slice(at, at + 16_384);
          socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
        }
        socket.write('0\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });

  it('is counted as it arrives when its length is not declared (chunked): 413 over the limit, read as usual under it', async () => {
    expect(await sendChunked(JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70_000) }))).toMatch(/^HTTP\/1\.1 413/);
    const small = await sendChunked(JSON.stringify({ email: 'nobody@example.com', password: 'Not-The-Password-1' }));
    expect(small).toMatch(/^HTTP\/1\.1 401/);
    expect(small).toContain('"success":false');
  });
});

describe('429 answers', () => {
  it('carry Retry-After, also for a code asked for too soon', async () => {
    await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: 'voucher@example.com' } });
    const again = await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email: 'voucher@example.com' } });
    expect(again.status).toBe(429);
    const seconds = Number(again.headers.get('retry-after'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(again.json.message).toBe(`Please wait ${seconds} seconds before requesting a new code.`);
  });
});

describe('an over-long redirectUrl on a login link', () => {
  it('gets a message for people, not the validator’s raw text', async () => {
    const response = await server.call('POST', '/dev/login-link', { body: { email: 'free@example.com', redirectUrl: `/${'a'.repeat(3000)}` } });
    expect(response.status).toBe(400);
    expect(response.json.message).toBe('The redirect address is too long');
  });
});

describe('safeRedirectPath', () => {
  it('refuses control characters and whitespace that browsers strip into another site', () => {
    for (const trick of ['/\t/evil.example', '/\n/evil.example', '/\r/evil.example', '/ /evil.example', '/\u0000/evil.example',
      '\t//evil.example', '//evil.example', '/\\evil.example', '/\\\\evil.example', 'https://evil.example', '/\u00a0/evil.example',
      'javascript:alert(1)', '']) {
      expect(safeRedirectPath(trick, '/home'), JSON.stringify(trick)).toBe('/home');
    }
    expect(safeRedirectPath('/account')).toBe('/account');
    expect(safeRedirectPath('/subscription/payment?plan=yearly&step=2')).toBe('/subscription/payment?plan=yearly&step=2');
  });
});

describe('the log', () => {
  it('reads the same whether or not an email has an account', async () => {
    const linesFor = async (email: string) => {
      const start = server.logs.length;
      await server.call('POST', `${V1}/auth/forgot/send-otp`, { body: { email }, client: '198.51.100.99' });
      await server.call('POST', `${V1}/auth/sign-up`, {
        body: { email, password: 'Lami-kaayo-2026', passwordConfirm: 'Lami-kaayo-2026', firstName: 'N', lastName: 'C', birthdate: '1990-01-01' },
        client: '198.51.100.99',
      });
      return server.logs.slice(start).map((line) => line.replaceAll(email, 'EMAIL'));
    };
    const known = await linesFor('free@example.com');
    const unknown = await linesFor('stranger-here@example.com');
    expect(unknown).toEqual(known);
    expect(known.join('\n')).not.toMatch(/free@example\.com/);
  });
});
