import { and, eq } from "drizzle-orm";
import express, { Router, type RequestHandler } from "express";
import type { Config } from "#platform/config.server";
import { isValidEmail } from "#rules/email";
import { salesRoutes, type CapturedPurchase } from "#contract/sales";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { webhookEvents } from "#api/db/schema";
import { rememberAnalyticsConsent } from "#api/analytics/outbox";
import { badRequest, handle, HttpError } from "#api/http";
import { on } from "#api/route";
import type { PaymentProviders } from "#api/payments/registry";
import { PAYMENT_PROVIDERS, type PaymentProviderName, type WebhookRequest } from "#api/payments/types";
import {
  captureSale,
  checkPromoCode,
  countUnknownPromoCodes,
  createSale,
  findTransaction,
  purchaseOf,
  releaseSale,
  validateOrder,
} from "#api/services/sales";
import { clientAddress, isExemptAddress, limits, rateLimit, type LimitOptions } from "#api/rate-limit";
import { CREATES_PER_ADDRESS, PROMO_CODE_CHECKS, TOO_MANY_PROMO_CHECKS, VALIDATES_PER_ADDRESS } from "#rules/limits";
import { purchaseSignature, verifyGift, verifyPurchase } from "#platform/signatures.server";
import { giftView } from "#api/services/sales/gift-view";
import { sandboxRouter } from "#api/routes/sandbox";
import { redsysRouter } from "#api/routes/redsys";
import { publicOrigin } from "#api/hosts";
import { getUser } from "#api/auth/context";

const TOO_MANY_VALIDATES = "Demasiadas comprobaciones del pedido seguidas. Espera un minuto y vuelve a intentarlo.";
const TOO_MANY_CREATES = "Demasiados pedidos seguidos desde tu conexión. Espera unos minutos y vuelve a intentarlo.";

/** Counts a call against its address's limit before its body is read: a body that does not fit counts too. */
const perAddress = (name: string, limit: Pick<LimitOptions, "points" | "durationSec">, message: string): RequestHandler =>
  handle(async (req, _res, next) => {
    const address = clientAddress(req);
    if (!isExemptAddress(address)) await limits.consume(`${name}:ip:${address}`, { ...limit, message });
    next();
  });

/** A sale's id in the path, checked before its body. */
const saleId: RequestHandler = (req, _res, next) =>
  next(isUuid(req.params.id) ? undefined : badRequest("Identificador de venta no válido."));

