import { Button, Heading, Link, Section, Text } from "@react-email/components";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { daysBetween, formatDate, madridDate } from "#rules/dates";
import { bookingLine, expirySubject, REMINDER_NAMES, REMINDER_SLUGS, type ReminderKind } from "#rules/reminders";
import { query, type Executor } from "#api/db/client";
import { OPEN_COUPON } from "#api/services/reminders/pass";
import { remindersStopped } from "#api/services/reminders/stops";
import { linkToken, PermanentMailError, type MailContext, type MessageRenderer } from "../context";
import { button, colors, heading, Layout, muted, renderBoth, text } from "../layout";
import { purchaseLink } from "./purchase-confirmation";

export const ReminderData = z.object({
  sale_item_id: z.string().uuid(),
  days: z.number().int().positive(),
  coupons: z.array(z.string().uuid()).min(1),
});

type Item = {
  sale_id: string;
  offer_id: string;
  title: string;
  option_title: string;
  conditions: string;
  address: string;
  valid_until: string | null;
  merchant: string;
  phone: string | null;
  merchant_email: string | null;
  website: string | null;
};

/** The sale item and the codes of its coupons that can still be used, or null when none can. */
async function openCoupons(db: Executor, data: z.infer<typeof ReminderData>): Promise<{ item: Item; codes: string[] } | null> {
  const [item] = await query<Item>(
    db,
    sql`
    SELECT si.sale_id, o.id AS offer_id, o.title, p.title AS option_title, o.conditions, o.address, o.valid_until::text AS valid_until,
           org.name AS merchant, org.phone, org.email AS merchant_email, org.website
    FROM sale_items si
    JOIN offers o ON o.id = si.offer_id
    JOIN price_options p ON p.id = si.price_option_id
    JOIN organizations org ON org.id = o.organization_id
    WHERE si.id = ${data.sale_item_id}`,
  );
  if (!item) throw new PermanentMailError(`La línea de venta ${data.sale_item_id} ya no existe.`);
  const rows = await query<{ code: string }>(
    db,
    sql`
    SELECT c.code FROM coupons c JOIN sale_items si ON si.id = c.sale_item_id JOIN sales s ON s.id = si.sale_id
    WHERE c.id = ANY(${sql.param(data.coupons)}::uuid[]) AND ${OPEN_COUPON}
    ORDER BY c.code`,
  );
  return rows.length ? { item, codes: rows.map((r) => r.code) } : null;
}

