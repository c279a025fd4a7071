import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { isSocialProvider } from "#rules/social";
import { viewer } from "#app/state/auth.server";
import { loginRedirectTo } from "#app/routes/login+shared/login.server";
import { getSession } from "#app/state/session.server";
import { isEnabled, startSocialLogin } from "#app/routes/login+shared/social-login.server";

/** GET /login/social/{google,apple,facebook}: off to the provider's consent page (a 302). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = params.provider;
  if (!isSocialProvider(provider) || !isEnabled(provider)) throw new Response("No encontrado.", { status: 404 });
  const redirectTo = loginRedirectTo(request);
  if (viewer(await getSession(request))) throw redirect(redirectTo);
  return startSocialLogin(request, provider, redirectTo);
}
