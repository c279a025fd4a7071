import express, { Router, type Request } from "express";
import type { Config } from "#platform/config.server";
import { isValidEmail } from "#rules/email";
import { LINK_PURPOSES, openLink, sealLink, verifyUnsubscribe } from "#platform/signatures.server";
import type { Database } from "#api/db/client";
import { z } from "zod";
import { handle, HttpError, parseInput } from "#api/http";
import { requireUser } from "#api/auth/context";
import { isSubscribed, recordConsent, unsubscribe } from "#api/services/subscriptions";
import { stopReminders } from "#api/services/reminders/stops";
import { ReminderStopRequestSchema } from "#contract/customer";
import { REMINDER_NAMES, REMINDER_SLUGS, type ReminderKind } from "#rules/reminders";

export const INVALID_LINK = "Este enlace no es válido. Usa el enlace de baja del último correo que te enviamos.";
const LINK_NOT_VALID = "Este enlace no es válido o está incompleto. Usa el enlace del correo tal cual te llegó.";

const queryText = (req: Request, name: string) => (typeof req.query[name] === "string" ? (req.query[name] as string) : "");

/**
 * The address an unsubscribe link stands for: its token (`t=`), or the `email=…&sig=…` pair of
 * mails sent before tokens, which keep working.
 */
function signedEmail(req: Request, config: Config): string {
  const token = queryText(req, "t");
  if (token) {
    const link = openLink(config.sessionSecrets, "unsubscribe", token);
    if (!link) throw new HttpError(400, INVALID_LINK);
    return link.email;
  }
  const email = queryText(req, "email").trim().toLowerCase();
  const sig = queryText(req, "sig");
  if (!email || !sig || !isValidEmail(email) || !verifyUnsubscribe(config.sessionSecrets, email, sig)) {
    throw new HttpError(400, INVALID_LINK);
  }
  return email;
}

const LinkQuery = z.object({
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
  router.get(
    "/customer/mail-link/",
    handle(async (req, res) => {
      const { purpose } = parseInput(LinkQuery, req.query);
      const subject =
        purpose === "unsubscribe" ? { email: signedEmail(req, config) } : openLink(config.sessionSecrets, purpose, queryText(req, "t"));
      if (!subject || (purpose === "feedback" && !subject.offer)) throw new HttpError(400, LINK_NOT_VALID);
      const t = queryText(req, "t") || sealLink(config.sessionSecrets, purpose, subject);
      res.set("Cache-Control", "private, no-store");
      res.json({ purpose, email: subject.email, offer_uuid: subject.offer ?? null, t });
    }),
  );

  // The contract's call, made by the /unsubscribe page's button (never by opening a link).
  router.get(
    "/customer/unsubscribe/",
    handle(async (req, res) => {
      const email = signedEmail(req, config);
      await unsubscribe(db, email);
      res.json({ detail: "Te has dado de baja: ya no recibirás nuestras ofertas por correo.", email });
    }),
  );

  // The URL in List-Unsubscribe. Mail providers POST here from their servers: no cookie, no
  // CSRF token, the signature alone authorises it; it lives under /api/v0, outside the
  // storefront's same-origin form check, for that reason.
  const oneClickPath = "/customer/unsubscribe/one-click/";
  router.post(
    oneClickPath,
    express.text({ type: () => true, limit: "10kb" }),
    handle(async (req, res) => {
      const email = signedEmail(req, config);
      if (!isOneClickBody(typeof req.body === "string" ? req.body : "", req.get("content-type") ?? "")) {
        throw new HttpError(400, "Falta List-Unsubscribe=One-Click en el cuerpo de la petición.");
      }
      await unsubscribe(db, email);
      res.type("text/plain; charset=utf-8").send("Baja confirmada.");
    }),
  );
  // The logged-in customer's marketing subscription (/cuenta). It is kept by email, like the
  // checkout's consent, so the same address is one subscription however it was given.
  router.get(
    "/customer/subscription/",
    handle(async (req, res) => {
      const user = requireUser(req);
      res.set("Cache-Control", "private, no-store").json({ subscribed: await isSubscribed(db, user.email) });
    }),
  );
  router.post(
    "/customer/subscription/",
    handle(async (req, res) => {
      const user = requireUser(req);
      const body = parseInput(
        z
          .object({ subscribed: z.boolean({ required_error: "Falta subscribed." }), consent: z.boolean().optional() })
          // Subscribing is a new consent, given on purpose: the request must say so.
          .refine((v) => !v.subscribed || v.consent === true, {
            message: "Marca la casilla para aceptar recibir ofertas por correo.",
            path: ["consent"],
          }),
        req.body,
      );
      if (body.subscribed) await recordConsent(db, { email: user.email, source: "account" });
      else await unsubscribe(db, user.email);
      res.set("Cache-Control", "private, no-store").json({ subscribed: await isSubscribed(db, user.email) });
    }),
  );

  // A reminder's stop link: the token, sealed for that kind's purpose, is the only key. The
  // /avisos/… page's button posts here; mail providers post the one-click URL (List-Unsubscribe).
  const stopFor = async (kind: ReminderKind, t: unknown) => {
    const link = openLink(config.sessionSecrets, `reminder-${kind}`, t);
    if (!link) throw new HttpError(400, LINK_NOT_VALID);
    await stopReminders(db, link.email, kind);
    return link.email;
  };
  router.post(
    "/customer/reminders/stop/",
    handle(async (req, res) => {
      const { kind, t } = parseInput(ReminderStopRequestSchema, req.body);
      const email = await stopFor(kind, t);
      res.set("Cache-Control", "private, no-store");
      res.json({ detail: `Hecho: ya no te enviaremos ${REMINDER_NAMES[kind]}.`, kind, email });
    }),
  );
  const reminderOneClick = "/customer/reminders/stop/one-click/";
  router.post(
    reminderOneClick,
    express.text({ type: () => true, limit: "10kb" }),
    handle(async (req, res) => {
      const { kind, t } = parseInput(ReminderStopRequestSchema, req.query);
      if (!isOneClickBody(typeof req.body === "string" ? req.body : "", req.get("content-type") ?? "")) {
        throw new HttpError(400, "Falta List-Unsubscribe=One-Click en el cuerpo de la petición.");
      }
      await stopFor(kind, t);
      res.type("text/plain; charset=utf-8").send("Baja confirmada.");
    }),
  );
  router.get(reminderOneClick, (req, res) => {
    const { kind, t } = req.query;
    const slug = REMINDER_SLUGS[kind === "booking" ? "booking" : "expiry"];
    res.redirect(303, `/avisos/${slug}?${new URLSearchParams({ t: typeof t === "string" ? t : "" })}`);
  });

  // Someone who opens that URL in a browser gets the confirmation page, which asks first.
  router.get(oneClickPath, (req, res) => {
    const token = queryText(req, "t");
    const q = new URLSearchParams(token ? { t: token } : { email: queryText(req, "email"), sig: queryText(req, "sig") });
    res.redirect(303, `/unsubscribe?${q}`);
  });
  return router;
}
