import { CAPTCHA_FIELD } from "#lib/captcha";
import { config } from "./env.server";

/** For a loader of a page with a captcha form: the public site key, or null when not configured. */
export const captchaSiteKey = (): string | null => config().CAPTCHA_SITE_KEY ?? null;

/** The widget's token from a posted form, to pass on to the API as captcha_token. */
export function captchaToken(formData: FormData): string | undefined {
  const token = formData.get(CAPTCHA_FIELD);
  return typeof token === "string" && token ? token : undefined;
}
