import { z } from "zod";
import { defineRoute, NoContent } from "#contract/define-route";
import { InviteMemberSchema, MemberRoleSchema } from "#contract/members";
import { InvitationSchema, InvitationViewSchema, MemberListSchema, MembershipsSchema, TeamSchema } from "#contract/partner-responses";

/** POST /organizations/{id}/members/ (staff): an existing account, at once; an owner unless a role is given. */
export const AddMemberSchema = z.object({ email: z.string().trim().min(3).max(254), role: MemberRoleSchema.shape.role.optional() });

/**
 * Who acts for an organisation: its members and invitations, and the invited person's side.
 * /organizations/memberships/ is registered before the organisations' /organizations/:id/.
 */
export const partnerMembersRoutes = {
  /** The caller's organisations and its role in each. */
  memberships: defineRoute({ method: "GET", path: "/organizations/memberships/", answer: MembershipsSchema }),
  team: defineRoute({ method: "GET", path: "/organizations/:id/members/", answer: TeamSchema }),
  addMember: defineRoute({ method: "POST", path: "/organizations/:id/members/", body: AddMemberSchema, answer: MemberListSchema }),
  changeRole: defineRoute({
    method: "PATCH",
    path: "/organizations/:id/members/:userId/",
    body: MemberRoleSchema,
    answer: MemberListSchema,
  }),
  removeMember: defineRoute({ method: "DELETE", path: "/organizations/:id/members/:userId/", answer: NoContent }),
  invite: defineRoute({ method: "POST", path: "/organizations/:id/invitations/", body: InviteMemberSchema, answer: InvitationSchema }),
  cancelInvitation: defineRoute({ method: "DELETE", path: "/organizations/:id/invitations/:invitationId/", answer: NoContent }),
  /** The invited person, logged in with the invited address. */
  invitation: defineRoute({ method: "GET", path: "/invitations/:token/", answer: InvitationViewSchema }),
  acceptInvitation: defineRoute({ method: "POST", path: "/invitations/:token/accept/", answer: InvitationViewSchema }),
};
