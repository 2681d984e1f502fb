/** TRUST_PROXY (docs/operations.md#n-processes): the proxies whose X-Forwarded-For names the client (platform/client.ts). */
import { BlockList, isIP } from 'node:net';

/** The proxies in front (TRUST_PROXY): only their X-Forwarded-For is read (server/platform/client.ts). */
export interface TrustedProxies {
  /** As written, for the start line and docs. */
  entries: string[];
  has(address: string): boolean;
}

/** TRUST_PROXY: comma-separated IPv4/IPv6 addresses and CIDR ranges (`10.0.0.0/8`), or `loopback`. */
export function readTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  const entries = (value ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!family || extra !== undefined || !(prefix >= 0 && prefix <= max)) {
      throw new Error(`TRUST_PROXY must list IP addresses or CIDR ranges (e.g. 10.0.0.0/8, 192.0.2.7, loopback), not "${entry}"`);
    }
    list.addSubnet(address!, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    entries,
    has(address) {
      const bare = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
      const family = isIP(bare);
      return family !== 0 && list.check(bare, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}
