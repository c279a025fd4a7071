/** A sale as the buyer sees it: what the success page, the confirmation mail and the PDF read. */
import { and, eq, inArray } from "drizzle-orm";
import { giftMailKey } from "#rules/gifts";
import type { GiftOut, Purchase } from "#contract/sales";
import { fromCents } from "#rules/prices";
import type { Executor } from "#api/db/client";
import { coupons, mailOutbox, offers, organizations, priceOptions, saleItems, sales } from "#api/db/schema";
import { HttpError } from "#api/http";
import { couponStatuses } from "./coupon-refunds";

/**
 * When each gift's mail went, by its outbox key (giftMailKey): a gift is given once its mail to
 * the recipient is sent (what a refund asks, rules/refunds.ts `giftGiven`).
 */
export async function giftMailsSent(db: Executor, saleItemIds: string[]): Promise<Map<string, Date>> {
  if (!saleItemIds.length) return new Map();
  const rows = await db
    .select({ key: mailOutbox.dedupeKey, sentAt: mailOutbox.sentAt })
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.dedupeKey, saleItemIds.map(giftMailKey)), eq(mailOutbox.status, "sent")));
  return new Map(rows.filter((r) => r.sentAt).map((r) => [r.key, r.sentAt!]));
}

/** A line's gift as the contract says it, or null when it is no gift with a recipient. */
export function giftOf(
  item: {
    giftRecipientName: string | null;
    giftSenderName: string | null;
    giftRecipientEmail: string | null;
    giftMessage: string | null;
    giftSendOn: string | null;
  },
  sentAt: Date | null,
): GiftOut | null {
  if (item.giftRecipientName === null) return null;
  return {
    recipient_name: item.giftRecipientName,
    sender_name: item.giftSenderName,
    recipient_email: item.giftRecipientEmail,
    message: item.giftMessage ?? "",
    send_on: item.giftSendOn,
    sent_at: sentAt?.toISOString() ?? null,
  };
}

export async function purchaseOf(db: Executor, saleId: string): Promise<Purchase> {
  const [sale] = await db.select().from(sales).where(eq(sales.id, saleId));
  if (!sale) throw new HttpError(404, "No hemos encontrado ese pedido.");
  const items = await db
    .select({
      item: saleItems,
      title: offers.title,
      optionTitle: priceOptions.title,
      address: offers.address,
      conditions: offers.conditions,
      validFrom: offers.validFrom,
      validUntil: offers.validUntil,
      merchant: organizations.name,
      merchantPhone: organizations.phone,
      merchantEmail: organizations.email,
      merchantWebsite: organizations.website,
    })
    .from(saleItems)
    .innerJoin(offers, eq(offers.id, saleItems.offerId))
    .innerJoin(priceOptions, eq(priceOptions.id, saleItems.priceOptionId))
    .leftJoin(organizations, eq(organizations.id, offers.organizationId))
    .where(eq(saleItems.saleId, saleId));
  const codes = items.length
    ? await db
        .select()
        .from(coupons)
        .where(
          inArray(
            coupons.saleItemId,
            items.map((i) => i.item.id),
          ),
        )
    : [];
  const statuses = await couponStatuses(db, [sale.id]);
  const giftsSent = await giftMailsSent(
    db,
    items.filter((i) => i.item.giftRecipientEmail).map((i) => i.item.id),
  );
  return {
    sale_id: sale.id,
    status: sale.status,
    email: sale.email,
    total: fromCents(sale.totalCents),
    currency: sale.currency,
    paid_at: sale.paidAt?.toISOString() ?? null,
    items: items.map(({ item, title, optionTitle, address, conditions, validFrom, validUntil, merchant, ...contact }) => ({
      offer_uuid: item.offerId,
      title,
      option_title: optionTitle,
      quantity: item.quantity,
      paid_unit_price: fromCents(item.paidUnitCents),
      for_present: item.forPresent,
      gift: giftOf(item, giftsSent.get(giftMailKey(item.id)) ?? null),
      coupons: codes
        .filter((c) => c.saleItemId === item.id)
        .map((c) => c.code)
        .sort(),
      coupon_status: codes
        .filter((c) => c.saleItemId === item.id)
        .sort((a, b) => a.code.localeCompare(b.code))
        .flatMap((c) => statuses.get(c.id) ?? []),
      merchant: merchant ?? "",
      merchant_phone: contact.merchantPhone ?? null,
      merchant_email: contact.merchantEmail ?? null,
      merchant_website: contact.merchantWebsite ?? null,
      address,
      conditions,
      valid_from: validFrom,
      valid_until: validUntil,
    })),
  };
}
