/** A catalog message with elements inside its sentence (a link, an emphasised address), in any language's word order. */
import { Fragment, type ReactNode } from 'react';

/**
 * Calls the message with a marker for each placeholder (private-use characters no text holds), then puts
 * each part where its marker is, so a language may place the link or the address where its sentence needs it.
 * `messageParts(m.accept_terms_and_conditions_and, { termsLink: <Link …/>, privacyLink: <Link …/> })`.
 */
export function messageParts<K extends string>(message: (inputs: Record<K, string>) => string, parts: Record<K, ReactNode>): ReactNode[] {
  const keys = Object.keys(parts) as K[];
  const markers = Object.fromEntries(keys.map((key, index) => [key, `\uE000${index}\uE001`])) as Record<K, string>;
  return message(markers)
    .split(/\uE000(\d+)\uE001/)
    .map((piece, index) => (index % 2 === 0 ? piece : <Fragment key={index}>{parts[keys[Number(piece)]!]}</Fragment>));
}
