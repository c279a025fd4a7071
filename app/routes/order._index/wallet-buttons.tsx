import { useEffect, useRef, useState } from "react";

type PaypalButtons = { render: (el: HTMLElement) => Promise<void>; close?: () => Promise<void>; isEligible?: () => boolean };
type Paypal = { Buttons: (options: Record<string, unknown>) => PaypalButtons };

export const paypalSdkUrl = (clientId: string) =>
  `https://www.paypal.com/sdk/js?client-id=${encodeURIComponent(clientId)}&currency=EUR&intent=capture&commit=true&components=buttons&locale=es_ES`;

/** The wallet's order for this checkout, created by our server (never by the browser). */
async function createOrder(): Promise<string> {
  const res = await fetch("/order/wallet", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      analytics_device_id: document.querySelector<HTMLInputElement>("input[name=analytics_device_id]")?.value ?? "",
    }),
  });
  const answer = (await res.json().catch(() => ({}))) as { orderId?: string; successUrl?: string; error?: string };
  if (!res.ok || !answer.orderId || !answer.successUrl) {
    window.location.assign(answer.error ?? "/checkout/");
    throw new Error("no order");
  }
  sessionSuccessUrl = answer.successUrl;
  return answer.orderId;
}
let sessionSuccessUrl = "/order/success";

/**
 * PayPal's JS SDK buttons (the spec's wallet variant), loaded by script tag on /order/ only and
 * only with JavaScript. Until they render, and whenever the script fails, the «Pagar» form (the
 * redirect flow) stays the way to pay.
 */
export function WalletButtons({ clientId, onReady }: { clientId: string; onReady: (ready: boolean) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let cancelled = false;
    const script = document.createElement("script");
    script.src = paypalSdkUrl(clientId);
    script.async = true;
    script.dataset.namespace = "paypal";
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
    if (nonce) script.nonce = nonce;
    const fail = () => {
      if (cancelled) return;
      setFailed(true);
      onReady(false);
    };
    script.onerror = fail;
    script.onload = () => {
      const paypal = (window as unknown as { paypal?: Paypal }).paypal;
      if (!paypal || cancelled) return fail();
      const buttons = paypal.Buttons({
        style: { layout: "vertical", label: "pay", shape: "pill" },
        createOrder,
        onApprove: () => window.location.assign(sessionSuccessUrl),
        // The sale stays pending: pressing the button again reopens the same PayPal order.
        onCancel: () => {},
        onError: fail,
      });
      if (buttons.isEligible && !buttons.isEligible()) return fail();
      buttons.render(el).then(() => !cancelled && onReady(true), fail);
    };
    document.head.appendChild(script);
    return () => {
      cancelled = true;
      script.remove();
    };
  }, [clientId, onReady]);
  return (
    <div className="wallet-buttons" ref={ref} data-testid="wallet-buttons" hidden={failed}>
      {/* PayPal renders its buttons here; the «Pagar» form below remains until they are ready. */}
    </div>
  );
}
