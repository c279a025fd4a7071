import { Form } from "@remix-run/react";
import { z } from "zod";
import type { RefundRequestRow } from "#contract/refunds";
import { formatShortDateTime } from "#rules/dates";
import { formatPrice } from "#rules/prices";

/** The buyers' requests: «Devolver» gives the coupon's price back; «Rechazar» tells the buyer why. */
export const RequestDecisionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), request: z.string().uuid("Solicitud no válida.") }),
  z.object({
    intent: z.literal("refuse"),
    request: z.string().uuid("Solicitud no válida."),
    reason: z
      .string()
      .trim()
      .min(5, "Escribe al comprador por qué no procede (al menos 5 caracteres).")
      .max(500, "Como máximo 500 caracteres."),
  }),
]);

/**
 * «Solicitudes de devolución»: coupons whose buyer asked for the money back and that the rule
 * (rules/refunds.ts) or the provider sent to staff. Each is a card with both decisions; refusing
 * asks for the words the buyer will read.
 */
export function RefundRequests({ requests, count, busy }: { requests: RefundRequestRow[]; count: number; busy: boolean }) {
  return (
    <section aria-labelledby="requests-title" className="refund-requests">
      <h2 id="requests-title">Solicitudes de devolución de compradores ({count})</h2>
      {requests.length === 0 ? (
        <p className="empty-state">No hay solicitudes por revisar.</p>
      ) : (
        <ul className="refund-request-list">
          {requests.map((r) => (
            <li key={r.id} className="confirm-box" aria-labelledby={`request-${r.id}`}>
              <h3 id={`request-${r.id}`} style={{ margin: 0 }}>
                Cupón <span className="mono">{r.code}</span> · {formatPrice(r.amount)}
              </h3>
              <p className="small" style={{ margin: "0.25rem 0" }}>
                {r.offer_title} · <span className="break">{r.email}</span> · pagado {r.paid_at ? formatShortDateTime(r.paid_at) : "—"} con{" "}
                {r.provider} · pedido el {formatShortDateTime(r.created_at)}
              </p>
              <p className="small" style={{ margin: "0.25rem 0" }}>
                {r.status === "processing" ? "Devolución en curso con el proveedor." : r.reason}
                {r.detail ? ` (${r.detail})` : ""}
              </p>
              {r.status === "review" ? (
                <div className="row-actions">
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="intent" value="approve" />
                    <input type="hidden" name="request" value={r.id} />
                    <button type="submit" className="btn" disabled={busy}>
                      Devolver {formatPrice(r.amount)}
                      <span className="visually-hidden"> del cupón {r.code}</span>
                    </button>
                  </Form>
                  <details>
                    <summary className="btn btn-secondary">
                      Rechazar<span className="visually-hidden"> la solicitud del cupón {r.code}</span>
                    </summary>
                    <Form method="post" className="stack" style={{ marginTop: "0.5rem" }}>
                      <input type="hidden" name="intent" value="refuse" />
                      <input type="hidden" name="request" value={r.id} />
                      <label htmlFor={`reason-${r.id}`}>Motivo para el comprador</label>
                      <textarea id={`reason-${r.id}`} name="reason" required minLength={5} maxLength={500} rows={3} />
                      <button type="submit" className="btn btn-secondary" disabled={busy}>
                        Rechazar la devolución
                      </button>
                    </Form>
                  </details>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
