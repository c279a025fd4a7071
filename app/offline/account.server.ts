import { createHmac } from "node:crypto";
import { decodeJwt } from "jose";
import { config } from "#app/env.server";
import { authData } from "#app/state/auth.server";
import { getSession } from "#app/state/session.server";
import { GUEST } from "./keep";

/**
 * The value of the Ofertas-Account header (keep.ts): who a page was rendered for, as the offline
 * worker may know it. A keyed hash of the account's id, so that the header says «the same person as
 * before» or «someone else» and nothing more (not the id, not the address), or GUEST.
 */
export async function accountMarker(request: Request): Promise<string> {
  const auth = authData(await getSession(request));
  if (!auth) return GUEST;
  let subject: string;
  try {
    subject = String(decodeJwt(auth.access).sub ?? auth.email);
  } catch {
    return GUEST;
  }
  return createHmac("sha256", config().sessionSecrets[0]).update(`offline-owner:${subject}`).digest("base64url").slice(0, 22);
}
