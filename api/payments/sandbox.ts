import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "#api/db/client";
import { paymentTransactions } from "#api/db/schema";
import type { PaymentProvider, PaymentState, WebhookEvent, WebhookRequest } from "./types";
import { sameSecret } from "#platform/same-secret.server";

export const SANDBOX_SIGNATURE_HEADER = "ofertas-sandbox-signature";
const TOLERANCE_SECONDS = 300;

export function signSandboxPayload(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

/**
 * The embedded default provider: a hosted page served by this process (routes/sandbox.ts) where the
 * buyer pays, declines or cancels. Its "bank" is the payment_transactions row; approval captures.
 */
export function createSandboxProvider(db: Database, secret: string): PaymentProvider {
  return {
    name: "sandbox",
    flow: "hosted",
    async createPayment(input) {
      const origin = new URL(input.webhookUrl).origin;
      return {
        flow: "hosted",
        redirectUrl: `${origin}/api/v0/sandbox/checkout/${input.transactionId}/`,
        providerRef: `sbx_${input.transactionId}`,
      };
    },
    async capturePayment(payment): Promise<PaymentState> {
      const [tx] = await db.select().from(paymentTransactions).where(eq(paymentTransactions.id, payment.transactionId));
      const status = !tx
        ? "declined"
        : tx.status === "approved" || tx.status === "captured"
          ? "captured"
          : tx.status === "created"
            ? "pending"
            : "declined";
      if (!tx)
        return { status: "declined", amountCents: payment.amountCents, currency: payment.currency, providerRef: payment.providerRef };
      // The sandbox's bank is our own transaction row: its amount is what the buyer "paid".
      return { status, amountCents: tx.amountCents, currency: tx.currency, providerRef: payment.providerRef };
    },
    async refundPayment(refund) {
      // The sandbox's bank is our own row: what it took, it gives back.
      const [tx] = await db.select().from(paymentTransactions).where(eq(paymentTransactions.id, refund.transactionId));
      if (!tx || (tx.status !== "approved" && tx.status !== "captured")) {
        return { status: "refused", reason: "La pasarela de pruebas no tiene cobrado este pago." };
      }
      return { status: "refunded", amountCents: refund.amountCents ?? tx.amountCents };
    },
    async verifyWebhook(request: WebhookRequest): Promise<WebhookEvent | null> {
      const header = request.headers[SANDBOX_SIGNATURE_HEADER];
      const m = header ? /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) : null;
      if (!m) return null;
      const timestamp = Number(m[1]);
      if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) return null;
      if (!sameSecret(m[2], signSandboxPayload(secret, request.rawBody, timestamp).split("v1=")[1], "hex")) return null;
      try {
        const body = JSON.parse(request.rawBody) as { id?: unknown; type?: unknown; transaction_id?: unknown };
        if (typeof body.id !== "string") return null;
        return {
          eventId: body.id,
          kind: body.type === "payment.completed" ? "payment.completed" : body.type === "payment.failed" ? "payment.failed" : "other",
          transactionId: typeof body.transaction_id === "string" ? body.transaction_id : null,
          providerRef: null,
        };
      } catch {
        return null;
      }
    },
  };
}
