/** Staff's user management (/admin/usuarios): search accounts, and erase one. */
import { UsersQuerySchema } from "#contract/partner";
import { UserListSchema } from "#contract/partner-responses";
import { NoContent, defineRoute } from "#contract/define-route";
import { readByTheHandler } from "#contract/users";

export const staffUsersRoutes = {
  /** By email and role; the query is read once the caller is known to be staff, a blank value as absent. */
  list: defineRoute({ method: "GET", path: "/users/", query: readByTheHandler(UsersQuerySchema), answer: UserListSchema }),
  /** Erasing: the account's personal data goes, its purchases stay for the books (api/services/user-admin.ts). */
  erase: defineRoute({ method: "DELETE", path: "/users/:id/", answer: NoContent }),
};