export function salesRouter({ db, config, payments }: { db: Database; config: Config; payments: PaymentProviders }): Router {
  const router = Router();
  const json = express.json({ limit: "100kb" });

  const promoLimit = rateLimit({
    name: "promo",
    windowMs: PROMO_CODE_CHECKS.durationSec * 1000,
    max: PROMO_CODE_CHECKS.points,
    message: TOO_MANY_PROMO_CHECKS,
  });
  on(router, salesRoutes.applyPromoCode, { before: [promoLimit, json] }, async (_req, res, { body }) => {
    const email = body.email && isValidEmail(body.email) ? body.email : null;
    res.json(await checkPromoCode(db, body.promo_code, email));
  });

  on(
    router,
    salesRoutes.validate,
    {
      before: [json, perAddress("validate", VALIDATES_PER_ADDRESS, TOO_MANY_VALIDATES)],
      // Same answer shape as a business error, so the storefront shows each error_text.
      invalidBody: (issues, res) => {
        res.status(400).json({
          sales_data: { items: [], total: "0.00", currency: "EUR" },
          checkout_data: {},
          errors: issues.map((i) => ({ error_text: i.message, field: i.path.join(".") })),
        });
      },
    },
    async (req, res, { body }) => {
      // Every code that does not exist is a guess, counted like one apply-promocode call, before the
      // answer says which codes exist.
      const unknown = await countUnknownPromoCodes(
        db,
        body.items.flatMap((i) => i.promo_codes),
      );
      if (unknown > 0) {
        await limits.consume(`promo:ip:${clientAddress(req)}`, { ...PROMO_CODE_CHECKS, cost: unknown, message: TOO_MANY_PROMO_CHECKS });
      }
      const { status, answer } = await validateOrder(db, body);
      res.status(status).json(answer);
    },
  );

  on(
    router,
    salesRoutes.create,
    { before: [json, perAddress("create", CREATES_PER_ADDRESS, TOO_MANY_CREATES)] },
    async (req, res, { body: { session_token, analytics, payment_method } }) => {
      const address = clientAddress(req);
      const exempt = isExemptAddress(address);
      const origin = publicOrigin(req, config);
      // A sale made while logged in belongs to that account, whatever email the receipt goes to.
      const userId = getUser(req)?.id ?? null;
      const answer = await createSale(
        db,
        payments.current,
        session_token,
        { origin, apiOrigin: origin },
        config.RESERVATION_MINUTES,
        { clientAddress: exempt ? null : address, userId },
        payment_method,
      );
      if (analytics) await rememberAnalyticsConsent(db, answer.payment.sale_id, analytics.device_id);
      res.status(201).json(answer);
    },
  );

  on(router, salesRoutes.capture, { before: [json, saleId] }, async (_req, res, { body: { transaction_id }, params }) => {
    const purchase = await captureSale(db, payments.all, params.id.toLowerCase(), transaction_id.toLowerCase(), {
      feedbackDelayDays: config.FEEDBACK_DELAY_DAYS,
    });
    // Whoever holds the sale's transaction id is its buyer: they get the mail link's signature.
    const answer: CapturedPurchase = { ...purchase, coupons_sig: purchaseSignature(config.sessionSecrets, purchase.sale_id) };
    res.json(answer);
  });

  /**
   * A purchase opened from the link in its confirmation mail: the signature (HMAC of the sale id
   * under the session secrets) stands in for an account, so guests can see their coupons again.
   */
  const signedPurchase = async (id: string, query: { sig?: string; gift?: string }) => {
    const sig = query.sig ?? "";
    // ?gift=<offer>: the recipient's link opens that one gift, without a price anywhere in it.
    const gift = query.gift ?? null;
    const valid =
      isUuid(id) &&
      sig &&
      (gift === null ? verifyPurchase(config.sessionSecrets, id, sig) : isUuid(gift) && verifyGift(config.sessionSecrets, id, gift, sig));
    if (!valid) throw new HttpError(404, "Este enlace no es válido o ha caducado.");
    const purchase = await purchaseOf(db, id.toLowerCase());
    if (purchase.status !== "paid") throw new HttpError(404, "Este enlace no es válido o ha caducado.");
    return gift === null ? purchase : giftView(purchase, gift.toLowerCase());
  };
  on(router, salesRoutes.purchase, async (_req, res, { params, query }) => {
    res.set("Cache-Control", "private, no-store");
    res.json(await signedPurchase(params.id, query));
  });
  on(router, salesRoutes.vouchers, async (req, res, { params, query }) => {
    const purchase = await signedPurchase(params.id, query);
    // pdf-lib and qrcode load with the first voucher asked for, not with every process.
    const { buildVoucherPdf } = await import("#api/coupons/voucher-pdf");
    const pdf = await buildVoucherPdf(purchase, { origin: publicOrigin(req, config) });
    res.set({
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="cupones-${purchase.sale_id.slice(0, 8)}.pdf"`,
      "Cache-Control": "private, no-store",
    });
    res.send(Buffer.from(pdf));
  });

  /** Storefront's cancel return: gives the reservation back at once instead of waiting for the sweep. */
  on(router, salesRoutes.cancel, { before: [json, saleId] }, async (_req, res, { body: { transaction_id }, params }) => {
    const tx = await findTransaction(db, { transactionId: transaction_id.toLowerCase() });
    if (!tx || tx.saleId !== params.id.toLowerCase()) throw new HttpError(404, "No hemos encontrado ese pago.");
    const released = await releaseSale(db, tx.saleId, "cancelled");
    res.json({ released });
  });

  /**
   * A provider's webhook: verified, recorded once by its event id, then acted on. What it answers
   * is the JSON the provider gets back.
   */
  async function receiveWebhook(name: PaymentProviderName, request: WebhookRequest): Promise<Record<string, unknown>> {
    const provider = payments.all.get(name);
    if (!provider) throw new HttpError(404, "Proveedor de pago desconocido.");
    const event = await provider.verifyWebhook(request);
    if (!event) throw badRequest("Firma del webhook ausente o no válida.");

    const seen = await db.insert(webhookEvents).values({ provider: name, eventId: event.eventId }).onConflictDoNothing().returning();
    if (seen.length === 0) return { received: true, duplicate: true };
    try {
      const tx = await findTransaction(db, { transactionId: event.transactionId, provider: name, providerRef: event.providerRef });
      if (tx && event.kind === "payment.completed") {
        await captureSale(db, payments.all, tx.saleId, tx.id, {
          feedbackDelayDays: config.FEEDBACK_DELAY_DAYS,
          providerRef: event.providerRef,
          settled: event.settled,
        });
      } else if (tx && event.kind === "payment.failed") {
        await releaseSale(db, tx.saleId, event.failure ?? "declined");
      }
    } catch (error) {
      // Let the provider deliver it again later: forget that we saw it.
      await db.delete(webhookEvents).where(sqlEventKey(name, event.eventId));
      if (error instanceof HttpError && error.status < 500) return { received: true, detail: error.detail };
      throw error;
    }
    return { received: true };
  }

  // Webhooks: raw body, because the signature covers the exact bytes.
  on(router, salesRoutes.webhook, { before: [express.text({ type: () => true, limit: "256kb" })] }, async (req, res, { params }) => {
    const name = params.provider as PaymentProviderName;
    if (!PAYMENT_PROVIDERS.includes(name)) throw new HttpError(404, "Proveedor de pago desconocido.");
    const rawBody = typeof req.body === "string" ? req.body : "";
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
    res.json(await receiveWebhook(name, { headers, rawBody, url: `${publicOrigin(req, config)}${req.originalUrl}` }));
  });

  // Their declarations hold their full paths (/sandbox/…, /redsys/…).
  router.use(sandboxRouter({ db, config, deliverWebhook: (request) => receiveWebhook("sandbox", request) }));
  router.use(redsysRouter({ db, config, payments, deliverWebhook: (request) => receiveWebhook("redsys", request) }));
  return router;
}

function sqlEventKey(provider: string, eventId: string) {
  return and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, eventId));
}
