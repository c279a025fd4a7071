import express, { Router, type Request, type Response } from "express";
import { eq, sql } from "drizzle-orm";
import type { Config } from "#platform/config.server";
import { formatCents } from "#rules/prices";
import { escapeHtml } from "#rules/text";
import { isUuid } from "#rules/uuid";
import { CROSS_SITE_MESSAGE, isCrossSiteWrite } from "#rules/cross-site";
import type { Database } from "#api/db/client";
import { paymentTransactions, sales } from "#api/db/schema";
import { HttpError } from "#api/http";
import { on } from "#api/route";
import { pathOf } from "#contract/define-route";
import { salesRoutes } from "#contract/sales";
import { sandboxRoutes } from "#contract/sandbox";
import { sandboxSecret } from "#api/payments/registry";
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from "#api/payments/sandbox";
import { releaseSale } from "#api/services/sales/release";
import type { WebhookRequest } from "#api/payments/types";
import { publicOrigin } from "#api/hosts";
import { currentRequestId, logger } from "#platform/logger.server";

/** How long «Pagar» waits for its webhook's capture before sending the buyer back to the shop. */
const WEBHOOK_WAIT_MS = 5000;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${escapeHtml(title)} · Pasarela de pruebas</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:2rem;max-width:26rem;width:calc(100% - 2rem)}
h1{font-size:1.25rem;margin:0 0 .25rem}.amount{font-size:2rem;font-weight:700;margin:1rem 0}
p{color:#4b5563}form{margin:.5rem 0}button{width:100%;font:inherit;font-size:1rem;padding:.8rem;border-radius:8px;border:1px solid #d1d5db;background:#fff;cursor:pointer}
button.pay{background:#0f766e;border-color:#0f766e;color:#fff;font-weight:600}button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:.1rem .6rem;font-size:.8rem}
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The API's fixed policy allows nothing (apiSecurityHeaders); this page is the one HTML the API
 * serves, so it says what it needs: its own inline style, its icon, and its forms posting to itself.
 */
const PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function sendPage(res: Response, title: string, body: string) {
  res.set("Content-Security-Policy", PAGE_POLICY).type("html").send(page(title, body));
}

/**
 * The sandbox provider's hosted payment page. Plain HTML forms, so it works with JavaScript off,
 * exactly like a real provider's page would for the buyer.
 */
export function sandboxRouter({
  db,
  config,
  deliverWebhook,
}: {
  db: Database;
  config: Config;
  /** The shop's webhook receiver (routes/sales.ts), called in this process. */
  deliverWebhook: (request: WebhookRequest) => Promise<unknown>;
}): Router {
  const router = Router();
  const secret = sandboxSecret(config);

  async function load(id: string) {
    if (!isUuid(id)) throw new HttpError(404, "Pago no encontrado.");
    const [row] = await db
      .select({ tx: paymentTransactions, sale: sales })
      .from(paymentTransactions)
      .innerJoin(sales, eq(sales.id, paymentTransactions.saleId))
      .where(eq(paymentTransactions.id, id.toLowerCase()));
    if (!row || row.tx.provider !== "sandbox") throw new HttpError(404, "Pago no encontrado.");
    return row;
  }

  /**
   * Handed to this process's own webhook receiver, signed and verified like any provider's, without
   * a request over the network: the buyer's «Pagar» does not queue a second request behind every
   * other buyer's, and no host named by a request or stored from one is ever called (ADR 024).
   */
  async function sendWebhook(type: "payment.completed" | "payment.failed", transactionId: string, req: Request) {
    const body = JSON.stringify({ id: `evt_${type}_${transactionId}`, type, transaction_id: transactionId });
    const delivered = deliverWebhook({
      headers: { "content-type": "application/json", [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(secret, body) },
      rawBody: body,
      url: `${publicOrigin(req, config)}${req.baseUrl}${pathOf(salesRoutes.webhook, { provider: "sandbox" })}`,
    }).catch((error: unknown) => {
      // The return redirect captures anyway; a lost webhook only loses the second path.
      logger.warn({ err: error, transactionId, reqId: currentRequestId() }, "Pasarela de pruebas: webhook no procesado.");
    });
    // A slow database keeps the buyer on this page at most as long as a provider's timeout would;
    // the capture goes on, and the return redirect finds it or does it.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([delivered, new Promise((resolve) => (timer = setTimeout(resolve, WEBHOOK_WAIT_MS)))]);
    clearTimeout(timer);
  }

  on(router, sandboxRoutes.checkout, async (_req, res, { params }) => {
    const { tx, sale } = await load(params.id);
    res.set("Cache-Control", "no-store");
    if (tx.status !== "created" || sale.status !== "pending") {
      sendPage(
        res,
        "Pago cerrado",
        `<h1>Este pago ya no está abierto</h1><p>Estado: ${escapeHtml(tx.status)}.</p><p><a href="${escapeHtml(tx.cancelUrl || "/")}">Volver a la tienda</a></p>`,
      );
      return;
    }
    sendPage(
      res,
      "Pagar",
      `<span class="badge">Entorno de pruebas</span><h1>Pasarela de pago de pruebas</h1>
<p>Pedido para ${escapeHtml(sale.email)}</p><p class="amount">${escapeHtml(formatCents(tx.amountCents))}</p>
<form method="post"><input type="hidden" name="action" value="pay"><button class="pay" type="submit">Pagar</button></form>
<form method="post"><input type="hidden" name="action" value="decline"><button type="submit">Simular tarjeta rechazada</button></form>
<form method="post"><input type="hidden" name="action" value="cancel"><button type="submit">Cancelar</button></form>
<p><small>No se cobra dinero real. Ninguna tarjeta es necesaria.</small></p>`,
    );
  });

  // The page's own form, urlencoded: the action is read here, in the page's words.
  on(router, sandboxRoutes.act, { before: [express.urlencoded({ extended: false, limit: "4kb" })] }, async (req, res, { params }) => {
    // Like any provider's page, it acts only on its own form: not on one posted from another site.
    if (
      isCrossSiteWrite({ method: req.method, secFetchSite: req.get("sec-fetch-site"), origin: req.get("origin"), host: req.get("host") })
    ) {
      throw new HttpError(403, CROSS_SITE_MESSAGE);
    }
    const { tx } = await load(params.id);
    const action = String(req.body?.action ?? "");
    if (action === "pay") {
      // Only an open payment can be approved; a second click changes nothing.
      await db.execute(
        sql`UPDATE payment_transactions SET status = 'approved', updated_at = now() WHERE id = ${tx.id} AND status = 'created'`,
      );
      await sendWebhook("payment.completed", tx.id, req);
      res.redirect(303, tx.returnUrl);
      return;
    }
    if (action === "decline" || action === "cancel") {
      const status = action === "decline" ? "declined" : "cancelled";
      await db.execute(
        sql`UPDATE payment_transactions SET status = ${status}, updated_at = now() WHERE id = ${tx.id} AND status = 'created'`,
      );
      await releaseSale(db, tx.saleId, status);
      if (action === "decline") await sendWebhook("payment.failed", tx.id, req);
      res.redirect(303, `${tx.cancelUrl}&reason=${status}`);
      return;
    }
    throw new HttpError(400, "Acción no válida.");
  });
  return router;
}
