import { Heading, Text } from "@react-email/components";
import type { MessageRenderer } from "../context";
import { heading, Layout, muted, renderBoth, text } from "../layout";
import { categoryLabel, parseLead, type PartnerLeadMail } from "./partner-lead";

/** For the applicant: proof that the request arrived, what happens next, and what they sent. */
export function PartnerLeadConfirmationEmail({ origin, lead, businessEmail }: { origin: string; lead: PartnerLeadMail; businessEmail: string }) {
  return (
    <Layout origin={origin} preview="Hemos recibido tu solicitud para publicar en ofertas">
      <Heading as="h1" className="m-ink" style={heading}>
        Hemos recibido tu solicitud
      </Heading>
      <Text style={text}>Hola, {lead.contact_name}:</Text>
      <Text style={text}>
        Gracias por querer publicar «{lead.business_name}» en ofertas. Nuestro equipo de empresas revisará tu solicitud y te
        escribirá en un plazo de 2 días laborables para preparar tu primera oferta.
      </Text>
      <Text style={muted}>
        Tu solicitud: {categoryLabel(lead.category)} en {lead.province}. Teléfono de contacto: {lead.phone}.
      </Text>
      <Text style={muted}>Si quieres añadir algo, responde a este correo o escribe a {businessEmail}.</Text>
    </Layout>
  );
}

export const renderPartnerLeadConfirmation: MessageRenderer = async (data, ctx) => {
  const lead = parseLead(data);
  return {
    subject: "Hemos recibido tu solicitud para publicar en ofertas",
    ...(await renderBoth(<PartnerLeadConfirmationEmail origin={ctx.origin} lead={lead} businessEmail={ctx.config.BUSINESS_EMAIL} />)),
    replyTo: ctx.config.BUSINESS_EMAIL,
  };
};
