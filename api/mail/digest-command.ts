/**
 * The bridge between `npm run digest` and a running server that owns the embedded database.
 * Until the data-directory control socket exists this answers null (no owner found), and the
 * script opens the database itself.
 */
export async function askOwnerToQueueDigest(_dataDir: string): Promise<{ runId: string; queued: number } | null> {
  return null;
}
