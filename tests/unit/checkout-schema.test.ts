import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { CheckoutDataSchema, MESSAGES, checkoutFormSchema, toCheckoutData, type CheckoutForm } from "#contract/checkout";
import { MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM, ValidateOrderSchema } from "#contract/sales";

const GIFT_UUID = "3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f";
const OPTION_UUID = "0b6f7c2a-8e3d-4f1b-a9c5-6d7e8f901234";

/** A FormData as the browser sends the checkout form: unchecked boxes are absent, checked ones are "on". */
function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return data;
}

function parse(fields: Record<string, string>, wallet = false) {
  return parseWithZod(form(fields), { schema: checkoutFormSchema({ wallet }) });
}

function errorsOf(fields: Record<string, string>, wallet = false): Record<string, string[] | null> {
  const submission = parse(fields, wallet);
  expect(submission.status).toBe("error");
  return submission.reply().error ?? {};
}

function valueOf(fields: Record<string, string>, wallet = false): CheckoutForm {
  const submission = parse(fields, wallet);
  if (submission.status !== "success") throw new Error(`expected success, got ${JSON.stringify(submission.reply().error)}`);
  return submission.value;
}

const minimal = { email: "ana@correo.es", subs_agreement: "on" };
const receipt = {
  ...minimal,
  need_receipt: "on",
  user_fullname: "Ana Pérez García",
  user_tax_number: "12.345.678-z",
  user_address: "Calle Mayor 1, 28013 Madrid",
};

describe("checkoutFormSchema with conform", () => {
  it("accepts the minimal form: e-mail and the agreement", () => {
    expect(valueOf(minimal)).toEqual({ email: "ana@correo.es", subs_agreement: true, mail_agreement: false, need_receipt: false });
  });

  it("trims and lower-cases the e-mail", () => {
    expect(valueOf({ ...minimal, email: "  Ana.Perez@Correo.ES " }).email).toBe("ana.perez@correo.es");
  });

  it("requires the e-mail, in Spanish", () => {
    expect(errorsOf({ subs_agreement: "on" }).email).toEqual([MESSAGES.emailRequired]);
    // Whitespace only: trimmed to "", so "required" comes first (the page shows errors[0]); zod also
    // runs the format refinement, so a second message follows.
    expect(errorsOf({ subs_agreement: "on", email: "   " }).email?.[0]).toBe(MESSAGES.emailRequired);
  });

  it("rejects a malformed e-mail, in Spanish", () => {
    expect(errorsOf({ ...minimal, email: "ana@correo" }).email).toEqual([MESSAGES.emailInvalid]);
    expect(MESSAGES.emailInvalid).toMatch(/correo electrónico válido/);
  });

  it("without the agreement checkbox, says so on subs_agreement", () => {
    const errors = errorsOf({ email: "ana@correo.es" });
    expect(errors.subs_agreement).toEqual([MESSAGES.agreementRequired]);
    expect(MESSAGES.agreementRequired).toBe("Debes aceptar el acuerdo de usuario para continuar.");
    expect(Object.keys(errors)).toEqual(["subs_agreement"]);
  });

  it("need_receipt without the receipt fields asks for each of them", () => {
    const errors = errorsOf({ ...minimal, need_receipt: "on" });
    expect(errors.user_fullname).toEqual([MESSAGES.fullNameRequired]);
    expect(errors.user_tax_number).toEqual([MESSAGES.taxIdRequired]);
    expect(errors.user_address).toEqual([MESSAGES.addressRequired]);
  });

  it("blank receipt fields count as missing", () => {
    const errors = errorsOf({ ...minimal, need_receipt: "on", user_fullname: "  ", user_tax_number: "", user_address: " " });
    expect(errors.user_fullname).toEqual([MESSAGES.fullNameRequired]);
    expect(errors.user_tax_number).toEqual([MESSAGES.taxIdRequired]);
    expect(errors.user_address).toEqual([MESSAGES.addressRequired]);
  });

  it("an invalid NIF gets its own message", () => {
    const errors = errorsOf({ ...receipt, user_tax_number: "12345678A" });
    expect(errors.user_tax_number).toEqual([MESSAGES.taxIdInvalid]);
    expect(errors.user_fullname).toBeUndefined();
    expect(errors.user_address).toBeUndefined();
  });

  it("accepts a complete receipt", () => {
    expect(valueOf(receipt)).toMatchObject({
      need_receipt: true,
      user_fullname: "Ana Pérez García",
      user_tax_number: "12.345.678-z",
      user_address: "Calle Mayor 1, 28013 Madrid",
    });
  });

  it("without a receipt, the receipt fields are not checked", () => {
    expect(parse({ ...minimal, user_tax_number: "nonsense" }).status).toBe("success");
  });

  it("with a wallet provider, the full name is required even without a receipt", () => {
    const errors = errorsOf(minimal, true);
    expect(errors.user_fullname).toEqual([MESSAGES.fullNameRequired]);
    expect(errors.user_tax_number).toBeUndefined();
    expect(errors.user_address).toBeUndefined();
    expect(valueOf({ ...minimal, user_fullname: "Ana Pérez" }, true).user_fullname).toBe("Ana Pérez");
  });

  it("reports every mistake at once (a bad e-mail, no agreement, an incomplete receipt)", () => {
    const errors = errorsOf({ email: "ana@correo", need_receipt: "on" });
    expect(Object.keys(errors).sort()).toEqual(["email", "subs_agreement", "user_address", "user_fullname", "user_tax_number"]);
  });

  // The browser sends an empty e-mail field as "", which conform turns into undefined. z.string()
  // then fails with required_error and zod never runs the object's superRefine, so the agreement and
  // receipt errors only appear after a second submit.
  it("reports every mistake at once when the e-mail field is left empty", () => {
    const errors = errorsOf({ email: "", need_receipt: "on" });
    expect(errors.email).toEqual([MESSAGES.emailRequired]);
    expect(Object.keys(errors).sort()).toEqual(["email", "subs_agreement", "user_address", "user_fullname", "user_tax_number"]);
  });

  it("limits the length of free text", () => {
    const errors = errorsOf({ ...receipt, user_address: "x".repeat(301) });
    expect(errors.user_address).toEqual(["Como máximo 300 caracteres."]);
  });
});

