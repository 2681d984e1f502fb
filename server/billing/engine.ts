/**
 * The billing engine: takes what the billing clock says is due (renewals, retries, ends, reminders,
 * end notices; renewals.ts) and runs it as jobs on the queue (platform/jobs.ts), so several API
 * processes share the work and a job of a killed process runs again elsewhere. A job carries a chunk
 * of subscriptions of one kind; a sweep marks each subscription it queues (`takeDueWork`), so no sweep
 * of any process queues it twice, and the mark is cleared when its job is done. The functions a job
 * runs are safe to repeat anyway (a retried job, a subscription queued again after a lost job).
 * Charges run `concurrency` at a time per process, so a slow gateway does not hold the rest back.
 */
import type PgBoss from 'pg-boss';
import { now } from '../platform/clock';
import { withStartupLock } from '../platform/db';
import { startJobs } from '../platform/jobs';
import { log, withLogContext } from '../platform/log';
import { observeJobQueue, reconcilerFindings, renewals } from '../platform/metrics';
import { reconcile } from './reconciler';
import { endSubscription, noticeCardExpiry, noticeEnd, noticeRenewal, releaseQueued, remindCheckout, renewSubscription, takeDueWork, type DueKind, type RenewalDeps } from './renewals';

/** The queue of due work: one job per chunk of subscriptions of one kind. */
const QUEUE = 'billing-due';
/** The reconciler's queue: at most one run queued or running in the whole system. */
const RECONCILE_QUEUE = 'billing-reconcile';
/** Subscriptions per job: a job's chunk runs at once, and the queue's cost is paid once per chunk. */
const CHUNK = 8;
/**
 * Jobs waiting in the queue above which a sweep takes nothing more: with 100,000 renewals due at once,
 * the queue is topped up as it drains instead of every sweep walking the whole backlog.
 */
const BACKLOG_JOBS = 64;

interface DueJob {
  kind: DueKind;
  ids: string[];
}

export interface EngineOptions {
  /** How often the due work is looked for (real time). */
  sweepMs?: number;
  /** Jobs run at once by this process. */
  concurrency?: number;
  /** How often the reconciler (reconciler.ts) is queued (real time); one run at a time across processes. */
  reconcileMs?: number;
}

export interface BillingEngine {
  /** Looks for due work now and queues it; answers how many subscriptions were queued. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
  /**
   * For /readyz: "ok" while sweeps succeed (the queue is read and written), else what is wrong: no
   * successful sweep for five sweep periods (at least 30 s), or stopped.
   */
  health(): string;
  readonly boss: PgBoss;
}

