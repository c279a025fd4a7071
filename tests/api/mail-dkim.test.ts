import { generateKeyPairSync } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { dkimVerify } from "mailauth/lib/dkim/verify";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig, type Config } from "#platform/config.server";
import { queueMail } from "#api/mail/outbox";
import { createMailTransport } from "#api/mail/transport";
import { deliverDue } from "#api/mail/worker";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { linksOf, startTestSmtp, type ReceivedMail, type TestSmtp } from "#tests/support/smtp";
import { capture, expectNoAddress, makeOption, newEmail, orderBody, sandboxAction } from "./_helpers";

const DOMAIN = "ofertas.es";
const SELECTOR = "correo2026";
const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_PEM = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
/** The TXT record an operator publishes at <selector>._domainkey.<domain> (docs/mail.md). */
const dkimRecord = (publicKey = keys.publicKey) =>
  `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;

/** DNS as the verifier asks it, answered here: only our selector's TXT record exists. */
const resolverFor = (record: string) => async (name: string, type: string) => {
  if (type === "TXT" && name.toLowerCase() === `${SELECTOR}._domainkey.${DOMAIN}`) return [[record]];
  throw Object.assign(new Error(`${name} ${type}: no existe`), { code: "ENOTFOUND" });
};
const resolver = resolverFor(dkimRecord());

let api: TestApi;
let smtp: TestSmtp;
let buyer = "";
let saleId = "";
let offerId = "";

const lead = {
  business_name: "Bar Pepe",
  contact_name: "Pepa Pérez",
  email: "",
  phone: "600000000",
  province: "Valencia",
  category: "restaurants",
  message: "Hola",
};

/** Every kind of mail (api/mail/messages.ts) with what its template needs, and how to tell it. */
function everyKind(tag: string) {
  const code = { code: "482915", minutes: 15 };
  const applicant = `solicitante.${tag}.${process.pid}@correo.es`;
  return [
    { kind: "purchase-confirmation", to: buyer, data: { sale_id: saleId }, subject: /Tus cupones/ },
    { kind: "feedback-request", to: buyer, data: { offer_uuid: offerId }, subject: /Valóralo/ },
    { kind: "digest", to: buyer, data: { region: null }, subject: /Nuevas ofertas/ },
    { kind: "login-code", to: `entra.${tag}.${process.pid}@correo.es`, data: code, subject: /para entrar/ },
    { kind: "account-activation", to: `activa.${tag}.${process.pid}@correo.es`, data: code, subject: /activar tu cuenta/ },
    { kind: "password-reset", to: `clave.${tag}.${process.pid}@correo.es`, data: code, subject: /cambiar la contraseña/ },
    { kind: "email-change", to: `nuevo.${tag}.${process.pid}@correo.es`, data: code, subject: /nuevo correo/ },
    { kind: "partner-lead", to: api.config.BUSINESS_EMAIL, data: { ...lead, email: applicant }, subject: /Solicitud de socio/ },
    { kind: "partner-lead-confirmation", to: applicant, data: { ...lead, email: applicant }, subject: /Hemos recibido tu solicitud/ },
    { kind: "account-exists", to: `existe.${tag}.${process.pid}@correo.es`, data: { reason: "register" }, subject: /Ya tienes una cuenta/ },
    {
      kind: "no-account",
      to: `nadie.${tag}.${process.pid}@correo.es`,
      data: { reason: "reset_password" },
      subject: /No hay ninguna cuenta/,
    },
    {
      kind: "password-locked",
      to: `bloqueo.${tag}.${process.pid}@correo.es`,
      data: { failures: 10, minutes: 15 },
      subject: /Hemos protegido tu cuenta/,
    },
  ];
}

async function queueEveryKind(tag: string) {
  const kinds = everyKind(tag);
  for (const k of kinds) await queueMail(api.db, { kind: k.kind, to: k.to, dedupeKey: `dkim-${tag}:${k.kind}`, data: k.data });
  return kinds;
}

async function deliverAll(settings: Config) {
  // Links as a deployment writes them; the API itself runs on 127.0.0.1.
  const config = { ...settings, PUBLIC_URL: "https://ofertas.example" };
  const result = await deliverDue(api.db, { transport: createMailTransport(config, () => {}), config, log: () => {} });
  expect(result).toMatchObject({ sent: everyKind("count").length, failed: 0, skipped: 0, retrying: 0 });
}

/** The DKIM-Signature's tags, unfolded. */
function signatureTags(raw: Buffer): Record<string, string> {
  const head = raw
    .toString("utf8")
    .split(/\r?\n\r?\n/)[0]
    .replace(/\r?\n[ \t]+/g, " ");
  const value = /^DKIM-Signature:\s*(.*)$/im.exec(head)?.[1] ?? "";
  return Object.fromEntries(
    value
      .split(";")
      .map((t) => t.trim().split(/=(.*)/s).slice(0, 2))
      .filter(([k]) => k),
  );
}

async function verify(raw: Buffer | string, dns = resolver) {
  const { results } = await dkimVerify(raw, { resolver: dns });
  expect(results).toHaveLength(1);
  return results[0];
}

async function expectSigned(raw: Buffer, kind: string) {
  const result = await verify(raw);
  expect(result.status.result, `${kind}: ${String(result.status.comment)}`).toBe("pass");
  expect(result.signingDomain).toBe(DOMAIN);
  expect(result.selector).toBe(SELECTOR);
  const signed = signatureTags(raw)
    .h.split(":")
    .map((h) => h.trim().toLowerCase());
  for (const header of ["from", "to", "subject", "date", "message-id", "mime-version", "content-type"])
    expect(signed, kind).toContain(header);
  return signed;
}

beforeAll(async () => {
  api = await startTestApi({
    env: {
      MAIL_DKIM_DOMAIN: DOMAIN,
      MAIL_DKIM_SELECTOR: SELECTOR,
      // As an operator writes it in a .env file: one line, the breaks as \n.
      MAIL_DKIM_PRIVATE_KEY: PRIVATE_PEM.replace(/\n/g, "\\n"),
      MAIL_FROM: `ofertas <no-responder@${DOMAIN}>`,
    },
  });
  smtp = await startTestSmtp();
  // A paid purchase with the marketing consent: its confirmation, feedback request and digest.
  buyer = newEmail("firmado");
  const option = await makeOption(api, { available: 50 });
  offerId = option.offerId;
  const validated = await call(api, "/sales/validate/", { body: orderBody([{ option }], buyer, { mail_agreement: true }) });
  const created = await call(api, "/sales/create/", { body: { session_token: validated.body.checkout_data.session_token } });
  await sandboxAction(created.body.payment, "pay");
  const captured = await capture(api, created.body.payment);
  expect(captured.body.status).toBe("paid");
  saleId = captured.body.sale_id;
  // What the purchase queued itself is sent (unsigned checks need none of it) before the tests.
  await deliverDue(api.db, {
    transport: createMailTransport({ ...api.config, mailDkim: null, SMTP_URL: smtp.url }),
    config: api.config,
    log: () => {},
  });
  smtp.messages.length = 0;
});
afterAll(async () => {
  await smtp.close();
  await api.close();
});

describe("DKIM", () => {
  it("signs each kind of mail sent by SMTP, and the signature verifies against the published key", async () => {
    const kinds = await queueEveryKind("smtp");
    await deliverAll({ ...api.config, SMTP_URL: smtp.url });
    const byKind = new Map<string, ReceivedMail>();
    for (const k of kinds) byKind.set(k.kind, await smtp.waitFor(k.to, { subject: k.subject }));
    expect(byKind.size).toBe(kinds.length);
    for (const [kind, mail] of byKind) {
      const signed = await expectSigned(mail.raw, kind);
      // RFC 8058: the one-click headers are covered by the signature, both of them.
      if (kind === "digest") {
        expect(signed).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));
        const { signingHeaders } = (await verify(mail.raw)) as unknown as { signingHeaders: { keys: string } };
        expect(signingHeaders.keys).toMatch(/List-Unsubscribe-Post/i);
      }
      if (kind === "partner-lead" || kind === "partner-lead-confirmation") expect(signed).toContain("reply-to");
    }
  });

  it("a changed header or body, or another key in DNS, fails", async () => {
    const mail = await smtp.waitFor(buyer, { subject: /Nuevas ofertas/ });
    const raw = mail.raw.toString("utf8");
    expect((await verify(raw)).status.result).toBe("pass");
    const otherUrl = raw.replace(/(List-Unsubscribe:\s*<[^>]*\?t=)[A-Za-z0-9_-]{4}/, "$1AAAA");
    expect(otherUrl).not.toBe(raw);
    expect((await verify(otherUrl)).status.result).toBe("fail");
    expect((await verify(raw.replace(/^(Subject: .*)$/m, "$1!"))).status.result).toBe("fail");
    const otherBody = raw.replace("Ver todas las ofertas", "Ver todas las ofertaz");
    expect(otherBody).not.toBe(raw);
    expect((await verify(otherBody)).status.result).not.toBe("pass");
    const another = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    expect((await verify(raw, resolverFor(dkimRecord(another)))).status.result).toBe("fail");
    // No record at all: not a pass either.
    expect((await verify(raw, async () => Promise.reject(Object.assign(new Error("no"), { code: "ENOTFOUND" })))).status.result).not.toBe(
      "pass",
    );
  });

  it("signs the .eml files too, when no SMTP_URL is set", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "ofertas-dkim-"));
    try {
      const kinds = await queueEveryKind("files");
      await deliverAll({ ...api.config, SMTP_URL: undefined, dataDir });
      const files = (await readdir(path.join(dataDir, "mail"))).filter((f) => f.endsWith(".eml"));
      expect(files).toHaveLength(kinds.length);
      const seen = new Set<string>();
      for (const file of files) {
        const raw = await readFile(path.join(dataDir, "mail", file));
        const parsed = await simpleParser(raw);
        const kind = kinds.find((k) => k.subject.test(parsed.subject ?? ""))!.kind;
        seen.add(kind);
        await expectSigned(raw, kind);
      }
      expect(seen.size).toBe(kinds.length);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("no link in any kind of mail carries its recipient's address", async () => {
    for (const k of everyKind("smtp")) {
      const mail = await smtp.waitFor(k.to, { subject: k.subject });
      expectNoAddress(linksOf(mail), k.to);
    }
  });

  it("is off without the settings, and the settings go all three or none, with an RSA key", async () => {
    const base = {
      NODE_ENV: "test" as const,
      SESSION_SECRET: "test-secret-for-the-mail-tests-0123456789",
      DATA_DIR: "/tmp/ofertas-test-unused",
    };
    expect(loadConfig(base).mailDkim).toBeNull();
    const all = {
      ...base,
      MAIL_DKIM_DOMAIN: "Ofertas.ES",
      MAIL_DKIM_SELECTOR: SELECTOR,
      MAIL_DKIM_PRIVATE_KEY: PRIVATE_PEM.replace(/\n/g, "\\n"),
    };
    expect(loadConfig(all).mailDkim).toEqual({ domainName: DOMAIN, keySelector: SELECTOR, privateKey: PRIVATE_PEM.trim() });
    expect(loadConfig({ ...all, MAIL_DKIM_PRIVATE_KEY: PRIVATE_PEM }).mailDkim?.privateKey).toBe(PRIVATE_PEM.trim());
    expect(() => loadConfig({ ...all, MAIL_DKIM_SELECTOR: "" })).toThrow(/van juntas/);
    expect(() => loadConfig({ ...base, MAIL_DKIM_PRIVATE_KEY: PRIVATE_PEM })).toThrow(ConfigError);
    expect(() => loadConfig({ ...all, MAIL_DKIM_PRIVATE_KEY: "no es una clave" })).toThrow(/MAIL_DKIM_PRIVATE_KEY/);
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(() => loadConfig({ ...all, MAIL_DKIM_PRIVATE_KEY: ec })).toThrow(/RSA/);
    expect(() => loadConfig({ ...all, MAIL_DKIM_DOMAIN: "no es un dominio" })).toThrow(/MAIL_DKIM_DOMAIN/);
    expect(() => loadConfig({ ...all, MAIL_DKIM_SELECTOR: "sel ector" })).toThrow(/MAIL_DKIM_SELECTOR/);
  });
});
