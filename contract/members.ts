/**
 * A partner's team (/socios/equipo and /api/v0/organizations/{id}/members/): the forms' schemas,
 * read by the API and by the page's action and component alike.
 */
import { z } from "zod";
import { PARTNER_ROLES } from "#rules/partner-roles";
import { emailField } from "#contract/partner";

const role = z.enum(PARTNER_ROLES, {
  errorMap: () => ({ message: "Elige un rol: titular, encargado o cajero." }),
});

/** Invite by email with a role (an owner; the person accepts once logged in with that address). */
export const InviteMemberSchema = z.object({ email: emailField, role });

/** A member's new role. */
export const MemberRoleSchema = z.object({ role });

/** /socios/equipo: every mutation of the page, by intent. */
export const TeamActionSchema = z.discriminatedUnion("intent", [
  InviteMemberSchema.extend({ intent: z.literal("invite"), organization: z.string().uuid("Empresa no válida.") }),
  MemberRoleSchema.extend({
    intent: z.literal("role"),
    organization: z.string().uuid("Empresa no válida."),
    user: z.string().uuid("Miembro no válido."),
  }),
  z.object({
    intent: z.literal("remove"),
    organization: z.string().uuid("Empresa no válida."),
    user: z.string().uuid("Miembro no válido."),
  }),
  z.object({
    intent: z.literal("cancel"),
    organization: z.string().uuid("Empresa no válida."),
    invitation: z.string().uuid("Invitación no válida."),
  }),
]);
