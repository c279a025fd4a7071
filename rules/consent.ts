/**
 * The consent manager's rules (spec sections 1 and 9, AEPD cookie guidance): three categories,
 * a versioned choice, and which third-party tool belongs to which category.
 */

/**
 * Bump when the cookie policy changes what a category covers: every stored choice of an older
 * version reads as "no choice", so the banner asks again and nothing optional loads meanwhile.
 */
export const CONSENT_POLICY_VERSION = 1;

/** How long a choice is kept before asking again (the AEPD suggests at most 24 months). */
export const CONSENT_MAX_AGE_SECONDS = 60 * 60 * 24 * 365;

export type ConsentCategory = "necessary" | "analytics" | "marketing";
export type OptionalCategory = Exclude<ConsentCategory, "necessary">;

/** What the visitor chose, when, and under which policy version. */
export type ConsentChoice = {
  version: number;
  /** ISO date of the choice. */
  date: string;
  analytics: boolean;
  marketing: boolean;
};

export function makeChoice(granted: { analytics: boolean; marketing: boolean }, now = new Date()): ConsentChoice {
  return { version: CONSENT_POLICY_VERSION, date: now.toISOString(), analytics: granted.analytics, marketing: granted.marketing };
}

/** A stored value is a choice only if it has the right shape and the current policy version. */
export function readChoice(value: unknown): ConsentChoice | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  if (v.version !== CONSENT_POLICY_VERSION) return null;
  if (typeof v.date !== "string" || Number.isNaN(Date.parse(v.date))) return null;
  if (typeof v.analytics !== "boolean" || typeof v.marketing !== "boolean") return null;
  return { version: v.version, date: v.date, analytics: v.analytics, marketing: v.marketing };
}

export const isGranted = (choice: ConsentChoice | null, category: ConsentCategory): boolean =>
  category === "necessary" ? true : Boolean(choice?.[category]);

/** Categories that were granted before and are not any more. */
export function withdrawn(before: ConsentChoice | null, after: ConsentChoice): OptionalCategory[] {
  return (["analytics", "marketing"] as const).filter((c) => isGranted(before, c) && !after[c]);
}

/**
 * Cookie names the tools of each category set on our domain, so withdrawing a category removes
 * them (AEPD: withdrawing must be as effective as granting). Patterns, because tags loaded by
 * the tag manager add measurement ids to their names (_ga_XXXX).
 */
export const CATEGORY_COOKIES: Record<OptionalCategory, RegExp[]> = {
  // Amplitude: AMP_<key prefix>, AMP_MKTG_<key prefix>, AMP_TEST, and the v1 SDK's amp_ cookies.
  analytics: [/^AMP_/, /^amp_/],
  // Google tags loaded through GTM: analytics, ads conversion linker, Meta pixel.
  marketing: [/^_ga$/, /^_ga_/, /^_gid$/, /^_gat/, /^_gcl_/, /^_fbp$/, /^_fbc$/, /^_uet/],
};

export function cookiesToRemove(cookieNames: string[], categories: OptionalCategory[]): string[] {
  const patterns = categories.flatMap((c) => CATEGORY_COOKIES[c]);
  return cookieNames.filter((name) => patterns.some((p) => p.test(name)));
}

/** Pages that are never recorded by session replay: payment and account. */
export function isReplayExcluded(pathname: string): boolean {
  return /^\/(checkout|order|cart|login|logout|cuenta|account|registro|favorite)(\/|$)/.test(pathname);
}
