/** The social login settings: each provider's client id and its secret, together or not at all. */
type SocialSettings = Partial<
  Record<
    | "GOOGLE_CLIENT_ID"
    | "GOOGLE_CLIENT_SECRET"
    | "FACEBOOK_APP_ID"
    | "FACEBOOK_APP_SECRET"
    | "APPLE_CLIENT_ID"
    | "APPLE_CLIENT_SECRET"
    | "APPLE_TEAM_ID"
    | "APPLE_KEY_ID"
    | "APPLE_PRIVATE_KEY",
    string
  >
>;

/**
 * A provider half configured is a mistake to stop on, not a button that silently never appears:
 * each client id needs its secret (Apple: a client secret, or the team id, key id and .p8 key
 * that sign one).
 */
export function socialSettingsProblem(env: SocialSettings): string | null {
  if (Boolean(env.GOOGLE_CLIENT_ID) !== Boolean(env.GOOGLE_CLIENT_SECRET))
    return "GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET van juntas: pon las dos o ninguna";
  if (Boolean(env.FACEBOOK_APP_ID) !== Boolean(env.FACEBOOK_APP_SECRET))
    return "FACEBOOK_APP_ID y FACEBOOK_APP_SECRET van juntas: pon las dos o ninguna";
  const appleKey = [env.APPLE_TEAM_ID, env.APPLE_KEY_ID, env.APPLE_PRIVATE_KEY];
  if (appleKey.some(Boolean) && !appleKey.every(Boolean))
    return "APPLE_TEAM_ID, APPLE_KEY_ID y APPLE_PRIVATE_KEY van juntas: pon las tres o ninguna";
  const appleSecret = Boolean(env.APPLE_CLIENT_SECRET) || appleKey.every(Boolean);
  if (Boolean(env.APPLE_CLIENT_ID) !== appleSecret)
    return "APPLE_CLIENT_ID necesita APPLE_CLIENT_SECRET, o APPLE_TEAM_ID, APPLE_KEY_ID y APPLE_PRIVATE_KEY (y al revés)";
  if (env.APPLE_PRIVATE_KEY && !/-----BEGIN PRIVATE KEY-----/.test(env.APPLE_PRIVATE_KEY.replace(/\\n/g, "\n"))) {
    return "APPLE_PRIVATE_KEY: debe ser el contenido del fichero .p8 de Apple (-----BEGIN PRIVATE KEY-----…)";
  }
  return null;
}
