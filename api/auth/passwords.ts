import { hash, verify } from "@node-rs/argon2";

// argon2id with the library's defaults (19 MiB, 2 passes): memory-hard, and quick enough for a login.
export const hashPassword = (password: string) => hash(password);

// A hash of nothing, verified when the email is unknown, so the answer takes as long either way.
let dummy: Promise<string> | undefined;

export async function checkPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummy ??= hash("contraseña de relleno para igualar tiempos");
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
