/**
 * Who is asking: the client's address from the connection (never from a header a client can write),
 * and whether the request comes from this machine (for the dev routes).
 */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The connection's remote address; 'unknown' when the runtime gives none. */
export function clientAddress(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? address.replace(/^::ffff:/, '') : 'unknown';
  } catch {
    return 'unknown';
  }
}

export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address.replace(/^::ffff:/, ''));
}

/** Names that only ever mean this machine (a browser refuses to resolve them elsewhere). */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * A request from this machine: a loopback connection, addressed to a loopback name (so a web page
 * that rebinds its own name to 127.0.0.1 does not count), not relayed by a proxy on this machine.
 */
export function isLocalRequest(c: Context): boolean {
  if (!isLoopbackAddress(clientAddress(c))) return false;
  let hostname: string;
  try {
    hostname = new URL(c.req.url).hostname;
  } catch {
    return false;
  }
  if (!isLoopbackHost(hostname)) return false;
  return !c.req.header('X-Forwarded-For') && !c.req.header('Forwarded') && !c.req.header('X-Real-IP');
}
