/** A sale as the buyer sees it: what the success page, the confirmation mail and the PDF read. */
import { eq, inArray } from "drizzle-orm";
import type { Purchase } from "#contract/sales";
import { fromCents } from "#rules/prices";
import type { Executor } from "#api/db/client";
import { coupons, offers, organizations, priceOptions, saleItems, sales } from "#api/db/schema";
import { HttpError } from "#api/http";
import { couponStatuses } from "./coupon-refunds";

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
