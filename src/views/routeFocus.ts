/**
 * An address a flow writes in place (goToAction with `replace`) is a correction or a choice on the page on
 * screen: the route change (routeChange.ts) keeps focus and scroll for it. Its own module, so the flows'
 * bindings need not import the route change (which reads the route table, which loads the pages).
 */
let writtenInPlace: string | null = null;

/** The next change to `address` is written in place: if it stays on the same page, focus and scroll stay. */
export function keepFocusFor(address: string): void {
  writtenInPlace = address;
}

/** The address last written in place, once: the route change reads it as it handles that change. */
export function takeWrittenInPlace(): string | null {
  const address = writtenInPlace;
  writtenInPlace = null;
  return address;
}
