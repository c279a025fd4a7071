import { useEffect, useRef, useSyncExternalStore } from "react";
import { useLocation } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { dismissToasts, loadToaster, loadedToaster, noToaster, showToast, subscribeToaster } from "#app/components/toast";

export type ToastMessage = { type: "success" | "error"; text: string; field?: string };

/** Whether the window has lost focus: the toaster may load after it did (see PauseOnFocusLoss). */
let focusLost = false;
const hasFocusLost = () => focusLost;

/**
 * The messages as HTML, until React runs. useHydrated() renders its component again right after
 * hydration, synchronously, in the task that runs the page's effects: asked by the layout that was
 * the whole header and footer, by <Toasts> the toaster's parts. Here only a page that has
 * messages pays it.
 */
function ServerFlash({ messages }: { messages: ToastMessage[] }) {
  return useHydrated() ? null : (
    <div className="flash" role="status">
      {messages.map((m, i) => (
        <p key={i} className={`flash-${m.type}`}>
          {m.text}
        </p>
      ))}
    </div>
  );
}

/**
 * Messages from the server. Without JS they are plain HTML in a role="status" region; once React
 * has hydrated, the same messages appear as toasts (top right, 5 s) and the HTML copy is hidden.
 */
export function Toasts({ messages, inline = [], withPage = [] }: { messages: ToastMessage[]; inline?: string[]; withPage?: string[] }) {
  // Said once: what the page shows at its field stays out of the HTML copy and out of the toasts.
  // The messages drawn with the page are all said in place; later ones (after a post with JS)
  // only where the page says every message of that field (`inline`).
  const saidInPlace = (m: ToastMessage, drawn: boolean) =>
    Boolean(m.field && (inline.includes(m.field) || (drawn && withPage.includes(m.field))));
  const flash = messages.filter((m) => !saidInPlace(m, true));
  const drawnWithPage = useRef(true);
  const { pathname } = useLocation();
  // react-hot-toast, once loaded (app/components/toast.ts): on the server and while hydrating, nothing.
  const toaster = useSyncExternalStore(subscribeToaster, loadedToaster, noToaster);
  // Declared before the effect that shows messages, so on a navigation it runs first.
  useEffect(() => dismissToasts(), [pathname]);

  useEffect(() => {
    const drawn = drawnWithPage.current;
    drawnWithPage.current = false;
    for (const m of messages) if (!saidInPlace(m, drawn)) showToast(m.type, m.text);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the lists come from the route's handle: shown once per message list
  }, [messages]);

  useEffect(() => {
    const lost = () => (focusLost = true);
    const back = () => (focusLost = false);
    window.addEventListener("blur", lost);
    window.addEventListener("focus", back);
    // Loaded when the browser is idle, the first toast does not wait for the network.
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 200));
    idle(() => void loadToaster());
    return () => {
      window.removeEventListener("blur", lost);
      window.removeEventListener("focus", back);
    };
  }, []);

  useEffect(() => {
    // A form that shows its errors takes the buyer to them (conform focuses the first invalid
    // field, the checkout its «Revisa estos datos»): the toasts leave, so none covers them.
    const onFocus = (e: FocusEvent) => {
      if (e.target instanceof Element && e.target.matches('[aria-invalid="true"], .error-summary')) dismissToasts();
    };
    document.addEventListener("focusin", onFocus);
    return () => document.removeEventListener("focusin", onFocus);
  }, []);

  useEffect(() => {
    // Alt+T moves focus to the newest notification (spec section 9).
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && (e.key === "t" || e.key === "T")) {
        const el = document.querySelector<HTMLElement>("[data-toast-region] [role=status]");
        if (el) {
          el.tabIndex = -1;
          el.focus();
        }
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <>
      {flash.length > 0 ? <ServerFlash messages={flash} /> : null}
      <div data-toast-region>{toaster ? <toaster.ToasterParts focusLost={hasFocusLost} /> : null}</div>
    </>
  );
}
