/** The console's bar (pages the operator's role opens, who is signed in, sign out) and its pages. */
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { roleAtLeast, type Operator, type OperatorRole } from '../../api/ops/schemas';
import { m } from '../../i18n';
import { button } from '../../styles/ui.css';
import NotFoundPage from '../pages/NotFoundPage';
import { AuditPage } from './AuditPage';
import { ExportsPage } from './ExportsPage';
import { FindPage } from './FindPage';
import * as css from './ops.css';
import { OperatorsPage } from './OperatorsPage';
import { QueuesPage } from './QueuesPage';
import { BatchPage, VouchersPage } from './VouchersPage';
import { ViewerPage } from './ViewerPage';
import { opsPaths, roleName } from './opsPaths';

const NAV: Array<{ path: string; label: () => string; least: OperatorRole }> = [
  { path: opsPaths.find, label: m.ops_find, least: 'support' },
  { path: opsPaths.queues, label: m.ops_queues, least: 'support' },
  { path: opsPaths.vouchers, label: m.ops_vouchers, least: 'finance' },
  { path: opsPaths.exports, label: m.ops_exports, least: 'finance' },
  { path: opsPaths.audit, label: m.ops_audit, least: 'support' },
  { path: opsPaths.operators, label: m.ops_operators, least: 'admin' },
];

export function ConsoleRoutes({ operator, onSignOut, signingOut }: { operator: Operator; onSignOut: () => void; signingOut: boolean }) {
  const [path] = useLocation();
  const can = (least: OperatorRole) => roleAtLeast(operator.role, least);
  const only = (least: OperatorRole, page: React.ReactNode) => (can(least) ? page : <NotFoundPage />);
  return (
    <div className={css.consolePage}>
      <div className={css.bar}>
        <nav aria-label={m.ops_console()}>
          <ul className={css.nav}>
            {NAV.filter((item) => can(item.least)).map((item) => (
              <li key={item.path}>
                <Link href={item.path} className={css.navLink} aria-current={path === item.path || path.startsWith(`${item.path}/`) ? 'page' : undefined}>
                  {item.label()}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={css.who}>
          <span>{m.ops_signed_in_as({ email: operator.email, role: roleName(operator.role) })}</span>
          <button type="button" className={button.secondary} onClick={onSignOut} disabled={signingOut}>{m.ops_sign_out()}</button>
        </div>
      </div>
      <Switch>
        <Route path={opsPaths.home}><Redirect to={opsPaths.find} replace /></Route>
        <Route path={opsPaths.find}><FindPage /></Route>
        <Route path={opsPaths.viewer}>{(params) => <ViewerPage key={params.userId} userId={params.userId} />}</Route>
        <Route path={opsPaths.queues}><QueuesPage /></Route>
        <Route path={opsPaths.vouchers}>{only('finance', <VouchersPage />)}</Route>
        <Route path={opsPaths.batch}>{(params) => only('finance', <BatchPage key={params.batchId} batchId={params.batchId} />)}</Route>
        <Route path={opsPaths.exports}>{only('finance', <ExportsPage />)}</Route>
        <Route path={opsPaths.audit}><AuditPage /></Route>
        <Route path={opsPaths.operators}>{only('admin', <OperatorsPage />)}</Route>
        <Route><NotFoundPage /></Route>
      </Switch>
    </div>
  );
}
