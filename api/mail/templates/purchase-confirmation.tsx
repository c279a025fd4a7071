import { Button, Heading, Hr, Link, Section, Text } from "@react-email/components";
import { Fragment } from "react";
import { z } from "zod";
import { formatDate } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import { orderNumber } from "#rules/coupons";
import type { Purchase } from "#contract/sales";
import { purchaseSignature } from "#platform/signatures.server";
import { ticketsInWords } from "#rules/text";
import { buildVoucherPdf } from "#api/coupons/voucher-pdf";
import { purchaseOf } from "#api/services/sales/purchase";
import { PermanentMailError, type MessageRenderer } from "../context";
import { button, colors, heading, Layout, muted, renderBoth, text } from "../layout";
import { plural } from "#rules/plurals";
import { WITHDRAWAL_PROMISE } from "#rules/refunds";
import { bookingLines, hasContact, telHref, websiteHref, websiteLabel } from "#rules/merchant-contact";

export const PurchaseConfirmationData = z.object({ sale_id: z.string().uuid() });

export function purchaseLink(origin: string, secrets: readonly string[], saleId: string): string {
  return `${origin}/order/coupons?${new URLSearchParams({ sale: saleId, sig: purchaseSignature(secrets, saleId) })}`;
}

const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** Each contact link on a line of its own and tall enough to tap (44 px) in a phone's mail app. */
const contactLink = { color: colors.brand, display: "inline-block", padding: "10px 0", lineHeight: "24px" };

/** «Reservar»: how to book with the merchant, as the voucher says it; nothing when the partner gave no way. */
function BookingDetails({ item }: { item: Purchase["items"][number] }) {
  const contact = { phone: item.merchant_phone, email: item.merchant_email, website: item.merchant_website };
  const notes = bookingLines(item.conditions);
  if (!hasContact(contact) && !notes.length) return null;
  return (
    <Text style={{ ...muted, margin: "0 0 4px" }}>
      <strong>Reservar:</strong>
      {notes.map((line, i) => (
        <Fragment key={i}>
          <br />
          {line}
        </Fragment>
      ))}
      {contact.phone ? (
        <>
          <br />
          Teléfono:{" "}
          <Link className="m-link" href={telHref(contact.phone)} style={contactLink}>
            {contact.phone}
          </Link>
        </>
      ) : null}
      {contact.email ? (
        <>
          <br />
          Correo:{" "}
          <Link className="m-link" href={`mailto:${contact.email}`} style={contactLink}>
            {contact.email}
          </Link>
        </>
      ) : null}
      {contact.website ? (
        <>
          <br />
          Web:{" "}
          <Link className="m-link" href={websiteHref(contact.website)} style={contactLink}>
            {websiteLabel(contact.website)}
          </Link>
        </>
      ) : null}
    </Text>
  );
}

function validity(item: Purchase["items"][number]): string {
  if (item.valid_from && item.valid_until) return `Del ${formatDate(item.valid_from)} al ${formatDate(item.valid_until)}`;
  if (item.valid_until) return `Hasta el ${formatDate(item.valid_until)}`;
  return "Sin fecha de caducidad";
}

const code = {
  display: "inline-block",
  margin: "0 8px 8px 0",
  padding: "6px 10px",
  borderRadius: "6px",
  background: "#f3f4f6",
  color: colors.ink,
  fontFamily: "'SFMono-Regular', Consolas, 'Liberation Mono', monospace",
  fontSize: "17px",
  fontWeight: 700,
  letterSpacing: "1px",
};

