import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { consentCookie } from "#app/lib/cookies.server";
import { backTo } from "#app/lib/redirect";
import { finish } from "#app/lib/respond.server";
import { readForm } from "#app/lib/form.server";
import { toastOnFailure } from "#app/lib/fetcher-failure";

/** With JS a failed post is a toast, never an error page. */
export const clientAction = toastOnFailure;

export const loader = () => redirect("/cookie-policy");

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const choice = formData.get("consent") === "accepted" ? "accepted" : "rejected";
  return finish(request, formData, { to: backTo(request, formData), headers: { "Set-Cookie": await consentCookie.serialize(choice) } });
}
