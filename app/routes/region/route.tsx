import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { backTo } from "#app/forms/redirect";
import { finish } from "#app/forms/respond.server";
import { commitSession, getSession, setRegion } from "#app/state/session.server";
import { readForm } from "#app/forms/form.server";
import { toastOnFailure } from "#app/forms/fetcher-failure";

/** With JS a failed post is a toast, never an error page. */
export const clientAction = toastOnFailure;

export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const session = await getSession(request);
  setRegion(session, String(formData.get("region") ?? ""));
  return finish(request, formData, { to: backTo(request, formData), headers: { "Set-Cookie": await commitSession(session) } });
}
