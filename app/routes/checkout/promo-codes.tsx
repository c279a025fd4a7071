import { useFetcher, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { Cart } from "#rules/cart";
import { EnhancedInput } from "#app/components/enhanced-input";
import type { rootLoader } from "#app/state/root-data.server";
import { CartItemForm } from "./item-forms";

/**
 * A refused code, from the root loader's messages (tagged by the cart action): shown under the field
 * with the code as typed, until the buyer changes it. Without JS it comes with the page after the
 * redirect; with JS it arrives with the revalidation after the fetcher's post.
 */
function useRefusedPromoCode() {
  const refused = useRouteLoaderData<typeof rootLoader>("root")?.toasts.find((t) => t.field === "promo_code" && t.type === "error");
  const [shown, setShown] = useState(refused ? { code: refused.value ?? "", text: refused.text } : null);
  useEffect(() => {
    if (refused) setShown({ code: refused.value ?? "", text: refused.text });
  }, [refused]);
  return [shown, setShown] as const;
}

/** The codes applied to the cart, each removable, and the field that applies another. */
export function PromoCodes({ promoCodes }: { promoCodes: Cart["promoCodes"] }) {
  const fetcher = useFetcher();
  const adding = fetcher.state !== "idle";
  const formRef = useRef<HTMLFormElement>(null);
  const applied = promoCodes.map((c) => c.promo_code).join();
  const [refused, setRefused] = useRefusedPromoCode();
  // Once a code is in the list, the field is cleared for the next one. Not as the app starts: the
  // field keeps what the page holds, a code typed before it started and the refused one it shows.
  const listed = useRef(applied);
  useEffect(() => {
    if (listed.current === applied) return;
    listed.current = applied;
    formRef.current?.reset();
    setRefused(null);
  }, [applied, setRefused]);
  return (
    // Without JS a refused code comes back here (/checkout/#descuentos), where the page says why.
    <section aria-labelledby="promo-title" id="descuentos">
      <h2 id="promo-title" className="small">
        Descuentos
      </h2>
      {promoCodes.length ? (
        <ul className="promo-list">
          {promoCodes.map((c) => (
            <li key={c.promo_code} className="promo-chip">
              {c.promo_code}
              <CartItemForm intent="promo-remove">
                <input type="hidden" name="promo_code" value={c.promo_code} />
                <button type="submit" className="icon-button" aria-label={`Quitar el código ${c.promo_code}`}>
                  ×
                </button>
              </CartItemForm>
            </li>
          ))}
        </ul>
      ) : null}
      <fetcher.Form method="post" action="/cart" className="promo-form" ref={formRef}>
        <input type="hidden" name="intent" value="promo-add" />
        <input type="hidden" name="redirectTo" value="/checkout/" />
        <EnhancedInput />
        <div className="field">
          <label htmlFor="promo_code">Código promocional</label>
          <input
            id="promo_code"
            name="promo_code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            required
            maxLength={40}
            defaultValue={refused?.code}
            aria-invalid={refused ? true : undefined}
            aria-describedby="promo_code-error"
            onInput={(e) => {
              if (refused && e.currentTarget.value.trim().toUpperCase() !== refused.code.trim().toUpperCase()) setRefused(null);
            }}
          />
        </div>
        <button type="submit" className="btn btn-secondary" disabled={adding}>
          Aplicar
        </button>
        <p id="promo_code-error" className="field-error">
          {refused?.text}
        </p>
      </fetcher.Form>
      {promoCodes.length > 1 ? (
        <CartItemForm intent="promo-clear">
          <button type="submit" className="link-button small">
            Quitar todos los códigos
          </button>
        </CartItemForm>
      ) : null}
    </section>
  );
}
