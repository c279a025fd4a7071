import { and, eq } from "drizzle-orm";
import express, { Router, type Request } from "express";
import { z } from "zod";
import type { Config } from "#platform/config.server";
import { isValidEmail } from "#rules/email";
import { CreateSaleRequestSchema, PromoCodeText, ValidateOrderSchema, type CapturedPurchase } from "#contract/sales";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { webhookEvents } from "#api/db/schema";
import { rememberAnalyticsConsent } from "#api/analytics/outbox";
import { badRequest, handle, HttpError, parseInput } from "#api/http";
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
import { clientAddress, isExemptAddress, limits, rateLimit } from "#api/rate-limit";
import { CREATES_PER_ADDRESS, PROMO_CODE_CHECKS, TOO_MANY_PROMO_CHECKS, VALIDATES_PER_ADDRESS } from "#rules/limits";
import { purchaseSignature, verifyGift, verifyPurchase } from "#platform/signatures.server";
import { giftView } from "#api/services/sales/gift-view";
import { sandboxRouter } from "#api/routes/sandbox";
import { redsysRouter } from "#api/routes/redsys";
import { publicOrigin } from "#api/hosts";
import { getUser } from "#api/auth/context";

const TOO_MANY_VALIDATES = "Demasiadas comprobaciones del pedido seguidas. Espera un minuto y vuelve a intentarlo.";
const TOO_MANY_CREATES = "Demasiados pedidos seguidos desde tu conexión. Espera unos minutos y vuelve a intentarlo.";

