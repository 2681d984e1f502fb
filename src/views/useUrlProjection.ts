/**
 * The URL is a projection of a flow (design): the first address is the machine's input; later
 * changes (back, forward, a link) reach the machine as a 'location.changed' event.
 */
import { useEffect, useRef, useState } from 'react';

/** `address` is path and query; `parse` (a stable function) turns it into the machine's location. */
export function useLocationEvents<L>(
  send: (event: { type: 'location.changed'; location: L }) => void,
  address: string,
  parse: (address: string) => L,
) {
  const [firstAddress] = useState(address);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current && address === firstAddress) return;
    moved.current = true;
    send({ type: 'location.changed', location: parse(address) });
  }, [address, firstAddress, parse, send]);
}

export function splitAddress(address: string): { path: string; search: string } {
  const index = address.indexOf('?');
  return index < 0 ? { path: address, search: '' } : { path: address.slice(0, index), search: address.slice(index + 1) };
}
