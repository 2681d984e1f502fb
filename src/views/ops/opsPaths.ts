/** The console's addresses and role names, in one place the pages and the bar share. */
import type { OperatorRole } from '../../api/ops/schemas';
import { m } from '../../i18n';

export const opsPaths = {
  home: '/ops',
  find: '/ops/find',
  viewer: '/ops/viewers/:userId',
  queues: '/ops/queues',
  vouchers: '/ops/vouchers',
  batch: '/ops/vouchers/:batchId',
  exports: '/ops/exports',
  audit: '/ops/audit',
  operators: '/ops/operators',
} as const;

export const viewerPath = (userId: string) => `/ops/viewers/${encodeURIComponent(userId)}`;
export const batchPath = (batchId: string) => `/ops/vouchers/${encodeURIComponent(batchId)}`;

const ROLE_NAMES: Record<OperatorRole, () => string> = { support: m.ops_role_support, finance: m.ops_role_finance, admin: m.ops_role_admin };
export const roleName = (role: OperatorRole) => ROLE_NAMES[role]();

