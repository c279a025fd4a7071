import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { isSocialProvider } from "#lib/social";
import { viewer } from "#app/lib/auth.server";
import { loginRedirectTo } from "#app/lib/login.server";
import { getSession } from "#app/lib/session.server";
import { isEnabled, startSocialLogin } from "#app/lib/social-login.server";

/** GET /login/social/{google,apple,facebook}: off to the provider's consent page (a 302). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const provider = params.provider;
  if (!isSocialProvider(provider) || !isEnabled(provider)) throw new Response("No encontrado.", { status: 404 });
  const redirectTo = loginRedirectTo(request);
  if (viewer(await getSession(request))) throw redirect(redirectTo);
  return startSocialLogin(request, provider, redirectTo);
}