export async function startBillingEngine(deps: RenewalDeps, options: EngineOptions = {}): Promise<BillingEngine> {
  const sweepMs = options.sweepMs ?? 2000;
  const concurrency = options.concurrency ?? 8;
  const chunk = Math.max(1, Math.min(CHUNK, concurrency));
  const boss = await startJobs(deps.db, deps.log);
  // A job runs in seconds; one still active after a minute belonged to a process that died: it expires
  // and is retried elsewhere (the charge lease, renewals.ts CHARGE_LEASE_MS, is a minute too).
  const queueOptions = { name: QUEUE, policy: 'standard', retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 } as PgBoss.Queue;
  // Processes starting at once on one PostgreSQL made the queue at once, and pg-boss's create_queue
  // deadlocked one of them (seen in the two-process test): one at a time, as the migrations.
  await withStartupLock(deps.db, async () => {
    if (await boss.getQueue(QUEUE)) await boss.updateQueue(QUEUE, queueOptions);
    else await boss.createQueue(QUEUE, queueOptions);
  });
  // The reconciler: one job queued and one running at a time in the whole system (a 'stately' queue), queued every reconcileMs.
  const reconcileMs = options.reconcileMs ?? 15_000;
  await withStartupLock(deps.db, async () => {
    const reconcileOptions = { name: RECONCILE_QUEUE, policy: 'stately', retryLimit: 0, expireInSeconds: 300 } as PgBoss.Queue;
    if (!(await boss.getQueue(RECONCILE_QUEUE))) await boss.createQueue(RECONCILE_QUEUE, reconcileOptions);
  });
  const reconcileWorker = await boss.work(RECONCILE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) =>
    // Every line the pass writes (its gateway calls, its mails) carries the job's id.
    withLogContext({ jobId: job?.id ?? 'reconcile' }, async () => {
      const report = await reconcile(deps);
      for (const kind of ['read', 'unreadable', 'decided', 'reversed', 'receipts'] as const) if (report[kind]) reconcilerFindings.inc({ kind }, report[kind]);
    }));
  // The queue's depth and oldest due job, read when /metrics is scraped (platform/metrics.ts).
  const unobserve = observeJobQueue(deps.db);
  const handlers: Record<DueKind, (id: string) => Promise<unknown>> = {
    renew: (id) =>
      renewSubscription(deps, id).then(
        (outcome) => {
          renewals.inc({ outcome });
          log().info({ subscriptionId: id, outcome }, 'renewal');
          return outcome;
        },
        (error: unknown) => {
          renewals.inc({ outcome: 'error' });
          throw error;
        },
      ),
    end: (id) => endSubscription(deps, id),
    remind: (id) => remindCheckout(deps, id),
    notice: (id) => noticeEnd(deps, id),
    renewalNotice: (id) => noticeRenewal(deps, id),
    cardExpiry: (id) => noticeCardExpiry(deps, id),
  };
  // `concurrency` subscriptions at once, as several workers of one chunk each: a worker runs its chunk
  // to the end before fetching again, and one that found work fetches again at once (notifyWorker
  // skips the polling pause): more is probably waiting.
  const workerIds: string[] = [];
  for (let w = 0; w < Math.ceil(concurrency / chunk); w++) {
    let workerId = '';
    workerId = await boss.work<DueJob>(QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, async ([job]) => {
      if (!job) return;
      const { kind, ids } = job.data;
      // The job's id on every line its work writes (gateway calls, mails, the engine's own lines).
      const results = await withLogContext({ jobId: job.id }, () => Promise.allSettled(ids.map((id) => handlers[kind](id))));
      // Done, well or not: a later sweep may queue them again when they are due (a failure is also
      // retried with the job, pg-boss's retryLimit).
      await releaseQueued(deps.db, ids);
      boss.notifyWorker(workerId);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    });
    workerIds.push(workerId);
  }

  let sweeping: Promise<number> | null = null;
  let lastSweepOk = Date.now();
  let lastSweepError = '';
  let stopped = false;
  const sweep = () =>
    (sweeping ??= (async () => {
      try {
        if ((await boss.getQueueSize(QUEUE)) >= BACKLOG_JOBS) {
          lastSweepOk = Date.now();
          return 0;
        }
        // The marks and the jobs are written in one transaction: a process killed between the two leaves neither.
        const queued = await deps.db.transaction(async (tx) => {
          const due = await takeDueWork(tx, await now(tx));
          const jobs: Array<{ name: string; data: DueJob }> = [];
          for (const kind of Object.keys(due) as DueKind[]) {
            for (let i = 0; i < due[kind].length; i += chunk) jobs.push({ name: QUEUE, data: { kind, ids: due[kind].slice(i, i + chunk) } });
          }
          if (jobs.length) await boss.insert(jobs, { db: { executeSql: (text: string, values?: unknown[]) => tx.query(text, values) } } as PgBoss.InsertOptions);
          return jobs.reduce((sum, job) => sum + job.data.ids.length, 0);
        });
        lastSweepOk = Date.now();
        lastSweepError = '';
        if (!queued) return 0;
        for (const id of workerIds) boss.notifyWorker(id);
        return queued;
      } catch (error) {
        lastSweepError = error instanceof Error ? error.message.split('\n')[0]! : String(error);
        throw error;
      } finally {
        sweeping = null;
      }
    })());
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => deps.log(`billing engine: sweep failed: ${error instanceof Error ? error.message : String(error)}`));
  }, sweepMs);
  timer.unref();
  const queueReconcile = () =>
    boss.send(RECONCILE_QUEUE, {}).catch((error: unknown) => deps.log(`billing engine: could not queue the reconciler: ${error instanceof Error ? error.message : String(error)}`));
  const reconcileTimer = setInterval(queueReconcile, reconcileMs);
  reconcileTimer.unref();
  const staleMs = Math.max(5 * sweepMs, 30_000);
  return {
    sweep,
    boss,
    health() {
      if (stopped) return 'stopped';
      const since = Date.now() - lastSweepOk;
      if (since <= staleMs) return 'ok';
      return `no sweep of the job queue for ${Math.round(since / 1000)} s${lastSweepError ? ` (${lastSweepError})` : ''}`;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearInterval(reconcileTimer);
      unobserve();
      await boss.offWork(reconcileWorker).catch(() => {});
      // A sweep in flight is let finish; its failure was logged where it ran and does not stop the stop.
      await sweeping?.catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 } as PgBoss.StopOptions);
    },
  };
}
