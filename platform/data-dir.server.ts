/**
 * DATA_DIR holds the embedded database (voucher codes, password hashes in its write-ahead log),
 * the mail written without SMTP (login codes) and the generated secret: its user's alone. It is
 * created 0700, and one that others can open is refused with the command that fixes it.
 */
import { mkdirSync, statSync } from "node:fs";

export class DataDirExposedError extends Error {}

export function preparePrivateDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (process.platform === "win32") return;
  const mode = statSync(dataDir).mode & 0o777;
  if (mode & 0o077) {
    throw new DataDirExposedError(
      `El directorio de datos ${dataDir} lo pueden abrir otros usuarios de esta máquina (permisos ${mode.toString(8)}): ` +
        `guarda la base de datos y el correo de los clientes. Ejecuta «chmod -R go-rwx ${dataDir}» y vuelve a arrancar.`,
    );
  }
}
