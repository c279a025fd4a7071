import { Heading, Link, Text } from "@react-email/components";
import { z } from "zod";
import { CATEGORY_LABELS, type CategoryId } from "#rules/categories";
import { PermanentMailError, type MessageRenderer } from "../context";
import { heading, Layout, muted, renderBoth, text } from "../layout";

/** What «Publica tu oferta» collected, as queued by createLead (api/services/partner-leads.ts). */
export const PartnerLeadData = z.object({
  business_name: z.string(),
  contact_name: z.string(),
  email: z.string(),
  phone: z.string(),
  province: z.string(),
  category: z.string(),
  message: z.string(),
});
export type PartnerLeadMail = z.infer<typeof PartnerLeadData>;

export function parseLead(data: Record<string, unknown>): PartnerLeadMail {
  const parsed = PartnerLeadData.safeParse(data);
  if (!parsed.success) throw new PermanentMailError("Datos de la solicitud de socio no válidos.");
  return parsed.data;
}

export const categoryLabel = (id: string) => CATEGORY_LABELS[id as CategoryId] ?? id;

/** For the business team: everything the applicant wrote; replying answers the applicant. */
export function PartnerLeadEmail({ origin, lead }: { origin: string; lead: PartnerLeadMail }) {
  const rows: [string, string][] = [
    ["Negocio", lead.business_name],
    ["Contacto", lead.contact_name],
    ["Correo", lead.email],
    ["Teléfono", lead.phone],
    ["Provincia", lead.province],
    ["Categoría", categoryLabel(lead.category)],
  ];
  return (
    <Layout origin={origin} preview={`${lead.business_name} (${lead.province}) quiere publicar en ofertas`}>
      <Heading as="h1" className="m-ink" style={heading}>
        Nueva solicitud de socio
      </Heading>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ ...text, margin: "0 0 6px" }}>
          <strong>{label}:</strong> {value}
        </Text>
      ))}
      {lead.message ? (
        <Text style={{ ...text, marginTop: "12px", whiteSpace: "pre-wrap" }}>
          <strong>Mensaje:</strong> {lead.message}
        </Text>
      ) : null}
      <Text style={muted}>
        Responde a este correo para escribir a {lead.contact_name}. Todas las solicitudes están en{" "}
        <Link className="m-link" href={`${origin}/admin`}>
          la administración
        </Link>
        .
      </Text>
    </Layout>
  );
}

export const renderPartnerLead: MessageRenderer = async (data, ctx) => {
  const lead = parseLead(data);
  return {
    subject: `Solicitud de socio: ${lead.business_name} (${lead.province}, ${categoryLabel(lead.category)})`,
    ...(await renderBoth(<PartnerLeadEmail origin={ctx.origin} lead={lead} />)),
    replyTo: lead.email,
  };
};
