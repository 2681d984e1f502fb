/**
 * The URL is a projection of a flow (design): the first address is the machine's input; later
 * changes (back, forward, a link) reach the machine as a 'location.changed' event.
 */
import { useEffect, useRef, useState } from 'react';

/** `parse` (a stable, module-level function) turns path and query into the machine's location. */
export function useLocationEvents<L>(
  send: (event: { type: 'location.changed'; location: L }) => void,
  path: string,
  search: string,
  parse: (path: string, search: string) => L,
) {
  const [firstAddress] = useState(`${path}?${search}`);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current && `${path}?${search}` === firstAddress) return;
    moved.current = true;
    send({ type: 'location.changed', location: parse(path, search) });
  }, [path, search, firstAddress, parse, send]);
}
