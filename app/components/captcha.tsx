import { useEffect, useRef } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { CAPTCHA_FIELD, NOSCRIPT_FIELD, TURNSTILE_SCRIPT_URL } from "#rules/captcha";

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
 * The captcha widget for a form (send-code, registration, become-partner), when a site key is
 * configured. Put it inside the <form>: the widget adds its token as the hidden field
 * cf-turnstile-response. Until the app has started, the form carries a hidden field instead,
 * which says the page ran no script: posted like that, the server vouches for it to the API
 * (the rate limits and the honeypot stand alone there); once the scripts run, the field goes and
 * the widget's token is needed.
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
  if (!siteKey) return null;
  if (!hydrated) return <input type="hidden" name={NOSCRIPT_FIELD} value="1" />;
  return <div ref={ref} className="captcha" data-testid="captcha" />;
}
