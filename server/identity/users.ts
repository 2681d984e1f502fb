/**
 * Reading users in the shape of the contract (product.md#user with its subscription). The subscription
 * is the one current at the server clock ($2), as the status call reads it; none: FREE.
 */
import type { Language } from '../platform/language';
import type { User } from '../../src/api/schemas';
import { now } from '../platform/clock';
import type { Db, Queryable } from '../platform/db';
import { FREE_PLAN_ID } from '../billing/catalog';
import { isCurrentSql, NEWEST_FIRST } from '../billing/subscriptions';

interface UserRow {
  id: string;
  email: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  phone_number: string | null;
  gender: string | null;
  birthdate: string | Date | null;
  photo: string | null;
  created_at: Date;
  plan_id: number | null;
  plan_name: string | null;
  plan_type: 'FREE' | 'PREMIUM' | 'VOUCHER' | null;
  status: string | null;
  start_date: Date | null;
  end_date: Date | null;
}

const USER_SELECT = `
  SELECT u.*, s.plan_id, p.name AS plan_name, p.type AS plan_type, s.status, s.start_date, s.end_date
  FROM users u
  LEFT JOIN LATERAL (
    SELECT * FROM subscriptions s WHERE s.user_id = u.id AND ${isCurrentSql('$2')} ORDER BY ${NEWEST_FIRST} LIMIT 1
  ) s ON true
  LEFT JOIN plans p ON p.id = s.plan_id`;

function isoDate(value: string | Date | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);
}

export function toUser(row: UserRow): User {
  const subscription = row.plan_id
    ? {
        planId: row.plan_id,
        planName: row.plan_name ?? '',
        planType: row.plan_type === 'FREE' ? ('FREE' as const) : ('PREMIUM' as const),
        status: row.status ?? 'ACTIVE',
        startDate: row.start_date!.toISOString(),
        endDate: row.end_date ? row.end_date.toISOString() : null,
      }
    : { planId: FREE_PLAN_ID, planName: 'Free', planType: 'FREE' as const, status: 'ACTIVE', startDate: row.created_at.toISOString(), endDate: null };
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    middleName: row.middle_name,
    lastName: row.last_name,
    phoneNumber: row.phone_number,
    gender: row.gender,
    birthdate: isoDate(row.birthdate),
    photo: row.photo,
    withPassword: true,
    subscription,
  };
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const result = await db.query<UserRow>(`${USER_SELECT} WHERE u.id = $1`, [id, await now(db)]);
  return result.rows[0] ? toUser(result.rows[0]) : null;
}

export async function findUserByEmail(db: Db, email: string): Promise<(User & { passwordHash: string }) | null> {
  const result = await db.query<UserRow & { password_hash: string }>(`${USER_SELECT} WHERE u.email = $1`, [email.toLowerCase(), await now(db)]);
  const row = result.rows[0];
  return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
}

export interface Contact {
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  /** The language they read the product in (emails are written in it). */
  language: Language;
}

/** Who the viewer is, for the gateway's customer and buyer fields and for receipts. */
export async function contactOf(q: Queryable, userId: string): Promise<Contact> {
  const row = (
    await q.query<{ email: string; first_name: string; last_name: string; phone_number: string | null; language: Language }>(
      'SELECT email, first_name, last_name, phone_number, language FROM users WHERE id = $1',
      [userId],
    )
  ).rows[0];
  if (!row) throw new Error(`No user ${userId}`);
  return { email: row.email, firstName: row.first_name, lastName: row.last_name, phoneNumber: row.phone_number, language: row.language };
}
