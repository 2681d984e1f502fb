/**
 * Which of QA's inspectors is asked for (issue 12; the inspectors themselves are in inspector.ts, loaded only
 * when one is): its own module, so the landing chunk carries this check and nothing of the inspectors.
 */
export type InspectMode = 'local' | 'stately';

export const INSPECT_PARAM = 'inspect';
/** The panel's "keep on" toggle (this browser, until turned off). */
export const INSPECT_STORAGE_KEY = 'sine-bisaya.inspect';

/** Which inspector the address, the stored toggle or the build asks for; `?inspect=off` wins over the rest. */
export function inspectMode(search: string, flag: string | undefined, stored: string | null): InspectMode | null {
  const value = new URLSearchParams(search).get(INSPECT_PARAM);
  if (value !== null) return value === 'off' ? null : value === 'local' ? 'local' : 'stately';
  if (stored === 'local' || stored === 'stately') return stored;
  return flag === 'true' ? 'stately' : null;
}
