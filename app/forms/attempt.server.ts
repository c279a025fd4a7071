import { data } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { ApiError } from "#app/api-client/client.server";

/**
 * Runs an API call for a form. What the API refuses (a wrong code, too many tries, an address
 * already registered) goes back to the form as its message, not to an error page.
 */
export async function attempt<T>(
  submission: { reply: (o?: { formErrors?: string[]; hideFields?: string[] }) => SubmissionResult },
  run: () => Promise<T>,
  hideFields: string[] = [],
) {
  try {
    return { ok: await run() } as const;
  } catch (error) {
    // 503 is the captcha provider being down: the form fails closed and says so.
    if (error instanceof ApiError && (error.status < 500 || error.status === 503)) {
      return {
        reply: data(submission.reply({ formErrors: [error.message], hideFields }), { status: error.status === 503 ? 503 : 400 }),
      } as const;
    }
    throw error;
  }
}
