/**
 * The back office's calls (issue 35, src/api/ops/schemas.ts): one function per call, like
 * src/api/endpoints.ts. The entry calls (`me`, `enrol`, `confirmEnrol`, `startSession`) carry the
 * viewer's access token; every other call carries the ops token. Each function takes its input, then
 * an AbortSignal (src/machines/actors.ts `Call`).
 *
 * `createOpsApi` builds two `Http`s from src/api/http.ts: one with the viewer's token (its 401 ends the
 * viewer's session, as anywhere in the app), one with the ops token (its 401 is
 * OPS_MESSAGES.sessionExpired: `onOpsUnauthorized` sends the console back to the verify step).
 * A non-operator gets 404 on every call (ApiError status 404).
 */
import * as z from 'zod/mini';
import { createHttp, type Http } from '../http';
import * as s from './schemas';

const nothing = z.unknown();
const enc = encodeURIComponent;

export interface OpsHttpConfig {
  /** The API host; '' means the app's own origin. */
  host: string;
  /** The viewer's access token (the normal sign-in). */
  getViewerToken: () => string | null;
  /** The ops token of `POST /session` or `POST /enrol/confirm` (kept in memory and sessionStorage). */
  getOpsToken: () => string | null;
  /** A 401 on a viewer-token call: the viewer's session is over. */
  onViewerUnauthorized: () => void;
  /** A 401 on an ops-token call: the ops session expired or was revoked (verify again). */
  onOpsUnauthorized: () => void;
  fetch?: typeof fetch;
}

export type OpsApi = ReturnType<typeof createOpsApi>;

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

