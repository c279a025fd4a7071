import { useEffect, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { CAPTCHA_FIELD, TURNSTILE_SCRIPT_URL } from "#lib/captcha";

type Turnstile = {
  render: (el: HTMLElement, options: Record<string, unknown>) => string;
  remove: (id: string) => void;
};

let loading: Promise<Turnstile> | null = null;

/** Turnstile's script, by tag, once per page, only when a form with the widget is on screen. */
function loadTurnstile(): Promise<Turnstile> {
  loading ??= new Promise<Turnstile>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = TURNSTILE_SCRIPT_URL;
    script.async = true;
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) script.nonce = nonce;
    script.onload = () => {
      const t = (window as unknown as { turnstile?: Turnstile }).turnstile;
      if (t) resolve(t);
      else reject(new Error("turnstile missing"));
    };
    script.onerror = () => {
      loading = null; // a later form may try again
      reject(new Error("turnstile blocked"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The captcha widget for a form (send-code, registration, become-partner). It renders only with
 * JavaScript and a site key; without them the form posts as it always did and the server leaves
 * it to the rate limits and the honeypot. Put it inside the <form>: the widget adds its token as
 * the hidden field cf-turnstile-response.
 */
export function Captcha({ siteKey }: { siteKey: string | null | undefined }) {
  const hydrated = useHydrated();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!siteKey || !el) return;
    let id: string | null = null;
    let cancelled = false;
    loadTurnstile()
      .then((t) => {
        if (!cancelled) id = t.render(el, { sitekey: siteKey, language: "es", theme: "light", "response-field-name": CAPTCHA_FIELD });
      })
      .catch(() => {}); // blocked: the server still has the rate limits
    return () => {
      cancelled = true;
      if (id) (window as unknown as { turnstile?: Turnstile }).turnstile?.remove(id);
    };
  }, [siteKey, hydrated]);
  if (!siteKey || !hydrated) return null;
  return <div ref={ref} className="captcha" data-testid="captcha" />;
}
