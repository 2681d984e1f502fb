/**
 * The URL is a projection of a flow (product.md#state-ownership): the first address is the machine's input; later
 * changes (back, forward, a link) reach the machine as a 'location.changed' event, while it runs.
 * A flow that has ended (it navigated away on its last step) gets no more addresses.
 */
import { useEffect, useRef, useState } from 'react';

interface LocationListener<L> {
  send(event: { type: 'location.changed'; location: L }): void;
  getSnapshot(): { status: string };
}

/** `parse` (a flow's address module, stable) turns path and query into the machine's location. */
export function useLocationEvents<L>(actor: LocationListener<L>, path: string, search: string, parse: (path: string, search: string) => L) {
  const [firstAddress] = useState(`${path}?${search}`);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current && `${path}?${search}` === firstAddress) return;
    moved.current = true;
    if (actor.getSnapshot().status !== 'active') return;
    actor.send({ type: 'location.changed', location: parse(path, search) });
  }, [path, search, firstAddress, parse, actor]);
}
