import { and, desc, eq, sql } from "drizzle-orm";
import { mergeCarts, EMPTY_CART, type Cart } from "#rules/cart";
import type { Config } from "#platform/config.server";
import { fromCents } from "#rules/prices";
import { CartSchema, type CustomerPurchase } from "#contract/customer";
import { query, type Executor } from "#api/db/client";
import { anonymousSessions, customerCarts, favorites, offers } from "#api/db/schema";
import { verifyToken } from "#api/auth/tokens";
import { selectedOffers } from "#api/services/offers/cards";
import { couponStatuses } from "#api/services/sales/coupon-refunds";

/** Whose data a /customer/ call is about: an account, or an anonymous session token. */
export type Owner = { kind: "user"; id: string } | { kind: "anonymous"; id: string };

const existingOffers = async (db: Executor, ids: string[]) => {
  if (ids.length === 0) return [];
  const rows = await query<{ id: string }>(
    db,
    sql`SELECT id FROM offers WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => known.has(id));
};

async function anonymousFavorites(db: Executor, id: string): Promise<string[]> {
  const [row] = await db.select({ favorites: anonymousSessions.favorites }).from(anonymousSessions).where(eq(anonymousSessions.id, id));
  return Array.isArray(row?.favorites) ? (row.favorites as string[]) : [];
}

/** Favourite offer ids, newest first. */
export async function favoriteIds(db: Executor, owner: Owner): Promise<string[]> {
  if (owner.kind === "anonymous") return anonymousFavorites(db, owner.id);
  const rows = await db
    .select({ id: favorites.offerId })
    .from(favorites)
    .innerJoin(offers, eq(offers.id, favorites.offerId))
    .where(eq(favorites.userId, owner.id))
    .orderBy(desc(favorites.createdAt));
  return rows.map((r) => r.id);
}

export async function favoriteOffers(db: Executor, owner: Owner) {
  return selectedOffers(db, await favoriteIds(db, owner));
}

/** Adds or removes one favourite; answers whether it is one now. */
export async function toggleFavorite(db: Executor, owner: Owner, offerId: string): Promise<boolean> {
  if (owner.kind === "anonymous") {
    const list = await anonymousFavorites(db, owner.id);
    const next = list.includes(offerId) ? list.filter((id) => id !== offerId) : [offerId, ...list].slice(0, 200);
    await db.update(anonymousSessions).set({ favorites: next }).where(eq(anonymousSessions.id, owner.id));
    return next.includes(offerId);
  }
  const removed = await db
    .delete(favorites)
    .where(and(eq(favorites.userId, owner.id), eq(favorites.offerId, offerId)))
    .returning({ id: favorites.offerId });
  if (removed.length > 0) return false;
  await db.insert(favorites).values({ userId: owner.id, offerId }).onConflictDoNothing();
  return true;
}

/** sync-list: a merge. It adds what is missing and never drops a favourite. */
export async function addFavorites(db: Executor, owner: Owner, ids: string[]): Promise<string[]> {
  const wanted = await existingOffers(db, [...new Set(ids)]);
  if (owner.kind === "anonymous") {
    const list = await anonymousFavorites(db, owner.id);
    const next = [...wanted.filter((id) => !list.includes(id)), ...list].slice(0, 200);
    await db.update(anonymousSessions).set({ favorites: next }).where(eq(anonymousSessions.id, owner.id));
    return next;
  }
  if (wanted.length)
    await db
      .insert(favorites)
      .values(wanted.map((offerId) => ({ userId: owner.id, offerId })))
      .onConflictDoNothing();
  return favoriteIds(db, owner);
}

export async function getCart(db: Executor, owner: Owner): Promise<Cart> {
  const [row] =
    owner.kind === "user"
      ? await db.select({ cart: customerCarts.cart }).from(customerCarts).where(eq(customerCarts.userId, owner.id))
      : await db.select({ cart: anonymousSessions.cart }).from(anonymousSessions).where(eq(anonymousSessions.id, owner.id));
  const parsed = CartSchema.safeParse(row?.cart);
  return parsed.success ? parsed.data : EMPTY_CART;
}

export async function saveCart(db: Executor, owner: Owner, cart: Cart): Promise<Cart> {
  if (owner.kind === "anonymous") {
    await db.update(anonymousSessions).set({ cart }).where(eq(anonymousSessions.id, owner.id));
  } else {
    await db
      .insert(customerCarts)
      .values({ userId: owner.id, cart })
      .onConflictDoUpdate({ target: customerCarts.userId, set: { cart, updatedAt: new Date() } });
  }
  return cart;
}

/**
 * At login, what a cookie-less client kept under its anonymous token joins the account: the
 * favourites are added, the cart merges (the anonymous cart's items win, they are the newest).
 * A token that does not verify, or was merged already, changes nothing.
 */
export async function mergeAnonymousSession(db: Executor, config: Config, token: string, userId: string) {
  const claims = await verifyToken(config, token, "anonymous").catch(() => null);
  if (!claims?.sub) return;
  const [row] = await db.select().from(anonymousSessions).where(eq(anonymousSessions.id, claims.sub));
  if (!row || row.mergedInto) return;
  const user: Owner = { kind: "user", id: userId };
  const favs = Array.isArray(row.favorites) ? (row.favorites as string[]) : [];
  if (favs.length) await addFavorites(db, user, favs);
  const anonCart = CartSchema.safeParse(row.cart);
  if (anonCart.success && anonCart.data.items.length) await saveCart(db, user, mergeCarts(await getCart(db, user), anonCart.data));
  await db.update(anonymousSessions).set({ mergedInto: userId, favorites: [], cart: null }).where(eq(anonymousSessions.id, row.id));
}

type PurchaseRow = {
  sale_id: string;
  created_at: string | Date;
  paid_at: string | Date | null;
  status: string;
  total_cents: number;
  currency: string;
  email: string;
};

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/**
 * GET /customer/purchases/: the account's sales, newest first, with each line's coupons and their
 * state. Unpaid reservations that lapsed are left out: they were never purchases.
 */
export async function customerPurchases(db: Executor, userId: string, page: number, pageSize: number) {
  const shown = sql`s.user_id = ${userId} AND s.status IN ('paid', 'pending', 'refund_required', 'refunded')`;
  const [{ n }] = await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM sales s WHERE ${shown}`);
  const sales = await query<PurchaseRow>(
    db,
    sql`
    SELECT s.id AS sale_id, s.created_at, s.paid_at, s.status, s.total_cents, s.currency, s.email
    FROM sales s WHERE ${shown}
    ORDER BY s.created_at DESC, s.id
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
  );
  const ids = sales.map((s) => s.sale_id);
  const items = ids.length
    ? await query<{
        id: string;
        sale_id: string;
        offer_uuid: string;
        title: string;
        option_title: string;
        quantity: number;
        paid_unit_cents: number;
        for_present: boolean;
        valid_until: string | Date | null;
        gift_recipient_name: string | null;
        gift_sender_name: string | null;
        gift_recipient_email: string | null;
        gift_message: string | null;
        gift_send_on: string | Date | null;
        gift_sent_at: string | Date | null;
      }>(
        db,
        sql`
        SELECT si.id, si.sale_id, si.offer_id AS offer_uuid, o.title, po.title AS option_title, si.quantity,
               si.paid_unit_cents, si.for_present, o.valid_until,
               si.gift_recipient_name, si.gift_sender_name, si.gift_recipient_email, si.gift_message, si.gift_send_on::text AS gift_send_on,
               (SELECT m.sent_at FROM mail_outbox m WHERE m.dedupe_key = 'gift:' || si.id AND m.status = 'sent') AS gift_sent_at
        FROM sale_items si JOIN offers o ON o.id = si.offer_id JOIN price_options po ON po.id = si.price_option_id
        WHERE si.sale_id IN (${sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        ORDER BY si.id`,
      )
    : [];
  const itemIds = items.map((i) => i.id);
  const coupons = itemIds.length
    ? await query<{ id: string; sale_item_id: string; code: string }>(
        db,
        sql`
        SELECT c.id, c.sale_item_id, c.code
        FROM coupons c WHERE c.sale_item_id IN (${sql.join(
          itemIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        ORDER BY c.code`,
      )
    : [];
  const statuses = await couponStatuses(db, ids);
  const results: CustomerPurchase[] = sales.map((s) => ({
    sale_id: s.sale_id,
    created_at: iso(s.created_at)!,
    paid_at: iso(s.paid_at),
    status: s.status,
    total: fromCents(Number(s.total_cents)),
    currency: s.currency,
    email: s.email,
    items: items
      .filter((i) => i.sale_id === s.sale_id)
      .map((i) => {
        const validUntil = i.valid_until ? new Date(i.valid_until).toISOString().slice(0, 10) : null;
        return {
          offer_uuid: i.offer_uuid,
          title: i.title,
          option_title: i.option_title,
          quantity: i.quantity,
          paid_unit_price: fromCents(Number(i.paid_unit_cents)),
          for_present: i.for_present,
          gift:
            i.gift_recipient_name === null
              ? null
              : {
                  recipient_name: i.gift_recipient_name,
                  sender_name: i.gift_sender_name,
                  recipient_email: i.gift_recipient_email,
                  message: i.gift_message ?? "",
                  send_on: i.gift_send_on === null ? null : String(i.gift_send_on).slice(0, 10),
                  sent_at: iso(i.gift_sent_at),
                },
          valid_until: validUntil,
          coupons: coupons
            .filter((c) => c.sale_item_id === i.id)
            .map((c) => statuses.get(c.id) ?? { uuid: c.id, code: c.code, state: "refunded" as const, refundable: false, refund: null }),
        };
      }),
  }));
  return { count: Number(n), results };
}

/** A coupon of this account's paid sales, or null: someone else's coupon is indistinguishable from none. */
export async function ownedCoupon(db: Executor, userId: string, couponId: string) {
  const [row] = await query<{ id: string; code: string; sale_id: string; sale_item_id: string }>(
    db,
    sql`
    SELECT c.id, c.code, s.id AS sale_id, si.id AS sale_item_id
    FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id
    WHERE c.id = ${couponId} AND s.user_id = ${userId} AND s.status = 'paid'`,
  );
  return row ?? null;
}

/** GET /sales/reserve_exists/{offer}/: the customer's unpaid, unexpired reservation of that offer. */
export async function openReservation(db: Executor, userId: string, offerId: string) {
  const [row] = await query<{ sale_id: string; transaction_id: string; redirect_url: string | null; expires_at: string | Date }>(
    db,
    sql`
    SELECT s.id AS sale_id, t.id AS transaction_id, t.redirect_url, s.expires_at
    FROM sales s
    JOIN sale_items si ON si.sale_id = s.id
    JOIN payment_transactions t ON t.sale_id = s.id AND t.status IN ('created', 'approved')
    WHERE s.user_id = ${userId} AND si.offer_id = ${offerId} AND s.status = 'pending' AND s.expires_at > now()
    ORDER BY s.created_at DESC LIMIT 1`,
  );
  return row ?? null;
}
