import { useFetcher, useLocation } from "@remix-run/react";
import { DEFAULT_REGION, REGIONS, type Region } from "#lib/regions";
import { EnhancedInput } from "#app/components/enhanced-input";

/** A plain POST form; with JS it submits on change through a fetcher and the button hides. */
export function RegionForm({ region }: { region: Region }) {
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("region");
  const value = typeof pending === "string" ? pending : region.value;
  return (
    <fetcher.Form method="post" action="/region" className="region-form">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <EnhancedInput />
      <label htmlFor="region-select" className="visually-hidden">
        Región
      </label>
      <select
        id="region-select"
        name="region"
        value={value}
        onChange={(e) => fetcher.submit(e.currentTarget.form)}
      >
        <option value={DEFAULT_REGION.value}>{DEFAULT_REGION.label}</option>
        <optgroup label="Más buscadas">
          {REGIONS.filter((r) => r.rank !== null).map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </optgroup>
        <optgroup label="Todas las provincias">
          {REGIONS.filter((r) => r.rank === null).map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </optgroup>
      </select>
      <button type="submit" className="btn btn-small no-js-only">
        Cambiar
      </button>
    </fetcher.Form>
  );
}
