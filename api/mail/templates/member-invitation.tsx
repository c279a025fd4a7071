import { Heading, Link, Text } from "@react-email/components";
import { PermanentMailError, type MessageRenderer } from "../context";
import { colors, heading, Layout, muted, renderBoth, text } from "../layout";
import { PARTNER_ROLE_LABELS, type PartnerRole } from "#rules/partner-roles";
import { invitationById, invitationToken } from "#api/services/members";

/**
 * An owner invited this address to act for their business. The link names the invitation; it
 * only works for someone logged in with this address, so a forwarded mail adds nobody.
 */
export function MemberInvitationEmail({
  origin,
  organization,
  role,
  href,
}: {
  origin: string;
  organization: string;
  role: PartnerRole;
  href: string;
}) {
  return (
    <Layout origin={origin} preview={`${organization} te invita al portal de socios de ofertas`}>
      <Heading as="h1" className="m-ink" style={heading}>
        Te invitan a {organization}
      </Heading>
      <Text style={text}>
        {organization} te ha invitado a su portal de socios en ofertas con el rol de {PARTNER_ROLE_LABELS[role].toLowerCase()}.
      </Text>
      <Text style={text}>
        <Link className="m-link" href={href} style={{ color: colors.brand, fontWeight: 700 }}>
          Aceptar la invitación
        </Link>
      </Text>
      <Text style={muted}>
        Para aceptarla, entra con esta dirección de correo (si aún no tienes cuenta, créala con ella). La invitación caduca en 14 días. Si
        no esperabas este correo, ignóralo: nadie entrará en tu nombre.
      </Text>
    </Layout>
  );
}

export const renderMemberInvitation: MessageRenderer = async (data, ctx) => {
  const found = await invitationById(ctx.db, String(data.invitation));
  // Cancelled or already accepted before the mail left: nothing to invite to.
  if (!found || found.invitation.acceptedAt) return null;
  if (!found.invitation.email) throw new PermanentMailError("invitation without address");
  const href = `${ctx.origin}/invitacion/${invitationToken(ctx.config.jwtSecret, found.invitation.id)}`;
  return {
    subject: `${found.organization} te invita al portal de socios de ofertas`,
    ...(await renderBoth(
      <MemberInvitationEmail origin={ctx.origin} organization={found.organization} role={found.invitation.role} href={href} />,
    )),
  };
};
