import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PHOTO_BYTES, sniffImage } from '../../../server/identity/photos';
import { startTestServer } from '../support/helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = (await server.signIn('free@example.com')).json.data.accessToken;
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
const WEBP = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50]);

async function upload(bytes: Uint8Array, name = 'me.png', type = 'image/png') {
  const form = new FormData();
  form.append('photo', new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  const response = await server.app.request('/api/v1/mobile/account/photo', { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, json: (await response.json()) as { success: boolean; message: string; data: { photo: string } | null } };
}

describe('profile', () => {
  it('updates names and clears an empty middle name', async () => {
    const put = await server.call('PUT', '/api/v1/mobile/account/profile', { token, body: { firstName: ' Mariel ', middleName: 'Luz', lastName: 'Santos' } });
    expect(put.status).toBe(200);
    expect(put.json.message).toBe('Profile updated successfully');
    expect(put.json.data).toMatchObject({ firstName: 'Mariel', middleName: 'Luz', lastName: 'Santos' });
    const cleared = await server.call('PUT', '/api/v1/mobile/account/profile', { token, body: { firstName: 'Mariel', middleName: '', lastName: 'Santos' } });
    expect(cleared.json.data.middleName).toBeNull();
  });
  it('validates with the messages of spec §5', async () => {
    const bad = await server.call('PUT', '/api/v1/mobile/account/profile', { token, body: { firstName: '', lastName: 'S' } });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('First Name is required');
    expect((await server.call('PUT', '/api/v1/mobile/account/profile', { token, body: { firstName: 'M', lastName: '' } })).json.message).toBe('Last Name is required');
  });
});

describe('password change', () => {
  it('requires the old password', async () => {
    const wrong = await server.call('PUT', '/api/v1/mobile/account/password', { token, body: { oldPassword: 'nope', newPassword: 'N3w-pass', confirmNewPassword: 'N3w-pass' } });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe('Old password is incorrect');
    const mismatch = await server.call('PUT', '/api/v1/mobile/account/password', { token, body: { oldPassword: 'Bisaya-Demo-2026', newPassword: 'Lami-k7p-one', confirmNewPassword: 'Lami-k7p-two' } });
    expect(mismatch.json.message).toBe('New Passwords do not match');
  });
  it('changes it, after which only the new one signs in', async () => {
    const ok = await server.call('PUT', '/api/v1/mobile/account/password', { token, body: { oldPassword: 'Bisaya-Demo-2026', newPassword: 'N3w-pass', confirmNewPassword: 'N3w-pass' } });
    expect(ok.status).toBe(200);
    expect(ok.json.message).toBe('Password updated successfully');
    expect((await server.signIn('free@example.com')).status).toBe(401);
    expect((await server.signIn('free@example.com', 'N3w-pass')).status).toBe(200);
  });
});

describe('photo upload', () => {
  it('tells image types by their first bytes', () => {
    expect(sniffImage(PNG)).toBe('png');
    expect(sniffImage(JPEG)).toBe('jpg');
    expect(sniffImage(WEBP)).toBe('webp');
    expect(sniffImage(new TextEncoder().encode('GIF89a'))).toBeNull();
  });
  it('stores a PNG under a server-chosen name and serves it back', async () => {
    const { status, json } = await upload(PNG, '../../etc/passwd.png');
    expect(status).toBe(200);
    expect(json.message).toBe('Photo uploaded successfully');
    expect(json.data!.photo).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    const served = await server.app.request(json.data!.photo);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    const profile = await server.call('GET', '/api/v1/mobile/account/profile', { token });
    expect(profile.json.data.photo).toBe(json.data!.photo);
  });
  it('refuses a file that only claims to be an image', async () => {
    const { status, json } = await upload(new TextEncoder().encode('<svg onload=alert(1)>'), 'x.png', 'image/png');
    expect(status).toBe(415);
    expect(json.message).toBe('Photo must be a JPEG, PNG or WebP image.');
  });
  it('refuses a photo over 5 MB and a request with no photo', async () => {
    const big = new Uint8Array(MAX_PHOTO_BYTES + 1);
    big.set(JPEG);
    const tooBig = await upload(big, 'big.jpg', 'image/jpeg');
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.message).toBe('Photo must be 5 MB or smaller.');
    const none = await server.app.request('/api/v1/mobile/account/photo', { method: 'POST', body: new FormData(), headers: { Authorization: `Bearer ${token}` } });
    expect(none.status).toBe(400);
  });
  it('answers 404 for names it did not choose', async () => {
    expect((await server.app.request('/uploads/..%2F..%2Fpackage.json')).status).toBe(404);
    expect((await server.app.request('/uploads/00000000-0000-0000-0000-000000000000.png')).status).toBe(404);
  });
});
