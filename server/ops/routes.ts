/**
 * The back office's API, `/api/v1/ops/*` (issue 35, src/api/ops/schemas.ts). One route table: each
 * call's method, path, the least role it needs and whether it is an entry call (the viewer's access
 * token) or an operator call (the ops token). The guard runs before anything else of a call, the body
 * included: anyone who is not an operator, or whose role is too low, gets the 404 an unknown path gets;
 * an operator whose ops session is over gets the 401 that sends the console back to verify.
 * Routes parse, call one use-case, answer.
 */
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import * as s from '../../src/api/ops/schemas';
import { EXPORT_KINDS, OPS_MESSAGES, roleAtLeast, type OperatorRole } from '../../src/api/ops/schemas';
import type { AppEnv, Services } from '../context';
import { clientAddress } from '../platform/client';
import { createMailer } from '../platform/mail';
import { fail, HttpError, ok, readBody } from '../platform/http';
import { cancelByOperator, extendSubscription, resendMail, resolveRecord, retryRenewal, reversePayment, setDunning, type OpsDeps } from './actions';
import { listAudit } from './audit';
import type { Actor } from './audit';
import { confirmEnrolment, endSession, grantRole, listOperators, operatorOf, revokeSessions, sessionOf, startEnrolment, verifyCode, type OperatorRecord, type OpsKeys } from './auth';
import { batchCsv, batchDetail, disableBatch, disableCode, listBatches, mintBatch } from './campaigns';
import { exportCsv } from './exports';
import { queues } from './queues';
import { requestLanguage } from '../platform/language';
import { translate } from '../platform/translate';
import { mayaView, searchViewers, viewerTimeline } from './viewers';

export const OPS_PREFIX = s.OPS;

type Caller = OperatorRecord & { sessionId: string | null; viewerSessionId: string | null };
export type OpsEnv = { Variables: AppEnv['Variables'] & { operator: Caller } };
type OpsContext = Context<OpsEnv>;

export interface OpsRoute {
  method: 'GET' | 'POST';
  /** Below the prefix, Hono's pattern (`:id`). */
  path: string;
  /** The least role (support < finance < admin). */
  role: OperatorRole;
  /** An entry call: the viewer's access token (me, enrol, verify); else the ops token. */
  entry?: boolean;
  handle: (c: OpsContext, deps: RouteDeps) => Promise<Response>;
}

interface RouteDeps {
  services: Services;
  ops: OpsDeps;
  key: OpsKeys;
}

const actorOf = (c: OpsContext): Actor => {
  const op = c.get('operator');
  return { userId: op.userId, email: op.email, role: op.role };
};
const requestIdOf = (c: OpsContext) => c.get('requestId') ?? null;
const sessionContext = (c: OpsContext) => ({ viewerSessionId: c.get('operator').viewerSessionId!, client: clientAddress(c), userAgent: c.req.header('user-agent') ?? null });

/** A path parameter (always there: the route's pattern names it). */
const param = (c: OpsContext, name: string): string => c.req.param(name) ?? '';

const csvAnswer = (c: OpsContext, file: { name: string; csv: string }) =>
  c.body(file.csv, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${file.name}"`, 'Cache-Control': 'no-store' });

function query<T>(c: OpsContext, schema: { safeParse: (v: unknown) => { success: true; data: T } | { success: false; error: { issues: Array<{ message: string }> } } }, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? 'Invalid request.');
  return parsed.data;
}

