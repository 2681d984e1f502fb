/**
 * Generated interleavings (issue 32): @xstate/graph walks the money lifecycle of a card subscription
 * (server/billing/lifecycle.machine.ts) and each walk is replayed against the real server and the
 * local Maya sandbox, for premium@example.com's card subscription, from the seed every time. After
 * every step the server must be where the model says (an assertion per state, of what the status call
 * answers) and the money invariants must hold (test/server/support/money-invariants.ts); when a walk
 * ends, the background work settles (the reconciler, the engine's due work, the reconciler again) and
 * the invariants must hold with nothing left settling.
 *
 * The walks: one per transition of the model (the shortest way to its source, then it, extended at
 * random to three steps at least), then seeded random walks of 3 to 8 steps, until INTERLEAVINGS
 * walks (default 500; INTERLEAVINGS_SEED changes the walks). The gateway's failures come from the
 * sandbox's fault switch (server/sandbox/faults.ts); a process killed mid-charge is a renewal whose
 * gateway call never returns, its lease left behind (written as if ten minutes ago, so the next
 * step may take over). The engine runs as its jobs do: renewSubscription/endSubscription for what
 * dueWork finds due. RECONCILE runs `reconcile(deps)` from server/billing/reconciler.ts once that
 * file exists; until then it is a no-op, said once in the log.
 *
 * On PGlite in `npm test`, on PostgreSQL in `npm run test:postgres` (the server project's database).
 */
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, onTestFinished, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { lifecycleMachine, type LifecycleContext, type LifecycleEvent } from '../../../server/billing/lifecycle.machine';
import { dueWork, endSubscription, noticeEnd, remindCheckout, renewSubscription, type RenewalDeps } from '../../../server/billing/renewals';
import { defaultGatewayConfig } from '../../../server/gateway/config';
import { createMayaClient, type Gateway } from '../../../server/gateway/maya';
import { createMailer } from '../../../server/platform/mail';
import { clearSandboxFaults, releaseLostWebhooks, sandboxSettled, setSandboxFaults, type FaultMode } from '../../../server/sandbox/faults';
import { scenariosDocument, stateKey, type ModelPath } from '../../support/paths';
import { DAY_MS, SERVER_START_TIMEOUT_MS, startBillingServer, type BillingServer } from '../support/billing-helpers';
import { abortableFetch } from '../support/helpers';
import { checkMoneyInvariants, MoneyInvariantError, type MoneyQuery } from '../support/money-invariants';
import { CONSENT } from '../support/consent';

/* ----------------------------------------------------------------- the walks */

type EventType = LifecycleEvent['type'];
const EVENT_TYPES: Record<EventType, true> = {
  RENEWAL_DUE: true, DECLINE: true, APPROVE: true, TIMEOUT: true, HTTP500: true, UNREADABLE: true, CHARGE_THEN_TIMEOUT: true,
  LATE_WEBHOOK: true, WEBHOOK_LOST: true, PLAN_CHANGE: true, METHOD_CHANGE: true, VOUCHER: true, CANCEL: true, RENEW_NOW: true,
  CLOCK_FORWARD: true, CLOCK_BACK: true, PROCESS_KILLED: true, RECONCILE: true,
};
const EVENTS = (Object.keys(EVENT_TYPES) as EventType[]).map((type) => ({ type }) as LifecycleEvent);
const WALKS = Number(process.env.INTERLEAVINGS ?? 500);
const SEED = Number(process.env.INTERLEAVINGS_SEED ?? 20260514);

const contextOf = (s: AnyMachineSnapshot) => s.context as LifecycleContext;
const serializeState = (s: AnyMachineSnapshot) => `${JSON.stringify(s.value)}|${JSON.stringify(s.context)}`;
const graphOptions = {
  serializeState: serializeState as never,
  serializeEvent: ((e: EventObject) => e.type) as never,
  events: ((s: AnyMachineSnapshot) => (s.status === 'active' ? EVENTS.filter((e) => s.can(e)) : [])) as never,
};

interface Step {
  event: EventObject;
  state: AnyMachineSnapshot;
}

