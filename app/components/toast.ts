/**
 * Toasts, with react-hot-toast loaded only once the page has started.
 *
 * Imported with the layout, react-hot-toast (and goober, its CSS-in-JS) ran in the task that
 * evaluates the app's modules: goober writes its keyframes into a new <style> at import time, a
 * quarter of that task on this machine, and every page then hydrated react-hot-toast's container.
 * Lighthouse's phone counts each such task four times as long. Now the first toast, or an idle
 * moment after the app starts (so that toast does not wait for the network), brings it in.
 */

import { TOAST_DURATION_MS } from "#rules/constants";

type ToasterModule = typeof import("#app/components/toaster");

let loading: Promise<ToasterModule> | undefined;
let loaded: ToasterModule | null = null;
const listeners = new Set<() => void>();

export function loadToaster(): Promise<ToasterModule> {
  loading ??= import("#app/components/toaster").then((module) => {
    loaded = module;
    for (const listener of listeners) listener();
    return module;
  });
  return loading;
}

/** For useSyncExternalStore: the toaster module once it has loaded (null on the server and before). */
export function subscribeToaster(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const loadedToaster = () => loaded;
export const noToaster = () => null;

/** One toast per text: the same message sent twice shows once. */
export function showToast(type: "success" | "error", text: string): void {
  void loadToaster().then(({ toast }) => {
    // The duration on the toast itself: it then wins over any toaster's per-type default.
    if (type === "error") toast.error(text, { id: `e:${text}`, duration: TOAST_DURATION_MS });
    else toast.success(text, { id: `s:${text}`, duration: TOAST_DURATION_MS });
  });
}

/**
 * Dismisses every toast. Chained on the same promise as showToast, so a dismissal asked before a
 * toast is still done before it.
 */
export function dismissToasts(): void {
  void loading?.then(({ toast }) => toast.dismiss());
}