describe("toCheckoutData (spec 5: receipt fields dropped without a receipt)", () => {
  it("without a receipt drops address, tax number and full name", () => {
    const value = valueOf({ ...minimal, user_fullname: "Ana", user_tax_number: "12345678Z", user_address: "Calle 1" });
    const data = toCheckoutData(value, { wallet: false, forPresent: [] });
    expect(data).toEqual({
      subs_agreement: true,
      email: "ana@correo.es",
      mail_agreement: false,
      need_receipt: false,
      for_present: [],
      gifts: [],
    });
    expect(data).not.toHaveProperty("user_fullname");
    expect(data).not.toHaveProperty("user_tax_number");
    expect(data).not.toHaveProperty("user_address");
  });

  it("with a wallet provider keeps the full name (only)", () => {
    const value = valueOf({ ...minimal, user_fullname: "Ana Pérez", user_tax_number: "12345678Z", user_address: "Calle 1" }, true);
    const data = toCheckoutData(value, { wallet: true, forPresent: [] });
    expect(data).toEqual({
      subs_agreement: true,
      email: "ana@correo.es",
      mail_agreement: false,
      need_receipt: false,
      user_fullname: "Ana Pérez",
      for_present: [],
      gifts: [],
    });
  });

  it("with a receipt keeps every field and normalises the tax id", () => {
    const data = toCheckoutData(valueOf(receipt), { wallet: false, forPresent: [] });
    expect(data).toEqual({
      subs_agreement: true,
      email: "ana@correo.es",
      mail_agreement: false,
      need_receipt: true,
      user_fullname: "Ana Pérez García",
      user_tax_number: "12345678Z",
      user_address: "Calle Mayor 1, 28013 Madrid",
      for_present: [],
      gifts: [],
    });
  });

  it("passes the optional marketing consent, unticked by default", () => {
    expect(toCheckoutData(valueOf({ ...minimal, mail_agreement: "on" }), { wallet: false, forPresent: [] }).mail_agreement).toBe(true);
    expect(toCheckoutData(valueOf(minimal), { wallet: false, forPresent: [] }).mail_agreement).toBe(false);
  });

  it("passes for_present through", () => {
    expect(toCheckoutData(valueOf(minimal), { wallet: false, forPresent: [GIFT_UUID] }).for_present).toEqual([GIFT_UUID]);
  });

  it("its output is accepted by the API's CheckoutDataSchema, unchanged", () => {
    const cases = [
      toCheckoutData(valueOf(minimal), { wallet: false, forPresent: [] }),
      toCheckoutData(valueOf({ ...minimal, user_fullname: "Ana" }, true), { wallet: true, forPresent: [GIFT_UUID] }),
      toCheckoutData(valueOf(receipt), { wallet: false, forPresent: [GIFT_UUID] }),
      toCheckoutData(valueOf(receipt, true), { wallet: true, forPresent: [] }),
    ];
    for (const data of cases) {
      const parsed = CheckoutDataSchema.safeParse(JSON.parse(JSON.stringify(data)));
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(parsed.data).toEqual(data);
    }
  });
});

