import { describe, expect, it } from "vitest";
import { buyerFirstName, maskEmail } from "#rules/buyer";
import { formatIban, isValidIban, maskIban, normalizeIban } from "#rules/iban";
import { documentNumber, madridDayStart, monthPeriod, periodLabel, previousMonth } from "#rules/statements";
import { madridDate } from "#rules/dates";

describe("IBAN (ISO 13616)", () => {
  // Published examples: the ECBS/SWIFT registry's and banks' sample IBANs.
  const valid = [
    "ES91 2100 0418 4502 0005 1332",
    "ES7921000813610123456789",
    "DE89 3704 0044 0532 0130 00",
    "FR14 2004 1010 0505 0001 3M02 606",
    "GB29 NWBK 6016 1331 9268 19",
    "PT50 0002 0123 1234 5678 9015 4",
    "NL91ABNA0417164300",
    "BE68 5390 0754 7034",
  ];

  it("accepts IBANs whose mod-97 check is 1, however they are typed", () => {
    for (const iban of valid) expect(isValidIban(iban), iban).toBe(true);
    expect(isValidIban("es91-2100-0418-4502-0005-1332")).toBe(true);
  });

  it("refuses a changed digit, swapped digits, a wrong length or an unknown country", () => {
    expect(isValidIban("ES91 2100 0418 4502 0005 1333")).toBe(false);
    expect(isValidIban("ES91 2100 0418 4502 0005 1323")).toBe(false);
    expect(isValidIban("ES19 2100 0418 4502 0005 1332")).toBe(false);
    expect(isValidIban("ES91 2100 0418 4502 0005 133")).toBe(false);
    expect(isValidIban("ZZ91 2100 0418 4502 0005 1332")).toBe(false);
    expect(isValidIban("")).toBe(false);
    expect(isValidIban("ES91 2100 0418 4502 0005 13€2")).toBe(false);
  });

  it("stores it compact, prints it in fours, shows it masked", () => {
    expect(normalizeIban(" es91 2100-0418 4502 0005 1332 ")).toBe("ES9121000418450200051332");
    expect(formatIban("ES9121000418450200051332")).toBe("ES91 2100 0418 4502 0005 1332");
    expect(maskIban("ES9121000418450200051332")).toBe("ES** **** **** **** **** 1332");
    expect(maskIban("BE68539007547034")).toBe("BE** **** **** 7034");
  });
});

describe("statement periods, in Madrid", () => {
  it("starts and ends a month at Madrid's midnight, summer time or not", () => {
    expect(monthPeriod("2026-10")).toEqual({ start: new Date("2026-09-30T22:00:00Z"), end: new Date("2026-10-31T23:00:00Z") });
    expect(monthPeriod("2026-12")).toEqual({ start: new Date("2026-11-30T23:00:00Z"), end: new Date("2026-12-31T23:00:00Z") });
    expect(madridDayStart("2026-03-29")).toEqual(new Date("2026-03-28T23:00:00Z")); // the day clocks go forward
    expect(() => monthPeriod("2026-13")).toThrow(RangeError);
  });

  it("reads the day and the previous month in Madrid", () => {
    expect(madridDate(new Date("2026-10-31T23:30:00Z"))).toBe("2026-11-01");
    expect(madridDate(new Date("2026-07-31T21:59:00Z"))).toBe("2026-07-31");
    expect(previousMonth(new Date("2026-11-30T23:30:00Z"))).toBe("2026-11"); // already 1 December in Madrid
    expect(previousMonth(new Date("2027-01-01T06:00:00Z"))).toBe("2026-12");
  });

  it("names a period as a statement prints it", () => {
    const { start, end } = monthPeriod("2026-10");
    expect(periodLabel(start, end)).toBe("octubre de 2026");
    expect(periodLabel(madridDayStart("2026-10-01"), madridDayStart("2026-10-16"))).toBe("del 1 de octubre al 15 de octubre de 2026");
    expect(periodLabel(madridDayStart("2026-12-20"), madridDayStart("2027-01-06"))).toBe(
      "del 20 de diciembre de 2026 al 5 de enero de 2027",
    );
  });

  it("numbers documents in a yearly series", () => {
    expect(documentNumber("L", 2026, 123)).toBe("L-2026-000123");
    expect(documentNumber("C", 2027, 1)).toBe("C-2027-000001");
  });
});

describe("what a partner sees of a buyer", () => {
  it("a first name, from checkout or the account; a hint of the address otherwise", () => {
    expect(buyerFirstName("  Lucía Martín Pérez ", "Luci")).toBe("Lucía");
    expect(buyerFirstName(undefined, "María")).toBe("María");
    expect(buyerFirstName("", " ")).toBeNull();
    expect(maskEmail("lucia.martin@correo.es")).toBe("lu…@correo.es");
    expect(maskEmail("a@b.es")).toBe("a…@b.es");
  });
});
