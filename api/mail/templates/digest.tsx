import { Button, Column, Heading, Img, Link, Row, Section, Text } from "@react-email/components";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { discountBadge, formatPrice } from "#rules/prices";
import { query } from "#api/db/client";
import { isSubscribed } from "#api/services/subscriptions";
import { linkToken, type MailContext, type MessageRenderer } from "../context";
import { button, colors, heading, Layout, muted, renderBoth, text } from "../layout";
import { countOf } from "#rules/plurals";

export const DigestData = z.object({ region: z.string().nullable().optional() });

export type DigestOffer = {
  uuid: string;
  title: string;
  region: string;
  actual_price: string;
  regular_price: string;
  image_url: string | null;
};

const DIGEST_SIZE = 6;

/** The newest active offers of the region, topped up from anywhere when the region has few. */
export async function newestOffers(db: MailContext["db"], region: string | null): Promise<DigestOffer[]> {
  return query<DigestOffer>(
    db,
    sql`
    SELECT o.id AS uuid, o.title, o.province AS region, p.actual_price::text AS actual_price, p.regular_price::text AS regular_price,
      -- The picture shows 96 px wide: its smallest rendition that still fills it on a 2x screen.
      (SELECT coalesce((SELECT v->>'url' FROM jsonb_array_elements(i.variants) v
                        WHERE (v->>'width')::int >= 192 ORDER BY (v->>'width')::int LIMIT 1), i.image_url)
       FROM offer_images i WHERE i.offer_id = o.id ORDER BY i.cover DESC, i.position LIMIT 1) AS image_url
    FROM offers o
    JOIN LATERAL (
      SELECT actual_price, regular_price FROM price_options WHERE offer_id = o.id AND available > 0 ORDER BY actual_price LIMIT 1
    ) p ON true
    WHERE o.status = 'active' AND (o.valid_until IS NULL OR o.valid_until >= current_date)
    ORDER BY (o.province = ${region ?? ""}) DESC, o.created_at DESC, o.id
    LIMIT ${DIGEST_SIZE}`,
  );
}

/** The footer's link (a page that asks first) and RFC 8058's one-click URL, both with one token. */
export function unsubscribeLinks(ctx: Pick<MailContext, "origin" | "config" | "to">) {
  const q = new URLSearchParams({ t: linkToken(ctx, "unsubscribe") });
  const origin = ctx.origin;
  return { page: `${origin}/unsubscribe?${q}`, oneClick: `${origin}/api/v0/customer/unsubscribe/one-click/?${q}` };
}

export function DigestEmail({
  origin,
  region,
  offers,
  unsubscribe,
}: {
  origin: string;
  region: string | null;
  offers: DigestOffer[];
  unsubscribe: string;
}) {
  return (
    <Layout
      origin={origin}
      preview={`${countOf(offers.length, "oferta nueva", "ofertas nuevas")}${region ? ` en ${region}` : ""}, desde ${formatPrice(Math.min(...offers.map((o) => Number(o.actual_price))))}.`}
      footer={
        <Text className="m-muted" style={muted}>
          Recibes este correo porque aceptaste recibir ofertas de ofertas por correo.{" "}
          <Link className="m-link" href={unsubscribe} style={{ color: colors.brand }}>
            Darse de baja
          </Link>
        </Text>
      }
    >
      <Heading as="h1" style={heading}>
        Nuevas ofertas{region ? ` en ${region}` : ""}
      </Heading>
      <Text style={text}>Lo último que hemos publicado, con su precio de hoy.</Text>
      {offers.map((offer) => {
        const link = `${origin}/ofertas/${offer.uuid}/`;
        const badge = discountBadge(offer.actual_price, offer.regular_price);
        return (
          <Section key={offer.uuid} style={{ borderTop: `1px solid ${colors.line}`, padding: "12px 0" }}>
            <Row>
              {offer.image_url ? (
                <Column style={{ width: "96px", verticalAlign: "top", paddingRight: "12px" }}>
                  <Link href={link}>
                    <Img
                      src={`${origin}${offer.image_url}`}
                      alt=""
                      width="96"
                      height="72"
                      style={{ borderRadius: "8px", objectFit: "cover" }}
                    />
                  </Link>
                </Column>
              ) : null}
              <Column style={{ verticalAlign: "top" }}>
                <Text style={{ ...text, margin: "0 0 4px", fontWeight: 700 }}>
                  <Link className="m-link" href={link} style={{ color: colors.ink, textDecoration: "none" }}>
                    {offer.title}
                  </Link>
                </Text>
                <Text style={{ ...text, margin: 0 }}>
                  <strong>{formatPrice(offer.actual_price)}</strong>{" "}
                  <span className="m-muted" style={{ color: colors.muted, textDecoration: "line-through" }}>
                    {formatPrice(offer.regular_price)}
                  </span>
                  {badge ? <span style={{ color: colors.brand, fontWeight: 700 }}> {badge}</span> : null}
                  <span className="m-muted" style={{ color: colors.muted }}>
                    {" "}
                    · {offer.region}
                  </span>
                </Text>
              </Column>
            </Row>
          </Section>
        );
      })}
      <Button className="m-button" href={`${origin}/ofertas/${region ? `?region=${encodeURIComponent(region)}` : ""}`} style={button}>
        Ver todas las ofertas
      </Button>
    </Layout>
  );
}

/** Marketing: sent only while the address is still subscribed, and always with RFC 8058 headers. */
export const renderDigest: MessageRenderer = async (data, ctx) => {
  if (!(await isSubscribed(ctx.db, ctx.to))) return null;
  const region = DigestData.parse(data).region ?? null;
  const offers = await newestOffers(ctx.db, region);
  if (offers.length === 0) return null;
  const links = unsubscribeLinks(ctx);
  const body = await renderBoth(<DigestEmail origin={ctx.origin} region={region} offers={offers} unsubscribe={links.page} />);
  return {
    subject: `Nuevas ofertas${region ? ` en ${region}` : " para ti"}: ${countOf(offers.length, "plan", "planes")} con descuento`,
    ...body,
    headers: { "List-Unsubscribe": `<${links.oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
};
