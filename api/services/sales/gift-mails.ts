import { giftMailKey, giftSendAt } from "#rules/gifts";
import type { Executor } from "#api/db/client";
import { queueMail } from "#api/mail/outbox";

type GiftLine = { id: string; offerId: string; giftRecipientEmail: string | null; giftSendOn: string | null };

/**
 * At payment, in its transaction: each gift with an email gets its own mail on its day (09:00 in
 * Madrid, or at once), and its buyer a note at the same moment. The outbox's dedupe keys make each
 * mail once, however many processes capture or restart; its send_after holds it until its day.
 */
export async function queueGiftMails(tx: Executor, saleId: string, buyer: string, items: GiftLine[]): Promise<void> {
  for (const item of items) {
    if (!item.giftRecipientEmail) continue;
    const sendAfter = giftSendAt(item.giftSendOn);
    const data = { sale_id: saleId, offer_id: item.offerId, sale_item_id: item.id };
    await queueMail(tx, { kind: "gift", to: item.giftRecipientEmail, dedupeKey: giftMailKey(item.id), data, sendAfter });
    // A second later: the buyer's note follows the gift's own mail in the outbox's order.
    await queueMail(tx, {
      kind: "gift-sent",
      to: buyer,
      dedupeKey: `gift-sent:${item.id}`,
      data,
      sendAfter: new Date(sendAfter.getTime() + 1000),
    });
  }
}
