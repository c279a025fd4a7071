import { askOwner, NoOwnerError } from "#api/control";

/**
 * The bridge between `npm run digest` and a running server that owns the embedded database: it
 * asks that server (through the DATA_DIR control socket) to queue the digest. Null when no
 * server owns the directory, so the script opens the database itself.
 */
export async function askOwnerToQueueDigest(dataDir: string): Promise<{ runId: string; queued: number } | null> {
  try {
    return (await askOwner(dataDir, "digest")) as { runId: string; queued: number };
  } catch (error) {
    if (error instanceof NoOwnerError) return null;
    throw error;
  }
}