export function PurchaseConfirmationEmail({
  purchase,
  origin,
  link,
  supportEmail,
}: {
  purchase: Purchase;
  origin: string;
  link: string;
  supportEmail: string;
}) {
  const count = purchase.items.reduce((n, i) => n + i.coupons.length, 0);
  return (
    <Layout
      origin={origin}
      preview={`Pedido ${orderNumber(purchase.sale_id)}: ${plural(count, "tu cupón", `tus ${count} cupones`)} y el PDF para imprimir.`}
      footer={
        <Text className="m-muted" style={muted}>
          ¿Alguna duda? Escríbenos a{" "}
          <Link className="m-link" href={`mailto:${supportEmail}`} style={{ color: colors.brand }}>
            {supportEmail}
          </Link>{" "}
          indicando el pedido {orderNumber(purchase.sale_id)}.
        </Text>
      }
    >
      <Heading as="h1" style={heading}>
        ¡Gracias por tu compra!
      </Heading>
      <Text style={text}>
        Pedido nº <strong>{orderNumber(purchase.sale_id)}</strong>
        {purchase.paid_at ? ` · ${formatDate(purchase.paid_at, "dd MMMM yyyy, HH:mm")}` : ""}. Te adjuntamos{" "}
        {plural(count, "tu cupón en PDF: enséñalo impreso", "tus cupones en PDF: enséñalos impresos")} o en el móvil al llegar.
      </Text>
      {purchase.items.map((item) => (
        <Section
          key={`${item.offer_uuid}-${item.option_title}`}
          style={{ borderTop: `1px solid ${colors.line}`, paddingTop: "12px", marginTop: "12px" }}
        >
          <Heading as="h2" style={{ ...heading, fontSize: "18px", lineHeight: "24px", margin: "0 0 4px" }}>
            {item.title}
          </Heading>
          <Text className="m-muted" style={{ ...muted, margin: "0 0 8px" }}>
            {item.option_title} · {ticketsInWords(item.quantity)} × {formatPrice(item.paid_unit_price)} ={" "}
            {formatPrice(item.paid_unit_price, item.quantity)}
            {item.for_present ? " · Regalo" : ""}
          </Text>
          <Text style={{ ...text, margin: "0 0 4px", fontWeight: 700 }}>
            {plural(item.coupons.length, "Código del cupón:", "Códigos de los cupones:")}
          </Text>
          <Text style={{ ...text, margin: "0 0 8px" }}>
            {item.coupons.map((c) => (
              <span key={c} className="m-code" style={code}>
                {c}{" "}
              </span>
            ))}
          </Text>
          <Text style={{ ...muted, margin: "0 0 4px" }}>
            <strong>Dónde:</strong> {item.address || "consulta la dirección en la página de la oferta"}
          </Text>
          <BookingDetails item={item} />
          <Text style={{ ...muted, margin: "0 0 4px" }}>
            <strong>Validez:</strong> {validity(item)}
          </Text>
          {item.conditions ? (
            <Text style={{ ...muted, margin: "0 0 4px" }}>
              <strong>Condiciones:</strong>
              {/* One line each, as the partner wrote them (and as the PDF prints them). */}
              {item.conditions
                .split(/\r?\n/)
                .filter((line) => line.trim())
                .map((line, i) => (
                  <Fragment key={i}>
                    <br />
                    {line.trim()}
                  </Fragment>
                ))}
            </Text>
          ) : null}
        </Section>
      ))}
      <Hr style={{ borderColor: colors.line, margin: "16px 0 12px" }} />
      <Text style={{ ...text, fontSize: "18px", fontWeight: 700 }}>Total pagado: {formatPrice(purchase.total)}</Text>
      <Button className="m-button" href={link} style={button}>
        Ver mis cupones
      </Button>
      <Text className="m-muted" style={{ ...muted, marginTop: "12px" }}>
        Guarda este correo: el enlace muestra los cupones de este pedido sin necesidad de cuenta.
      </Text>
      <Text className="m-muted" style={muted}>
        ¿Has cambiado de idea? {capitalized(WITHDRAWAL_PROMISE)}:{" "}
        <Link className="m-link" href={`${link}#devolucion`} style={{ color: colors.brand }}>
          Solicitar devolución
        </Link>
        .
      </Text>
    </Layout>
  );
}

export const renderPurchaseConfirmation: MessageRenderer = async (data, ctx) => {
  const parsed = PurchaseConfirmationData.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos de la confirmación de compra no válidos.");
  const purchase = await purchaseOf(ctx.db, parsed.data.sale_id);
  if (purchase.status !== "paid") throw new PermanentMailError(`El pedido ${purchase.sale_id} no está pagado (${purchase.status}).`);
  const link = purchaseLink(ctx.origin, ctx.config.sessionSecrets, purchase.sale_id);
  const body = await renderBoth(
    <PurchaseConfirmationEmail purchase={purchase} origin={ctx.origin} link={link} supportEmail={ctx.config.SUPPORT_EMAIL} />,
  );
  const pdf = await buildVoucherPdf(purchase, { origin: ctx.origin });
  return {
    subject: `Tus cupones de ofertas · pedido ${orderNumber(purchase.sale_id)}`,
    ...body,
    attachments: [
      { filename: `cupones-${orderNumber(purchase.sale_id).toLowerCase()}.pdf`, content: Buffer.from(pdf), contentType: "application/pdf" },
    ],
    // The footer says «escríbenos a …»: a reply to the confirmation reaches that address too.
    replyTo: ctx.config.SUPPORT_EMAIL,
  };
};
