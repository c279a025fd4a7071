/**
 * What the links of our mails act on (/customer/mail-link/, /customer/unsubscribe/…,
 * /customer/reminders/stop/…) and the logged-in customer's marketing subscription
 * (/customer/subscription/). The answers' schemas live in contract/customer.ts.
 */
import { z } from "zod";
import { defineRoute, notJson } from "#contract/define-route";
import {
  MailLinkSchema,
  ReminderStoppedSchema,
  ReminderStopRequestSchema,
  SubscriptionSchema,
  UnsubscribedSchema,
} from "#contract/customer";

/**
 * A query text the API reads itself, in its own words when it is missing or wrong (a link that
 * is not valid): typed for the caller, never refused before the handler (a repeated one reads as
 * absent).
 */
const linkText = z.string().optional().catch(undefined);

/**
 * Who a mailed link stands for: its token (`t`), or an old unsubscribe link's `email` and `sig`,
 * which keep working.
 */
const LinkKeyQuery = z.object({ t: linkText, email: linkText, sig: linkText });

/** POST /customer/subscription/: subscribing is a new consent, given on purpose: the request must say so. */
export const SubscriptionRequestSchema = z
  .object({ subscribed: z.boolean({ required_error: "Falta subscribed." }), consent: z.boolean().optional() })
  .refine((v) => !v.subscribed || v.consent === true, {
    message: "Marca la casilla para aceptar recibir ofertas por correo.",
    path: ["consent"],
  });

export const customerMailRoutes = {
  /**
   * What a mailed link stands for, read without acting on it. `purpose` is one of the link
   * purposes (platform/signatures.server.ts), which the API checks with its own message.
   */
  link: defineRoute({
    method: "GET",
    path: "/customer/mail-link/",
    query: LinkKeyQuery.extend({ purpose: linkText }),
    answer: MailLinkSchema,
  }),
  /** The contract's unsubscribe call, made by the /unsubscribe page's button (never by opening a link). */
  unsubscribe: defineRoute({ method: "GET", path: "/customer/unsubscribe/", query: LinkKeyQuery, answer: UnsubscribedSchema }),
  /** The URL in List-Unsubscribe (RFC 8058): its body is List-Unsubscribe=One-Click, as a form or as text. */
  unsubscribeOneClick: defineRoute({
    method: "POST",
    path: "/customer/unsubscribe/one-click/",
    query: LinkKeyQuery,
    answer: notJson("text"),
  }),
  subscription: defineRoute({ method: "GET", path: "/customer/subscription/", answer: SubscriptionSchema }),
  setSubscription: defineRoute({
    method: "POST",
    path: "/customer/subscription/",
    body: SubscriptionRequestSchema,
    answer: SubscriptionSchema,
  }),
  /** A reminder's stop link, acted on by the /avisos/… page's button. */
  stopReminders: defineRoute({
    method: "POST",
    path: "/customer/reminders/stop/",
    body: ReminderStopRequestSchema,
    answer: ReminderStoppedSchema,
  }),
  /** The reminders' List-Unsubscribe URL: {kind, t} in the query, List-Unsubscribe=One-Click in the body. */
  stopRemindersOneClick: defineRoute({
    method: "POST",
    path: "/customer/reminders/stop/one-click/",
    query: ReminderStopRequestSchema,
    answer: notJson("text"),
  }),
  /** That URL opened in a browser: the /avisos/… page, which asks first. */
  stopRemindersPage: defineRoute({
    method: "GET",
    path: "/customer/reminders/stop/one-click/",
    query: z.object({ kind: linkText, t: linkText }),
    answer: notJson("redirect"),
  }),
  /** The unsubscribe URL opened in a browser: the /unsubscribe page, which asks first. */
  unsubscribePage: defineRoute({
    method: "GET",
    path: "/customer/unsubscribe/one-click/",
    query: LinkKeyQuery,
    answer: notJson("redirect"),
  }),
};
