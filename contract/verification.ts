/**
 * /verification/: login by a code sent by mail (send-code/, verify-code/, otp-login/). The
 * partners' POST /verification/coupon/ is declared with their sales (contract/partner-sales.ts).
 */
import { z } from "zod";
import "#rules/zod-es";
import { CodeField, EmailField } from "#rules/accounts";
import { defineRoute } from "#contract/define-route";
import { CodeCheckSchema, CodeSentSchema, TokenPairSchema } from "#contract/accounts";

/**
 * The captcha's proof beside a form's fields: Turnstile's token when the visitor's browser ran the
 * widget, the storefront's signed word when it could not. The API reads them itself
 * (api/captcha.ts), so that any value gets the captcha's own Spanish answer.
 */
export const CaptchaProof = { captcha_token: z.custom<string>().optional(), captcha_noscript: z.custom<string>().optional() };

const EmailAndCode = z.object({ email: EmailField, code: CodeField });

export const verificationRoutes = {
  sendCode: defineRoute({
    method: "POST",
    path: "/verification/send-code/",
    body: z.object({ email: EmailField, ...CaptchaProof }),
    answer: CodeSentSchema,
  }),
  /** Whether the code would log in, without spending it. */
  verifyCode: defineRoute({ method: "POST", path: "/verification/verify-code/", body: EmailAndCode, answer: CodeCheckSchema }),
  /** The code proves the address: the first login creates the customer. */
  otpLogin: defineRoute({
    method: "POST",
    path: "/verification/otp-login/",
    body: EmailAndCode.extend({ anonymous_token: z.string().max(2000).optional() }),
    answer: TokenPairSchema,
  }),
};
