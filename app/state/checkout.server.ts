import { z } from "zod";
import { cookies, readCookie } from "./cookies.server";

const Line = z.object({ t: z.string(), o: z.string(), q: z.number().int(), lt: z.string(), pc: z.string().nullable() });
const SaleRef = z.object({ id: z.string().uuid(), tx: z.string().uuid() });
const State = z.object({
  /** Cart fingerprint at validation: a different cart means the order must be checked again. */
  fp: z.string().optional(),
  token: z.string().optional(),
  total: z.string().optional(),
  /** What the order saves against the regular prices, in cents, as the API priced it. */
  saving: z.number().int().nonnegative().optional(),
  lines: z.array(Line).max(20).optional(),
  /** What the buyer typed on /checkout, to refill it after a failed payment. */
  form: z
    .object({
      email: z.string().max(254),
      mail_agreement: z.boolean().optional(),
      need_receipt: z.boolean(),
      subs_agreement: z.boolean().optional(),
      user_fullname: z.string().max(200).optional(),
      user_tax_number: z.string().max(20).optional(),
      user_address: z.string().max(300).optional(),
    })
    .optional(),
  /** The sale waiting for the provider's return. */
  sale: SaleRef.optional(),
  /** The last paid sale, so reloading the success page shows it again. */
  done: SaleRef.optional(),
});

export type CheckoutState = z.infer<typeof State>;

export async function getCheckoutState(request: Request): Promise<CheckoutState> {
  return (await readCookie(cookies().checkout, request, (v) => State.safeParse(v).data ?? null)) ?? {};
}

export async function commitCheckoutState(state: CheckoutState): Promise<string> {
  return cookies().checkout.serialize(state);
}