/** The route table: every ops call. A test walks it for every role and every stranger. */
export const OPS_ROUTES: OpsRoute[] = [
  /* ---------------------------------------------------- entry (viewer's access token) */
  {
    method: 'GET', path: '/me', role: 'support', entry: true,
    handle: async (c) => {
      const op = c.get('operator');
      return ok(c, { email: op.email, name: op.name, role: op.role, enrolled: op.enrolled });
    },
  },
  { method: 'POST', path: '/enrol', role: 'support', entry: true, handle: async (c, d) => ok(c, await startEnrolment(d.services.db, d.key, c.get('operator'))) },
  {
    method: 'POST', path: '/enrol/confirm', role: 'support', entry: true,
    handle: async (c, d) => {
      const { code } = await readBody(c, s.codeRequestSchema);
      return ok(c, await confirmEnrolment(d.services.db, d.key, c.get('operator'), code, sessionContext(c)));
    },
  },
  {
    method: 'POST', path: '/session', role: 'support', entry: true,
    handle: async (c, d) => {
      const { code } = await readBody(c, s.codeRequestSchema);
      return ok(c, { session: await verifyCode(d.services.db, d.key, c.get('operator'), code, sessionContext(c)) });
    },
  },

  /* ---------------------------------------------------- ops token */
  {
    method: 'POST', path: '/session/end', role: 'support',
    handle: async (c, d) => {
      await endSession(d.services.db, c.get('operator').sessionId!);
      return ok(c, null, 'Signed out of the back office.');
    },
  },
  {
    method: 'GET', path: '/audit', role: 'support',
    handle: async (c, d) => ok(c, await listAudit(d.services.db, {
      q: c.req.query('q'), action: c.req.query('action'), actor: c.req.query('actor'), userId: c.req.query('userId'), cursor: c.req.query('cursor'),
    })),
  },
  { method: 'GET', path: '/search', role: 'support', handle: async (c, d) => ok(c, await searchViewers(d.services.db, query(c, s.searchQuerySchema, { q: c.req.query('q') ?? '' }).q)) },
  { method: 'GET', path: '/viewers/:userId', role: 'support', handle: async (c, d) => {
      // Why a payment can or cannot be given back, in the operator's language (operators in Cebu read Bisaya).
      const timeline = await viewerTimeline(d.services.db, param(c, 'userId'));
      const language = requestLanguage(c);
      return ok(c, { ...timeline, payments: timeline.payments.map((p) => ({ ...p, reversible: { ...p.reversible, why: p.reversible.why && translate(p.reversible.why, language) } })) });
    },
  },
  {
    method: 'GET', path: '/attempts/:attemptId/maya', role: 'support',
    handle: async (c, d) => ok(c, await mayaView(d.services.db, d.services.gateway, param(c, 'attemptId'), d.services.log)),
  },
  {
    method: 'POST', path: '/payments/:recordId/reverse', role: 'finance',
    handle: async (c, d) => ok(c, await reversePayment(d.ops, actorOf(c), param(c, 'recordId'), await readBody(c, s.reverseRequestSchema), requestIdOf(c))),
  },
  {
    method: 'POST', path: '/subscriptions/:id/retry', role: 'support',
    handle: async (c, d) => ok(c, await retryRenewal(d.ops, actorOf(c), param(c, 'id'), (await readBody(c, s.reasonRequestSchema)).reason, requestIdOf(c))),
  },
  {
    method: 'POST', path: '/subscriptions/:id/dunning', role: 'support',
    handle: async (c, d) => {
      const body = await readBody(c, s.dunningRequestSchema);
      return ok(c, await setDunning(d.ops, actorOf(c), param(c, 'id'), body.stopped, body.reason, requestIdOf(c)));
    },
  },
  {
    method: 'POST', path: '/subscriptions/:id/extend', role: 'support',
    handle: async (c, d) => {
      const body = await readBody(c, s.extendRequestSchema);
      return ok(c, await extendSubscription(d.ops, actorOf(c), param(c, 'id'), body.days, body.reason, requestIdOf(c)));
    },
  },
  {
    method: 'POST', path: '/subscriptions/:id/cancel', role: 'support',
    handle: async (c, d) => {
      const body = await readBody(c, s.cancelRequestSchema);
      return ok(c, await cancelByOperator(d.ops, actorOf(c), param(c, 'id'), body.when, body.reason, requestIdOf(c)));
    },
  },
  {
    method: 'POST', path: '/records/:recordId/resolve', role: 'support',
    handle: async (c, d) => ok(c, await resolveRecord(d.ops, actorOf(c), param(c, 'recordId'), (await readBody(c, s.reasonRequestSchema)).reason, requestIdOf(c))),
  },
  {
    method: 'POST', path: '/mails/:mailId/resend', role: 'support',
    handle: async (c, d) => ok(c, await resendMail(d.ops, actorOf(c), param(c, 'mailId'), (await readBody(c, s.reasonRequestSchema)).reason, requestIdOf(c))),
  },
  { method: 'GET', path: '/queues', role: 'support', handle: async (c, d) => ok(c, await queues(d.services.db)) },
  {
    method: 'POST', path: '/voucher-batches', role: 'finance',
    handle: async (c, d) => ok(c, await mintBatch(d.services.db, actorOf(c), await readBody(c, s.voucherBatchRequestSchema), requestIdOf(c))),
  },
  { method: 'GET', path: '/voucher-batches', role: 'finance', handle: async (c, d) => ok(c, await listBatches(d.services.db)) },
  { method: 'GET', path: '/voucher-batches/:id', role: 'finance', handle: async (c, d) => ok(c, await batchDetail(d.services.db, param(c, 'id'))) },
  { method: 'GET', path: '/voucher-batches/:id/codes.csv', role: 'finance', handle: async (c, d) => csvAnswer(c, await batchCsv(d.services.db, param(c, 'id'))) },
  {
    method: 'POST', path: '/voucher-batches/:id/disable', role: 'finance',
    handle: async (c, d) => ok(c, await disableBatch(d.services.db, actorOf(c), param(c, 'id'), (await readBody(c, s.reasonRequestSchema)).reason, requestIdOf(c))),
  },
  {
    method: 'POST', path: '/vouchers/:code/disable', role: 'finance',
    handle: async (c, d) => ok(c, await disableCode(d.services.db, actorOf(c), param(c, 'code'), (await readBody(c, s.reasonRequestSchema)).reason, requestIdOf(c))),
  },
  ...EXPORT_KINDS.map((kind): OpsRoute => ({
    method: 'GET', path: `/exports/${kind}.csv`, role: 'finance',
    handle: async (c, d) => {
      const range = query(c, s.exportQuerySchema, { from: c.req.query('from'), to: c.req.query('to') });
      return csvAnswer(c, await exportCsv(d.services.db, kind, range.from, range.to));
    },
  })),
  { method: 'GET', path: '/operators', role: 'admin', handle: async (c, d) => ok(c, await listOperators(d.services.db)) },
  {
    method: 'POST', path: '/operators', role: 'admin',
    handle: async (c, d) => {
      const body = await readBody(c, s.grantRequestSchema);
      return ok(c, await grantRole(d.services.db, actorOf(c), { ...body, requestId: requestIdOf(c) }));
    },
  },
  {
    method: 'POST', path: '/operators/:userId/sessions/revoke', role: 'admin',
    handle: async (c, d) => ok(c, await revokeSessions(d.services.db, actorOf(c), param(c, 'userId'), (await readBody(c, s.reasonRequestSchema)).reason, requestIdOf(c))),
  },
];

