import { describe, expect, it } from "vitest";
import {
  CART_FULL_MESSAGE,
  EMPTY_CART,
  MAX_CART_ITEMS,
  addPromoCode,
  addToCart,
  cartFingerprint,
  forPresent,
  removeFromCart,
  removePromoCode,
  setGift,
  ticketCount,
  updateTickets,
  type Cart,
  type CartItem,
} from "#rules/cart";
import type { PromoCode } from "#rules/prices";
import { CartActionSchema, optionTicketsField, withChosenTickets } from "#app/forms/cart-form";
import { MAX_PROMO_CODES } from "#contract/sales";

const item = (n: number, over: Partial<CartItem> = {}): Omit<CartItem, "gift"> & { gift?: boolean } => ({
  offerUuid: `offer-${n}`,
  priceOptionUuid: `option-${n}-a`,
  ticketsCount: 1,
  savedPrice: "10.00",
  slotId: null,
  ...over,
});

const code = (promo_code: string, over: Partial<PromoCode> = {}): PromoCode => ({
  promo_code,
  discount_type: "percent",
  discount_value: "10",
  ...over,
});

/** Adds items one by one, failing the test on any error. */
function cartWith(...items: ReturnType<typeof item>[]): Cart {
  return items.reduce<Cart>((cart, i) => {
    const change = addToCart(cart, i);
    expect(change.error).toBeUndefined();
    return change.cart;
  }, EMPTY_CART);
}

const full = () => cartWith(...Array.from({ length: MAX_CART_ITEMS }, (_, n) => item(n)));

describe("addToCart", () => {
  it("adds a new offer with gift off by default", () => {
    const { cart, error } = addToCart(EMPTY_CART, item(1, { ticketsCount: 2 }));
    expect(error).toBeUndefined();
    expect(cart.items).toEqual([{ ...item(1, { ticketsCount: 2 }), gift: false }]);
    expect(EMPTY_CART.items).toEqual([]); // not mutated
  });

  it("adding an offer already in the cart updates option and count instead of repeating it", () => {
    const before = cartWith(item(1), item(2));
    const { cart } = addToCart(before, item(1, { priceOptionUuid: "option-1-b", ticketsCount: 3, savedPrice: "12.00" }));
    expect(cart.items).toHaveLength(2);
    expect(cart.items[0]).toEqual({ ...item(1, { priceOptionUuid: "option-1-b", ticketsCount: 3, savedPrice: "12.00" }), gift: false });
    expect(cart.items[1]).toEqual(before.items[1]); // order and other items untouched
    expect(before.items[0].ticketsCount).toBe(1); // the old cart is not mutated
  });

  it("re-adding keeps the gift flag unless a new one is given", () => {
    const gifted = setGift(cartWith(item(1)), "offer-1", true);
    expect(addToCart(gifted, item(1, { ticketsCount: 2 })).cart.items[0].gift).toBe(true);
    expect(addToCart(gifted, { ...item(1), gift: false }).cart.items[0].gift).toBe(false);
  });

  it(`refuses an 11th offer when ${MAX_CART_ITEMS} are in the cart, leaving it unchanged`, () => {
    const cart = full();
    expect(cart.items).toHaveLength(MAX_CART_ITEMS);
    const change = addToCart(cart, item(99));
    expect(change.error).toBe(CART_FULL_MESSAGE);
    expect(change.error).toMatch(/lleno/);
    expect(change.error).toContain(String(MAX_CART_ITEMS));
    expect(change.cart).toBe(cart);
    expect(change.cart.items.map((i) => i.offerUuid)).not.toContain("offer-99");
  });

  it("a full cart still accepts a change to an offer it holds", () => {
    const change = addToCart(full(), item(3, { ticketsCount: 5 }));
    expect(change.error).toBeUndefined();
    expect(change.cart.items).toHaveLength(MAX_CART_ITEMS);
    expect(change.cart.items.find((i) => i.offerUuid === "offer-3")?.ticketsCount).toBe(5);
  });
});

describe("removing, updating, gifts", () => {
  it("removeFromCart removes the item and its gift flag", () => {
    let cart = cartWith(item(1), item(2));
    cart = setGift(cart, "offer-1", true);
    cart = setGift(cart, "offer-2", true);
    cart = removeFromCart(cart, "offer-1");
    expect(cart.items.map((i) => i.offerUuid)).toEqual(["offer-2"]);
    expect(forPresent(cart)).toEqual(["offer-2"]);
    // adding it again starts without the old gift flag
    expect(forPresent(addToCart(cart, item(1)).cart)).toEqual(["offer-2"]);
  });

  it("removing one of several items keeps the promo codes", () => {
    const cart = addPromoCode(cartWith(item(1), item(2)), code("VERANO")).cart;
    expect(removeFromCart(cart, "offer-1").promoCodes).toEqual([code("VERANO")]);
  });

  it("removing the last item clears the promo codes", () => {
    const cart = addPromoCode(cartWith(item(1)), code("VERANO")).cart;
    expect(removeFromCart(cart, "offer-1")).toEqual({ items: [], promoCodes: [] });
  });

  it("removing an offer that is not in the cart changes nothing", () => {
    const cart = cartWith(item(1));
    expect(removeFromCart(cart, "offer-9")).toEqual(cart);
  });

  it("updateTickets changes only that offer's count", () => {
    const cart = updateTickets(cartWith(item(1), item(2, { ticketsCount: 2 })), "offer-1", 4);
    expect(cart.items.map((i) => i.ticketsCount)).toEqual([4, 2]);
    expect(ticketCount(cart)).toBe(6);
  });

  it("setGift and forPresent", () => {
    let cart = cartWith(item(1), item(2), item(3));
    expect(forPresent(cart)).toEqual([]);
    cart = setGift(cart, "offer-3", true);
    cart = setGift(cart, "offer-1", true);
    expect(forPresent(cart)).toEqual(["offer-1", "offer-3"]);
    cart = setGift(cart, "offer-1", false);
    expect(forPresent(cart)).toEqual(["offer-3"]);
  });
});

