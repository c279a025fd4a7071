import { afterEach, describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatShortDateTime } from "#rules/dates";

const machineZone = process.env.TZ;
afterEach(() => {
  if (machineZone === undefined) delete process.env.TZ;
  else process.env.TZ = machineZone;
});

describe("dates are Madrid time, whatever the machine's zone", () => {
  for (const zone of ["UTC", "America/New_York", "Asia/Tokyo"]) {
    it(`on a machine in ${zone}`, () => {
      process.env.TZ = zone;
      // A purchase at 14:52 in Madrid (summer, UTC+2) and one just after midnight in winter (UTC+1).
      expect(formatDate("2026-07-15T12:52:00.000Z", "dd MMMM yyyy, HH:mm")).toBe("15 julio 2026, 14:52");
      expect(formatDate(new Date("2026-01-15T23:30:00Z"))).toBe("16 enero 2026");
      expect(formatDate("2026-01-15T23:30:00Z", "dd/MM/yyyy")).toBe("16/01/2026");
      // The words between date and time are the ICU version's («, » or « a las »).
      expect(formatDateTime("2026-07-15T12:52:00Z")).toMatch(/^15 de julio de 2026(,| a las) 14:52$/);
      expect(formatShortDateTime("2026-01-15T23:30:00Z")).toMatch(/^16\/1\/26,? 0:30$/);
      // A calendar date is that day everywhere.
      expect(formatDate("2026-12-31")).toBe("31 diciembre 2026");
      expect(formatDate("2026-03-01", "dd/MM/yyyy")).toBe("01/03/2026");
      expect(formatDate("no es una fecha")).toBe("");
    });
  }
});
