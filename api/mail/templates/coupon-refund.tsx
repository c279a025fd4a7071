import { Button, Heading, Text } from "@react-email/components";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { orderNumber } from "#rules/coupons";
import { REFUND_OUTCOMES } from "#contract/refunds";
import { query } from "#api/db/client";
import { refundView, type RequestRow } from "#api/services/sales/coupon-refunds";
import { PermanentMailError, type MessageRenderer } from "../context";
import { button, heading, Layout, muted, renderBoth, text } from "../layout";
import { purchaseLink } from "./purchase-confirmation";

/** `status`: the outcome this mail tells (the request may have moved on by the time it is sent). */
export const CouponRefundData = z.object({ request_id: z.string().uuid(), status: z.enum(REFUND_OUTCOMES) });

const TITLES = {
  refunded: "Te hemos devuelto el dinero",
  review: "Hemos recibido tu solicitud de devolución",
  refused: "No podemos devolver este cupón",
  processing: "Estamos devolviendo el dinero",
} as const;

export function CouponRefundEmail({
  origin,
  status,
  code,
  offer,
  saleId,
  detail,
  link,
}: {
  origin: string;
  status: keyof typeof TITLES;
  code: string;
  offer: string;
  saleId: string;
  detail: string;
  link: string;
}) {
  return (
    <Layout origin={origin} preview={`${TITLES[status]} · cupón ${code}`}>
      <Heading as="h1" style={heading}>
        {TITLES[status]}
      </Heading>
      <Text style={text}>
        Cupón <strong>{code}</strong> de «{offer}», pedido nº <strong>{orderNumber(saleId)}</strong>.
      </Text>
      <Text style={text}>{detail}</Text>
      <Button className="m-button" href={link} style={button}>
        Ver mis cupones
      </Button>
      <Text className="m-muted" style={{ ...muted, marginTop: "12px" }}>
        Si tienes cualquier duda, responde a este correo indicando el pedido {orderNumber(saleId)}.
      </Text>
    </Layout>
  );
}

export const renderCouponRefund: MessageRenderer = async (data, ctx) => {
  const parsed = CouponRefundData.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos del correo de devolución no válidos.");
  const [row] = await query<RequestRow & { code: string; offer: string }>(
    ctx.db,
    sql`SELECT r.*, c.code, o.title AS offer
        FROM coupon_refund_requests r JOIN coupons c ON c.id = r.coupon_id JOIN sale_items si ON si.id = c.sale_item_id
        JOIN offers o ON o.id = si.offer_id WHERE r.id = ${parsed.data.request_id}`,
  );
  if (!row) throw new PermanentMailError(`No existe la solicitud de devolución ${parsed.data.request_id}.`);
  const status = parsed.data.status;
  // The outcome this mail is about, in the words the buyer saw on screen.
  const { detail } = refundView({ ...row, status }, row.code);
  const link = purchaseLink(ctx.origin, ctx.config.sessionSecrets, row.sale_id);
  const body = await renderBoth(
    <CouponRefundEmail
      origin={ctx.origin}
      status={status}
      code={row.code}
      offer={row.offer}
      saleId={row.sale_id}
      detail={detail}
      link={link}
    />,
  );
  return {
    subject: `${TITLES[status]} · cupón ${row.code} · pedido ${orderNumber(row.sale_id)}`,
    ...body,
    replyTo: ctx.config.SUPPORT_EMAIL,
  };
};
