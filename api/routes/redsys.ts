/**
 * Redsys's pages on our side: the one holding the signed form the buyer's browser posts to
 * Redsys, and the two addresses Redsys sends the buyer back to (URLOK, URLKO). The notification
 * itself is the generic POST /redsys/webhook/ (routes/sales.ts).
 */
import { createHash } from "node:crypto";
import { Router, type Request, type Response } from "express";
import { eq } from "drizzle-orm";
import type { Config } from "#platform/config.server";
import { formatCents } from "#rules/prices";
import type { PaymentMethod } from "#rules/payments";
import { escapeHtml } from "#rules/text";
import { isUuid } from "#rules/uuid";
import type { Database } from "#api/db/client";
import { paymentTransactions, sales } from "#api/db/schema";
import { HttpError } from "#api/http";
import { on, type RouteInput } from "#api/route";
import { redsysRoutes } from "#contract/redsys";
import type { PaymentProviders } from "#api/payments/registry";
import type { RedsysForm, RedsysProvider } from "#api/payments/redsys";
import { authorisedOrder, CANCELLED_BY_BUYER, latestOrder } from "#api/payments/redsys-orders";
import type { WebhookRequest } from "#api/payments/types";
import { releaseSale } from "#api/services/sales/release";
import { currentRequestId, logger } from "#platform/logger.server";

/**
 * With JavaScript the form goes at once, except when the buyer comes back to this page with the
 * browser's back button: sending them straight on again would trap them.
 */
const AUTO_SUBMIT = `(function(){var n=performance.getEntriesByType&&performance.getEntriesByType("navigation")[0];if(n&&n.type==="back_forward")return;var f=document.getElementById("pay");if(f){f.querySelector("button").setAttribute("aria-busy","true");f.submit();}})();`;
const AUTO_SUBMIT_HASH = `'sha256-${createHash("sha256").update(AUTO_SUBMIT, "utf8").digest("base64")}'`;

const LEAD: Record<PaymentMethod, string> = {
  card: "Te llevamos a la pasarela segura de tu banco (Redsys) para pagar con tarjeta. Los datos de tu tarjeta los recibe el banco: nosotros no los vemos.",
  bizum:
    "Te llevamos a la pasarela segura de tu banco (Redsys) para pagar con Bizum: pondrás tu móvil y confirmarás el pago en la app de tu banco.",
};
const HEADING: Record<PaymentMethod, string> = { card: "Pagar con tarjeta", bizum: "Pagar con Bizum" };

type SignedReturn = RouteInput<typeof redsysRoutes.ok>["query"];

export function redsysRouter({
  db,
  config,
  payments,
  deliverWebhook,
}: {
  db: Database;
  config: Config;
  payments: PaymentProviders;
  /** The shop's webhook receiver (routes/sales.ts): a return signed by Redsys is taken like its notification. */
  deliverWebhook: (request: WebhookRequest) => Promise<unknown>;
}): Router {
  const router = Router();

  async function load(id: string) {
    const provider = payments.all.get("redsys") as RedsysProvider | undefined;
    if (!provider || !isUuid(id)) throw new HttpError(404, "Pago no encontrado.");
    const [row] = await db
      .select({ tx: paymentTransactions, sale: sales })
      .from(paymentTransactions)
      .innerJoin(sales, eq(sales.id, paymentTransactions.saleId))
      .where(eq(paymentTransactions.id, id.toLowerCase()));
    if (!row || row.tx.provider !== "redsys") throw new HttpError(404, "Pago no encontrado.");
    return { provider, ...row };
  }

  /** Redsys appends its signed fields to URLOK and URLKO when the terminal is set up to: read them like a notification. */
  async function takeSignedReturn(req: Request, query: SignedReturn) {
    const { Ds_SignatureVersion, Ds_MerchantParameters, Ds_Signature } = query;
    if (Ds_MerchantParameters === undefined || Ds_Signature === undefined) return;
    const rawBody = new URLSearchParams({
      Ds_SignatureVersion: Ds_SignatureVersion ?? "",
      Ds_MerchantParameters,
      Ds_Signature,
    }).toString();
    await deliverWebhook({ headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody, url: req.originalUrl }).catch(
      (error: unknown) => {
        // A forged or stale return changes nothing; the notification is what counts.
        logger.warn({ err: error, reqId: currentRequestId() }, "Redsys: vuelta firmada no procesada.");
      },
    );
  }

  on(router, redsysRoutes.pay, async (_req, res, { params, query }) => {
    const { provider, tx, sale } = await load(params.id);
    res.set("Cache-Control", "no-store");
    if (sale.status === "paid") return res.redirect(303, tx.returnUrl);
    if (sale.status !== "pending") {
      return sendPage(
        res,
        "Pago cerrado",
        `<h1>Este pago ya no está abierto</h1><p>El pedido se canceló o su reserva caducó. No se te ha cobrado nada por él.</p>
<p><a class="button" href="/checkout/">Volver al carrito</a></p>`,
        [],
      );
    }
    const form = await provider.paymentForm(tx.id, query.method);
    if (!form) throw new HttpError(404, "Pago no encontrado.");
    sendPage(res, HEADING[form.payMethod], payBody(form, tx.amountCents, tx.cancelUrl, config), [new URL(form.action).origin], true);
  });

  on(router, redsysRoutes.ok, async (req, res, { params, query }) => {
    const { tx } = await load(params.id);
    await takeSignedReturn(req, query);
    res.set("Cache-Control", "no-store").redirect(303, tx.returnUrl);
  });

  /** Denied, cancelled on Redsys's page, or given up: the tickets go back at once, and the buyer to the cart. */
  on(router, redsysRoutes.ko, async (req, res, { params, query }) => {
    const { tx } = await load(params.id);
    await takeSignedReturn(req, query);
    res.set("Cache-Control", "no-store");
    // Paid in another tab after all: never release a sale whose money Redsys took.
    if (await authorisedOrder(db, tx.id)) return res.redirect(303, tx.returnUrl);
    const code = (await latestOrder(db, tx.id))?.responseCode ?? null;
    const reason = code === null ? "failed" : code === CANCELLED_BY_BUYER ? "cancelled" : "declined";
    await releaseSale(db, tx.saleId, reason === "declined" ? "declined" : "cancelled");
    res.redirect(303, `${tx.cancelUrl}${tx.cancelUrl.includes("?") ? "&" : "?"}reason=${reason}`);
  });

  return router;
}

