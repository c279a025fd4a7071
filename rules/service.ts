/** What a page or an API answer says while the service cannot serve (database down, API too slow). */
export const SERVICE_UNAVAILABLE = "Estamos teniendo problemas técnicos…";
export const SERVICE_UNAVAILABLE_DETAIL = "Vuelve a intentarlo en unos minutos; no se ha perdido nada de lo que hiciste.";
/** Seconds a client is asked to wait (Retry-After) before trying again. */
export const RETRY_AFTER_SECONDS = 30;
