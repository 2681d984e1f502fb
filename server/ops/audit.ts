/**
 * The audit log (issue 35, docs/product.md#back-office): one entry per operator action, written with
 * the action's own transaction (`tx`), so an action that fails leaves none and one that happens always
 * has its entry. The table refuses UPDATE and DELETE (migration 017); nothing here offers either.
 */
import type { AuditEntry, AuditQuery, OperatorRole } from '../../src/api/ops/schemas';
import type { Queryable } from '../platform/db';

/** Who acted: an operator, or the grant command (`cli`). */
export interface Actor {
  userId: string | null;
  email: string;
  role: OperatorRole | 'cli';
}

export interface NewAuditEntry {
  action: string;
  targetUserId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
}

/** Writes one entry in `tx`; answers its id. */
export async function writeAudit(tx: Queryable, actor: Actor, entry: NewAuditEntry): Promise<string> {
  const row = await tx.query<{ id: string }>(
    `INSERT INTO audit_log (actor_user_id, actor_email, actor_role, action, target_user_id, target_type, target_id, reason, before, after, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::text AS id`,
    [
      actor.userId, actor.email, actor.role, entry.action, entry.targetUserId ?? null, entry.targetType ?? null, entry.targetId ?? null,
      entry.reason ?? null, entry.before === undefined ? null : JSON.stringify(entry.before), entry.after === undefined ? null : JSON.stringify(entry.after),
      entry.requestId ?? null,
    ],
  );
  return row.rows[0]!.id;
}

interface AuditRow {
  id: string;
  at: Date;
  actor_user_id: string | null;
  actor_email: string;
  actor_role: string;
  action: string;
  target_user_id: string | null;
  target_email: string | null;
  target_type: string | null;
  target_id: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
  request_id: string | null;
}

const AUDIT_SELECT = `SELECT a.id::text AS id, a.at, a.actor_user_id, a.actor_email, a.actor_role, a.action, a.target_user_id, u.email AS target_email,
  a.target_type, a.target_id, a.reason, a.before, a.after, a.request_id
  FROM audit_log a LEFT JOIN users u ON u.id = a.target_user_id`;

export const toAuditEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at.toISOString(),
  actorUserId: row.actor_user_id,
  actorEmail: row.actor_email,
  actorRole: row.actor_role,
  action: row.action,
  targetUserId: row.target_user_id,
  targetEmail: row.target_email,
  targetType: row.target_type,
  targetId: row.target_id,
  reason: row.reason,
  before: row.before ?? null,
  after: row.after ?? null,
  requestId: row.request_id,
});

export const AUDIT_PAGE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page of the log, newest first: `cursor` is the last id of the page before. */
export async function listAudit(q: Queryable, query: AuditQuery): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (query.cursor && /^\d{1,18}$/.test(query.cursor)) where.push(`a.id < ${param(query.cursor)}::bigint`);
  if (query.action) where.push(`a.action = ${param(query.action.slice(0, 60))}`);
  if (query.actor) where.push(`a.actor_email ILIKE ${param(`%${escapeLike(query.actor.slice(0, 200))}%`)}`);
  if (query.userId) {
    if (!UUID.test(query.userId)) return { entries: [], nextCursor: null };
    where.push(`a.target_user_id = ${param(query.userId)}::uuid`);
  }
  if (query.q) {
    const like = param(`%${escapeLike(query.q.slice(0, 200))}%`);
    where.push(`(a.reason ILIKE ${like} OR a.actor_email ILIKE ${like} OR u.email ILIKE ${like} OR a.target_id ILIKE ${like} OR a.action ILIKE ${like})`);
  }
  const rows = await q.query<AuditRow>(
    `${AUDIT_SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY a.id DESC LIMIT ${AUDIT_PAGE + 1}`,
    params,
  );
  const page = rows.rows.slice(0, AUDIT_PAGE).map(toAuditEntry);
  return { entries: page, nextCursor: rows.rows.length > AUDIT_PAGE ? page.at(-1)!.id : null };
}

/** The entries about one viewer (the timeline's), newest first. */
export async function auditOfUser(q: Queryable, userId: string, limit = 100): Promise<AuditEntry[]> {
  const rows = await q.query<AuditRow>(`${AUDIT_SELECT} WHERE a.target_user_id = $1 ORDER BY a.id DESC LIMIT $2`, [userId, limit]);
  return rows.rows.map(toAuditEntry);
}

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
