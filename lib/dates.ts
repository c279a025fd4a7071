import { format, isValid, parseISO } from "date-fns";
import { es } from "date-fns/locale";

/** Spec default date display "dd MMMM yyyy", in Spanish ("31 diciembre 2026"). */
export function formatDate(value: string | Date, pattern = "dd MMMM yyyy"): string {
  const date = typeof value === "string" ? parseISO(value) : value;
  return isValid(date) ? format(date, pattern, { locale: es }) : "";
}
