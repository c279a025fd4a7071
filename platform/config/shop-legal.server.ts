/** The shop's legal identity on statements and commission invoices: SHOP_LEGAL_NAME, SHOP_TAX_ID, SHOP_ADDRESS. */
import { z } from "zod";
import { isDeployment } from "#platform/config/deployment.server";
import { isValidSpanishTaxId, normalizeTaxId } from "#rules/tax-id";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const SHOP_LEGAL_ENV = {
  /** The shop's company name on invoices («Ofertas Marketplace S.L.»). */
  SHOP_LEGAL_NAME: z.preprocess(emptyToUndefined, z.string().trim().max(200).optional()),
  /** Its NIF/CIF. */
  SHOP_TAX_ID: z.preprocess(emptyToUndefined, z.string().trim().max(20).optional()),
  /** Its registered address, on one line. */
  SHOP_ADDRESS: z.preprocess(emptyToUndefined, z.string().trim().max(300).optional()),
};

export type ShopLegal = { name: string; tax_id: string; address: string };

/** A try-out's made-up identity: its statements say so in the name, so none is mistaken for a real invoice. */
export const TRY_OUT_SHOP_LEGAL: ShopLegal = {
  name: "ofertas (datos de prueba, sin validez fiscal)",
  tax_id: "B00000000",
  address: "Calle de Ejemplo 1, 28001 Madrid",
};

type ShopLegalEnv = { SHOP_LEGAL_NAME?: string; SHOP_TAX_ID?: string; SHOP_ADDRESS?: string };

/**
 * The three together, or none: a try-out without them gets TRY_OUT_SHOP_LEGAL, a deployment
 * without them null (it starts, and refuses to issue statements until they are set: an invoice
 * never carries a made-up tax number). A half-set or invalid identity is the message to stop on.
 */
export function shopLegalIdentity(env: ShopLegalEnv, isDeployment: boolean): ShopLegal | null | string {
  const { SHOP_LEGAL_NAME: name, SHOP_TAX_ID: taxId, SHOP_ADDRESS: address } = env;
  if (!name && !taxId && !address) return isDeployment ? null : TRY_OUT_SHOP_LEGAL;
  if (!name || !taxId || !address) return "SHOP_LEGAL_NAME, SHOP_TAX_ID y SHOP_ADDRESS van juntas: pon las tres o ninguna";
  if (!isValidSpanishTaxId(taxId)) return "SHOP_TAX_ID: no es un NIF o CIF válido (revisa la letra de control)";
  return { name, tax_id: normalizeTaxId(taxId), address };
}

/** The same, read straight from the environment, for a job that runs without the whole configuration. */
export function shopLegalFromEnv(source: NodeJS.ProcessEnv = process.env): ShopLegal | null {
  const parsed = z.object(SHOP_LEGAL_ENV).safeParse(source);
  if (!parsed.success) return null;
  const identity = shopLegalIdentity(
    parsed.data,
    isDeployment({ PUBLIC_URL: source.PUBLIC_URL, DEPLOYMENT: source.DEPLOYMENT === "1" ? "1" : undefined }),
  );
  return typeof identity === "string" ? null : identity;
}
