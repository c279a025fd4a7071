/**
 * The sandbox provider's hosted payment page (api/routes/sandbox.ts): plain HTML forms the
 * buyer's browser opens and posts, as a real provider's page would be.
 */
import { defineRoute, notJson } from "#contract/define-route";

export const sandboxRoutes = {
  checkout: defineRoute({ method: "GET", path: "/sandbox/checkout/:id/", answer: notJson("html") }),
  /** The page's own form (action=pay|decline|cancel, urlencoded): a redirect back to the shop. */
  act: defineRoute({ method: "POST", path: "/sandbox/checkout/:id/", answer: notJson("redirect") }),
};