describe("CheckoutDataSchema (API side)", () => {
  const base = { subs_agreement: true, email: "ana@correo.es" };

  it("requires subs_agreement to be literally true", () => {
    for (const subs_agreement of [false, "on", "true", undefined]) {
      const result = CheckoutDataSchema.safeParse({ ...base, subs_agreement });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({ path: ["subs_agreement"], message: MESSAGES.agreementRequired });
    }
  });

  it("applies the receipt rules and defaults", () => {
    expect(CheckoutDataSchema.parse(base)).toEqual({ ...base, mail_agreement: false, need_receipt: false, for_present: [], gifts: [] });
    const result = CheckoutDataSchema.safeParse({
      ...base,
      need_receipt: true,
      user_fullname: "Ana",
      user_address: "Calle 1",
      user_tax_number: "B12345675",
    });
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([["user_tax_number", MESSAGES.taxIdInvalid]]);
  });

  it("refuses for_present entries that are not uuids", () => {
    expect(CheckoutDataSchema.safeParse({ ...base, for_present: ["not-a-uuid"] }).success).toBe(false);
  });
});

describe("ValidateOrderSchema (POST /sales/validate/)", () => {
  const item = { offer_price_uuid: OPTION_UUID, quantity: 2, saved_price: "59.90", slot_id: null, promo_codes: [] as string[] };
  const checkout_data = { subs_agreement: true, email: "ana@correo.es", need_receipt: false };
  const body = (over: Partial<typeof item> = {}) => ({ items: [{ ...item, ...over }], checkout_data });
  const issuesAt = (input: unknown) => {
    const result = ValidateOrderSchema.safeParse(input);
    expect(result.success).toBe(false);
    return result.error!.issues.map((i) => i.path.join("."));
  };

  it("accepts a well-formed order", () => {
    const parsed = ValidateOrderSchema.parse(body());
    expect(parsed.items[0]).toEqual(item);
    expect(parsed.checkout_data).toEqual({ ...checkout_data, mail_agreement: false, for_present: [], gifts: [] });
  });

  it("rejects quantity 0, a fractional or too large quantity", () => {
    expect(issuesAt(body({ quantity: 0 }))).toEqual(["items.0.quantity"]);
    expect(issuesAt(body({ quantity: 1.5 }))).toEqual(["items.0.quantity"]);
    expect(issuesAt(body({ quantity: MAX_TICKETS_PER_ITEM + 1 }))).toEqual(["items.0.quantity"]);
    expect(ValidateOrderSchema.safeParse(body({ quantity: MAX_TICKETS_PER_ITEM })).success).toBe(true);
  });

  it("rejects an offer_price_uuid that is not a uuid", () => {
    expect(issuesAt(body({ offer_price_uuid: "123" }))).toEqual(["items.0.offer_price_uuid"]);
  });

  it.each(["abc", "", "-5.00", "12.345", "12,50", "1e3"])("rejects saved_price %j", (saved_price) => {
    expect(issuesAt(body({ saved_price }))).toEqual(["items.0.saved_price"]);
  });

  it.each(["12", "12.5", "12.50", "0.00"])("accepts saved_price %j", (saved_price) => {
    expect(ValidateOrderSchema.safeParse(body({ saved_price })).success).toBe(true);
  });

  it("trims and upper-cases promo codes", () => {
    const parsed = ValidateOrderSchema.parse(body({ promo_codes: ["verano10", " Navidad "] }));
    expect(parsed.items[0].promo_codes).toEqual(["VERANO10", "NAVIDAD"]);
  });

  it("limits the number and length of promo codes", () => {
    const many = Array.from({ length: MAX_PROMO_CODES + 1 }, (_, i) => `CODE${i}`);
    expect(issuesAt(body({ promo_codes: many }))).toEqual(["items.0.promo_codes"]);
    expect(issuesAt(body({ promo_codes: ["X".repeat(41)] }))).toEqual(["items.0.promo_codes.0"]);
    expect(issuesAt(body({ promo_codes: ["  "] }))).toEqual(["items.0.promo_codes.0"]);
  });

  it("rejects an empty order and bad checkout data", () => {
    expect(issuesAt({ items: [], checkout_data })).toEqual(["items"]);
    expect(issuesAt({ items: [item], checkout_data: { ...checkout_data, email: "nope" } })).toEqual(["checkout_data.email"]);
  });
});
