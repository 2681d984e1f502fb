/** What every back office page reaches: the ops API, the signed-in operator, and the console's own cache. */
import { createContext, useContext } from 'react';
import type { OpsApi } from '../../api/ops/endpoints';
import { roleAtLeast, type Operator, type OperatorRole } from '../../api/ops/schemas';

export interface OpsServices {
  api: OpsApi;
  operator: Operator;
}

export const OpsContext = createContext<OpsServices | null>(null);

export function useOps(): OpsServices & { can: (least: OperatorRole) => boolean } {
  const ops = useContext(OpsContext);
  if (!ops) throw new Error('useOps must be used inside the back office');
  return { ...ops, can: (least) => roleAtLeast(ops.operator.role, least) };
}
