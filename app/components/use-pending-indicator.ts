import { useEffect, useRef, useState } from "react";

/**
 * Whether to show a pending indicator for `busy`: only after `delay` ms of being busy (short waits
 * show nothing), and once shown, for at least `minDuration` ms, so it never just flickers.
 */
export function usePendingIndicator(busy: boolean, { delay, minDuration }: { delay: number; minDuration: number }): boolean {
  const [shown, setShown] = useState(false);
  const shownAt = useRef(0);
  useEffect(() => {
    if (busy && !shown) {
      const timer = setTimeout(() => {
        shownAt.current = Date.now();
        setShown(true);
      }, delay);
      return () => clearTimeout(timer);
    }
    if (!busy && shown) {
      const timer = setTimeout(() => setShown(false), Math.max(0, minDuration - (Date.now() - shownAt.current)));
      return () => clearTimeout(timer);
    }
  }, [busy, shown, delay, minDuration]);
  return shown;
}
