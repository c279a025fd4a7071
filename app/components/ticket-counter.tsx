import { useState } from "react";
import { useChoiceMadeBeforeStart } from "#app/forms/before-start";

/**
 * A number field that works alone without JS (min/max enforced by the browser and again by the
 * server); with JS the − and + buttons step it. `onCommit` lets the checkout submit each change.
 */
export function TicketCounter({
  id,
  name = "ticketsCount",
  defaultValue = 1,
  max,
  label = "Entradas",
  onCommit,
  onKept,
}: {
  id: string;
  name?: string;
  defaultValue?: number;
  max: number;
  label?: string;
  onCommit?: (value: number) => void;
  /** A number typed before the app started, kept: where a change is sent at once, this sends it. */
  onKept?: (value: number) => void;
}) {
  const [value, setValue] = useState(Math.min(Math.max(1, defaultValue), Math.max(1, max)));
  const shown = Math.min(value, Math.max(1, max));
  const typed = () => {
    const n = Number((document.getElementById(id) as HTMLInputElement | null)?.value);
    return Number.isInteger(n) && n >= 1 ? Math.min(n, Math.max(1, max)) : null;
  };
  useChoiceMadeBeforeStart(typed, shown, (n) => {
    setValue(n);
    onKept?.(n);
  });
  const step = (delta: number) => {
    const next = Math.min(Math.max(1, shown + delta), Math.max(1, max));
    setValue(next);
    if (next !== shown) onCommit?.(next);
  };
  return (
    <div className="counter">
      <label htmlFor={id}>{label}</label>
      <div className="counter-controls">
        <button
          type="button"
          className="counter-step js-only"
          onClick={() => step(-1)}
          disabled={shown <= 1}
          aria-label="Una entrada menos"
        >
          −
        </button>
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          min={1}
          max={Math.max(1, max)}
          value={shown}
          onChange={(e) => setValue(Number(e.target.value) || 1)}
          onBlur={() => onCommit?.(shown)}
        />
        <button type="button" className="counter-step js-only" onClick={() => step(1)} disabled={shown >= max} aria-label="Una entrada más">
          +
        </button>
      </div>
    </div>
  );
}
