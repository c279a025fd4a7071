import { z } from "zod";
import { defineRoute, NoContent } from "#contract/define-route";
import { OrganizationSchema as OrganizationInputSchema } from "#contract/partner";
import { blank, pageFields } from "#contract/page";
import { OrganizationPageSchema, OrganizationSchema, OrganizationWithMembersSchema } from "#contract/partner-responses";

/** GET /organizations/: by name, a page at a time. */
export const OrganizationsQuerySchema = z.object({ search: z.preprocess(blank, z.string().max(120).optional()), ...pageFields });

/**
 * The businesses behind the offers (their members: contract/partner-members.ts; their terms and
 * statements: contract/statements.ts).
 */
export const partnerOrganizationsRoutes = {
  list: defineRoute({ method: "GET", path: "/organizations/", query: OrganizationsQuerySchema, answer: OrganizationPageSchema }),
  create: defineRoute({ method: "POST", path: "/organizations/", body: OrganizationInputSchema, answer: OrganizationSchema }),
  /** The members only for staff. */
  get: defineRoute({ method: "GET", path: "/organizations/:id/", answer: OrganizationWithMembersSchema }),
  replace: defineRoute({ method: "PUT", path: "/organizations/:id/", body: OrganizationInputSchema, answer: OrganizationSchema }),
  update: defineRoute({
    method: "PATCH",
    path: "/organizations/:id/",
    body: OrganizationInputSchema.partial(),
    answer: OrganizationSchema,
  }),
  delete: defineRoute({ method: "DELETE", path: "/organizations/:id/", answer: NoContent }),
};