/** A seeded random number generator (mulberry32): the same walks on every run with one seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generateWalks() {
  const next = random(SEED);
  const shortest = getShortestPaths(lifecycleMachine, graphOptions) as unknown as Array<{ state: AnyMachineSnapshot; steps: Step[] }>;
  const toState = new Map(shortest.map((p) => [serializeState(p.state), p.steps]));
  const edges = adjacencyMapToArray(getAdjacencyMap(lifecycleMachine, graphOptions)) as unknown as Array<{
    state: AnyMachineSnapshot; event: EventObject; nextState: AnyMachineSnapshot;
  }>;
  const from = new Map<string, typeof edges>();
  for (const edge of edges) {
    const key = serializeState(edge.state);
    from.set(key, [...(from.get(key) ?? []), edge]);
  }
  const extend = (steps: Step[], length: number) => {
    const walk = [...steps];
    while (walk.length - 1 < length) {
      const choices = from.get(serializeState(walk.at(-1)!.state)) ?? [];
      if (!choices.length) break;
      const edge = choices[Math.floor(next() * choices.length)]!;
      walk.push({ event: edge.event, state: edge.nextState });
    }
    return walk;
  };
  const transitionOf = (edge: (typeof edges)[number]) => `${stateKey(edge.state.value)} --${edge.event.type}--> ${stateKey(edge.nextState.value)}`;

  // Every transition of the model (as state values), by the shortest way to a source that has it.
  const coverage = new Map<string, Step[]>();
  for (const edge of edges) {
    const prefix = toState.get(serializeState(edge.state));
    if (!prefix) continue;
    const key = transitionOf(edge);
    const steps = [...prefix, { event: edge.event, state: edge.nextState }];
    if (!coverage.has(key) || coverage.get(key)!.length > steps.length) coverage.set(key, steps);
  }
  const signature = (steps: Step[]) => steps.map((s) => s.event.type).join(' ');
  const walks = new Map<string, Step[]>();
  for (const steps of coverage.values()) {
    const walk = extend(steps, 3);
    walks.set(signature(walk), walk);
  }
  const covering = walks.size;
  for (let tries = 0; walks.size < WALKS && tries < WALKS * 20; tries++) {
    const walk = extend([shortest.find((p) => p.steps.length === 1)!.steps[0]!], 3 + Math.floor(next() * 6));
    walks.set(signature(walk), walk);
  }
  const paths: ModelPath[] = [...walks.values()].map((steps) => ({
    steps,
    input: undefined,
    description: steps.map((s) => (s.event.type === 'xstate.init' ? stateKey(s.state.value) : `${s.event.type} → ${stateKey(s.state.value)}`)).join(' ⇒ '),
  }));
  return {
    paths,
    covering,
    transitions: new Set(edges.map(transitionOf)),
    states: new Set(shortest.map((p) => stateKey(p.state.value))),
  };
}

const { paths, covering, transitions, states: reachable } = generateWalks();

/* ----------------------------------------------------------------- the server */

const PREMIUM = 'premium@example.com';
const CARDS = ['seed-card-premium', 'interleavings-card-2'];
let server: BillingServer;
let deps: RenewalDeps;
/** The engine's client for steps with a fault: it gives up after 400 ms (the sandbox holds a timed-out answer for a second). */
let impatient: Gateway;
const engineLog: string[] = [];
const query: MoneyQuery = (sql, params) => server.db.query(sql, params);

type Reconcile = (deps: RenewalDeps, options?: { realNow?: Date }) => Promise<unknown>;
/** The reconciler's pass as it runs on its own, its looks due by then (they wait minutes of real time). */
const LATER = () => ({ realNow: new Date(Date.now() + 60 * MINUTE) });
let reconcileFn: Reconcile | null | undefined;
async function reconciler(): Promise<Reconcile | null> {
  if (reconcileFn !== undefined) return reconcileFn;
  const file = join(import.meta.dirname, '../../../server/billing/reconciler.ts');
  if (!existsSync(file)) {
    console.warn('[interleavings] server/billing/reconciler.ts does not exist yet: RECONCILE and the settling step run no reconciler');
    reconcileFn = null;
    return null;
  }
  const path = '../../../server/billing/reconciler';
  const mod = (await import(/* @vite-ignore */ path)) as { reconcile?: Reconcile };
  if (typeof mod.reconcile !== 'function') throw new Error('server/billing/reconciler.ts exports no reconcile(deps)');
  reconcileFn = mod.reconcile;
  return reconcileFn;
}


