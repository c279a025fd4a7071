import { useFetcher, useLocation } from "@remix-run/react";
import { EnhancedInput } from "#app/components/enhanced-input";

export function ConsentBanner() {
  const fetcher = useFetcher();
  const location = useLocation();
  if (fetcher.formData) return null; // optimistic: the choice is being saved
  return (
    <section className="consent" aria-labelledby="consent-title">
      <h2 id="consent-title" className="consent-title">
        Tu privacidad
      </h2>
      <p>
        Usamos cookies técnicas para que la tienda funcione (carrito, región) y, solo si lo aceptas, cookies de
        analítica para mejorarla. <a href="/cookie-policy">Política de cookies</a>
      </p>
      <fetcher.Form method="post" action="/consent" className="consent-actions">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <EnhancedInput />
        <button type="submit" name="consent" value="rejected" className="btn btn-secondary">
          Rechazar
        </button>
        <button type="submit" name="consent" value="accepted" className="btn">
          Aceptar
        </button>
      </fetcher.Form>
    </section>
  );
}