export function createOpsApi(config: OpsHttpConfig) {
  const viewer: Http = createHttp({ host: config.host, getToken: config.getViewerToken, onUnauthorized: config.onViewerUnauthorized, fetch: config.fetch });
  const ops: Http = createHttp({ host: config.host, getToken: config.getOpsToken, onUnauthorized: config.onOpsUnauthorized, fetch: config.fetch });
  const O = s.OPS;
  const post = <T>(path: string, body: unknown, schema: z.ZodMiniType<T>, signal?: AbortSignal) =>
    ops.request(`${O}${path}`, { method: 'POST', body, schema, signal });
  const get = <T>(path: string, schema: z.ZodMiniType<T>, signal?: AbortSignal) => ops.request(`${O}${path}`, { schema, signal });

  return {
    /* ---------------------------------------------------- entry (viewer's access token) */
    me: (_input?: void, signal?: AbortSignal) => viewer.request(`${O}/me`, { schema: s.opsMeSchema, signal }),
    enrol: (_input?: void, signal?: AbortSignal) =>
      viewer.request(`${O}/enrol`, { method: 'POST', body: {}, schema: s.enrolStartSchema, signal }),
    confirmEnrol: (body: s.CodeRequest, signal?: AbortSignal) =>
      viewer.request(`${O}/enrol/confirm`, { method: 'POST', body, schema: s.enrolConfirmResultSchema, signal }),
    startSession: (body: s.CodeRequest, signal?: AbortSignal) =>
      viewer.request(`${O}/session`, { method: 'POST', body, schema: s.sessionResultSchema, signal }),

    /* ---------------------------------------------------- ops token */
    endSession: (_input?: void, signal?: AbortSignal) => post('/session/end', {}, nothing, signal),

    audit: (input: s.AuditQuery = {}, signal?: AbortSignal) =>
      get(`/audit${query({ q: input.q, action: input.action, actor: input.actor, userId: input.userId, cursor: input.cursor })}`, s.auditPageSchema, signal),

    search: (input: { q: string }, signal?: AbortSignal) => get(`/search${query({ q: input.q })}`, s.searchResultsSchema, signal),
    viewer: (input: { userId: string }, signal?: AbortSignal) => get(`/viewers/${enc(input.userId)}`, s.viewerTimelineSchema, signal),
    mayaView: (input: { attemptId: string }, signal?: AbortSignal) => get(`/attempts/${enc(input.attemptId)}/maya`, s.mayaViewSchema, signal),

    reverse: (input: { recordId: string } & s.ReverseRequest, signal?: AbortSignal) => {
      const { recordId, ...body } = input;
      return post(`/payments/${enc(recordId)}/reverse`, body, s.reverseResultSchema, signal);
    },
    retry: (input: { subscriptionId: string } & s.ReasonRequest, signal?: AbortSignal) =>
      post(`/subscriptions/${enc(input.subscriptionId)}/retry`, { reason: input.reason }, s.retryResultSchema, signal),
    setDunning: (input: { subscriptionId: string } & s.DunningRequest, signal?: AbortSignal) =>
      post(`/subscriptions/${enc(input.subscriptionId)}/dunning`, { stopped: input.stopped, reason: input.reason }, s.subscriptionActionResultSchema, signal),
    extend: (input: { subscriptionId: string } & s.ExtendRequest, signal?: AbortSignal) =>
      post(`/subscriptions/${enc(input.subscriptionId)}/extend`, { days: input.days, reason: input.reason }, s.extendResultSchema, signal),
    cancel: (input: { subscriptionId: string } & s.CancelRequest, signal?: AbortSignal) =>
      post(`/subscriptions/${enc(input.subscriptionId)}/cancel`, { when: input.when, reason: input.reason }, s.subscriptionActionResultSchema, signal),
    resolveRecord: (input: { recordId: string } & s.ReasonRequest, signal?: AbortSignal) =>
      post(`/records/${enc(input.recordId)}/resolve`, { reason: input.reason }, s.resolveResultSchema, signal),
    resendMail: (input: { mailId: string } & s.ReasonRequest, signal?: AbortSignal) =>
      post(`/mails/${enc(input.mailId)}/resend`, { reason: input.reason }, s.resendResultSchema, signal),

    queues: (_input?: void, signal?: AbortSignal) => get('/queues', s.queuesSchema, signal),

    createVoucherBatch: (body: s.VoucherBatchRequest, signal?: AbortSignal) => post('/voucher-batches', body, s.voucherBatchSchema, signal),
    voucherBatches: (_input?: void, signal?: AbortSignal) => get('/voucher-batches', s.voucherBatchListSchema, signal),
    voucherBatch: (input: { batchId: string }, signal?: AbortSignal) => get(`/voucher-batches/${enc(input.batchId)}`, s.voucherBatchDetailSchema, signal),
    /** The batch's codes as CSV (text/csv). */
    voucherBatchCsv: (input: { batchId: string }, signal?: AbortSignal) => ops.requestBlob(`${O}/voucher-batches/${enc(input.batchId)}/codes.csv`, { signal }),
    disableVoucherBatch: (input: { batchId: string } & s.ReasonRequest, signal?: AbortSignal) =>
      post(`/voucher-batches/${enc(input.batchId)}/disable`, { reason: input.reason }, s.voucherBatchSchema, signal),
    disableVoucher: (input: { code: string } & s.ReasonRequest, signal?: AbortSignal) =>
      post(`/vouchers/${enc(input.code)}/disable`, { reason: input.reason }, s.voucherDisableResultSchema, signal),

    /** A finance export as CSV (text/csv), its last row TOTAL. */
    exportCsv: (input: { kind: s.ExportKind } & s.ExportQuery, signal?: AbortSignal) =>
      ops.requestBlob(`${O}/exports/${input.kind}.csv${query({ from: input.from, to: input.to })}`, { signal }),

    operators: (_input?: void, signal?: AbortSignal) => get('/operators', s.operatorListSchema, signal),
    grant: (body: s.GrantRequest, signal?: AbortSignal) => post('/operators', body, s.grantResultSchema, signal),
    revokeSessions: (input: { userId: string } & s.ReasonRequest, signal?: AbortSignal) =>
      post(`/operators/${enc(input.userId)}/sessions/revoke`, { reason: input.reason }, s.revokeResultSchema, signal),
  };
}
