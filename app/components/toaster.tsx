import { useEffect, useSyncExternalStore } from "react";
import toast, { Toaster, useToaster, useToasterStore } from "react-hot-toast";
import { MOBILE_MAX_WIDTH, TOAST_DURATION_MS } from "#rules/constants";

/** Loaded on demand by app/components/toast.ts, never imported statically: see there why. */
export { toast };

/** Spec section 9: 5 s for every type (react-hot-toast's per-type defaults would otherwise win). */
const TOAST_OPTIONS = { duration: TOAST_DURATION_MS, success: { duration: TOAST_DURATION_MS }, error: { duration: TOAST_DURATION_MS } };

/**
 * react-hot-toast's Toaster pauses on hover but not when the window loses focus (spec section 9:
 * "pause on hover and focus loss"); this adds the second through the same store's pause handlers.
 * The window may have lost focus before this module loaded: `focusLost` says so.
 */
function PauseOnFocusLoss({ focusLost }: { focusLost: () => boolean }) {
  // Every useToaster() also schedules the toasts' dismissal, with react-hot-toast's per-type
  // defaults (2 s success, 4 s error) unless told otherwise: this one is told the spec's 5 s too.
  const { handlers } = useToaster(TOAST_OPTIONS);
  const { startPause, endPause } = handlers;
  useEffect(() => {
    if (focusLost()) startPause();
    window.addEventListener("blur", startPause);
    window.addEventListener("focus", endPause);
    return () => {
      window.removeEventListener("blur", startPause);
      window.removeEventListener("focus", endPause);
    };
  }, [startPause, endPause, focusLost]);
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

const PHONE = `(max-width: ${MOBILE_MAX_WIDTH}px)`;
const onPhoneChange = (listener: () => void) => {
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
};
const isPhone = () => window.matchMedia(PHONE).matches;

export function ToasterParts({ focusLost }: { focusLost: () => boolean }) {
  // Loaded only in the browser, after the app started: no server snapshot to agree with.
  const phone = useSyncExternalStore(onPhoneChange, isPhone, () => false);
  return (
    <>
      {/* At the bottom: the header and the cart's panel (which opens after an add) take the top.
          Phones: centred, over the buy bar; wide screens: bottom right. */}
      <Toaster
        position={phone ? "bottom-center" : "bottom-right"}
        containerStyle={{ bottom: phone ? "calc(5rem + env(safe-area-inset-bottom, 0px))" : "1.5rem" }}
        toastOptions={TOAST_OPTIONS}
      />
      <PauseOnFocusLoss focusLost={focusLost} />
      <KeepToastsFew />
    </>
  );
}
