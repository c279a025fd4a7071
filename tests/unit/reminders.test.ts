import { describe, expect, it } from "vitest";
import { addDays, daysBetween, madridDate } from "#rules/dates";
import { bookingLine, expiryWindows, expirySubject, parseReminderDays, reminderKindOfSlug, REMINDER_SLUGS } from "#rules/reminders";
import { SEED_OFFERS } from "#api/db/seed-data";

describe("the booking rule over an offer's conditions", () => {
  it("finds the line that asks for a booking", () => {
    expect(bookingLine("Válido de lunes a jueves\nReserva previa por teléfono o correo electrónico\nMayores de 16 años")).toBe(
      "Reserva previa por teléfono o correo electrónico",
    );
    expect(bookingLine("Reserva con 48 horas de antelación")).toBe("Reserva con 48 horas de antelación");
    expect(bookingLine("  Pases a las 19:00\n Imprescindible reservar por WhatsApp ")).toBe("Imprescindible reservar por WhatsApp");
    expect(bookingLine("Cena para dos con reserva previa")).toBe("Cena para dos con reserva previa");
    expect(bookingLine("RESERVA DE TURNO EN LA WEB")).toBe("RESERVA DE TURNO EN LA WEB");
  });

  it("leaves out a booking that is only recommended or not needed, and offers that do not mention it", () => {
    expect(bookingLine("Reserva recomendada los fines de semana")).toBeNull();
    expect(bookingLine("No es necesaria reserva previa")).toBeNull();
    expect(bookingLine("Sin reserva: por orden de llegada")).toBeNull();
    expect(bookingLine("Un cupón por mesa\nNo incluye bebidas")).toBeNull();
    expect(bookingLine("")).toBeNull();
  });

  it("reads the demo catalogue as a person would", () => {
    const asking = SEED_OFFERS.filter((o) => bookingLine(o.conditions));
    const not = SEED_OFFERS.filter((o) => !bookingLine(o.conditions) && /reserv/i.test(o.conditions));
    expect(asking.length).toBeGreaterThan(5);
    // The demo offers that mention a booking without asking for one: recommended, not needed, or
    // something to say when booking («Avisar de alergias al reservar»).
    expect(not.length).toBeGreaterThan(3);
    for (const o of not)
      for (const line of o.conditions.split("\n").filter((l) => /reserv/i.test(l)))
        expect(line).toMatch(/recomendada|sin reserva|No es necesaria|al reservar/);
  });
});

describe("expiry windows", () => {
  it("give each coupon the reminder of the threshold it is at, never a late copy of a larger one", () => {
    expect(expiryWindows([7, 30])).toEqual([
      { days: 30, minLeft: 8, maxLeft: 30 },
      { days: 7, minLeft: 0, maxLeft: 7 },
    ]);
    expect(expiryWindows([14])).toEqual([{ days: 14, minLeft: 0, maxLeft: 14 }]);
    expect(expiryWindows([])).toEqual([]);
  });

  it("configured as a comma list of days", () => {
    expect(parseReminderDays("30,7")).toEqual([30, 7]);
    expect(parseReminderDays(" 7, 30 ,7")).toEqual([30, 7]);
    expect(parseReminderDays("")).toEqual([]);
    expect(parseReminderDays("0")).toBeNull();
    expect(parseReminderDays("400")).toBeNull();
    expect(parseReminderDays("siete")).toBeNull();
    expect(parseReminderDays("7.5")).toBeNull();
  });
});

describe("wording and dates", () => {
  it("says when a coupon expires, in Spanish, singular and plural", () => {
    expect(expirySubject(30, 1)).toBe("Tu cupón caduca en 30 días");
    expect(expirySubject(7, 2)).toBe("Tus 2 cupones caducan en 7 días");
    expect(expirySubject(1, 1)).toBe("Tu cupón caduca mañana");
    expect(expirySubject(0, 3)).toBe("Tus 3 cupones caducan hoy");
  });

  it("counts calendar days in Madrid", () => {
    // 23:30 UTC on 31 December is already 1 January in Madrid.
    expect(madridDate(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01");
    expect(madridDate(new Date("2026-07-15T21:59:00Z"))).toBe("2026-07-15");
    expect(daysBetween("2026-11-28", "2026-12-05")).toBe(7);
    expect(daysBetween("2027-03-27", "2027-03-29")).toBe(2); // across the change to summer time
    expect(addDays("2026-12-29", 7)).toBe("2027-01-05");
  });

  it("names each kind in the stop page's address", () => {
    expect(REMINDER_SLUGS).toEqual({ expiry: "caducidad", booking: "reserva" });
    expect(reminderKindOfSlug("reserva")).toBe("booking");
    expect(reminderKindOfSlug("otra")).toBeNull();
  });
});
