/** The ops session lives in memory and in this tab's sessionStorage, never in localStorage (issue 35). */
import { opsSessionSchema, type OpsSession } from '../../api/ops/schemas';

export const OPS_SESSION_KEY = 'opsSession';

function tabStore(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

export function readOpsSession(): OpsSession | null {
  try {
    const raw = tabStore()?.getItem(OPS_SESSION_KEY);
    if (!raw) return null;
    const parsed = opsSessionSchema.safeParse(JSON.parse(raw));
    if (!parsed.success || Date.parse(parsed.data.expiresAt) <= Date.now()) return null;
    return parsed.data;
  } catch {
    return null;
  }
}

export function writeOpsSession(session: OpsSession | null): void {
  try {
    if (session) tabStore()?.setItem(OPS_SESSION_KEY, JSON.stringify(session));
    else tabStore()?.removeItem(OPS_SESSION_KEY);
  } catch {
    /* storage blocked: the session lives in memory only */
  }
}
