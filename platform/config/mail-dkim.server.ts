import { createPrivateKey } from "node:crypto";

/** nodemailer's `dkim` option. */
export type MailDkim = { domainName: string; keySelector: string; privateKey: string };

type DkimSettings = { MAIL_DKIM_DOMAIN?: string; MAIL_DKIM_SELECTOR?: string; MAIL_DKIM_PRIVATE_KEY?: string };

/** The DKIM settings, all three or none; a problem is its message. RSA only: what nodemailer signs with. */
export function mailDkimSettings(env: DkimSettings): MailDkim | null | string {
  const { MAIL_DKIM_DOMAIN: domainName, MAIL_DKIM_SELECTOR: keySelector, MAIL_DKIM_PRIVATE_KEY: key } = env;
  if (!domainName && !keySelector && !key) return null;
  if (!domainName || !keySelector || !key)
    return "MAIL_DKIM_DOMAIN, MAIL_DKIM_SELECTOR y MAIL_DKIM_PRIVATE_KEY van juntas: pon las tres o ninguna";
  const privateKey = key.replace(/\\n/g, "\n").trim();
  let bits = 0;
  try {
    const parsed = createPrivateKey(privateKey);
    bits = parsed.asymmetricKeyType === "rsa" ? (parsed.asymmetricKeyDetails?.modulusLength ?? 0) : 0;
  } catch {
    return "MAIL_DKIM_PRIVATE_KEY: debe ser una clave privada RSA en PEM (-----BEGIN PRIVATE KEY----- o -----BEGIN RSA PRIVATE KEY-----)";
  }
  if (bits < 1024) return "MAIL_DKIM_PRIVATE_KEY: debe ser una clave RSA de 1024 bits o más (mejor 2048)";
  return { domainName, keySelector, privateKey };
}
