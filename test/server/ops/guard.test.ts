/**
 * Issue 35: "a viewer gets a 404, not a hint". Every ops call, read from the route table (so a route
 * added later is walked too), for every caller: no token, a made-up token, a viewer's token, an
 * operator's viewer token where the ops token is wanted (and the other way round), and each role:
 * below the call's role the answer is the unknown-path 404, letter for letter; at or above it, the
 * call is reached. The table is the app's: no ops route exists outside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS, OPERATOR_ROLES, roleAtLeast } from '../../../src/api/ops/schemas';
import { OPS_ROUTES, type OpsRoute } from '../../../server/ops/routes';
import { SERVER_START_TIMEOUT_MS } from '../support/billing-helpers';
import { startOpsServer, type OpsServer, type TestOperator } from '../support/ops-helpers';

let server: OpsServer;
let viewerToken: string;
const operators = {} as Record<(typeof OPERATOR_ROLES)[number], TestOperator>;

beforeAll(async () => {
  server = await startOpsServer();
  viewerToken = (await server.signIn('premium@example.com')).json.data.accessToken;
  for (const role of OPERATOR_ROLES) operators[role] = await server.operator(role);
}, SERVER_START_TIMEOUT_MS);
afterAll(async () => {
  await server?.db.close();
});

const ID = '00000000-0000-4000-8000-000000000000';
const concrete = (route: OpsRoute) => `${OPS}${route.path.replace(/:[A-Za-z]+/g, (name) => (name === ':code' ? 'SB-AAAA-BBBB-CCCC' : name === ':mailId' ? '999999' : ID))}`;
// Signing out last: it ends the session the other calls use.
const ordered = [...OPS_ROUTES].sort((a, b) => Number(a.path === '/session/end') - Number(b.path === '/session/end'));

const hit = (route: OpsRoute, token?: string) => server.call(route.method, concrete(route), { token, body: route.method === 'POST' ? {} : undefined });
const isUnknownPath = (route: OpsRoute, answer: { status: number; json: { message: string } }) =>
  answer.status === 404 && answer.json.message === `No route for ${route.method} ${concrete(route).split('?')[0]}`;

describe('the ops route table', () => {
  it('is every ops route the app has', () => {
    const app = new Set(
      server.app.routes
        .filter((r) => r.path.startsWith(`${OPS}/`) && !r.path.endsWith('*'))
        .map((r) => `${r.method} ${r.path}`),
    );
    const table = new Set(OPS_ROUTES.map((r) => `${r.method} ${OPS}${r.path}`));
    expect([...app].sort()).toEqual([...table].sort());
    expect(table.size).toBeGreaterThanOrEqual(28);
  });
});

describe('strangers get the unknown-path 404 on every ops call', () => {
  const strangers: Array<[string, () => string | undefined]> = [
    ['no token', () => undefined],
    ['a made-up token', () => 'x'.repeat(43)],
    ["a viewer's access token", () => viewerToken],
  ];
  it.each(strangers)('%s', async (_, token) => {
    for (const route of ordered) {
      const answer = await hit(route, token());
      expect(`${route.method} ${route.path}: ${answer.status} ${answer.json?.message}`).toBe(`${route.method} ${route.path}: 404 No route for ${route.method} ${concrete(route)}`);
      expect(answer.json.data).toBeNull();
    }
  });

  it('an unknown path under the prefix reads the same to an operator', async () => {
    const answer = await operators.admin.get('/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.json.message).toBe(`No route for GET ${OPS}/nothing-here`);
  });
});

describe('every call x every role', () => {
  it('support cannot refund, mint vouchers, export or grant roles (404), finance can refund but not grant', async () => {
    const refund = `/payments/${ID}/reverse`;
    expect((await operators.support.post(refund, { amount: '99.00', reason: 'Charged twice', requestKey: ID })).status).toBe(404);
    expect((await operators.finance.post(refund, { amount: '99.00', reason: 'Charged twice', requestKey: ID })).status).toBe(404);
    expect((await operators.finance.post(refund, { amount: '99.00', reason: 'Charged twice', requestKey: ID })).json.message).toBe('Not found.');
    expect((await operators.support.get('/exports/payments.csv?from=2026-01-01&to=2026-01-31')).status).toBe(404);
    expect((await operators.finance.post('/operators', { email: 'free@example.com', role: 'admin', reason: 'Promote myself' })).json.message).toBe(`No route for POST ${OPS}/operators`);
  });

  it.each(OPERATOR_ROLES)('%s: below the call\'s role a 404, at or above it the call', async (role) => {
    const op = operators[role];
    const seen: string[] = [];
    for (const route of ordered) {
      // Entry calls take the viewer's access token, the rest the ops token; the wrong one is nobody.
      const right = await hit(route, route.entry ? op.accessToken : op.opsToken);
      const wrong = await hit(route, route.entry ? op.opsToken : op.accessToken);
      expect(`${route.path} wrong token: ${isUnknownPath(route, wrong)}`).toBe(`${route.path} wrong token: true`);
      const allowed = roleAtLeast(role, route.role);
      seen.push(`${route.method} ${route.path} ${allowed ? 'reached' : '404'}`);
      expect(`${role} ${route.method} ${route.path}: ${isUnknownPath(route, right) ? '404' : 'reached'} (${right.status} ${right.json?.message})`)
        .toMatch(new RegExp(`^${role} ${route.method} ${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${allowed ? 'reached' : '404'} `));
    }
    expect(seen.length).toBe(OPS_ROUTES.length);
  });

});
