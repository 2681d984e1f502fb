/**
 * Card entry's part of the address: back from the bank's page where a new card is confirmed (Maya's
 * 3-D Secure at save time), the API sends the viewer to the page they left with `card=verified` or
 * `card=failed` (and `card-id`, the card confirmed). One module reads and strips it, and says where to come back to.
 */
export type CardReturn = 'verified' | 'failed';

const PARAM = 'card';
/** Which card the bank confirmed (Maya's token of a card of this account), beside `card=verified`. */
const CARD_ID = 'card-id';
const TOKEN = /^[\x21-\x7e]{1,500}$/;

export function parseCardReturn(search: string): CardReturn | null {
  const value = new URLSearchParams(search).get(PARAM);
  return value === 'verified' || value === 'failed' ? value : null;
}

/** The card the bank just confirmed, when the address names it (only with `card=verified`). */
export function parseConfirmedCard(search: string): string | null {
  const query = new URLSearchParams(search);
  const id = query.get(CARD_ID);
  return query.get(PARAM) === 'verified' && id && TOKEN.test(id) ? id : null;
}

/** The address without the bank's answer (read once: a reload or a second form must not act on it again). */
export function withoutCardReturn(search: string): string {
  const params = new URLSearchParams(search);
  params.delete(PARAM);
  params.delete(CARD_ID);
  return params.toString();
}

/** The page to come back to after the bank: this one, without an earlier `card` answer. */
export function returnPathOf(pathname: string, search: string): string {
  const query = withoutCardReturn(search);
  return `${pathname}${query ? `?${query}` : ''}`;
}