/** `key`: the TOTP secrets' keys, the current first (auth.ts deriveOpsKey, OpsKeys). */
export function opsRoutes(services: Services, key: OpsKeys) {
  const app = new Hono<OpsEnv>();
  const deps: RouteDeps = {
    services,
    key,
    ops: { db: services.db, gateway: services.gateway, log: services.log, publicBaseUrl: services.publicBaseUrl, mailer: createMailer(services.db) },
  };
  const notFound = (c: Context) => fail(c, 404, `No route for ${c.req.method} ${c.req.path}`);

  const guard = (route: OpsRoute) =>
    createMiddleware<OpsEnv>(async (c, next) => {
      const bearer = /^Bearer (\S+)$/.exec(c.req.header('Authorization') ?? '')?.[1];
      if (!bearer) return notFound(c);
      if (route.entry) {
        const session = await services.tokens.verify(bearer);
        const operator = session && (await operatorOf(services.db, session.userId));
        if (!session || !operator || !roleAtLeast(operator.role, route.role)) return notFound(c);
        c.set('operator', { ...operator, sessionId: null, viewerSessionId: session.sessionId });
      } else {
        const caller = await sessionOf(services.db, bearer);
        if (caller === 'unknown') return notFound(c);
        if (caller === 'expired') return fail(c, 401, OPS_MESSAGES.sessionExpired);
        if (!roleAtLeast(caller.role, route.role)) return notFound(c);
        c.set('operator', { ...caller, viewerSessionId: null });
      }
      await next();
    });

  for (const route of OPS_ROUTES) app.on(route.method, route.path, guard(route), (c) => route.handle(c, deps));
  // Any other path under the prefix reads as unknown, as it is.
  app.all('*', notFound);
  return app;
}
