import { Link } from "@remix-run/react";
import { LockIcon } from "./icons";

/**
 * What a buyer checks before paying, next to the buy button: how payment works (the configured
 * provider's methods), the offer's own cancellation and refund terms, and how many bought it.
 * Real figures only: no count until there is one, no countdowns.
 */
export function TrustBox({ paymentMethods, refundTerms, sold }: { paymentMethods: string; refundTerms?: string[]; sold?: number }) {
  return (
    <ul className="trust" aria-label="Compra segura" data-testid="trust">
      <li>
        <LockIcon />
        <span>
          <strong>Pago seguro</strong> · {paymentMethods}
        </span>
      </li>
      {refundTerms ? (
        <li>
          <span>
            <strong>Cancelación y reembolso:</strong>{" "}
            {refundTerms.length ? (
              refundTerms.join(" · ")
            ) : (
              <>
                según el <Link to="/agreement">Acuerdo de usuario</Link> (apartado 7)
              </>
            )}
          </span>
        </li>
      ) : null}
      {sold ? (
        <li data-testid="sold-count">
          <span>
            <strong>{sold.toLocaleString("es-ES")}</strong> {sold === 1 ? "comprada" : "compradas"}
          </span>
        </li>
      ) : null}
    </ul>
  );
}
