/**
 * The captcha is Cloudflare Turnstile: usually no puzzle to solve (better for people
 * using a screen reader or a phone), no ad-tracking business behind it, free at any volume, and a
 * documented set of test keys. hCaptcha shows image challenges far more often.
 */
export const TURNSTILE_SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
export const TURNSTILE_VERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** The hidden field the widget adds to its form. */
export const CAPTCHA_FIELD = "cf-turnstile-response";
/** The hidden field a captcha form has until its script runs (the widget takes its place). */
export const NOSCRIPT_FIELD = "captcha_noscript";

export const CAPTCHA_MESSAGES = {
  invalid: "No hemos podido comprobar que no eres un robot. Vuelve a intentarlo.",
  missing: "Falta la verificación antispam: espera a que termine (debajo del formulario) y vuelve a enviarlo.",
  unavailable:
    "La comprobación antispam no responde ahora mismo y, por seguridad, no hemos enviado el formulario. Espera un minuto y vuelve a intentarlo.",
} as const;
