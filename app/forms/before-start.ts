import { useEffect, useRef } from "react";

/**
 * A page works before its scripts run (on a slow phone, seconds before): its controls are plain
 * HTML then. A control React takes over may have been changed meanwhile, and React would draw its
 * own value over the visitor's at the app's first update. So once, as a component mounts, what
 * the page holds (`read`) is compared with what React drew, and handed to `apply` when they
 * differ: to keep it, or to send it when a change of that control is sent at once. On a later
 * mount (a client-side navigation) the control is React's own and nothing differs.
 */
export function useChoiceMadeBeforeStart<T>(read: () => T | null | undefined, drawn: T, apply: (value: T) => void): void {
  useEffect(() => {
    const value = read();
    if (value !== null && value !== undefined && value !== drawn) apply(value);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the component (the app) starts
  }, []);
}

let turn: Promise<void> = Promise.resolve();

/**
 * Sends a form through its fetcher after the ones sent before it have been answered. The choices
 * made before the app started are sent together as it starts, and the cart and the session are
 * each one cookie: two posts at once would each write over the other's change.
 */
export function useSendInTurn(fetcher: { state: string; submit: (form: HTMLFormElement) => void }): (form: HTMLFormElement) => void {
  const answered = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (fetcher.state === "idle" && answered.current) {
      answered.current();
      answered.current = null;
    }
  }, [fetcher.state]);
  return (form) => {
    turn = turn.then(
      () =>
        new Promise<void>((resolve) => {
          answered.current = resolve;
          fetcher.submit(form);
        }),
    );
  };
}
