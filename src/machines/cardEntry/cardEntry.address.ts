/**
 * Card entry's part of the address: back from the bank's page where a new card is confirmed (Maya's
 * 3-D Secure at save time), the API sends the viewer to the page they left with `card=verified` or
 * `card=failed`. One module reads and strips it, and says where to come back to.
 */
export type CardReturn = 'verified' | 'failed';

const PARAM = 'card';

export function parseCardReturn(search: string): CardReturn | null {
  const value = new URLSearchParams(search).get(PARAM);
  return value === 'verified' || value === 'failed' ? value : null;
}

/** The page to come back to after the bank: this one, without an earlier `card` answer. */
export function returnPathOf(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(PARAM);
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}`;
}
