/**
 * The third-party E2E server: server.ts as it is, with Google's, Apple's and Facebook's servers
 * (key sets, token endpoints, Graph API) and PayPal's REST API answered by msw inside this process,
 * the way the Epic Stack mocks third parties for its E2E server. Every other request goes out
 * untouched (and, with no network here, fails like a provider that is down). The consent pages
 * the browser visits are mocked by the spec with page.route.
 */
import { setupServer } from "msw/node";
import { createPaypalMockState, paypalHandlers, paypalHangsForSomeBuyers } from "#tests/mocks/paypal";
import { createSocialMockState, socialHandlers } from "#tests/mocks/social";

const env = process.env;
const providers = await createSocialMockState({
  googleClientId: env.GOOGLE_CLIENT_ID,
  googleClientSecret: env.GOOGLE_CLIENT_SECRET,
  appleClientId: env.APPLE_CLIENT_ID,
  appleTeamId: env.APPLE_TEAM_ID,
  appleKeyId: env.APPLE_KEY_ID,
  applePrivateKey: env.APPLE_PRIVATE_KEY?.replace(/\\n/g, "\n"),
  facebookAppId: env.FACEBOOK_APP_ID,
  facebookAppSecret: env.FACEBOOK_APP_SECRET,
});
const paypal = createPaypalMockState({
  apiBase: env.PAYPAL_API_BASE,
  clientId: env.PAYPAL_CLIENT_ID,
  clientSecret: env.PAYPAL_CLIENT_SECRET,
  webhookId: env.PAYPAL_WEBHOOK_ID,
});
setupServer(...socialHandlers(providers), paypalHangsForSomeBuyers(paypal), ...paypalHandlers(paypal)).listen({
  onUnhandledRequest: "bypass",
});

await import("../../../server");
