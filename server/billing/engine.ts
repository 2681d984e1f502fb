/**
 * The billing engine: finds what the billing clock says is due (renewals, retries, ends, reminders,
 * end notices; renewals.ts) and runs each as a job on the queue (platform/jobs.ts), so several API
 * processes share the work and a job of a killed process runs again elsewhere. A subscription has at
 * most one job queued and one running (pg-boss's `stately` policy, keyed by subscription); the
 * functions it runs are safe to repeat anyway. Charges run `concurrency` at a time per process, so a
 * slow gateway does not hold the rest back.
 */
import type PgBoss from 'pg-boss';
import { now } from '../platform/clock';
import { startJobs } from '../platform/jobs';
import { dueWork, endSubscription, noticeEnd, remindCheckout, renewSubscription, type RenewalDeps } from './renewals';

/** Jobs one worker takes at a time. */
const BATCH = 4;

const QUEUES = { renew: 'billing-renew', end: 'billing-end', remind: 'billing-remind', notice: 'billing-notice' } as const;
type Kind = keyof typeof QUEUES;

export interface EngineOptions {
  /** How often the due work is looked for (real time). */
  sweepMs?: number;
  /** Jobs run at once by this process. */
  concurrency?: number;
}

export interface BillingEngine {
  /** Looks for due work now and queues it; answers how many jobs were queued. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
  readonly boss: PgBoss;
}

export async function startBillingEngine(deps: RenewalDeps, options: EngineOptions = {}): Promise<BillingEngine> {
  const sweepMs = options.sweepMs ?? 2000;
  const concurrency = options.concurrency ?? 8;
  const boss = await startJobs(deps.db, deps.log);
  for (const queue of Object.values(QUEUES)) {
    // A job runs in seconds; one still active after a minute belonged to a process that died: it expires
    // and is retried elsewhere (the charge lease, renewals.ts CHARGE_LEASE_MS, is a minute too).
    const options = { name: queue, policy: 'stately', retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 } as PgBoss.Queue;
    // A database made by an older version keeps its queue: its options are brought up to date.
    if (await boss.getQueue(queue)) await boss.updateQueue(queue, options);
    else await boss.createQueue(queue, options);
  }
  const handlers: Record<Kind, (id: string) => Promise<unknown>> = {
    renew: (id) => renewSubscription(deps, id),
    end: (id) => endSubscription(deps, id),
    remind: (id) => remindCheckout(deps, id),
    notice: (id) => noticeEnd(deps, id),
  };
  // `concurrency` jobs at once, as several workers of a few jobs each: a pg-boss worker runs its batch
  // to the end before fetching again, so one big batch would wait on its slowest charge. A worker whose
  // batch was full fetches again at once (notifyWorker skips the polling pause): more are waiting.
  const workerIds: string[] = [];
  for (const [kind, queue] of Object.entries(QUEUES) as Array<[Kind, string]>) {
    const batchSize = Math.min(BATCH, concurrency);
    const workers = kind === 'renew' ? Math.ceil(concurrency / batchSize) : 1;
    for (let w = 0; w < workers; w++) {
      let workerId = '';
      workerId = await boss.work<{ id: string }>(queue, { batchSize, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        await Promise.all(jobs.map((job) => handlers[kind](job.data.id)));
        if (jobs.length === batchSize) boss.notifyWorker(workerId);
      });
      workerIds.push(workerId);
    }
  }

  let sweeping: Promise<number> | null = null;
  const sweep = () =>
    (sweeping ??= (async () => {
      try {
        const due = await dueWork(deps.db, await now(deps.db));
        let queued = 0;
        for (const kind of Object.keys(QUEUES) as Kind[]) {
          if (!due[kind].length) continue;
          // One insert for the lot; a subscription already queued or running is skipped (stately, by its key).
          // pg-boss answers the ids it inserted (its types say void).
          const ids = (await boss.insert(due[kind].map((id) => ({ name: QUEUES[kind], data: { id }, singletonKey: id })))) as unknown as string[] | null;
          queued += ids?.length ?? 0;
        }
        if (queued) for (const id of workerIds) boss.notifyWorker(id);
        return queued;
      } finally {
        sweeping = null;
      }
    })());
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => deps.log(`billing engine: sweep failed: ${error instanceof Error ? error.message : String(error)}`));
  }, sweepMs);
  timer.unref();
  return {
    sweep,
    boss,
    async stop() {
      clearInterval(timer);
      await sweeping;
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 } as PgBoss.StopOptions);
    },
  };
}