function payBody(form: RedsysForm, amountCents: number, cancelUrl: string, config: Config): string {
  const fields = Object.entries(form.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const testing = config.redsys?.environment === "test" ? `<p class="badge">Entorno de pruebas de Redsys: no se cobra dinero real</p>` : "";
  return `${testing}<h1>${HEADING[form.payMethod]}</h1>
<p class="amount">${escapeHtml(formatCents(amountCents))}</p>
<p>${LEAD[form.payMethod]}</p>
<form id="pay" method="post" action="${escapeHtml(form.action)}">${fields}<button class="pay" type="submit">Continuar al pago seguro</button></form>
<p class="small">Pedido ${escapeHtml(form.orderNumber)}</p>
<p><a href="${escapeHtml(cancelUrl)}">Volver al carrito</a></p>
<script>${AUTO_SUBMIT}</script>`;
}

function sendPage(res: Response, title: string, body: string, formTargets: string[], script = false) {
  // The API's policy allows nothing; this page says what it needs: its style, its icon, the
  // auto-submit by its hash, and the form posting to Redsys only.
  const policy = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self'",
    script ? `script-src ${AUTO_SUBMIT_HASH}` : "",
    `form-action ${formTargets.length ? formTargets.join(" ") : "'none'"}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].filter(Boolean);
  res
    .set({ "Content-Security-Policy": policy.join("; "), "Referrer-Policy": "no-referrer" })
    .type("html")
    .send(
      `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="/favicon.svg" type="image/svg+xml"><title>${escapeHtml(title)} · ofertas</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;background:#f3f4f6;color:#111827;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:2rem 1.5rem;max-width:28rem;width:calc(100% - 2rem)}
.brand{font-weight:800;font-size:1.1rem;color:#0f766e;margin:0 0 1rem}
h1{font-size:1.35rem;margin:0 0 .25rem}.amount{font-size:2rem;font-weight:700;margin:.75rem 0}
p{color:#374151;line-height:1.5}.small{font-size:.85rem;color:#4b5563}
form{margin:1.25rem 0}button,.button{display:block;width:100%;min-height:48px;font:inherit;font-size:1.05rem;font-weight:600;padding:.8rem;border-radius:8px;border:1px solid #0f766e;background:#0f766e;color:#fff;cursor:pointer;text-align:center;text-decoration:none}
button[aria-busy=true]{opacity:.8}a{color:#0f766e;display:inline-block;min-height:44px;line-height:44px}a.button{color:#fff;line-height:1.5}
button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:999px;padding:.1rem .6rem;font-size:.85rem;margin:0 0 .75rem}
</style></head><body><main><p class="brand">ofertas · Pago seguro</p>${body}</main></body></html>`,
    );
}