export function salesRouter({ db, config, payments }: { db: Database; config: Config; payments: PaymentProviders }): Router {
  const router = Router();
  const json = express.json({ limit: "100kb" });

  router.post(
    "/public/offers/apply-promocode/",
    rateLimit({
      name: "promo",
      windowMs: PROMO_CODE_CHECKS.durationSec * 1000,
      max: PROMO_CODE_CHECKS.points,
      message: TOO_MANY_PROMO_CHECKS,
    }),
    json,
    handle(async (req, res) => {
      const body = parseInput(z.object({ promo_code: PromoCodeText, email: z.string().trim().optional() }), req.body);
      const email = body.email && isValidEmail(body.email) ? body.email : null;
      res.json(await checkPromoCode(db, body.promo_code, email));
    }),
  );

  router.post(
    "/sales/validate/",
    json,
    handle(async (req, res) => {
      const address = clientAddress(req);
      if (!isExemptAddress(address)) {
        await limits.consume(`validate:ip:${address}`, { ...VALIDATES_PER_ADDRESS, message: TOO_MANY_VALIDATES });
      }
      const parsed = ValidateOrderSchema.safeParse(req.body);
      if (!parsed.success) {
        // Same answer shape as a business error, so the storefront shows each error_text.
        res.status(400).json({
          sales_data: { items: [], total: "0.00", currency: "EUR" },
          checkout_data: {},
          errors: parsed.error.issues.map((i) => ({ error_text: i.message, field: i.path.join(".") })),
        });
        return;
      }
      // Every code that does not exist is a guess, counted like one apply-promocode call, before the
      // answer says which codes exist.
      const unknown = await countUnknownPromoCodes(
        db,
        parsed.data.items.flatMap((i) => i.promo_codes),
      );
      if (unknown > 0) {
        await limits.consume(`promo:ip:${address}`, { ...PROMO_CODE_CHECKS, cost: unknown, message: TOO_MANY_PROMO_CHECKS });
      }
      const { status, answer } = await validateOrder(db, parsed.data);
      res.status(status).json(answer);
    }),
  );

  router.post(
    "/sales/create/",
    json,
    handle(async (req, res) => {
      const address = clientAddress(req);
      const exempt = isExemptAddress(address);
      if (!exempt) await limits.consume(`create:ip:${address}`, { ...CREATES_PER_ADDRESS, message: TOO_MANY_CREATES });
      const { session_token, analytics, payment_method } = parseInput(CreateSaleRequestSchema, req.body);
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
    }),
  );

  router.post(
    "/sales/capture/:id/",
    json,
    handle(async (req, res) => {
      if (!isUuid(req.params.id)) throw badRequest("Identificador de venta no válido.");
      const { transaction_id } = parseInput(z.object({ transaction_id: z.string().uuid("transaction_id no válido.") }), req.body);
      const purchase = await captureSale(db, payments.all, req.params.id.toLowerCase(), transaction_id.toLowerCase(), {
        feedbackDelayDays: config.FEEDBACK_DELAY_DAYS,
      });
      // Whoever holds the sale's transaction id is its buyer: they get the mail link's signature.
      const answer: CapturedPurchase = { ...purchase, coupons_sig: purchaseSignature(config.sessionSecrets, purchase.sale_id) };
      res.json(answer);
    }),
  );

  /**
   * A purchase opened from the link in its confirmation mail: the signature (HMAC of the sale id
   * under the session secrets) stands in for an account, so guests can see their coupons again.
   */
  const signedPurchase = async (req: Request) => {
    const sig = typeof req.query.sig === "string" ? req.query.sig : "";
    // ?gift=<offer>: the recipient's link opens that one gift, without a price anywhere in it.
    const gift = typeof req.query.gift === "string" ? req.query.gift : null;
    const valid =
      isUuid(req.params.id) &&
      sig &&
      (gift === null
        ? verifyPurchase(config.sessionSecrets, req.params.id, sig)
        : isUuid(gift) && verifyGift(config.sessionSecrets, req.params.id, gift, sig));
    if (!valid) throw new HttpError(404, "Este enlace no es válido o ha caducado.");
    const purchase = await purchaseOf(db, req.params.id.toLowerCase());
    if (purchase.status !== "paid") throw new HttpError(404, "Este enlace no es válido o ha caducado.");
    return gift === null ? purchase : giftView(purchase, gift.toLowerCase());
  };
  router.get(
    "/sales/purchase/:id/",
    handle(async (req, res) => {
      res.set("Cache-Control", "private, no-store");
      res.json(await signedPurchase(req));
    }),
  );
  router.get(
    "/sales/purchase/:id/vouchers.pdf",
    handle(async (req, res) => {
      const purchase = await signedPurchase(req);
      // pdf-lib and qrcode load with the first voucher asked for, not with every process.
      const { buildVoucherPdf } = await import("#api/coupons/voucher-pdf");
      const pdf = await buildVoucherPdf(purchase, { origin: publicOrigin(req, config) });
      res.set({
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="cupones-${purchase.sale_id.slice(0, 8)}.pdf"`,
        "Cache-Control": "private, no-store",
      });
      res.send(Buffer.from(pdf));
    }),
  );

  /** Storefront's cancel return: gives the reservation back at once instead of waiting for the sweep. */
  router.post(
    "/sales/cancel/:id/",
    json,
    handle(async (req, res) => {
      if (!isUuid(req.params.id)) throw badRequest("Identificador de venta no válido.");
      const { transaction_id } = parseInput(z.object({ transaction_id: z.string().uuid() }), req.body);
      const tx = await findTransaction(db, { transactionId: transaction_id.toLowerCase() });
      if (!tx || tx.saleId !== req.params.id.toLowerCase()) throw new HttpError(404, "No hemos encontrado ese pago.");
      const released = await releaseSale(db, tx.saleId, "cancelled");
      res.json({ released });
    }),
  );

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
  router.post(
    "/:provider/webhook/",
    express.text({ type: () => true, limit: "256kb" }),
    handle(async (req, res) => {
      const name = req.params.provider as PaymentProviderName;
      if (!PAYMENT_PROVIDERS.includes(name)) throw new HttpError(404, "Proveedor de pago desconocido.");
      const rawBody = typeof req.body === "string" ? req.body : "";
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
      res.json(await receiveWebhook(name, { headers, rawBody, url: `${publicOrigin(req, config)}${req.originalUrl}` }));
    }),
  );

  router.use("/sandbox", sandboxRouter({ db, config, deliverWebhook: (request) => receiveWebhook("sandbox", request) }));
  router.use("/redsys", redsysRouter({ db, config, payments, deliverWebhook: (request) => receiveWebhook("redsys", request) }));
  return router;
}

function sqlEventKey(provider: string, eventId: string) {
  return and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, eventId));
}
