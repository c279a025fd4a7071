/**
 * Try-out or deployment (ADR 030). A try-out is this machine alone: no PUBLIC_URL, or one on
 * loopback (localhost, 127.0.0.1, [::1]); it gets a generated secret, the sandbox, the demo shop
 * and its demo staff. Any other PUBLIC_URL is a deployment, and so is a loopback one with
 * DEPLOYMENT=1 (compose's staging site at http://localhost:3000): secrets, a chosen payment
 * provider and real mail are required, and the demo staff and partner never exist.
 */
import { isIP } from "node:net";

export type DeploymentSettings = {
  PUBLIC_URL?: string;
  DEPLOYMENT?: "1";
  ALLOW_INSECURE_HTTP?: "1";
  MAIL_TO_FILES?: "1";
  SESSION_SECRET?: string;
  PAYMENT_PROVIDER?: string;
  SMTP_URL?: string;
};

/** localhost and its subdomains, 127.0.0.0/8 and ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  return host === "::1" || host === "0:0:0:0:0:0:0:1" || host.startsWith("::ffff:127.");
}

/** PUBLIC_URL names another machine than this one. */
export function isDeploymentUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return !isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function isDeployment(env: Pick<DeploymentSettings, "PUBLIC_URL" | "DEPLOYMENT">): boolean {
  return env.DEPLOYMENT === "1" || isDeploymentUrl(env.PUBLIC_URL);
}

export type SettingProblem = { path: string; message: string };

/** What a deployment needs and does not have, each with the setting it names. */
export function deploymentProblems(env: DeploymentSettings): SettingProblem[] {
  const problems: SettingProblem[] = [];
  if (env.DEPLOYMENT === "1" && !env.PUBLIC_URL)
    problems.push({ path: "PUBLIC_URL", message: "DEPLOYMENT=1 necesita PUBLIC_URL, la dirección por la que entran los compradores" });
  if (!isDeployment(env)) return problems;
  const url = env.PUBLIC_URL ? new URL(env.PUBLIC_URL) : null;
  if (url?.protocol === "http:" && !isLoopbackHost(url.hostname) && env.ALLOW_INSECURE_HTTP !== "1")
    problems.push({
      path: "PUBLIC_URL",
      message:
        "un despliegue se sirve por https:// (cookies seguras, pagos); http:// solo para un sitio de pruebas detrás de un proxy TLS, con ALLOW_INSECURE_HTTP=1",
    });
  if (!env.SESSION_SECRET)
    problems.push({
      path: "SESSION_SECRET",
      message:
        "obligatorio en un despliegue (PUBLIC_URL que no es esta máquina): uno o más secretos al azar separados por comas; genera uno con «openssl rand -hex 32»",
    });
  if (!env.PAYMENT_PROVIDER)
    problems.push({
      path: "PAYMENT_PROVIDER",
      message:
        "obligatorio en un despliegue (PUBLIC_URL que no es esta máquina): paypal, rapyd, allpay o redsys (sandbox solo para un sitio de pruebas)",
    });
  if (!env.SMTP_URL && env.MAIL_TO_FILES !== "1")
    problems.push({
      path: "SMTP_URL",
      message:
        "obligatorio en un despliegue: sin él el correo (códigos para entrar, cupones) solo se guarda en DATA_DIR/mail/ y nadie lo recibe; pon SMTP_URL, o MAIL_TO_FILES=1 si de verdad lo quieres así",
    });
  return problems;
}

/** What a deployment may run without but should not: said once at start, as warnings. */
export function deploymentWarnings(config: { isDeployment: boolean; SMTP_URL?: string; mailDkim: unknown }): string[] {
  const warnings: string[] = [];
  if (config.isDeployment && config.SMTP_URL && !config.mailDkim)
    warnings.push(
      "Correo sin firma DKIM (MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR, MAIL_DKIM_PRIVATE_KEY): muchos buzones lo llevarán a spam (docs/mail.md).",
    );
  return warnings;
}