describe("promo codes", () => {
  it("adds codes and replaces one with the same code instead of repeating it", () => {
    let cart = addPromoCode(EMPTY_CART, code("VERANO")).cart;
    cart = addPromoCode(cart, code("NAVIDAD")).cart;
    cart = addPromoCode(cart, code("VERANO", { discount_type: "amount", discount_value: "5" })).cart;
    expect(cart.promoCodes.map((c) => c.promo_code).sort()).toEqual(["NAVIDAD", "VERANO"]);
    expect(cart.promoCodes.find((c) => c.promo_code === "VERANO")).toEqual(
      code("VERANO", { discount_type: "amount", discount_value: "5" }),
    );
  });

  it(`refuses more than ${MAX_PROMO_CODES} codes, leaving the cart unchanged`, () => {
    let cart = EMPTY_CART;
    for (let n = 0; n < MAX_PROMO_CODES; n++) {
      const change = addPromoCode(cart, code(`CODE${n}`));
      expect(change.error).toBeUndefined();
      cart = change.cart;
    }
    const refused = addPromoCode(cart, code("ONEMORE"));
    expect(refused.error).toBe(`Puedes aplicar como máximo ${MAX_PROMO_CODES} códigos promocionales.`);
    expect(refused.cart).toBe(cart);
    expect(refused.cart.promoCodes).toHaveLength(MAX_PROMO_CODES);
    // replacing a code already applied is still allowed at the limit
    const replaced = addPromoCode(cart, code("CODE2", { discount_value: "20" }));
    expect(replaced.error).toBeUndefined();
    expect(replaced.cart.promoCodes).toHaveLength(MAX_PROMO_CODES);
    expect(replaced.cart.promoCodes.find((c) => c.promo_code === "CODE2")?.discount_value).toBe("20");
  });

  it("removePromoCode removes only that code", () => {
    let cart = addPromoCode(EMPTY_CART, code("A")).cart;
    cart = addPromoCode(cart, code("B")).cart;
    expect(removePromoCode(cart, "A").promoCodes.map((c) => c.promo_code)).toEqual(["B"]);
    expect(removePromoCode(cart, "Z").promoCodes).toHaveLength(2);
  });
});

describe("cartFingerprint", () => {
  const base = () => addPromoCode(setGift(cartWith(item(1), item(2)), "offer-2", true), code("VERANO")).cart;

  it("is stable for the same contents", () => {
    expect(cartFingerprint(base())).toBe(cartFingerprint(base()));
    expect(cartFingerprint(structuredClone(base()))).toBe(cartFingerprint(base()));
    expect(cartFingerprint(EMPTY_CART)).toBe(cartFingerprint({ items: [], promoCodes: [] }));
  });

  it("does not depend on the order promo codes were applied in", () => {
    const ab = addPromoCode(addPromoCode(cartWith(item(1)), code("A")).cart, code("B")).cart;
    const ba = addPromoCode(addPromoCode(cartWith(item(1)), code("B")).cart, code("A")).cart;
    expect(cartFingerprint(ab)).toBe(cartFingerprint(ba));
  });

  it("changes whenever what would be bought changes", () => {
    const original = cartFingerprint(base());
    const variants: Cart[] = [
      updateTickets(base(), "offer-1", 2),
      addToCart(base(), item(1, { priceOptionUuid: "option-1-b" })).cart,
      addToCart(base(), item(1, { slotId: "slot-9" })).cart,
      setGift(base(), "offer-1", true),
      setGift(base(), "offer-2", false),
      removeFromCart(base(), "offer-1"),
      addToCart(base(), item(3)).cart,
      addPromoCode(base(), code("OTRO")).cart,
      removePromoCode(base(), "VERANO"),
      EMPTY_CART,
    ];
    const prints = variants.map(cartFingerprint);
    for (const p of prints) expect(p).not.toBe(original);
    expect(new Set(prints).size).toBe(prints.length);
  });

  it("is a short string", () => {
    expect(cartFingerprint(full())).toMatch(/^[0-9a-z]{1,8}$/);
  });
});

describe("the offer page's ticket fields, one per option", () => {
  const offerUuid = "abb20594-79b0-5139-a45c-9a876fad5d01";
  const [a, b] = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"];
  it("count the chosen option's field, not another option's", () => {
    const posted = { intent: "add", offerUuid, priceOptionUuid: b, [optionTicketsField(a)]: "9", [optionTicketsField(b)]: "2" };
    const parsed = CartActionSchema.parse(withChosenTickets(posted));
    expect(parsed).toMatchObject({ intent: "add", priceOptionUuid: b, ticketsCount: 2 });
  });

  it("leave a form with one ticketsCount (the checkout's, a client of the old page) as it is", () => {
    const posted = { intent: "add", offerUuid, priceOptionUuid: a, ticketsCount: "3", [optionTicketsField(a)]: "1" };
    expect(CartActionSchema.parse(withChosenTickets(posted))).toMatchObject({ ticketsCount: 3 });
    expect(CartActionSchema.safeParse(withChosenTickets({ intent: "add", offerUuid, priceOptionUuid: a })).success).toBe(false);
  });
});
