/**
 * The opt-in inspector for QA (`?inspect` in the address, or VITE_INSPECT=true at build time).
 * Everything it shows is passed through maskSecrets first: no password, code, token or card leaves.
 */
import type { InspectionEvent } from 'xstate';
import { maskSecrets } from './mask';

export function inspectorRequested(search: string, flag: string | undefined): boolean {
  return flag === 'true' || new URLSearchParams(search).has('inspect');
}

export async function startInspector(): Promise<(event: InspectionEvent) => void> {
  const { createBrowserInspector } = await import('@statelyai/inspect');
  const inspector = createBrowserInspector({
    sanitizeContext: (context) => maskSecrets(context),
    sanitizeEvent: (event) => maskSecrets(event),
  });
  return (event: InspectionEvent) => inspector.inspect.next?.(event);
}
