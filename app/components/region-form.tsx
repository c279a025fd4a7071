import { useFetcher, useLocation } from "@remix-run/react";
import { useRef } from "react";
import { useChoiceMadeBeforeStart, useSendInTurn } from "#app/forms/before-start";
import { DEFAULT_REGION, REGIONS, type Region } from "#rules/regions";
import { EnhancedInput } from "#app/components/enhanced-input";
import { escapeHtml } from "#rules/text";

const option = (r: Region, selected: string) =>
  `<option value="${escapeHtml(r.value)}"${r.value === selected ? " selected" : ""}>${escapeHtml(r.label)}</option>`;
const group = (label: string, regions: readonly Region[], selected: string) =>
  `<optgroup label="${escapeHtml(label)}">${regions.map((r) => option(r, selected)).join("")}</optgroup>`;
const POPULAR = REGIONS.filter((r) => r.rank !== null);
const OTHERS = REGIONS.filter((r) => r.rank === null);
const optionsFor = new Map<string, string>();

/**
 * The 51 choices as one HTML string, marked for the selected region. React writes a string in one
 * go, where these 53 elements and their attributes were about an eighth of every page's markup to
 * render on the server and to hydrate. Kept per known region; React sets the selection again
 * from `value` once it runs.
 */
export function regionOptions(selected: string): string {
  const known = optionsFor.get(selected);
  if (known !== undefined) return known;
  const html =
    option(DEFAULT_REGION, selected) + group("Más buscadas", POPULAR, selected) + group("Todas las provincias", OTHERS, selected);
  if (selected === DEFAULT_REGION.value || REGIONS.some((r) => r.value === selected)) optionsFor.set(selected, html);
  return html;
}

/**
 * A plain POST form; with JS it submits on change through a fetcher and the button hides. A
 * province chosen before the app started (its «Cambiar» waits for the app) is sent when it does.
 */
export function RegionForm({ region }: { region: Region }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const select = useRef<HTMLSelectElement>(null);
  const pending = fetcher.formData?.get("region");
  const value = typeof pending === "string" ? pending : region.value;
  const sendInTurn = useSendInTurn(fetcher);
  useChoiceMadeBeforeStart(
    () => select.current?.value,
    region.value,
    () => sendInTurn(select.current!.form!),
  );
  return (
    <fetcher.Form method="post" action="/region" className="region-form">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <EnhancedInput />
      <label htmlFor="region-select" className="visually-hidden">
        Región
      </label>
      <select
        ref={select}
        id="region-select"
        name="region"
        value={value}
        onChange={(e) => fetcher.submit(e.currentTarget.form)}
        dangerouslySetInnerHTML={{ __html: regionOptions(value) }}
      />
      <button type="submit" className="btn btn-small no-js-only">
        Cambiar
      </button>
    </fetcher.Form>
  );
}
