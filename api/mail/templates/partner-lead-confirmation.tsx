import { Heading, Text } from "@react-email/components";
import type { MessageRenderer } from "../context";
import { heading, Layout, muted, renderBoth, text } from "../layout";

/**
 * For the applicant: proof that the request arrived, in fixed words. Anyone can type any address
 * into «Publica tu oferta», so nothing the sender wrote (names, message, links) is repeated: the
 * form cannot be used to send a stranger a message in the shop's name.
 */
export function PartnerLeadConfirmationEmail({ origin, businessEmail }: { origin: string; businessEmail: string }) {
  return (
    <Layout origin={origin} preview="Hemos recibido tu solicitud para publicar en ofertas">
      <Heading as="h1" className="m-ink" style={heading}>
        Hemos recibido tu solicitud
      </Heading>
      <Text style={text}>Hola:</Text>
      <Text style={text}>
        Gracias por querer publicar tu negocio en ofertas: hemos recibido tu solicitud. Nuestro equipo de empresas la revisará y te
        escribirá en un plazo de 2 días laborables para preparar tu primera oferta.
      </Text>
      <Text style={muted}>Si quieres añadir algo, responde a este correo o escribe a {businessEmail}.</Text>
      <Text style={muted}>Si no has enviado tú esta solicitud, puedes ignorar este correo.</Text>
    </Layout>
  );
}

export const renderPartnerLeadConfirmation: MessageRenderer = async (_data, ctx) => ({
  subject: "Hemos recibido tu solicitud para publicar en ofertas",
  ...(await renderBoth(<PartnerLeadConfirmationEmail origin={ctx.origin} businessEmail={ctx.config.BUSINESS_EMAIL} />)),
  replyTo: ctx.config.BUSINESS_EMAIL,
});
