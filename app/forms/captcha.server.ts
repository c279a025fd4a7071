import { CAPTCHA_FIELD, NOSCRIPT_FIELD } from "#rules/captcha";
import { noScriptFormProof } from "#platform/signatures.server";
import { config } from "#app/env.server";

/** For a loader of a page with a captcha form: the public site key, or null when not configured. */
export const captchaSiteKey = (): string | null => config().CAPTCHA_SITE_KEY ?? null;

/** What a captcha form tells the API: the widget's token, or the proof that no script ran. */
export type CaptchaFields = { captcha_token?: string; captcha_noscript?: string };

/**
 * From a posted captcha form, for the API call it makes about `email`: the widget's token when
 * the browser ran it; when the page's HTML still had the field the widget takes the place of (no
 * JavaScript, or posted before the scripts ran), our signed word for that; otherwise nothing, and
 * the API asks for the check.
 */
export function captchaFields(formData: FormData, email: string): CaptchaFields {
  const token = formData.get(CAPTCHA_FIELD);
  if (typeof token === "string" && token) return { captcha_token: token };
  if (formData.get(NOSCRIPT_FIELD) === "1") return { captcha_noscript: noScriptFormProof(config().sessionSecrets, email) };
  return {};
}
