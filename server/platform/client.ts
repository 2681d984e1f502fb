/**
 * Who is asking: the client's address from the connection, or, when the connection comes from a proxy
 * named in TRUST_PROXY, from the X-Forwarded-For that proxy wrote (never from a header anyone else can
 * write); and whether the request comes from this machine (for the dev routes).
 */
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { isIP } from 'node:net';
import type { TrustedProxies } from './proxies';

/** The connection's remote address; 'unknown' when the runtime gives none. */
export function socketAddress(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address ? address.replace(/^::ffff:/, '') : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The client's address as the app resolved it for this request (`resolveClient`), else the connection's. */
export function clientAddress(c: Context): string {
  return (c.get('clientAddress') as string | undefined) ?? socketAddress(c);
}

/** A forwarded hop as an address: `[v6]`, `v4:port` and `[v6]:port` lose their brackets and port; anything else is null. */
function hopAddress(hop: string): string | null {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  const candidate = bracketed ? bracketed[1]! : /^\d+\.\d+\.\d+\.\d+:\d+$/.test(hop) ? hop.slice(0, hop.lastIndexOf(':')) : hop;
  return isIP(candidate) ? candidate.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') : null;
}

/**
 * The client behind the trusted proxies: from the connection, X-Forwarded-For is read right to left
 * (each proxy appends the address it was called from) while the hop is a trusted proxy; the first
 * address that is not is the client. A connection from anyone else is the client itself, whatever
 * its headers say; a malformed hop stops the walk at the last trusted address.
 */
export function resolveClient(c: Context, proxies: TrustedProxies): string {
  let address = socketAddress(c);
  if (!proxies.entries.length || !proxies.has(address)) return address;
  const hops = (c.req.header('X-Forwarded-For') ?? '').split(',').map((hop) => hop.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i]!);
    if (!hop) return address;
    address = hop;
    if (!proxies.has(hop)) return hop;
  }
  return address;
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
  if (!isLoopbackAddress(socketAddress(c))) return false;
  let hostname: string;
  try {
    hostname = new URL(c.req.url).hostname;
  } catch {
    return false;
  }
  if (!isLoopbackHost(hostname)) return false;
  return !c.req.header('X-Forwarded-For') && !c.req.header('Forwarded') && !c.req.header('X-Real-IP');
}
