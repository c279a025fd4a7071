import type { Database } from "#api/db/client";
import { startAnalyticsDelivery } from "#api/analytics/delivery";
import { startDigestSchedule } from "#api/mail/digest";
import { startMailWorker } from "#api/mail/worker";
import { startSaleEndSweep } from "#api/services/offers/sale-end";
import { startReminderSchedule } from "#api/services/reminders/schedule";
import { startReservationSweep } from "#api/services/sales/sweep";
import type { Config } from "#platform/config.server";
import type { ProcessRole } from "#platform/config/operations.server";
import { logger } from "#platform/logger.server";

/** What a job has to work with; `wakeMail` asks the mail job to look at the outbox now. */
export type JobContext = { db: Database; config: Config; wakeMail: () => void };

/**
 * A started job: how to stop it (the mail job finishes the message it is sending), and what keeps
 * it from working right now, if anything (/readyz says it).
 */
export type RunningJob = { stop: () => void | Promise<void>; wake?: () => void; problem?: () => string | null };

export type Job = {
  name: string;
  /** null: nothing to run with this configuration (analytics without its key). */
  start: (context: JobContext) => RunningJob | null;
};

/**
 * Every periodic job of the shop, in one place. A worker process (PROCESS_ROLE=worker, or all on
 * a single server) runs them all; web processes run none. Several workers stay correct: each job
 * claims its rows with SKIP LOCKED or a unique key, and is idempotent. A new job is one more
 * entry here.
 */
export const JOBS: Job[] = [
  {
    name: "mail",
    start: ({ db, config }) => {
      const worker = startMailWorker(db, config);
      if (worker.transport.kind === "files")
        logger.info({ dir: `${config.dataDir}/mail/` }, `Correo: sin SMTP_URL, los mensajes se guardan en ${config.dataDir}/mail/`);
      return { stop: worker.stop, wake: worker.wake, problem: worker.problem };
    },
  },
  { name: "reservation-sweep", start: ({ db }) => ({ stop: startReservationSweep(db) }) },
  { name: "digest", start: ({ db, config, wakeMail }) => ({ stop: startDigestSchedule(db, config, wakeMail) }) },
  // Reminders of unused coupons (rules/reminders.ts): a pass every hour of the Spanish day.
  { name: "reminders", start: ({ db, config, wakeMail }) => ({ stop: startReminderSchedule(db, config, wakeMail) }) },
  // Offers past their sale end leave the shop (rules/sale-end.ts): a pass every minute.
  { name: "sale-end", start: ({ db }) => ({ stop: startSaleEndSweep(db) }) },
  {
    name: "analytics",
    start: ({ db, config }) =>
      config.ANALYTICS_API_KEY
        ? { stop: startAnalyticsDelivery(db, { apiKey: config.ANALYTICS_API_KEY, url: config.ANALYTICS_HTTP_API_URL }) }
        : null,
  },
];

export const runsJobs = (role: ProcessRole) => role !== "web";

export type Jobs = {
  /** The jobs this process runs (none in a web process). */
  names: string[];
  /** Mail queued by this process goes out now rather than at the worker's next look (no-op in a web process). */
  wakeMail: () => void;
  /** Stops every job; resolves once the mail being sent is sent. */
  stop: () => Promise<void>;
  /** The first job that cannot work right now, as /readyz says it ("mail outbox unavailable"), or null. */
  problem: () => string | null;
};

/** Starts the jobs `role` runs, in JOBS' order. */
export function startJobs(role: ProcessRole, { db, config }: Omit<JobContext, "wakeMail">, jobs: Job[] = JOBS): Jobs {
  const running: { name: string; job: RunningJob }[] = [];
  const wakeMail = () => running.find((r) => r.name === "mail")?.job.wake?.();
  if (runsJobs(role)) {
    for (const job of jobs) {
      const started = job.start({ db, config, wakeMail });
      if (started) running.push({ name: job.name, job: started });
    }
  }
  return {
    names: running.map((r) => r.name),
    wakeMail,
    stop: async () => {
      await Promise.all(running.map((r) => r.job.stop()));
    },
    problem: () => running.map((r) => r.job.problem?.() ?? null).find(Boolean) ?? null,
  };
}
