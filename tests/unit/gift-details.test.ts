import { describe, expect, it } from "vitest";
import { giftDetailsSchema } from "#rules/gifts";

const today = "2026-11-28";

describe("a gift's details", () => {
  it("parse again as they were saved: the cart keeps the output, the API checks it once more", () => {
    const saved = giftDetailsSchema(today).parse({ recipient_name: " Lucía ", recipient_email: "", message: "", send_on: "" });
    expect(saved).toEqual({ recipient_name: "Lucía", sender_name: null, recipient_email: null, message: "", send_on: null });
    expect(giftDetailsSchema(today).parse(saved)).toEqual(saved);
    const dated = giftDetailsSchema(today).parse({
      recipient_name: "Lucía",
      recipient_email: "Lucia@Correo.es",
      message: "Hola",
      send_on: "2026-12-24",
    });
    expect(giftDetailsSchema(today).parse(dated)).toEqual(dated);
  });

  it("refuse a past day, a day without an email to send it to, and a bad email, in Spanish", () => {
    const refusal = (input: object) => giftDetailsSchema(today).safeParse({ recipient_name: "Lucía", ...input }).error?.issues[0]?.message;
    expect(refusal({ recipient_email: "a@correo.es", send_on: "2026-11-27" })).toMatch(/ya ha pasado/);
    expect(refusal({ send_on: "2026-12-01" })).toMatch(/escribe el email/);
    expect(refusal({ recipient_email: "no-es-un-email" })).toMatch(/email válido/);
    expect(refusal({ recipient_name: "" })).toMatch(/nombre/);
  });
});
