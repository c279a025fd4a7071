import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { consentCookie } from "#app/lib/cookies.server";
import { backTo } from "#app/lib/redirect";
import { finish } from "#app/lib/respond.server";
import { readForm } from "#app/lib/form.server";

export const loader = () => redirect("/cookie-policy");

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const choice = formData.get("consent") === "accepted" ? "accepted" : "rejected";
  return finish(request, formData, { to: backTo(request, formData), headers: { "Set-Cookie": await consentCookie.serialize(choice) } });
}
