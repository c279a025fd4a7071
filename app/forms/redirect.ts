import { isStorableText } from "#rules/text";

/** A redirect target from a form is trusted only when it is a local path ("/…", not "//…"). */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // Browsers drop tabs and newlines from URLs ("/\t/evil.com" is "//evil.com"), and a newline
  // would break the Location header: refuse every control character.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(to) || !isStorableText(to)) return fallback;
  // A Location header is Latin-1: "/€", an emoji or U+2028 would make the response itself fail.
  // Percent-encoded, they reach the same page.
  return to.replace(/[^\u0021-\u007e]+/gu, (run) => encodeURI(run));
}

/** Where a plain form post should send the user back to. */
export function backTo(request: Request, formData: FormData | null, fallback = "/"): string {
  const fromForm = formData?.get("redirectTo");
  if (typeof fromForm === "string") return safeRedirect(fromForm, fallback);
  const referer = request.headers.get("referer");
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.host === new URL(request.url).host) return safeRedirect(url.pathname + url.search, fallback);
    } catch {
      // not a URL: use the fallback
    }
  }
  return fallback;
}
