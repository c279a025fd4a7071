/**
 * Redsys's pages on our side (api/routes/redsys.ts): the signed form the buyer's browser posts to
 * Redsys, and the two addresses Redsys sends the buyer back to (URLOK, URLKO). The notification is
 * the generic POST /redsys/webhook/ (contract/sales.ts).
 */
import { z } from "zod";
import { defineRoute, notJson } from "#contract/define-route";
import { PAYMENT_METHODS } from "#rules/payments";

/** A query text the API reads itself: never refused before the handler (a repeated one reads as absent). */
const queryText = z.string().optional().catch(undefined);

/** The fields Redsys appends to URLOK and URLKO when the terminal is set up to: read like a notification. */
const SignedReturnQuery = z.object({ Ds_SignatureVersion: queryText, Ds_MerchantParameters: queryText, Ds_Signature: queryText });

export const redsysRoutes = {
  /** ?method=bizum|card: the way of paying chosen at checkout; any other reads as none. */
  pay: defineRoute({
    method: "GET",
    path: "/redsys/pay/:id/",
    query: z.object({ method: z.enum(PAYMENT_METHODS).optional().catch(undefined) }),
    answer: notJson("html"),
  }),
  ok: defineRoute({ method: "GET", path: "/redsys/ok/:id/", query: SignedReturnQuery, answer: notJson("redirect") }),
  ko: defineRoute({ method: "GET", path: "/redsys/ko/:id/", query: SignedReturnQuery, answer: notJson("redirect") }),
};