const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** The stop link of this kind for this recipient: the page, and the one-click URL for List-Unsubscribe. */
function stopLinks(ctx: MailContext, kind: ReminderKind) {
  const t = linkToken(ctx, kind === "expiry" ? "reminder-expiry" : "reminder-booking");
  return {
    page: `${ctx.origin}/avisos/${REMINDER_SLUGS[kind]}?${new URLSearchParams({ t })}`,
    oneClick: `${ctx.origin}/api/v0/customer/reminders/stop/one-click/?${new URLSearchParams({ kind, t })}`,
  };
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

function Codes({ codes }: { codes: string[] }) {
  return (
    <Text style={{ ...text, margin: "0 0 8px" }}>
      {codes.map((c) => (
        <span key={c} className="m-code" style={code}>
          {c}{" "}
        </span>
      ))}
    </Text>
  );
}

/** Who honours the coupon and how to reach them: phone first (bookings are mostly by phone). */
function Merchant({ item }: { item: Item }) {
  return (
    <Section style={{ borderTop: `1px solid ${colors.line}`, paddingTop: "12px", marginTop: "4px" }}>
      <Text style={{ ...text, margin: "0 0 4px", fontWeight: 700 }}>{item.merchant}</Text>
      {item.address ? <Text style={{ ...muted, margin: "0 0 4px" }}>{item.address}</Text> : null}
      {item.phone ? (
        <Text style={{ ...muted, margin: "0 0 4px" }}>
          Teléfono:{" "}
          <Link className="m-link" href={telHref(item.phone)} style={{ color: colors.brand, fontWeight: 700 }}>
            {item.phone}
          </Link>
        </Text>
      ) : null}
      {item.merchant_email ? (
        <Text style={{ ...muted, margin: "0 0 4px" }}>
          Correo:{" "}
          <Link className="m-link" href={`mailto:${item.merchant_email}`} style={{ color: colors.brand }}>
            {item.merchant_email}
          </Link>
        </Text>
      ) : null}
      {item.website ? (
        <Text style={{ ...muted, margin: "0 0 4px" }}>
          Web:{" "}
          <Link className="m-link" href={item.website} style={{ color: colors.brand }}>
            {item.website.replace(/^https?:\/\//, "")}
          </Link>
        </Text>
      ) : null}
    </Section>
  );
}

function StopFooter({ kind, href }: { kind: ReminderKind; href: string }) {
  return (
    <Text className="m-muted" style={muted}>
      Te escribimos porque tienes un cupón sin usar. ¿No quieres más {REMINDER_NAMES[kind]}?{" "}
      <Link className="m-link" href={href} style={{ color: colors.brand }}>
        Dejar de recibirlos
      </Link>
    </Text>
  );
}

export function ExpiryReminderEmail(props: { origin: string; item: Item; codes: string[]; daysLeft: number; link: string; stop: string }) {
  const { item, codes, daysLeft } = props;
  const booking = bookingLine(item.conditions);
  const subject = expirySubject(daysLeft, codes.length);
  return (
    <Layout
      origin={props.origin}
      preview={`«${item.title}»: válido hasta el ${formatDate(item.valid_until!)}. Úsalo antes de que caduque.`}
      footer={<StopFooter kind="expiry" href={props.stop} />}
    >
      <Heading as="h1" style={heading}>
        {subject}
      </Heading>
      <Text style={text}>
        {codes.length === 1 ? "Tu cupón" : "Tus cupones"} de «<strong>{item.title}</strong>» ({item.option_title}){" "}
        {codes.length === 1 ? "es válido" : "son válidos"} hasta el <strong>{formatDate(item.valid_until!)}</strong>. Después ya no se podrá
        {codes.length === 1 ? "" : "n"} canjear.
      </Text>
      <Codes codes={codes} />
      {booking ? (
        <Text style={text}>
          <strong>Reserva cuanto antes:</strong> {booking}.
          {item.phone ? (
            <>
              {" "}
              Llama al{" "}
              <Link className="m-link" href={telHref(item.phone)} style={{ color: colors.brand, fontWeight: 700 }}>
                {item.phone}
              </Link>
              .
            </>
          ) : null}
        </Text>
      ) : null}
      <Merchant item={item} />
      <Button className="m-button" href={props.link} style={{ ...button, marginTop: "12px" }}>
        Ver mis cupones
      </Button>
    </Layout>
  );
}

export function BookingReminderEmail(props: { origin: string; item: Item; codes: string[]; booking: string; link: string; stop: string }) {
  const { item, codes, booking } = props;
  return (
    <Layout
      origin={props.origin}
      preview={`${booking}. ${item.phone ? `Llama al ${item.phone}.` : `Contacta con ${item.merchant}.`}`}
      footer={<StopFooter kind="booking" href={props.stop} />}
    >
      <Heading as="h1" style={heading}>
        Recuerda reservar
      </Heading>
      <Text style={text}>
        Para usar {codes.length === 1 ? "tu cupón" : "tus cupones"} de «<strong>{item.title}</strong>» ({item.option_title}) hay que
        reservar antes de ir: <strong>{booking}</strong>.
      </Text>
      {item.phone ? (
        <Button className="m-button" href={telHref(item.phone)} style={button}>
          Llamar al {item.phone}
        </Button>
      ) : null}
      <Text style={{ ...text, marginTop: "12px" }}>
        Ten a mano {codes.length === 1 ? "el código" : "los códigos"} al reservar
        {item.valid_until ? `; ${codes.length === 1 ? "es válido" : "son válidos"} hasta el ${formatDate(item.valid_until)}` : ""}:
      </Text>
      <Codes codes={codes} />
      <Merchant item={item} />
      <Text style={{ ...muted, marginTop: "12px" }}>
        <Link className="m-link" href={props.link} style={{ color: colors.brand }}>
          Ver mis cupones
        </Link>
      </Text>
    </Layout>
  );
}

/** What both kinds share: the data, the codes still usable, the stop check and the links. */
async function prepare(kind: ReminderKind, data: Record<string, unknown>, ctx: MailContext) {
  const parsed = ReminderData.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos del recordatorio no válidos.");
  // Stopped since it was queued, or every coupon redeemed or refunded meanwhile: nothing to say.
  if (await remindersStopped(ctx.db, ctx.to, kind)) return null;
  const open = await openCoupons(ctx.db, parsed.data);
  if (!open) return null;
  const stop = stopLinks(ctx, kind);
  return {
    ...open,
    stop,
    link: purchaseLink(ctx.origin, ctx.config.sessionSecrets, open.item.sale_id),
    headers: { "List-Unsubscribe": `<${stop.oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

export const renderExpiryReminder: MessageRenderer = async (data, ctx) => {
  const ready = await prepare("expiry", data, ctx);
  if (!ready?.item.valid_until) return null;
  const daysLeft = daysBetween(madridDate(new Date()), ready.item.valid_until);
  if (daysLeft < 0) return null; // expired while it waited
  const body = await renderBoth(
    <ExpiryReminderEmail
      origin={ctx.origin}
      item={ready.item}
      codes={ready.codes}
      daysLeft={daysLeft}
      link={ready.link}
      stop={ready.stop.page}
    />,
  );
  return { subject: `${expirySubject(daysLeft, ready.codes.length)}: ${ready.item.title}`, ...body, headers: ready.headers };
};

export const renderBookingReminder: MessageRenderer = async (data, ctx) => {
  const ready = await prepare("booking", data, ctx);
  const booking = ready && bookingLine(ready.item.conditions);
  // The partner's conditions no longer ask for a booking: nothing to remind.
  if (!ready || !booking) return null;
  if (ready.item.valid_until && daysBetween(madridDate(new Date()), ready.item.valid_until) < 0) return null;
  const body = await renderBoth(
    <BookingReminderEmail
      origin={ctx.origin}
      item={ready.item}
      codes={ready.codes}
      booking={booking}
      link={ready.link}
      stop={ready.stop.page}
    />,
  );
  return { subject: `Recuerda reservar: ${ready.item.title}`, ...body, headers: ready.headers };
};
