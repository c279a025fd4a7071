import { Button, Heading, Text } from "@react-email/components";
import { z } from "zod";
import { formatDateTime } from "#rules/dates";
import type { Purchase } from "#contract/sales";
import { giftSignature } from "#platform/signatures.server";
import { buildVoucherPdf } from "#api/coupons/voucher-pdf";
import { giftView } from "#api/services/sales/gift-view";
import { purchaseOf } from "#api/services/sales/purchase";
import { PermanentMailError, type MessageRenderer } from "../context";
import { button, heading, Layout, muted, renderBoth, text } from "../layout";

export const GiftMailData = z.object({ sale_id: z.string().uuid(), offer_id: z.string().uuid(), sale_item_id: z.string().uuid() });

/** The recipient's own signed page: that gift only, no price, in any browser. */
export function giftLink(origin: string, secrets: readonly string[], saleId: string, offerId: string): string {
  return `${origin}/order/coupons?${new URLSearchParams({ sale: saleId, sig: giftSignature(secrets, saleId, offerId), gift: offerId })}`;
}

async function giftOf(data: Record<string, unknown>, ctx: Parameters<MessageRenderer>[1]) {
  const parsed = GiftMailData.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos del regalo no válidos.");
  const purchase = await purchaseOf(ctx.db, parsed.data.sale_id);
  if (purchase.status !== "paid") throw new PermanentMailError(`El pedido ${purchase.sale_id} no está pagado (${purchase.status}).`);
  const view = giftView(purchase, parsed.data.offer_id);
  return { view, item: view.items[0], buyerItem: purchase.items.find((i) => i.offer_uuid === parsed.data.offer_id)!, ...parsed.data };
}

function GiftEmail({ view, origin, link }: { view: Purchase; origin: string; link: string }) {
  const item = view.items[0];
  const given = item.gift!.sender_name ? `${item.gift!.sender_name} te ha regalado` : "Te han regalado";
  return (
    <Layout origin={origin} preview={`${given}: ${item.title}`}>
      <Heading as="h1" style={heading}>
        {item.gift!.recipient_name}, tienes un regalo
      </Heading>
      <Text style={text}>
        {given} <strong>{item.title}</strong> ({item.option_title}).
      </Text>
      {item.gift!.message ? <Text style={{ ...text, fontStyle: "italic" }}>«{item.gift!.message}»</Text> : null}
      <Text style={text}>Tus cupones: {item.coupons.join(", ")}. Enséñalos al llegar al establecimiento.</Text>
      <Button className="m-button" href={link} style={button}>
        Ver mi regalo
      </Button>
      <Text className="m-muted" style={{ ...muted, marginTop: "12px" }}>
        También va en el PDF adjunto, para imprimirlo o llevarlo en el móvil.
      </Text>
    </Layout>
  );
}

/** To the recipient, on the gift's day: names, message, coupons and the voucher; never a price. */
export const renderGift: MessageRenderer = async (data, ctx) => {
  const { view, sale_id, offer_id } = await giftOf(data, ctx);
  const link = giftLink(ctx.origin, ctx.config.sessionSecrets, sale_id, offer_id);
  const body = await renderBoth(<GiftEmail view={view} origin={ctx.origin} link={link} />);
  const pdf = await buildVoucherPdf(view, { origin: ctx.origin });
  return {
    subject: `Tienes un regalo: ${view.items[0].title}`,
    ...body,
    attachments: [{ filename: "regalo.pdf", content: Buffer.from(pdf), contentType: "application/pdf" }],
  };
};

/** To the buyer, once the gift's mail is on its way. */
export const renderGiftSent: MessageRenderer = async (data, ctx) => {
  const { buyerItem } = await giftOf(data, ctx);
  const gift = buyerItem.gift!;
  const body = await renderBoth(
    <Layout origin={ctx.origin} preview={`Tu regalo para ${gift.recipient_name} ya está en su correo.`}>
      <Heading as="h1" style={heading}>
        Tu regalo ya ha llegado
      </Heading>
      <Text style={text}>
        Hemos enviado <strong>{buyerItem.title}</strong> a {gift.recipient_name} ({gift.recipient_email}) el {formatDateTime(new Date())},
        con tu mensaje y sus cupones, sin el precio.
      </Text>
    </Layout>,
  );
  return { subject: `Tu regalo para ${gift.recipient_name} ya está en su correo`, ...body };
};
