import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { isSocialProvider } from "#rules/social";
import { readForm } from "#app/forms/form.server";
import { finishSocialLogin, isEnabled, relayFormPost } from "#app/routes/login+shared/social-login.server";

const enabledProvider = (value: string | undefined) => {
  if (!isSocialProvider(value) || !isEnabled(value)) throw new Response("No encontrado.", { status: 404 });
  return value;
};

/** Where the provider sends the person back (GET with ?code&state, or ?error). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return finishSocialLogin(request, enabledProvider(params.provider));
}

/** Apple's response_mode=form_post: the same answer as a cross-site POST (see relayFormPost). */
export async function action({ request, params }: ActionFunctionArgs) {
  const provider = enabledProvider(params.provider);
  if (provider !== "apple") throw new Response("Método no permitido.", { status: 405, headers: { Allow: "GET" } });
  return relayFormPost(provider, await readForm(request));
}
