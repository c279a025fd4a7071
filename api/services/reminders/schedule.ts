import type { Config } from "#platform/config.server";
import { logger } from "#platform/logger.server";
import { madridHour } from "#rules/dates";
import { REMINDER_HOURS } from "#rules/reminders";
import type { Database } from "#api/db/client";
import { worthLogging } from "#api/db/errors";
import { reminderSettings, runReminderPass } from "./pass";

/**
 * Runs the reminder pass every `everyMs` (hourly by default) while it is daytime in Spain
 * (REMINDER_HOURS): a reminder is queued when it is read, not at midnight. Every process may run
 * it; the pass shares its work between them (pass.ts). The returned stop waits for a pass under way.
 */
export function startReminderSchedule(db: Database, config: Config, onQueued: () => void, everyMs = 3600_000): () => Promise<void> {
  const settings = reminderSettings(config);
  if (!settings.expiryDays.length && !settings.bookingDays.length) return async () => {};
  let running: Promise<void> | null = null;
  const tick = () => {
    const now = new Date();
    const hour = madridHour(now);
    if (running || hour < REMINDER_HOURS.from || hour >= REMINDER_HOURS.to) return;
    running = runReminderPass(db, now, settings)
      .then((result) => {
        if (result.found || result.mails) logger.info(result, "Recordatorios de cupones: correos en cola.");
        if (result.mails) onQueued();
      })
      // An outage is logged whole once per kind, with the API's and the other jobs' (db/errors.ts).
      .catch((error: unknown) => {
        if (worthLogging(error)) logger.error({ err: error }, "Pasada de recordatorios fallida.");
      })
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
