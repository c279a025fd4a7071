/**
 * The shop's secrets: SESSION_SECRET (cookies, and the JWT key unless JWT_SECRET is set) and
 * JWT_SECRET. A secret that is easy to guess is refused at start, with the command that
 * makes a good one; without SESSION_SECRET a try-out gets one generated once per DATA_DIR.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { preparePrivateDataDir } from "#platform/data-dir.server";

export const GOOD_SECRET_COMMAND = "openssl rand -hex 32";

/**
 * Estimated bits a secret must have: 16 random hex characters have about 62, 32 have 125, the
 * command's 64 have 250. Words, runs and repeats count for little (secretBits).
 */
export const MIN_SECRET_BITS = 48;

/**
 * Words people put in secrets, English and Spanish, and this shop's own: each counts as one pick
 * among a few thousand (WORD_BITS), however long it is. Longest first, so «secreto» is one word.
 */
const COMMON_WORDS = [
  "contraseña",
  "contrasena",
  "password",
  "passwd",
  "secreto",
  "secreta",
  "secret",
  "clave",
  "llave",
  "token",
  "session",
  "sesion",
  "sesión",
  "cookie",
  "admin",
  "administrador",
  "root",
  "test",
  "testing",
  "prueba",
  "pruebas",
  "demo",
  "ejemplo",
  "example",
  "ofertas",
  "oferta",
  "tienda",
  "shop",
  "store",
  "staging",
  "produccion",
  "producción",
  "production",
  "prod",
  "deploy",
  "despliegue",
  "changeme",
  "cambiame",
  "cámbiame",
  "default",
  "qwerty",
  "qwertyuiop",
  "asdfgh",
  "asdfghjkl",
  "zxcvbn",
  "letmein",
  "welcome",
  "bienvenido",
  "hola",
  "hello",
  "love",
  "amor",
  "dragon",
  "monkey",
  "master",
  "super",
  "superman",
  "batman",
  "football",
  "futbol",
  "fútbol",
  "madrid",
  "barcelona",
  "españa",
  "espana",
  "spain",
  "usuario",
  "user",
  "login",
  "access",
  "acceso",
  "private",
  "privado",
  "privada",
  "key",
  "jwt",
  "server",
  "servidor",
  "docker",
].sort((a, b) => b.length - a.length);
const WORD_BITS = 12;

const classBits = (c: string) => (/\d/.test(c) ? Math.log2(10) : /[a-z]/.test(c) ? Math.log2(26) : /[A-Z]/.test(c) ? Math.log2(52) : 5);

/**
 * A rough count of the guesses a secret needs, in bits, the way password crackers guess: a common
 * word is one guess among a few thousand, a run (aaaa, abcd, 9876) costs its first character and
 * its length, a repeat of something earlier its position and length, and any other character the
 * size of its class (digit, lower case, upper case, symbol).
 */
export function secretBits(secret: string): number {
  const original = secret.slice(0, 256);
  const text = original.toLowerCase();
  let bits = 0;
  for (let i = 0; i < text.length;) {
    const word = COMMON_WORDS.find((w) => text.startsWith(w, i));
    if (word) {
      bits += WORD_BITS;
      i += word.length;
      continue;
    }
    const step = text.charCodeAt(i + 1) - text.charCodeAt(i);
    let run = 1;
    if (Math.abs(step) <= 1) while (i + run < text.length && text.charCodeAt(i + run) - text.charCodeAt(i + run - 1) === step) run++;
    if (run >= 3) {
      bits += classBits(original[i]) + Math.log2(run);
      i += run;
      continue;
    }
    let repeat = 0;
    for (let length = Math.min(i, text.length - i); length >= 3 && !repeat; length--)
      if (text.slice(0, i).includes(text.slice(i, i + length))) repeat = length;
    if (repeat) {
      bits += Math.log2(i) + Math.log2(repeat);
      i += repeat;
      continue;
    }
    bits += classBits(original[i]);
    i++;
  }
  return bits;
}

/** Why a secret is easy to guess, in Spanish; null when it is not. */
export function weakSecretReason(secret: string): string | null {
  if (secretBits(secret) >= MIN_SECRET_BITS) return null;
  if (new Set(secret).size <= 2) return "repite un mismo carácter";
  return "se adivina con facilidad: palabras comunes, secuencias o repeticiones";
}

const weakMessage = (name: string, reason: string) => `${name}: ${reason}; genera uno al azar con «${GOOD_SECRET_COMMAND}»`;

/** SESSION_SECRET's secrets, newest first; a problem is its message. Unset: the DATA_DIR's generated one. */
export function sessionSecrets(value: string | undefined, dataDir: string): string[] | string {
  if (value === undefined) return [devSecret(dataDir)];
  const secrets = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!secrets.length) return weakMessage("SESSION_SECRET", "no contiene ningún secreto, solo comas o espacios");
  if (secrets.some((s) => s.length < 16)) return weakMessage("SESSION_SECRET", "cada secreto necesita al menos 16 caracteres");
  for (const secret of secrets) {
    const reason = weakSecretReason(secret);
    if (reason) return weakMessage("SESSION_SECRET", secrets.length > 1 ? `uno de los secretos ${reason}` : `el secreto ${reason}`);
  }
  return secrets;
}

/** JWT_SECRET, when set: long enough and hard to guess. */
export function jwtSecretProblem(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.length < 32) return weakMessage("JWT_SECRET", "necesita al menos 32 caracteres");
  const reason = weakSecretReason(value);
  return reason ? weakMessage("JWT_SECRET", `el secreto ${reason}`) : null;
}

/** Generated once per data directory, so a restart keeps everyone's cookies valid. */
function devSecret(dataDir: string): string {
  // Not in a directory others can open: it would be theirs to sign cookies with.
  preparePrivateDataDir(dataDir);
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) {
    const stored = readFileSync(file, "utf8").trim();
    if (stored.length >= 16) return stored;
  }
  const secret = randomBytes(32).toString("hex");
  // Written whole or not at all: a kill between open and write must not leave an empty secret
  // that stops every later start.
  const scratch = `${file}.${process.pid}.tmp`;
  writeFileSync(scratch, secret, { mode: 0o600 });
  renameSync(scratch, file);
  return secret;
}
