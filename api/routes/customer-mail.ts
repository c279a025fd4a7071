import express, { Router } from "express";
import type { Config } from "#platform/config.server";
import { isValidEmail } from "#rules/email";
import { LINK_PURPOSES, openLink, sealLink, verifyUnsubscribe } from "#platform/signatures.server";
import type { Database } from "#api/db/client";
import { z } from "zod";
import { HttpError, parseInput } from "#api/http";
import { on } from "#api/route";
import { requireUser, signedIn } from "#api/auth/context";
import { isSubscribed, recordConsent, unsubscribe } from "#api/services/subscriptions";
import { stopReminders } from "#api/services/reminders/stops";
import { customerMailRoutes } from "#contract/customer-mail";
import { REMINDER_NAMES, REMINDER_SLUGS, type ReminderKind } from "#rules/reminders";

export const INVALID_LINK = "Este enlace no es válido. Usa el enlace de baja del último correo que te enviamos.";
const LINK_NOT_VALID = "Este enlace no es válido o está incompleto. Usa el enlace del correo tal cual te llegó.";

/** A mailed link's key, as the routes' query reads it: its token, or an old link's email and sig. */
type LinkKey = { t?: string; email?: string; sig?: string };

/**
 * The address an unsubscribe link stands for: its token (`t=`), or the `email=…&sig=…` pair of
 * mails sent before tokens, which keep working.
 */
function signedEmail(key: LinkKey, config: Config): string {
  const token = key.t ?? "";
  if (token) {
    const link = openLink(config.sessionSecrets, "unsubscribe", token);
    if (!link) throw new HttpError(400, INVALID_LINK);
    return link.email;
  }
  const email = (key.email ?? "").trim().toLowerCase();
  const sig = key.sig ?? "";
  if (!email || !sig || !isValidEmail(email) || !verifyUnsubscribe(config.sessionSecrets, email, sig)) {
    throw new HttpError(400, INVALID_LINK);
  }
  return email;
}

/** The purposes are the platform's (signatures.server.ts), which the contract cannot import: checked here. */
const LinkPurposeQuery = z.object({
  purpose: z.enum(LINK_PURPOSES, { errorMap: () => ({ message: `purpose debe ser ${LINK_PURPOSES.join(", ")}.` }) }),
});

/** RFC 8058: the body is List-Unsubscribe=One-Click, form-urlencoded or multipart/form-data. */
function isOneClickBody(raw: string, contentType: string): boolean {
  if (contentType.startsWith("application/x-www-form-urlencoded")) {
    return new URLSearchParams(raw).get("List-Unsubscribe") === "One-Click";
  }
  if (contentType.startsWith("multipart/form-data")) {
    return /name="List-Unsubscribe"\r?\n\r?\nOne-Click\r?\n/.test(raw.replace(/\r\n/g, "\n"));
  }
  return raw.trim() === "List-Unsubscribe=One-Click";
}

