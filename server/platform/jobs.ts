/**
 * The job queue: pg-boss (PostgreSQL's SKIP LOCKED queue, retries, singleton keys), on the same
 * database as everything else: PGlite (one process, the default) through our adapter, or a
 * PostgreSQL server shared by several processes. Chosen over graphile-worker, which needs a real
 * PostgreSQL server (LISTEN/NOTIFY), and over a hand-written loop: the queue is what several
 * processes share the work through.
 */
import PgBoss from 'pg-boss';
import type { Db } from './db';

/** pg-boss's database interface over our Db: parameterised statements as queries, scripts (migrations) as exec. */
function bossDb(db: Db) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length) return db.query(text, values);
      const result = (await db.exec(text)) as { rows?: unknown[] } | Array<{ rows?: unknown[] }> | undefined;
      const last = Array.isArray(result) ? result[result.length - 1] : result;
      return { rows: last?.rows ?? [] };
    },
  };
}

export type Jobs = PgBoss;

/** What a route needs of the queue: send a job (identity/accountJobs.ts gives one bound later, serve.ts). */
export interface JobQueue {
  send(queue: string, data: object): Promise<unknown>;
}

export async function startJobs(db: Db, log: (line: string) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    db: bossDb(db),
    schema: 'pgboss',
    // Cron schedules are not used (the billing clock can be moved; the engine sweeps instead).
    schedule: false,
    supervise: true,
    // Expired jobs (their process was killed) are failed and retried by this maintenance: every 15 s,
    // so a killed process's renewals are taken up by another within about a minute (engine.ts).
    maintenanceIntervalSeconds: 15,
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (error) => log(`jobs: ${error instanceof Error ? error.message : String(error)}`));
  await boss.start();
  return boss;
}