beforeAll(async () => {
  server = await startBillingServer();
  const mayaConfig = { ...defaultGatewayConfig(0), fetch: abortableFetch(server.app) };
  deps = { db: server.db, gateway: createMayaClient(mayaConfig), log: (line) => engineLog.push(line), publicBaseUrl: 'http://localhost', mailer: createMailer(server.db, '') };
  impatient = createMayaClient({ ...mayaConfig, timeoutMs: 400 });
  // A second card of premium@ at the sandbox and in the API (METHOD_CHANGE alternates between the two).
  await server.db.query(
    `INSERT INTO sandbox_cards (card_token_id, customer_id, brand, first6, last4, behaviour, state, is_default, created_at, updated_at)
     SELECT $1, customer_id, 'master-card', '512345', '2346', 'APPROVE', 'VERIFIED', false, created_at, updated_at FROM sandbox_cards WHERE card_token_id = $2`,
    [CARDS[1], CARDS[0]],
  );
  await server.db.query(
    `INSERT INTO saved_cards (card_token_id, user_id, card_type, first6, last4, state, is_default, customer_id, created_at, updated_at)
     SELECT $1, user_id, 'master-card', '512345', '2346', 'VERIFIED', false, customer_id, created_at, updated_at FROM saved_cards WHERE card_token_id = $2`,
    [CARDS[1], CARDS[0]],
  );
}, SERVER_START_TIMEOUT_MS);

/** Back to the seed: the API's billing rows, Maya's side (charges, webhooks, the switch), the cards approving, the clock fixed at now. */
async function resetWorld() {
  await sandboxSettled(server.db);
  await server.reset();
  await server.db.exec(`DELETE FROM mailbox; DELETE FROM sandbox_payments; DELETE FROM sandbox_webhooks; DELETE FROM sandbox_lost_webhooks;
    UPDATE sandbox_cards SET behaviour = 'APPROVE' WHERE card_token_id IN ('${CARDS.join("', '")}')`);
  await clearSandboxFaults(server.db);
  await server.freezeClock();
  engineLog.length = 0;
}

interface LiveRow {
  id: string;
  status: string;
  plan_id: number;
  end_date: Date;
  next_attempt_at: Date | null;
  payment_details: { cardTokenId?: string } | null;
}

/** The subscription the viewer's status names (the current one), or null when FREE. */
async function currentSubscription(): Promise<LiveRow | null> {
  const status = (await server.as(PREMIUM).get('/subscription/status')).json.data as { subscriptionId?: string | null };
  if (!status?.subscriptionId) return null;
  return (await server.db.query<LiveRow>('SELECT id, status, plan_id, end_date, next_attempt_at, payment_details FROM subscriptions WHERE id = $1', [status.subscriptionId])).rows[0] ?? null;
}

const MINUTE = 60_000;

/** When the current subscription has something due: its next retry when PAST_DUE, else its end date; a minute after. */
function dueMoment(sub: LiveRow | null): Date | null {
  if (!sub) return null;
  if (sub.status === 'PAST_DUE') return sub.next_attempt_at ? new Date(sub.next_attempt_at.getTime() + MINUTE) : null;
  return new Date(sub.end_date.getTime() + MINUTE);
}

/** Time passes up to `to` (never back): the reconciler runs on its own meanwhile (once it exists), then the billing clock moves. */
async function advanceClockTo(to: Date | null, log: string[]) {
  if (!to || to <= (await server.clock())) return;
  const reconcile = await reconciler();
  if (reconcile) {
    await reconcile(deps, LATER());
    await sandboxSettled(server.db);
  }
  await server.setClock(to);
  log.push(`clock → ${to.toISOString()}`);
}

/**
 * The engine's next run: at the due moment, and never the same instant as a run before it (an attempt
 * whose answer was lost holds the period a few minutes before Maya is asked again).
 */
async function toNextEngineRun(log: string[]) {
  const due = dueMoment(await currentSubscription());
  const later = new Date((await server.clock()).getTime() + 5 * MINUTE);
  await advanceClockTo(due && due > later ? due : later, log);
}

/** One run of the billing engine at the billing clock: every due subscription, as its jobs would. */
async function runEngine(log: string[], gateway: Gateway = deps.gateway) {
  const engine = { ...deps, gateway };
  const due = await dueWork(server.db, await server.clock());
  for (const id of due.renew) log.push(`renew ${id.slice(0, 8)}: ${await renewSubscription(engine, id)}`);
  for (const id of due.end) log.push(`end ${id.slice(0, 8)}: ${await endSubscription(engine, id)}`);
  for (const id of due.remind) await remindCheckout(engine, id);
  for (const id of due.notice) await noticeEnd(engine, id);
}

async function setCard(cardTokenId: string | undefined, behaviour: 'APPROVE' | 'DECLINE') {
  await server.db.query('UPDATE sandbox_cards SET behaviour = $2 WHERE card_token_id = $1', [cardTokenId ?? CARDS[0], behaviour]);
}

