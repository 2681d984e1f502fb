/** The sandbox's webhook signing key pair (RSA 2048, as Maya's): made once per database, shared by every process. */
import { generateKeyPairSync } from 'node:crypto';
import type { Queryable } from '../platform/db';

export interface SigningKeys {
  privatePem: string;
  publicPem: string;
}

export async function sandboxSigningKeys(db: Queryable): Promise<SigningKeys> {
  const read = async () => (await db.query<{ private_pem: string; public_pem: string }>('SELECT private_pem, public_pem FROM sandbox_signing_key')).rows[0];
  let row = await read();
  if (!row) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    // Two processes starting at once: the first key pair written wins, both read it back.
    await db.query('INSERT INTO sandbox_signing_key (id, private_pem, public_pem) VALUES (true, $1, $2) ON CONFLICT (id) DO NOTHING', [pair.privateKey, pair.publicKey]);
    row = (await read())!;
  }
  return { privatePem: row.private_pem, publicPem: row.public_pem };
}
