/**
 * The account's jobs (issue 36) on the job queue (platform/jobs.ts, pg-boss): preparing a data export,
 * and removing an erased account's cards and wallet link at Maya until Maya agrees. The server starts
 * them on the billing engine's queue (serve.ts); the routes queue work through `JobQueue`.
 * Without a queue (the server tests' app), the work runs in this process at once instead.
 */
import type PgBoss from 'pg-boss';
import type { Db } from '../platform/db';
import { withStartupLock } from '../platform/db';
import type { JobQueue } from '../platform/jobs';
import { withLogContext } from '../platform/log';
import type { Gateway } from '../gateway/maya';
import { dropExpiredExports, failExport, prepareExport } from './dataExport';
import { eraseAtMaya, MAYA_ERASURE_QUEUE } from '../billing/erasure';

export const EXPORT_QUEUE = 'account-export';
/** How often expired export files are dropped. */
const CLEANUP_MS = 5 * 60 * 1000;

export type { JobQueue } from '../platform/jobs';

/** A queue given later (the server creates the app before the engine that owns pg-boss). */
export function lateJobQueue(): JobQueue & { attach(boss: PgBoss): void } {
  let boss: PgBoss | null = null;
  return {
    attach(b) {
      boss = b;
    },
    async send(queue, data) {
      if (!boss) throw new Error('the job queue has not started');
      return boss.send(queue, data);
    },
  };
}

export interface AccountJobDeps {
  db: Db;
  gateway: Gateway;
  log: (line: string) => void;
}

/** Starts an export's preparation: on the queue when there is one, else here and now (in the background). */
export async function startExportJob(jobs: JobQueue | undefined, deps: AccountJobDeps, exportId: string): Promise<void> {
  if (jobs) {
    await jobs.send(EXPORT_QUEUE, { exportId });
    return;
  }
  setImmediate(() => {
    prepareExport(deps.db, exportId).catch(async (error: unknown) => {
      deps.log(`export: preparing failed: ${error instanceof Error ? error.message : String(error)}`);
      await failExport(deps.db, exportId).catch(() => {});
    });
  });
}

export async function startAccountJobs(boss: PgBoss, deps: AccountJobDeps): Promise<() => Promise<void>> {
  // An export is retried twice within its minute; a Maya removal for about a day, backing off.
  const exportOptions = { name: EXPORT_QUEUE, policy: 'standard', retryLimit: 2, retryDelay: 5, expireInSeconds: 60 } as PgBoss.Queue;
  const erasureOptions = { name: MAYA_ERASURE_QUEUE, policy: 'standard', retryLimit: 12, retryDelay: 60, retryBackoff: true, expireInSeconds: 120 } as PgBoss.Queue;
  await withStartupLock(deps.db, async () => {
    for (const options of [exportOptions, erasureOptions]) {
      if (await boss.getQueue(options.name)) await boss.updateQueue(options.name, options);
      else await boss.createQueue(options.name, options);
    }
  });
  const exportWorker = await boss.work<{ exportId: string }>(EXPORT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    if (!job) return;
    await withLogContext({ jobId: job.id }, async () => {
      try {
        await prepareExport(deps.db, job.data.exportId);
      } catch (error) {
        // The last try failed: the viewer sees it failed and can ask again.
        if ((job as { retryCount?: number }).retryCount === exportOptions.retryLimit) await failExport(deps.db, job.data.exportId);
        throw error;
      }
    });
  });
  const erasureWorker = await boss.work<{ userId: string }>(MAYA_ERASURE_QUEUE, { batchSize: 1, pollingIntervalSeconds: 5 }, async ([job]) => {
    if (!job) return;
    await withLogContext({ jobId: job.id }, async () => {
      const left = await eraseAtMaya(deps.db, deps.gateway, job.data.userId);
      // Thrown, so pg-boss tries again later (retryLimit, backing off).
      if (left > 0) throw new Error(`${left} removal(s) at Maya still to do`);
    });
  });
  // Files past their 24 hours go even if their owner never comes back (every process; the UPDATE is idempotent).
  const cleanup = setInterval(() => {
    dropExpiredExports(deps.db).catch((error: unknown) => deps.log(`export: dropping expired copies failed: ${error instanceof Error ? error.message : String(error)}`));
  }, CLEANUP_MS);
  cleanup.unref();
  return async () => {
    clearInterval(cleanup);
    await boss.offWork(exportWorker).catch(() => {});
    await boss.offWork(erasureWorker).catch(() => {});
  };
}
