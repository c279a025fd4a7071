// @vitest-environment node
import { afterAll, describe, expect, it, vi } from "vitest";
import { EMPTY_CART, MAX_CART_ITEMS, type Cart } from "#rules/cart";
import { MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM } from "#contract/sales";

// The cookie modules read the environment once, so it is set before they are first imported.
const SECRET = "unit-test-secret-0123456789abcdef";
const originalEnv = { SESSION_SECRET: process.env.SESSION_SECRET, NODE_ENV: process.env.NODE_ENV };
process.env.SESSION_SECRET = SECRET;
process.env.NODE_ENV = "test";

const { commitCart, getCart, decodeCart, encodeCart } = await import("#app/state/cart.server");
const { cookies } = await import("#app/state/cookies.server");

afterAll(() => {
  for (const [k, v] of Object.entries(originalEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const uuid = (n: number) => `${n.toString(16).padStart(8, "0")}-1111-4222-8333-444455556666`;

const sample: Cart = {
  items: [
    { offerUuid: uuid(1), priceOptionUuid: uuid(101), ticketsCount: 2, savedPrice: "59.90", slotId: null, gift: false },
    { offerUuid: uuid(2), priceOptionUuid: uuid(102), ticketsCount: 1, savedPrice: "12", slotId: "slot-2025-06-01-10h", gift: true },
  ],
  promoCodes: [
    { promo_code: "VERANO10", discount_type: "percent", discount_value: "10", offer_uuid: null },
    { promo_code: "SPA5", discount_type: "amount", discount_value: "5.00", offer_uuid: uuid(2) },
  ],
};

/** "__cart=abc; Max-Age=…; Path=/" → "__cart=abc" */
const pair = (setCookie: string) => setCookie.split(";")[0];
const requestWith = (cookie: string | null) =>
  new Request("http://localhost/checkout", cookie === null ? {} : { headers: { Cookie: cookie } });

/** Flips one character of a string to another of the same alphabet. */
function flip(text: string, index: number): string {
  const c = text[index];
  const replacement = c === "A" ? "B" : "A";
  return text.slice(0, index) + replacement + text.slice(index + 1);
}

describe("cart cookie round trip", () => {
  it("getCart reads back exactly what commitCart wrote", async () => {
    const header = await commitCart(sample);
    expect(header).toMatch(/^__cart=/);
    expect(await getCart(requestWith(pair(header)))).toEqual(sample);
  });

  it("sits among other cookies", async () => {
    const header = await commitCart(sample);
    expect(await getCart(requestWith(`other=1; ${pair(header)}; ofertas_consent=yes`))).toEqual(sample);
  });

  it("is signed, http-only, same-site lax, for the whole site, for 30 days", async () => {
    const header = await commitCart(sample);
    expect(header).toMatch(/; HttpOnly/i);
    expect(header).toMatch(/; SameSite=Lax/i);
    expect(header).toMatch(/; Path=\//);
    expect(header).toMatch(/; Max-Age=2592000/);
    // the value carries a signature: "<payload>.<signature>"
    const value = decodeURIComponent(pair(header).slice("__cart=".length));
    expect(value).toMatch(/^[^.]+\.[^.]+$/);
  });

  it("encodeCart and decodeCart are inverse", () => {
    expect(decodeCart(encodeCart(sample))).toEqual(sample);
    expect(decodeCart(encodeCart(EMPTY_CART))).toEqual(EMPTY_CART);
  });
});

describe("a bad cart cookie reads as an empty cart, never as an error", () => {
  it("no cookie at all", async () => {
    expect(await getCart(requestWith(null))).toEqual(EMPTY_CART);
    expect(await getCart(requestWith("other=1"))).toEqual(EMPTY_CART);
  });

  it("a flipped character in the payload", async () => {
    const value = decodeURIComponent(pair(await commitCart(sample)).slice("__cart=".length));
    const tampered = flip(value, 5);
    expect(tampered).not.toBe(value);
    expect(await getCart(requestWith(`__cart=${encodeURIComponent(tampered)}`))).toEqual(EMPTY_CART);
  });

  it("a flipped character in the signature", async () => {
    const value = decodeURIComponent(pair(await commitCart(sample)).slice("__cart=".length));
    const tampered = flip(value, value.lastIndexOf(".") + 3);
    expect(await getCart(requestWith(`__cart=${encodeURIComponent(tampered)}`))).toEqual(EMPTY_CART);
  });

  it("an unsigned payload", async () => {
    const value = decodeURIComponent(pair(await commitCart(sample)).slice("__cart=".length));
    const unsigned = value.slice(0, value.lastIndexOf("."));
    expect(await getCart(requestWith(`__cart=${encodeURIComponent(unsigned)}`))).toEqual(EMPTY_CART);
  });

  it.each(["__cart=%%%", "__cart=", "__cart=.", "__cart=e30.", "__cart=%E0%A4%A", "__cart=\u00ff\u00fe"])("garbage %j", async (cookie) => {
    await expect(getCart(requestWith(cookie))).resolves.toEqual(EMPTY_CART);
  });

  it("a valid signature over the wrong shape", async () => {
    for (const value of [{ v: 2 }, { v: 1 }, { v: 1, i: "x", p: [] }, [], "hola", 42]) {
      const header = await cookies().cart.serialize(value);
      expect(await getCart(requestWith(pair(header)))).toEqual(EMPTY_CART);
    }
  });

  it("a valid signature over items that break the limits", async () => {
    const wire = encodeCart(sample);
    const badTickets = { ...wire, i: wire.i.map((t) => [t[0], t[1], MAX_TICKETS_PER_ITEM + 1, t[3], t[4], t[5]]) };
    const badUuid = { ...wire, i: wire.i.map((t) => ["no-uuid", ...t.slice(1)]) };
    const tooMany = { ...wire, i: Array.from({ length: MAX_CART_ITEMS + 1 }, (_, n) => [uuid(n), uuid(n + 100), 1, null, 0, "1.00"]) };
    for (const value of [badTickets, badUuid, tooMany]) {
      const header = await cookies().cart.serialize(value);
      expect(await getCart(requestWith(pair(header)))).toEqual(EMPTY_CART);
    }
  });
});

describe("text the API could never store", () => {
  it("a NUL slot id or promo code in a signed cookie is dropped, keeping the items", async () => {
    const wire = encodeCart(sample);
    const poisoned = {
      ...wire,
      i: wire.i.map((t) => [t[0], t[1], t[2], "slot\u0000x", t[4], t[5]]),
      p: [...wire.p.slice(0, 1), ["BAD\uD800", "percent", "10", null]],
    };
    const cart = await getCart(requestWith(pair(await cookies().cart.serialize(poisoned))));
    expect(cart.items.map((i) => [i.offerUuid, i.slotId])).toEqual([
      [uuid(1), null],
      [uuid(2), null],
    ]);
    expect(cart.promoCodes.map((c) => c.promo_code)).toEqual(["VERANO10"]);
  });
});

describe("cookie size", () => {
  it("the largest cart allowed stays under the browsers' 4096-byte cookie limit", async () => {
    const largest: Cart = {
      items: Array.from({ length: MAX_CART_ITEMS }, (_, n) => ({
        offerUuid: uuid(n),
        priceOptionUuid: uuid(n + 1000),
        ticketsCount: MAX_TICKETS_PER_ITEM,
        savedPrice: "999999.99",
        slotId: `slot-${String(n).padStart(15, "0")}`, // 20 characters
        gift: true,
      })),
      promoCodes: Array.from({ length: MAX_PROMO_CODES }, (_, n) => ({
        promo_code: `${n}`.padEnd(40, "X"), // 40 characters
        discount_type: "fixed_price" as const,
        discount_value: "99999999999999999.99", // 20 characters
        offer_uuid: uuid(n),
      })),
    };
    expect(largest.items[0].offerUuid).toHaveLength(36);
    expect(largest.items[0].slotId).toHaveLength(20);
    const header = await commitCart(largest);
    expect(new TextEncoder().encode(header).length).toBeLessThan(4096);
    // and it is still readable, not silently dropped
    expect(await getCart(requestWith(pair(header)))).toEqual(largest);
  });

  it("an empty cart deletes the cookie (Max-Age=0)", async () => {
    const header = await commitCart(EMPTY_CART);
    expect(header).toMatch(/^__cart=;/);
    expect(header).toMatch(/Max-Age=0/);
    expect(await getCart(requestWith(pair(header)))).toEqual(EMPTY_CART);
  });

  it("a cart with only promo codes is kept", async () => {
    const onlyCodes: Cart = { items: [], promoCodes: sample.promoCodes };
    const header = await commitCart(onlyCodes);
    expect(header).not.toMatch(/Max-Age=0/);
    expect(await getCart(requestWith(pair(header)))).toEqual(onlyCodes);
  });
});

describe("secret rotation", () => {
  const OLD = "old-secret-0123456789abcdefghij";
  const NEW = "new-secret-0123456789abcdefghij";

  async function freshModules(secret: string) {
    vi.resetModules();
    process.env.SESSION_SECRET = secret;
    return import("#app/state/cart.server");
  }

  it("a cookie signed with the old secret still reads while it is listed after the new one", async () => {
    const before = await freshModules(OLD);
    const oldCookie = pair(await before.commitCart(sample));

    const rotated = await freshModules(`${NEW},${OLD}`);
    expect(await rotated.getCart(requestWith(oldCookie))).toEqual(sample);

    // the newest secret signs from now on: a server knowing only the old one can't read it
    const newCookie = pair(await rotated.commitCart(sample));
    expect(newCookie).not.toBe(oldCookie);
    expect(await rotated.getCart(requestWith(newCookie))).toEqual(sample);
    const oldOnly = await freshModules(OLD);
    expect(await oldOnly.getCart(requestWith(newCookie))).toEqual(EMPTY_CART);

    // once the old secret is dropped, its cookies read as an empty cart
    const newOnly = await freshModules(NEW);
    expect(await newOnly.getCart(requestWith(oldCookie))).toEqual(EMPTY_CART);
    expect(await newOnly.getCart(requestWith(newCookie))).toEqual(sample);

    process.env.SESSION_SECRET = SECRET;
    vi.resetModules();
  });
});

describe("a gift line", () => {
  const giftTo = {
    recipient_name: "Lucía",
    sender_name: "Marta",
    recipient_email: "lucia@correo.es",
    message: "¡Feliz!",
    send_on: "2026-12-24",
  };
  const withGift: Cart = { items: [{ ...sample.items[1], giftTo }], promoCodes: [] };

  it("keeps who it is for and who gives it", async () => {
    expect(await getCart(requestWith(pair(await commitCart(withGift))))).toEqual(withGift);
  });

  it("saved before «De parte de» existed still reads, with no giver", () => {
    const wire = encodeCart(withGift) as { i: unknown[][] };
    const old = { ...wire, i: wire.i.map((line) => [...line.slice(0, 6), (line[6] as unknown[]).slice(0, 4)]) };
    expect(decodeCart(old)?.items[0].giftTo).toEqual({ ...giftTo, sender_name: null });
  });
});
