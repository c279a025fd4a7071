/**
 * POST /sales/validate/: what a cart costs with its promo codes, and every reason a cart is refused,
 * said in Spanish; promo code checks are also limited per buyer address.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { priceOptions } from "#api/db/schema";
import { MESSAGES } from "#contract/checkout";
import { call } from "#tests/support/api-server";
import { api, withFileApi } from "./_file-api";
import { buy, expectSpanish, makeOption, newEmail, orderBody, promoRow, sandboxAction, startSale, validate } from "./_helpers";
import { BRUNCH, PAELLA } from "./_seeded-offers";

withFileApi();

function errorTexts(body: any): string[] {
  expect(Array.isArray(body.errors)).toBe(true);
  for (const e of body.errors) expectSpanish(e.error_text);
  return body.errors.map((e: any) => e.error_text);
}

describe("POST /sales/validate/ totals", () => {
  it("quantity × price, with a session token and no errors", async () => {
    const email = newEmail();
    const { status, body } = await validate(api, [{ option: BRUNCH, quantity: 3 }], email);
    expect(status).toBe(200);
    expect(body.errors).toEqual([]);
    expect(body.sales_data).toEqual({
      items: [
        {
          offer_price_uuid: BRUNCH.uuid,
          offer_uuid: BRUNCH.offerId,
          title: expect.stringContaining("Café Olmo"),
          option_title: "Brunch para 2 personas",
          quantity: 3,
          unit_price: "24.90",
          regular_unit_price: "38.00",
          paid_unit_price: "24.90",
          promo_code: null,
          line_total: "74.70",
          for_present: false,
          gift: null,
        },
      ],
      total: "74.70",
      currency: "EUR",
    });
    expect(body.checkout_data.session_token).toEqual(expect.any(String));
    expect(body.checkout_data.session_token.length).toBeGreaterThanOrEqual(20);
    expect(body.checkout_data.email).toBe(email);
  });

  it("applies percent, amount and fixed-price codes per line and sums the lines", async () => {
    const { status, body } = await validate(
      api,
      [
        { option: PAELLA, quantity: 2, promo: ["bienvenida10"] },
        { option: BRUNCH, quantity: 1, promo: ["AHORRA5"] },
      ],
      newEmail(),
    );
    expect(status).toBe(200);
    const [paella, brunch] = body.sales_data.items;
    expect(paella).toMatchObject({ unit_price: "39.90", paid_unit_price: "35.91", promo_code: "BIENVENIDA10", line_total: "71.82" });
    expect(brunch).toMatchObject({ unit_price: "24.90", paid_unit_price: "19.90", promo_code: "AHORRA5", line_total: "19.90" });
    expect(body.sales_data.total).toBe("91.72");

    const fixed = await validate(api, [{ option: BRUNCH, quantity: 2, promo: ["PRECIO9"] }], newEmail());
    expect(fixed.body.sales_data.items[0]).toMatchObject({ paid_unit_price: "9.00", promo_code: "PRECIO9", line_total: "18.00" });
    expect(fixed.body.sales_data.total).toBe("18.00");
  });

  it("the lowest price wins among several codes", async () => {
    const two = await validate(api, [{ option: PAELLA, promo: ["BIENVENIDA10", "AHORRA5"] }], newEmail());
    expect(two.body.sales_data.items[0]).toMatchObject({ paid_unit_price: "34.90", promo_code: "AHORRA5" });
    const three = await validate(api, [{ option: PAELLA, promo: ["AHORRA5", "PRECIO9", "BIENVENIDA10"] }], newEmail());
    expect(three.body.sales_data.items[0]).toMatchObject({ paid_unit_price: "9.00", promo_code: "PRECIO9" });
    expect(three.body.sales_data.total).toBe("9.00");
  });

  it("PAELLA20 applies only to its own offer", async () => {
    const { status, body } = await validate(
      api,
      [
        { option: PAELLA, promo: ["PAELLA20"] },
        { option: BRUNCH, promo: ["PAELLA20"] },
      ],
      newEmail(),
    );
    expect(status).toBe(200);
    expect(body.errors).toEqual([]);
    expect(body.sales_data.items[0]).toMatchObject({ paid_unit_price: "31.92", promo_code: "PAELLA20" });
    expect(body.sales_data.items[1]).toMatchObject({ paid_unit_price: "24.90", promo_code: null });
    expect(body.sales_data.total).toBe("56.82");
  });

  it("apply-promocode answers the code's terms", async () => {
    const { status, body } = await call(api, "/public/offers/apply-promocode/", { body: { promo_code: " paella20 " } });
    expect(status).toBe(200);
    expect(body).toEqual({ promo_code: "PAELLA20", discount_type: "percent", discount_value: "20", offer_uuid: PAELLA.offerId });
    const unknown = await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "NOEXISTE" } });
    expect(unknown.status).toBe(400);
    expectSpanish(unknown.body.detail);
  });
});

describe("POST /sales/validate/ errors", () => {
  it("a tampered saved_price", async () => {
    const { status, body } = await validate(api, [{ option: PAELLA, savedPrice: "1.00" }], newEmail());
    expect(status).toBe(400);
    expect(body.checkout_data.session_token).toBeUndefined();
    expect(errorTexts(body)).toEqual([expect.stringMatching(/ha cambiado/)]);
    expect(body.errors[0].offer_price_uuid).toBe(PAELLA.uuid);
  });

  it("accepts the same price written without the trailing zero", async () => {
    const { status } = await validate(api, [{ option: PAELLA, savedPrice: "39.9" }], newEmail());
    expect(status).toBe(200);
  });

  it("a sold-out option", async () => {
    const [soldOut] = await api.db.select().from(priceOptions).where(eq(priceOptions.available, 0)).limit(1);
    const { status, body } = await validate(api, [{ option: { uuid: soldOut.id, price: soldOut.actualPrice } }], newEmail());
    expect(status).toBe(400);
    expect(errorTexts(body)).toEqual([expect.stringMatching(/agotad/)]);
  });

  it("quantity above what is left", async () => {
    const option = await makeOption(api, { available: 2 });
    const { status, body } = await validate(api, [{ option, quantity: 3 }], newEmail());
    expect(status).toBe(400);
    expect(errorTexts(body)).toEqual([expect.stringMatching(/Solo quedan 2/)]);
    expect((await validate(api, [{ option, quantity: 2 }], newEmail())).status).toBe(200);
  });

  it("one ticket left or allowed is said in the singular", async () => {
    const last = await makeOption(api, { available: 1 });
    expect(errorTexts((await validate(api, [{ option: last, quantity: 2 }], newEmail())).body)).toEqual([
      expect.stringMatching(/^Solo queda 1 entrada de «/),
    ]);
    const single = await makeOption(api, { available: 50, perCustomer: 1 });
    const email = newEmail();
    expect(errorTexts((await validate(api, [{ option: single, quantity: 2 }], email)).body)).toEqual([
      expect.stringMatching(/^Puedes comprar como máximo 1 entrada más de «/),
    ]);
    await buy(api, [{ option: single }], email);
    expect(errorTexts((await validate(api, [{ option: single }], email)).body)).toEqual([
      expect.stringMatching(/^Ya has comprado el máximo de 1 entrada de «.*» por cliente\.$/),
    ]);
  });

  it("per_customer counts the tickets the same email already paid for", async () => {
    const option = await makeOption(api, { available: 50, perCustomer: 2 });
    const email = newEmail();
    expect((await validate(api, [{ option, quantity: 3 }], email)).status).toBe(400);
    await buy(api, [{ option, quantity: 2 }], email);
    const again = await validate(api, [{ option, quantity: 1 }], email);
    expect(again.status).toBe(400);
    expect(errorTexts(again.body)).toEqual([expect.stringMatching(/máximo de 2/)]);
    // Upper-case spelling of the same address is the same customer.
    expect((await validate(api, [{ option, quantity: 1 }], email.toUpperCase())).status).toBe(400);
    // Someone else can still buy.
    expect((await validate(api, [{ option, quantity: 2 }], newEmail())).status).toBe(200);
  });

  it("per_customer: a declined purchase does not count", async () => {
    const option = await makeOption(api, { available: 50, perCustomer: 1 });
    const email = newEmail();
    const payment = await startSale(api, [{ option }], email);
    expect((await validate(api, [{ option }], email)).status).toBe(400); // the reservation counts while pending
    expect((await sandboxAction(payment, "decline")).status).toBe(303);
    expect((await validate(api, [{ option }], email)).status).toBe(200);
  });

  it("the same option twice in one cart", async () => {
    const { status, body } = await validate(api, [{ option: BRUNCH }, { option: BRUNCH, quantity: 2 }], newEmail());
    expect(status).toBe(400);
    expect(errorTexts(body)).toEqual([expect.stringMatching(/dos veces/)]);
  });

  it("an unknown price option", async () => {
    const { status, body } = await validate(api, [{ option: { uuid: randomUUID(), price: "10.00" } }], newEmail());
    expect(status).toBe(400);
    expect(errorTexts(body)).toHaveLength(1);
  });

  it("reports every problem of the cart at once", async () => {
    const { status, body } = await validate(
      api,
      [{ option: { uuid: randomUUID(), price: "10.00" } }, { option: PAELLA, savedPrice: "2.00", promo: ["VERANO2025"] }],
      newEmail(),
    );
    expect(status).toBe(400);
    expect(errorTexts(body).length).toBe(3);
  });

  it("an expired promo code (VERANO2025)", async () => {
    const { status, body } = await validate(api, [{ option: BRUNCH, promo: ["VERANO2025"] }], newEmail());
    expect(status).toBe(400);
    expect(errorTexts(body)).toEqual([expect.stringMatching(/caducado/)]);
    const apply = await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "VERANO2025" } });
    expect(apply.status).toBe(400);
    expect(apply.body.detail).toMatch(/caducado/);
  });

  it("an unknown promo code", async () => {
    const { status, body } = await validate(api, [{ option: BRUNCH, promo: ["NOEXISTE"] }], newEmail());
    expect(status).toBe(400);
    expect(errorTexts(body)).toEqual([expect.stringMatching(/no existe/)]);
  });

  it("a used-up code (UNICO after one paid use)", async () => {
    expect((await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "UNICO" } })).status).toBe(200);
    const { purchase } = await buy(api, [{ option: BRUNCH, promo: ["UNICO"] }], newEmail());
    expect(purchase.items[0].paid_unit_price).toBe("19.92");
    expect((await promoRow(api, "UNICO")).usedCount).toBe(1);
    const { status, body } = await validate(api, [{ option: PAELLA, promo: ["UNICO"] }], newEmail());
    expect(status).toBe(400);
    expect(errorTexts(body)).toEqual([expect.stringMatching(/agotado/)]);
    expect((await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "UNICO" } })).status).toBe(400);
  });

  it("UNAVEZ a second time by the same email", async () => {
    const email = newEmail();
    const { purchase } = await buy(api, [{ option: BRUNCH, promo: ["UNAVEZ"] }], email);
    expect(purchase.items[0].paid_unit_price).toBe("21.90");
    const { status, body } = await validate(api, [{ option: PAELLA, promo: ["UNAVEZ"] }], email);
    expect(status).toBe(400);
    expect(errorTexts(body)).toEqual([expect.stringMatching(/Ya has usado/)]);
    const applyMine = await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "UNAVEZ", email } });
    expect(applyMine.status).toBe(400);
    expectSpanish(applyMine.body.detail);
    // Another buyer may still use it.
    expect((await validate(api, [{ option: PAELLA, promo: ["UNAVEZ"] }], newEmail())).status).toBe(200);
    expect((await call(api, "/public/offers/apply-promocode/", { body: { promo_code: "UNAVEZ", email: newEmail() } })).status).toBe(200);
  });

  it.each([
    ["without the user agreement", { subs_agreement: false }, [MESSAGES.agreementRequired]],
    ["with a bad email", { email: "no-es-un-correo" }, [MESSAGES.emailInvalid]],
    ["with an empty email", { email: "" }, [MESSAGES.emailRequired, MESSAGES.emailInvalid]],
    [
      "with a receipt but no tax id",
      { need_receipt: true, user_fullname: "Ana Pérez", user_address: "Calle Mayor 1, Madrid" },
      [MESSAGES.taxIdRequired],
    ],
    [
      "with a receipt and a bad NIF",
      { need_receipt: true, user_fullname: "Ana Pérez", user_address: "Calle Mayor 1, Madrid", user_tax_number: "12345678A" },
      [MESSAGES.taxIdInvalid],
    ],
    [
      "with a receipt and nothing else",
      { need_receipt: true },
      [MESSAGES.fullNameRequired, MESSAGES.taxIdRequired, MESSAGES.addressRequired],
    ],
  ])("checkout_data %s → 400 with errors", async (_name, checkout, expected) => {
    const body = orderBody([{ option: BRUNCH }], newEmail(), checkout);
    const response = await call(api, "/sales/validate/", { body });
    expect(response.status).toBe(400);
    expect(response.body.checkout_data.session_token).toBeUndefined();
    expect(errorTexts(response.body)).toEqual(expected);
  });

  it("checkout_data with a receipt and a valid NIF passes", async () => {
    const body = orderBody([{ option: BRUNCH }], newEmail(), {
      need_receipt: true,
      user_fullname: "Ana Pérez",
      user_address: "Calle Mayor 1, Madrid",
      user_tax_number: "12345678-z",
    });
    expect((await call(api, "/sales/validate/", { body })).status).toBe(200);
  });

  it.each([
    ["an empty cart", { items: [] }],
    ["no checkout_data", { checkout_data: undefined }],
    ["quantity 0", { items: [{ offer_price_uuid: PAELLA.uuid, quantity: 0, saved_price: "39.90", slot_id: null, promo_codes: [] }] }],
    ["a non-uuid option", { items: [{ offer_price_uuid: "x", quantity: 1, saved_price: "39.90", slot_id: null, promo_codes: [] }] }],
    ["a negative price", { items: [{ offer_price_uuid: PAELLA.uuid, quantity: 1, saved_price: "-1", slot_id: null, promo_codes: [] }] }],
  ])("a malformed order (%s) → 400 with errors, never 500", async (_name, patch) => {
    const body = { ...orderBody([{ option: PAELLA }], newEmail()), ...patch };
    const response = await call(api, "/sales/validate/", { body });
    expect(response.status).toBe(400);
    expect(response.body.errors.length).toBeGreaterThan(0);
  });
});

describe("promo code checks are rate limited per buyer address", () => {
  it("answers 429 in Spanish after 30 tries a minute from one address, and not for another", async () => {
    const from = (ip: string) =>
      call(api, "/public/offers/apply-promocode/", { body: { promo_code: "NOEXISTE" }, headers: { "X-Forwarded-For": ip } });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await from("203.0.113.7")).status);
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    const limited = await from("203.0.113.7");
    expect(limited.status).toBe(429);
    expectSpanish(limited.body.detail);
    expect((await from("198.51.100.9")).status).toBe(400);
  });
});
