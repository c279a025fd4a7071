import type { OpenReservation } from "./checkout-data.server";

/** Logged in, an unpaid reservation of an offer in the cart: pay it rather than buy again. */
export function OpenReservations({
  reservations,
  lines,
}: {
  reservations: OpenReservation[];
  lines: { offerUuid: string; title: string }[];
}) {
  if (reservations.length === 0) return null;
  return (
    <div className="notice" role="status">
      {reservations.map((r) => {
        const title = lines.find((l) => l.offerUuid === r.offerUuid)?.title ?? "una oferta";
        return (
          <p key={r.redirectUrl}>
            Tienes una reserva sin pagar de «{title}» hasta las{" "}
            {new Date(r.expiresAt).toLocaleTimeString("es-ES", { hour: "2-digit", minute: "2-digit", timeZone: "Europe/Madrid" })}.{" "}
            <a href={r.redirectUrl} className="btn btn-small">
              Continuar con el pago
            </a>
          </p>
        );
      })}
    </div>
  );
}