export function customerMailRouter({ db, config }: { db: Database; config: Config }): Router {
  const router = Router();

  // What a mailed link stands for, read without acting on it: the pages that such links open
  // (/unsubscribe, /feedback, /login/registro, /login/recuperar) show or prefill it. The token is
  // the key: whoever holds it holds the mail it came in. An old unsubscribe link (email and sig)
  // answers a token too, so the page can leave the address out of its URL from then on.
  on(router, customerMailRoutes.link, async (req, res, { query }) => {
    const { purpose } = parseInput(LinkPurposeQuery, req.query);
    const subject =
      purpose === "unsubscribe" ? { email: signedEmail(query, config) } : openLink(config.sessionSecrets, purpose, query.t ?? "");
    if (!subject || (purpose === "feedback" && !subject.offer)) throw new HttpError(400, LINK_NOT_VALID);
    const t = query.t || sealLink(config.sessionSecrets, purpose, subject);
    res.set("Cache-Control", "private, no-store");
    res.json({ purpose, email: subject.email, offer_uuid: subject.offer ?? null, t });
  });

  // The contract's call, made by the /unsubscribe page's button (never by opening a link).
  on(router, customerMailRoutes.unsubscribe, async (_req, res, { query }) => {
    const email = signedEmail(query, config);
    await unsubscribe(db, email);
    res.json({ detail: "Te has dado de baja: ya no recibirás nuestras ofertas por correo.", email });
  });

  // The URL in List-Unsubscribe. Mail providers POST here from their servers: no cookie, no
  // CSRF token, the signature alone authorises it; it lives under /api/v0, outside the
  // storefront's same-origin form check, for that reason.
  const oneClickBody = express.text({ type: () => true, limit: "10kb" });
  on(router, customerMailRoutes.unsubscribeOneClick, { before: [oneClickBody] }, async (req, res, { query }) => {
    const email = signedEmail(query, config);
    if (!isOneClickBody(typeof req.body === "string" ? req.body : "", req.get("content-type") ?? "")) {
      throw new HttpError(400, "Falta List-Unsubscribe=One-Click en el cuerpo de la petición.");
    }
    await unsubscribe(db, email);
    res.type("text/plain; charset=utf-8").send("Baja confirmada.");
  });
  // The logged-in customer's marketing subscription (/cuenta). It is kept by email, like the
  // checkout's consent, so the same address is one subscription however it was given.
  on(router, customerMailRoutes.subscription, async (req, res) => {
    const user = requireUser(req);
    res.set("Cache-Control", "private, no-store").json({ subscribed: await isSubscribed(db, user.email) });
  });
  on(router, customerMailRoutes.setSubscription, { before: [signedIn] }, async (req, res, { body }) => {
    const user = requireUser(req);
    if (body.subscribed) await recordConsent(db, { email: user.email, source: "account" });
    else await unsubscribe(db, user.email);
    res.set("Cache-Control", "private, no-store").json({ subscribed: await isSubscribed(db, user.email) });
  });

  // A reminder's stop link: the token, sealed for that kind's purpose, is the only key. The
  // /avisos/… page's button posts here; mail providers post the one-click URL (List-Unsubscribe).
  const stopFor = async (kind: ReminderKind, t: unknown) => {
    const link = openLink(config.sessionSecrets, `reminder-${kind}`, t);
    if (!link) throw new HttpError(400, LINK_NOT_VALID);
    await stopReminders(db, link.email, kind);
    return link.email;
  };
  on(router, customerMailRoutes.stopReminders, async (_req, res, { body: { kind, t } }) => {
    const email = await stopFor(kind, t);
    res.set("Cache-Control", "private, no-store");
    res.json({ detail: `Hecho: ya no te enviaremos ${REMINDER_NAMES[kind]}.`, kind, email });
  });
  on(router, customerMailRoutes.stopRemindersOneClick, { before: [oneClickBody] }, async (req, res, { query: { kind, t } }) => {
    if (!isOneClickBody(typeof req.body === "string" ? req.body : "", req.get("content-type") ?? "")) {
      throw new HttpError(400, "Falta List-Unsubscribe=One-Click en el cuerpo de la petición.");
    }
    await stopFor(kind, t);
    res.type("text/plain; charset=utf-8").send("Baja confirmada.");
  });
  on(router, customerMailRoutes.stopRemindersPage, async (_req, res, { query: { kind, t } }) => {
    const slug = REMINDER_SLUGS[kind === "booking" ? "booking" : "expiry"];
    res.redirect(303, `/avisos/${slug}?${new URLSearchParams({ t: t ?? "" })}`);
  });

  // Someone who opens that URL in a browser gets the confirmation page, which asks first.
  on(router, customerMailRoutes.unsubscribePage, async (_req, res, { query }) => {
    const token = query.t ?? "";
    const q = new URLSearchParams(token ? { t: token } : { email: query.email ?? "", sig: query.sig ?? "" });
    res.redirect(303, `/unsubscribe?${q}`);
  });
  return router;
}
