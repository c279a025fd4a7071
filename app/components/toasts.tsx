import { useEffect } from "react";
import toast, { Toaster, useToaster, useToasterStore } from "react-hot-toast";
import { useLocation } from "@remix-run/react";
import { useHydrated } from "remix-utils/use-hydrated";
import { TOAST_DURATION_MS } from "#lib/constants";

export type ToastMessage = { type: "success" | "error"; text: string };

/**
 * react-hot-toast's Toaster pauses on hover but not when the window loses focus (spec section 9:
 * "pause on hover and focus loss"); this adds the second through the same store's pause handlers.
 */
function PauseOnFocusLoss() {
  const { handlers } = useToaster();
  const { startPause, endPause } = handlers;
  useEffect(() => {
    window.addEventListener("blur", startPause);
    window.addEventListener("focus", endPause);
    return () => {
      window.removeEventListener("blur", startPause);
      window.removeEventListener("focus", endPause);
    };
  }, [startPause, endPause]);
  return null;
}

/**
 * Toasts stack downwards from under the header, over the right-hand column where checkout has its
 * promo code and «Aplicar». Three of them (the cookie choice and «Añadido al carrito.» brought
 * along from the offer page, then a rejected code) covered that button at 1280 px, and hovering it
 * to click paused them there. So at most two show, the newest, and a page starts with none of the
 * previous page's: the messages a navigation brings are shown after the old ones go.
 */
const MAX_VISIBLE_TOASTS = 2;

function KeepToastsFew() {
  const { toasts } = useToasterStore();
  useEffect(() => {
    // Newest first, as react-hot-toast keeps them.
    for (const t of toasts.filter((t) => t.visible).slice(MAX_VISIBLE_TOASTS)) toast.dismiss(t.id);
  }, [toasts]);
  return null;
}

/**
 * The messages as HTML, until React runs. useHydrated() renders its component again right after
 * hydration, synchronously, in the task that runs the page's effects: asked by the layout that was
 * the whole header and footer, by <Toasts> react-hot-toast's container. Here only a page that has
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
export function Toasts({ messages }: { messages: ToastMessage[] }) {
  const { pathname } = useLocation();
  // Declared before the effect that shows messages, so on a navigation it runs first.
  useEffect(() => toast.dismiss(), [pathname]);

  useEffect(() => {
    for (const m of messages) {
      if (m.type === "error") toast.error(m.text, { id: `e:${m.text}` });
      else toast.success(m.text, { id: `s:${m.text}` });
    }
  }, [messages]);

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
      {messages.length > 0 ? <ServerFlash messages={messages} /> : null}
      <div data-toast-region>
        {/* Top right, under the sticky header: a message (paused while hovered) never covers the cart or the search. */}
        <Toaster position="top-right" containerStyle={{ top: "7rem" }} toastOptions={{ duration: TOAST_DURATION_MS }} />
        <PauseOnFocusLoss />
        <KeepToastsFew />
      </div>
    </>
  );
}
