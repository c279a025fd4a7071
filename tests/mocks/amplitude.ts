/**
 * Amplitude's HTTP API v2 (EU residency) for msw: records every batch, answers with a status the
 * test scripts (queue of statuses, then 200), in Amplitude's shapes ({ code, events_ingested } on
 * success, { code, error } otherwise).
 */
import { http, HttpResponse, type HttpHandler } from "msw";

export const AMPLITUDE_EU_HTTP_API = "https://api.eu.amplitude.com/2/httpapi";

export type AmplitudeBatch = { api_key: string; events: Record<string, any>[] };
export type AmplitudeMockState = { batches: AmplitudeBatch[]; answers: number[]; down: boolean };

export const createAmplitudeMockState = (): AmplitudeMockState => ({ batches: [], answers: [], down: false });

export function amplitudeHandlers(state: AmplitudeMockState): HttpHandler[] {
  return [
    http.post(AMPLITUDE_EU_HTTP_API, async ({ request }) => {
      if (state.down) return HttpResponse.error();
      const batch = (await request.json()) as AmplitudeBatch;
      state.batches.push(batch);
      const status = state.answers.shift() ?? 200;
      if (status === 200)
        return HttpResponse.json({
          code: 200,
          events_ingested: batch.events.length,
          payload_size_bytes: 100,
          server_upload_time: Date.now(),
        });
      return HttpResponse.json(
        { code: status, error: status === 429 ? "Too many requests for some devices and users" : "Invalid request" },
        { status },
      );
    }),
  ];
}
