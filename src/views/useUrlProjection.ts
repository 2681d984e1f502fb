/**
 * The URL is a projection of a flow (design): the first address is the machine's input; later
 * changes (back, forward, a link) reach the machine as a 'location.changed' event.
 */
import { useEffect, useRef } from 'react';

export function useLocationEvents<L>(send: (event: { type: 'location.changed'; location: L }) => void, key: string, location: L) {
  const first = useRef(key);
  const latest = useRef(location);
  latest.current = location;
  useEffect(() => {
    if (first.current === key) return;
    first.current = '';
    send({ type: 'location.changed', location: latest.current });
  }, [key, send]);
}