const answer = (r: { status: number; json: { message?: string } | null }) => `${r.status} ${r.json?.message ?? ''}`.trim();

/** The engine runs for the due subscription while the gateway fails as `mode` says, its webhooks lost. */
async function engineWithFault(mode: FaultMode, context: LifecycleContext, log: string[]) {
  await toNextEngineRun(log);
  await setSandboxFaults(server.db, { faults: [{ on: 'charge', mode, times: 1, holdMs: 1000 }], webhooks: 'lost' });
  try {
    await runEngine(log, impatient);
  } finally {
    const left = (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_faults WHERE times_left > 0')).rows[0]!.n;
    if (left) log.push(`the ${mode} fault was not played (no charge was made)`);
    await setSandboxFaults(server.db, { faults: [], webhooks: context.webhooks === 'lost' ? 'lost' : 'normal' });
  }
}

let vouchers = 0;

interface Run {
  /** What each step did and the server answered, for the failure message. */
  log: string[];
  /** The model's context before the step. */
  context: LifecycleContext;
}

type Executor = (run: Run) => Promise<void>;

/** How each event of the model is made to happen to the real server. */
const executors: Record<EventType, Executor> = {
  RENEWAL_DUE: async ({ log }) => {
    await toNextEngineRun(log);
    await runEngine(log);
  },
  TIMEOUT: ({ context, log }) => engineWithFault('timeout', context, log),
  HTTP500: ({ context, log }) => engineWithFault('http500', context, log),
  UNREADABLE: ({ context, log }) => engineWithFault('unreadable', context, log),
  CHARGE_THEN_TIMEOUT: ({ context, log }) => engineWithFault('charge-then-timeout', context, log),
  PROCESS_KILLED: async ({ log }) => {
    await toNextEngineRun(log);
    // The process that dies: it took its lease ten minutes ago (so it has run out by the next step),
    // Maya charged, and the answer never came back to it.
    let charged!: () => void;
    const reachedMaya = new Promise<void>((resolve) => (charged = resolve));
    const dying: Gateway = {
      ...deps.gateway,
      payWithCard: async (...args) => {
        vi.useRealTimers();
        await deps.gateway.payWithCard(...args);
        charged();
        return new Promise<never>(() => {});
      },
      payWithWalletLink: async (...args) => {
        vi.useRealTimers();
        await deps.gateway.payWithWalletLink(...args);
        charged();
        return new Promise<never>(() => {});
      },
    };
    const due = await dueWork(server.db, await server.clock());
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 10 * MINUTE });
    try {
      const finished = Promise.all(due.renew.map((id) => renewSubscription({ ...deps, gateway: dying }, id)));
      log.push(await Promise.race([reachedMaya.then(() => 'killed after Maya charged'), finished.then((r) => `nothing was charged: ${r.join(', ')}`)]));
    } finally {
      vi.useRealTimers();
    }
  },
  DECLINE: async ({ log }) => {
    const sub = await currentSubscription();
    await setCard(sub?.payment_details?.cardTokenId, 'DECLINE');
    log.push(`card ${sub?.payment_details?.cardTokenId} declines`);
  },
  APPROVE: async ({ log }) => {
    const sub = await currentSubscription();
    await setCard(sub?.payment_details?.cardTokenId, 'APPROVE');
    log.push(`card ${sub?.payment_details?.cardTokenId} approves`);
  },
  METHOD_CHANGE: async ({ log }) => {
    const sub = await currentSubscription();
    if (!sub) return void log.push('no subscription to change the card of');
    const other = sub.payment_details?.cardTokenId === CARDS[1] ? CARDS[0] : CARDS[1];
    await setCard(other, 'APPROVE');
    const changed = await server.as(PREMIUM).post('/subscription/update-payment-method', { ...CONSENT,
      subscriptionId: sub.id, paymentMethod: 'MAYA_VAULT', paymentMethodDetails: JSON.stringify({ cardTokenId: other }),
    });
    log.push(`card → ${other}: ${answer(changed)}`);
    // A PAST_DUE subscription is charged at once on the new card: the engine picks it up within seconds.
    if (sub.status === 'PAST_DUE') log.push(`immediate retry: ${await renewSubscription(deps, sub.id)}`);
  },
  PLAN_CHANGE: async ({ log }) => {
    const sub = await currentSubscription();
    if (!sub) return void log.push('no subscription to change the plan of');
    const planId = sub.plan_id === 1 ? 2 : 1;
    log.push(`plan → ${planId}: ${answer(await server.as(PREMIUM).post('/subscription/update-plan', { ...CONSENT, subscriptionId: sub.id, planId }))}`);
  },
  VOUCHER: async ({ log }) => {
    const code = `MODEL${++vouchers}`;
    await server.db.query(
      `INSERT INTO vouchers (code, days, amount, reusable, active, plan_id, terms_plan_id, valid_until)
       SELECT $1, days, amount, reusable, true, plan_id, terms_plan_id, NULL FROM vouchers WHERE code = 'BISAYA30'`,
      [code],
    );
    log.push(`voucher ${code}: ${answer(await server.as(PREMIUM).post('/subscription-voucher/redeem', { code }))}`);
  },
  CANCEL: async ({ log }) => {
    const sub = await currentSubscription();
    log.push(`cancel: ${sub ? answer(await server.as(PREMIUM).post('/subscription/cancel', { subscriptionId: sub.id })) : 'no subscription'}`);
  },
  RENEW_NOW: async ({ log }) => {
    const sub = await currentSubscription();
    if (!sub) return void log.push('renew now: no subscription');
    const opened = await server.as(PREMIUM).post('/payment/renewal/pay', { subscriptionId: sub.id });
    log.push(`renew now: ${answer(opened)}`);
    // Paid at once on the card, or not known yet (product.md#pay-now): nothing to press.
    if (opened.status !== 200 || !opened.json.data.paymentLink) return;
    // The viewer pays on Maya's page (the hosted checkout, or the bank's 3-D Secure page) and comes back to the app.
    const paid = await server.app.request(opened.json.data.paymentLink as string, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=approve' });
    const back = paid.headers.get('Location');
    if (back) log.push(`back from Maya: ${(await server.app.request(back)).status}`);
  },
  CLOCK_FORWARD: async ({ log }) => {
    const sub = await currentSubscription();
    // CANCELED: past its end and any grace; due already: more than 7 days late (within the 8 days of
    // access a due renewal keeps); otherwise past the next due moment. The engine does not run.
    const at = await server.clock();
    const to = !sub ? null
      : sub.status === 'CANCELED' ? new Date(sub.end_date.getTime() + 10 * DAY_MS)
      : sub.status === 'ACTIVE' && sub.end_date <= at ? new Date(sub.end_date.getTime() + 7.5 * DAY_MS)
      : dueMoment(sub);
    await advanceClockTo(to ?? new Date(at.getTime() + DAY_MS), log);
  },
  CLOCK_BACK: async ({ log }) => {
    const at = new Date((await server.clock()).getTime() - DAY_MS);
    await server.setClock(at);
    log.push(`clock ← ${at.toISOString()}`);
  },
  WEBHOOK_LOST: async ({ log }) => {
    await setSandboxFaults(server.db, { webhooks: 'lost' });
    log.push('webhooks lost from now on');
  },
  LATE_WEBHOOK: async ({ log }) => {
    log.push(`late webhooks sent: ${await releaseLostWebhooks(server.db)}`);
  },
  RECONCILE: async ({ log }) => {
    const reconcile = await reconciler();
    if (reconcile) await reconcile(deps, LATER());
    log.push(reconcile ? 'reconciled' : 'no reconciler yet');
  },
};

