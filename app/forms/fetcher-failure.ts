import { isRouteErrorResponse, type ClientActionFunctionArgs, type ShouldRevalidateFunction } from "@remix-run/react";
import { showToast } from "#app/components/toast";

/** What a fetcher form gets back when its request never got a proper answer. */
export type FetcherFailure = { failed: string };

export const NETWORK_FAILURE_TEXT = "No hemos podido conectar con la tienda. Revisa tu conexión e inténtalo de nuevo.";

/** The toast text for a failed call (spec section 8): its detail, else its error, else its message. */
export function failureText(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    const body = error.data as { detail?: unknown; error?: unknown; message?: unknown } | string | null;
    if (typeof body === "string" && body.trim()) return body;
    if (body && typeof body === "object") {
      for (const key of ["detail", "error", "message"] as const) if (typeof body[key] === "string" && body[key]) return body[key] as string;
    }
  }
  return NETWORK_FAILURE_TEXT;
}

/**
 * The clientAction of every route a fetcher form posts to. A network failure or a 5xx used to
 * replace the whole page with an error page; now it is a toast, and the page (with whatever the
 * customer typed) stays. Only runs with JS: without it the plain form post is unchanged.
 */
export async function toastOnFailure({ serverAction }: ClientActionFunctionArgs): Promise<unknown> {
  try {
    return await serverAction();
  } catch (error) {
    // A redirect reaches serverAction's caller as a thrown Response: it is the answer, not a failure.
    if (error instanceof Response) throw error;
    const text = failureText(error);
    showToast("error", text);
    return { failed: text } satisfies FetcherFailure;
  }
}

export const isFetcherFailure = (answer: unknown): answer is FetcherFailure =>
  Boolean(answer && typeof answer === "object" && "failed" in answer);

/** After a failed fetcher post there is nothing new to load, and the network may still be down. */
export const skipAfterFailure: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  isFetcherFailure(actionResult) ? false : defaultShouldRevalidate;
