import { useEffect } from "react";
import toast, { Toaster, useToaster } from "react-hot-toast";
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
 * Messages from the server. Without JS they are plain HTML in a role="status" region; once React
 * has hydrated, the same messages appear as toasts (top right, 5 s) and the HTML copy is hidden.
 */
export function Toasts({ messages, hydrated }: { messages: ToastMessage[]; hydrated: boolean }) {
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
      {!hydrated && messages.length > 0 ? (
        <div className="flash" role="status">
          {messages.map((m, i) => (
            <p key={i} className={`flash-${m.type}`}>
              {m.text}
            </p>
          ))}
        </div>
      ) : null}
      <div data-toast-region>
        {/* Top right, under the sticky header: a message (paused while hovered) never covers the cart or the search. */}
        <Toaster position="top-right" containerStyle={{ top: "7rem" }} toastOptions={{ duration: TOAST_DURATION_MS }} />
        <PauseOnFocusLoss />
      </div>
    </>
  );
}