/** What the server must say in each state of the model: the viewer's status call, at the billing clock. */
async function viewerStatus() {
  const data = (await server.as(PREMIUM).get('/subscription/status')).json.data as { planType: string; status: string; endDate: string | null };
  return { ...data, seen: `${data.planType} ${data.status}` };
}
/** The viewer's subscriptions: when each ends, and whether the engine would still charge it. */
async function premiumPeriods() {
  return (
    await server.db.query<{ id: string; status: string; end_date: Date; chargeable: boolean }>(
      `SELECT s.id, s.status, s.end_date,
         (s.status = 'PAST_DUE' AND s.next_attempt_at IS NOT NULL) OR (s.status = 'ACTIVE' AND s.auto_renew AND s.payment_method IN ('MAYA_VAULT', 'MAYA_WALLET')) AS chargeable
       FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
      [PREMIUM],
    )
  ).rows;
}
/** An attempt whose answer is unknown leaves the viewer as before it: ACTIVE at the period's first attempt, PAST_DUE at a retry. */
const asBefore = (snapshot: AnyMachineSnapshot) => `PREMIUM ${contextOf(snapshot).failedAttempts === 0 ? 'ACTIVE' : 'PAST_DUE'}`;
const assertions: Record<string, (snapshot: AnyMachineSnapshot) => Promise<void>> = {
  paid: async () => {
    const status = await viewerStatus();
    expect(status.seen, 'paid: the viewer is PREMIUM, ACTIVE').toBe('PREMIUM ACTIVE');
    expect(status.endDate! > (await server.clock()).toISOString(), `paid: the period (to ${status.endDate}) runs past the billing clock`).toBe(true);
  },
  due: async () => {
    const status = await viewerStatus();
    expect(status.seen, 'due: the viewer is PREMIUM, ACTIVE').toBe('PREMIUM ACTIVE');
    expect(status.endDate! <= (await server.clock()).toISOString(), `due: the end date (${status.endDate}) has passed`).toBe(true);
  },
  pastDue: async () => {
    expect((await viewerStatus()).seen, 'pastDue: the viewer is PREMIUM, PAST_DUE').toBe('PREMIUM PAST_DUE');
  },
  'gatewayUnknown.notCharged': async (snapshot) => {
    expect((await viewerStatus()).seen, 'an unknown answer: the viewer as before the attempt, not dunned for it').toBe(asBefore(snapshot));
  },
  'gatewayUnknown.declined': async (snapshot) => {
    expect((await viewerStatus()).seen, 'a decline not heard of: the viewer as before the attempt, not dunned yet').toBe(asBefore(snapshot));
  },
  'gatewayUnknown.charged': async (snapshot) => {
    expect((await viewerStatus()).seen, 'a charge not heard of: the viewer as before the attempt, not dunned for it').toBe(asBefore(snapshot));
  },
  inFlight: async (snapshot) => {
    expect((await viewerStatus()).seen, 'a charge in flight: the viewer as before the attempt').toBe(asBefore(snapshot));
  },
  canceled: async () => {
    const status = await viewerStatus();
    // Canceled while its period runs: PREMIUM to its end. Canceled with the period over (due, unknown,
    // PAST_DUE): whether access lasts to the end of the grace is the product's call; never ACTIVE or PAST_DUE.
    const at = await server.clock();
    const periodOver = (await premiumPeriods()).every((p) => p.end_date <= at);
    if (periodOver && status.planType === 'FREE') return;
    expect(status.seen, 'canceled: the viewer is PREMIUM, CANCELED').toBe('PREMIUM CANCELED');
  },
  free: async () => {
    expect((await viewerStatus()).planType, 'free: the viewer is FREE').toBe('FREE');
    expect((await premiumPeriods()).filter((p) => p.chargeable).map((p) => `${p.status} ${p.id}`), 'free: nothing of the viewer is charged again').toEqual([]);
  },
};

/* ----------------------------------------------------------------- replaying */

interface Outcome {
  path: string;
  steps: number;
  checks: number;
  failure: { step: number; event: string; kind: string; message: string; where: string } | null;
}
const outcomes: Outcome[] = [];
const started = Date.now();

/** Why a step failed, in a word: the first money rule broken, the state the server is not in, or the executor. */
function kindOf(error: unknown, stage: 'execute' | 'assert' | 'invariants'): string {
  if (error instanceof MoneyInvariantError) return `invariant (${error.firstRule})`;
  return stage === 'execute' ? 'executor' : 'state';
}

/**
 * Replays one walk from the seed; throws at the first step the server disagrees with the model or
 * breaks a money rule. `override` replaces executors (the sabotage tests).
 */
async function replay(path: ModelPath, override: Partial<Record<EventType, Executor>> = {}): Promise<Outcome> {
  await resetWorld();
  const log: string[] = [];
  const outcome: Outcome = { path: path.description, steps: 0, checks: 0, failure: null };
  const fail = (step: number, event: string, stage: 'execute' | 'assert' | 'invariants', error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const transition = step < path.steps.length ? `${stateKey(path.steps[step - 1]!.state.value)} --${event}--> ${stateKey(path.steps[step]!.state.value)}` : 'after the walk';
    outcome.failure = { step, event, kind: kindOf(error, stage), message, where: transition };
    const where = step < path.steps.length
      ? `step ${step}/${path.steps.length - 1} ${event} (model: ${stateKey(path.steps[step - 1]!.state.value)} → ${stateKey(path.steps[step]!.state.value)})`
      : `after the walk, everything settled (model: ${stateKey(path.steps.at(-1)!.state.value)})`;
    const wrapped = new Error(
      `${where}, ${stage}: ${message}\n` +
        `walk: ${path.description}\nwhat happened:\n  ${log.join('\n  ')}\nengine: ${engineLog.slice(-12).join(' | ')}`,
    );
    Object.assign(wrapped, { outcome, ...(error instanceof MoneyInvariantError ? { violations: error.violations } : {}) });
    return wrapped;
  };
  for (let i = 1; i < path.steps.length; i++) {
    const step = path.steps[i]!;
    const type = step.event.type as EventType;
    const executor = override[type] ?? executors[type];
    if (!executor) throw fail(i, type, 'execute', new Error(`No executor for event "${type}"`));
    log.push(`${i}. ${type}`);
    try {
      await executor({ log, context: contextOf(path.steps[i - 1]!.state) });
      await sandboxSettled(server.db);
    } catch (error) {
      throw fail(i, type, 'execute', error);
    }
    const key = stateKey(step.state.value);
    const assertion = assertions[key];
    if (!assertion) throw fail(i, type, 'assert', new Error(`No assertion for state "${key}"`));
    try {
      await assertion(step.state);
    } catch (error) {
      throw fail(i, type, 'assert', error);
    }
    try {
      outcome.checks += await checkMoneyInvariants(query);
    } catch (error) {
      throw fail(i, type, 'invariants', error);
    }
    outcome.steps++;
  }
  // The walk is over: the background work settles, then nothing may be left settling.
  try {
    const reconcile = await reconciler();
    if (reconcile) await reconcile(deps, LATER());
    await sandboxSettled(server.db);
    await runEngine(log);
    if (reconcile) await reconcile(deps, LATER());
    await sandboxSettled(server.db);
    outcome.checks += await checkMoneyInvariants(query, { settlingMs: 0 });
  } catch (error) {
    throw fail(path.steps.length, 'settled', 'invariants', error);
  }
  return outcome;
}

describe('generated interleavings of the money lifecycle, replayed against the server', () => {
  it('has an assertion for every reachable state and an executor for every event, and walks every transition', () => {
    expect([...reachable].filter((key) => !assertions[key])).toEqual([]);
    expect(Object.keys(assertions).filter((key) => !reachable.has(key))).toEqual([]);
    const walked = new Set(paths.flatMap((p) => p.steps.slice(1).map((s) => s.event.type)));
    expect([...walked].filter((type) => !(type in executors))).toEqual([]);
    expect(EVENTS.map((e) => e.type).filter((type) => !walked.has(type))).toEqual([]);
    const covered = new Set(paths.flatMap((p) => p.steps.slice(1).map((s, i) => `${stateKey(p.steps[i]!.state.value)} --${s.event.type}--> ${stateKey(s.state.value)}`)));
    expect([...transitions].filter((t) => !covered.has(t))).toEqual([]);
    expect(paths.length).toBeGreaterThanOrEqual(Math.min(WALKS, covering));
    expect(paths.every((p) => p.steps.length - 1 >= 3 || p.steps.at(-1)!.state.status === 'done')).toBe(true);
  });

  it('lists the walks that cover the model for QA in docs/statecharts/scenarios/moneyLifecycle.json', async () => {
    await expect(scenariosDocument(lifecycleMachine, paths.slice(0, covering))).toMatchFileSnapshot('../../../docs/statecharts/scenarios/moneyLifecycle.json');
  });

  for (const path of paths) {
    it(`replays ${path.description}`, { timeout: 60_000 }, async () => {
      let outcome: Outcome = { path: path.description, steps: 0, checks: 0, failure: null };
      try {
        outcome = await replay(path);
      } catch (error) {
        outcome = (error as { outcome?: Outcome }).outcome ?? { ...outcome, failure: { step: 0, event: '', kind: 'reset', message: String(error), where: 'reset' } };
        outcomes.push(outcome);
        throw error;
      }
      outcomes.push(outcome);
    });
  }

  afterAll(() => {
    const failed = outcomes.filter((o) => o.failure);
    const kinds = new Map<string, number>();
    for (const o of failed) kinds.set(o.failure!.kind, (kinds.get(o.failure!.kind) ?? 0) + 1);
    console.info(
      `[interleavings] ${outcomes.length} sequences (seed ${SEED}, ${covering} covering every transition), ` +
        `${outcomes.reduce((n, o) => n + o.steps, 0)} steps, ${outcomes.reduce((n, o) => n + o.checks, 0)} invariant checks, ` +
        `${outcomes.length - failed.length} passed, ${failed.length} failed` +
        (failed.length ? ` (first failure: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')})` : '') +
        ` in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    // Where the walks first part from the model, most common first, each with its shortest walk.
    const where = new Map<string, Outcome[]>();
    // A state's failure by what the server said (dates and ids left out), an invariant's by its rules.
    const said = (o: Outcome) =>
      o.failure!.kind.startsWith('invariant')
        ? [...new Set([...o.failure!.message.matchAll(/^ {2}\(([abcd])\)/gm)].map((m) => m[1]))].map((r) => `(${r})`).join(' ')
        : o.failure!.message.split('\n')[0]!.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '…').replace(/ \/\/ Object\.is equality/, '');
    for (const o of failed) {
      const key = `${o.failure!.kind} at ${o.failure!.where}: ${said(o)}`;
      where.set(key, [...(where.get(key) ?? []), o]);
    }
    const lines = [...where].sort((a, b) => b[1].length - a[1].length).map(([key, list]) => {
      const shortest = [...list].sort((a, b) => a.path.length - b.path.length)[0]!;
      return `  ${String(list.length).padStart(4)} × ${key}\n         e.g. ${shortest.path}`;
    });
    if (lines.length) console.info(`[interleavings] first failures by where they happen:\n${lines.join('\n')}`);
  });
});

describe('a money rule broken on purpose is caught by a generated walk', () => {
  /** The shortest generated walks with `event` from `state` that today's server replays cleanly: what then catches the sabotage is the sabotage. */
  async function cleanWalkWith(event: EventType, from: string, to: string): Promise<ModelPath> {
    const candidates = paths
      .filter((p) => p.steps.some((s, i) => i > 0 && s.event.type === event && stateKey(p.steps[i - 1]!.state.value) === from && stateKey(s.state.value) === to))
      .sort((a, b) => a.steps.length - b.steps.length);
    for (const candidate of candidates.slice(0, 12)) {
      if (await replay(candidate).then(() => true, () => false)) return candidate;
    }
    throw new Error(`No generated walk with ${from} --${event}--> ${to} replays cleanly`);
  }
  const violationsOf = (promise: Promise<unknown>) =>
    promise.then(() => [] as string[], (error: unknown) => ((error as { violations?: Array<{ rule: string }> }).violations ?? []).map((v) => v.rule));

  it('a plan change that leaves a second ACTIVE subscription behind breaks (a)', { timeout: 120_000 }, async () => {
    const walk = await cleanWalkWith('PLAN_CHANGE', 'paid', 'paid');
    // The database holds one live subscription per viewer (subscriptions_one_live): the rule is broken
    // for this walk by lifting it, as a bug that wrote around it would.
    await server.db.exec('DROP INDEX subscriptions_one_live');
    onTestFinished(async () => {
      await server.reset();
      await server.db.exec(`CREATE UNIQUE INDEX subscriptions_one_live ON subscriptions (user_id) WHERE status IN ('ACTIVE', 'PAST_DUE', 'CANCELED')`);
    });
    const sabotaged: Executor = async (run) => {
      await executors.PLAN_CHANGE(run);
      await server.db.query(
        `INSERT INTO subscriptions (user_id, plan_id, status, start_date, end_date, payment_method, payment_details, auto_renew, created_at, updated_at)
         SELECT user_id, plan_id, 'ACTIVE', start_date, end_date, payment_method, payment_details, true, created_at, updated_at
         FROM subscriptions s WHERE s.id = $1`,
        [(await currentSubscription())!.id],
      );
    };
    expect(await violationsOf(replay(walk, { PLAN_CHANGE: sabotaged }))).toContain('a');
  });

  it('a gateway that charges twice, with reversals that say done and do nothing, breaks (b)', { timeout: 120_000 }, async () => {
    const walk = await cleanWalkWith('RENEWAL_DUE', 'paid', 'paid');
    // The reconciler finds a second charge and gives it back: the rule is broken only if that reversal
    // is a lie (answered as done, never made at Maya), as a bug in the reversal path would.
    const { voidPayment, refundPayment } = deps.gateway;
    deps.gateway.voidPayment = async () => ({ status: 'VOIDED' });
    deps.gateway.refundPayment = async () => ({ status: 'REFUNDED' });
    onTestFinished(() => {
      deps.gateway.voidPayment = voidPayment;
      deps.gateway.refundPayment = refundPayment;
    });
    const twice: Gateway = {
      ...deps.gateway,
      payWithCard: async (...args) => {
        const first = await deps.gateway.payWithCard(...args);
        await deps.gateway.payWithCard(...args);
        return first;
      },
    };
    const sabotaged: Executor = async ({ log }) => {
      await advanceClockTo(dueMoment(await currentSubscription()), log);
      await runEngine(log, twice);
    };
    expect(await violationsOf(replay(walk, { RENEWAL_DUE: sabotaged }))).toContain('b');
  });
});
