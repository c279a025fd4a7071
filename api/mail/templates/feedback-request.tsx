import { Heading, Link, Section, Text } from "@react-email/components";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { query } from "#api/db/client";
import { linkToken, PermanentMailError, type MessageRenderer } from "../context";
import { colors, heading, Layout, muted, renderBoth, text } from "../layout";
import { countOf } from "#rules/plurals";

export const FeedbackRequestData = z.object({ offer_uuid: z.string().uuid() });

/** One star link: the token names the buyer and the offer, the stars are the only thing in clear. */
export function feedbackLink(origin: string, token: string, rate: number): string {
  return `${origin}/feedback?${new URLSearchParams({ rate: String(rate), t: token })}`;
}

export function FeedbackRequestEmail({ origin, token, offerTitle }: { origin: string; token: string; offerTitle: string }) {
  const stars = [1, 2, 3, 4, 5];
  return (
    <Layout origin={origin} preview={`¿Qué tal «${offerTitle}»? Valóralo con un clic.`}>
      <Heading as="h1" className="m-ink" style={heading}>
        ¿Qué tal tu experiencia?
      </Heading>
      <Text style={text}>
        Hace unos días compraste «{offerTitle}». Tu opinión ayuda a otros compradores a elegir: ¿cuántas estrellas le das?
      </Text>
      <Section style={{ margin: "8px 0 8px" }}>
        {stars.map((n) => (
          <Text key={n} style={{ margin: "0 0 8px" }}>
            <Link
              className="m-link"
              href={feedbackLink(origin, token, n)}
              style={{
                display: "block",
                padding: "10px 12px",
                border: `1px solid ${colors.line}`,
                borderRadius: "8px",
                color: colors.brand,
                fontSize: "18px",
                textDecoration: "none",
              }}
            >
              {"★".repeat(n)}
              {"☆".repeat(5 - n)}{" "}
              <span className="m-muted" style={{ fontSize: "15px", color: colors.muted }}>
                {countOf(n, "estrella", "estrellas")}
              </span>
            </Link>
          </Text>
        ))}
      </Section>
      <Text style={muted}>Solo cuenta una valoración por compra: si cambias de opinión, pulsa otra y sustituirá a la anterior.</Text>
    </Layout>
  );
}

export const renderFeedbackRequest: MessageRenderer = async (data, ctx) => {
  const parsed = FeedbackRequestData.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos de la solicitud de valoración no válidos.");
  const { offer_uuid } = parsed.data;
  const [offer] = await query<{ title: string; rated: boolean }>(
    ctx.db,
    sql`
    SELECT o.title, EXISTS (SELECT 1 FROM offer_feedback f WHERE f.offer_id = o.id AND f.email = ${ctx.to}) AS rated
    FROM offers o WHERE o.id = ${offer_uuid}`,
  );
  if (!offer) throw new PermanentMailError(`La oferta ${offer_uuid} ya no existe.`);
  // Already rated (from an earlier mail, or after redeeming): asking again would be noise.
  if (offer.rated) return null;
  const offer_title = offer.title;
  const body = await renderBoth(
    <FeedbackRequestEmail origin={ctx.origin} token={linkToken(ctx, "feedback", offer_uuid)} offerTitle={offer_title} />,
  );
  return { subject: `¿Qué tal «${offer_title}»? Valóralo en un clic`, ...body };
};
