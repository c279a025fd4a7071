// @vitest-environment node
/**
 * Redsys's HMAC_SHA256_V1 against published vectors:
 * - the example of Redsys's REST guide (pagosonline.redsys.es/conexion-rest.html: order 1446068581,
 *   145 cents, merchant 999008881), with the key and results that redsys-easy's tests use for it
 *   (github.com/javiertury/redsys-easy, test/fixtures/rest/rest-json.ts, MIT);
 * - a redirect request and a real notification from Redsys's test environment signed with the
 *   documentation's key sq7HjrUOBfKmC576ILgskD5srU870gJ7 (redsys-easy, test/fixtures/rest/redirect.ts);
 * - a «cancelled by the buyer» (9915) notification from the test environment, published with
 *   redsys-pos (github.com/brickpop/redsys-pos, example/backend.js).
 * And against the stand-in's own implementation (tests/mocks/redsys.ts), written apart.
 */
import { describe, expect, it } from "vitest";
import {
  decodeParameters,
  encodeParameters,
  field,
  orderKey,
  signatureMatches,
  signParameters,
  signRequest,
  verifiedParameters,
} from "#api/payments/redsys-signature";
import { redsysSignature } from "#tests/mocks/redsys";

const DOC_KEY = "sq7HjrUOBfKmC576ILgskD5srU870gJ7";
const REST_KEY = "Mk9m98IfEblmPfrpsawt7BmxObt98Jev";

const REST_REQUEST = {
  DS_MERCHANT_AMOUNT: "145",
  DS_MERCHANT_ORDER: "1446068581",
  DS_MERCHANT_MERCHANTCODE: "999008881",
  DS_MERCHANT_CURRENCY: "978",
  DS_MERCHANT_TRANSACTIONTYPE: "0",
  DS_MERCHANT_TERMINAL: "1",
  DS_MERCHANT_PAN: "4548812049400004",
  DS_MERCHANT_EXPIRYDATE: "1512",
  DS_MERCHANT_CVV2: "123",
};
const REST_RESPONSE = {
  Ds_SignatureVersion: "HMAC_SHA256_V1",
  Ds_MerchantParameters:
    "eyJEc19BbW91bnQiOiIxNDUiLCJEc19DdXJyZW5jeSI6Ijk3OCIsIkRzX09yZGVyIjoiMTQ0NjA2ODU4MSIsIkRzX01lcmNoYW50Q29kZSI6Ijk5OTAwODg4MSIsIkRzX1Rlcm1pbmFsIjoiMSIsIkRzX1Jlc3BvbnNlIjoiMDAwMCIsIkRzX0F1dGhvcmlzYXRpb25Db2RlIjoiNTAxNjAyIiwiRHNfVHJhbnNhY3Rpb25UeXBlIjoiMCIsIkRzX1NlY3VyZVBheW1lbnQiOiIwIiwiRHNfTGFuZ3VhZ2UiOiIxIiwiRHNfQ2FyZE51bWJlciI6IjQ1NDg4MSoqKioqKioqMDQiLCJEc19NZXJjaGFudERhdGEiOiIiLCJEc19DYXJkX0NvdW50cnkiOiI3MjQiLCJEc19DYXJkX0JyYW5kIjoiMSJ9",
  Ds_Signature: "IoGNijSDZGbk+qChH2iqRCg6jZVl3Ee6Ha/WBM4wgto=",
};

const REDIRECT_REQUEST = {
  DS_MERCHANT_TRANSACTIONTYPE: "0",
  DS_MERCHANT_ORDER: "0726qI3H7sZx",
  DS_MERCHANT_MERCHANTCODE: "999008881",
  DS_MERCHANT_TERMINAL: "1",
  DS_MERCHANT_AMOUNT: "4999",
  DS_MERCHANT_CURRENCY: "978",
  DS_MERCHANT_MERCHANTURL: "http://www.prueba.com/urlNotificacion.php",
  DS_MERCHANT_URLOK: "http://www.prueba.com/urlOK.php",
  DS_MERCHANT_URLKO: "http://www.prueba.com/urlKO.php",
};
const AUTHORISED_NOTIFICATION = {
  Ds_SignatureVersion: "HMAC_SHA256_V1",
  Ds_MerchantParameters:
    "eyJEc19EYXRlIjoiMjIlMkYxMCUyRjIwMjEiLCJEc19Ib3VyIjoiMjIlM0E1MSIsIkRzX1NlY3VyZVBheW1lbnQiOiIxIiwiRHNfQ2FyZF9OdW1iZXIiOiI0NTQ4ODEqKioqKiowMDA0IiwiRHNfQ2FyZF9Db3VudHJ5IjoiNzI0IiwiRHNfQW1vdW50IjoiNDk5OSIsIkRzX0N1cnJlbmN5IjoiOTc4IiwiRHNfT3JkZXIiOiIwNzI2cUkzSDdzWngiLCJEc19NZXJjaGFudENvZGUiOiI5OTkwMDg4ODEiLCJEc19UZXJtaW5hbCI6IjAwMSIsIkRzX1Jlc3BvbnNlIjoiMDAwMCIsIkRzX01lcmNoYW50RGF0YSI6IiIsIkRzX1RyYW5zYWN0aW9uVHlwZSI6IjAiLCJEc19Db25zdW1lckxhbmd1YWdlIjoiMSIsIkRzX0F1dGhvcmlzYXRpb25Db2RlIjoiMDUyMDI5IiwiRHNfQ2FyZF9CcmFuZCI6IjEiLCJEc19Qcm9jZXNzZWRQYXlNZXRob2QiOiIxIn0=",
  Ds_Signature: "52nPyUkyDws__OfMqDka_yN-arxzulELZC1TYTvvR0s=",
};
const CANCELLED_NOTIFICATION = {
  Ds_SignatureVersion: "HMAC_SHA256_V1",
  Ds_MerchantParameters:
    "eyJEc19EYXRlIjoiMjAlMkYxMCUyRjIwMTciLCJEc19Ib3VyIjoiMTclM0EyMyIsIkRzX1NlY3VyZVBheW1lbnQiOiIwIiwiRHNfQW1vdW50IjoiMTAwIiwiRHNfQ3VycmVuY3kiOiI5NzgiLCJEc19PcmRlciI6IjAwMDA5NjU1RDg0IiwiRHNfTWVyY2hhbnRDb2RlIjoiMzI3MjM0Njg4IiwiRHNfVGVybWluYWwiOiIwMDEiLCJEc19SZXNwb25zZSI6Ijk5MTUiLCJEc19UcmFuc2FjdGlvblR5cGUiOiIwIiwiRHNfTWVyY2hhbnREYXRhIjoiIiwiRHNfQXV0aG9yaXNhdGlvbkNvZGUiOiIrKysrKysiLCJEc19Db25zdW1lckxhbmd1YWdlIjoiMSJ9",
  Ds_Signature: "vrUsaNbxfonyn4ONUos6oosUaTBY0_SGoKDel6qsHqk=",
};

describe("the order's key (3DES-CBC of the order number)", () => {
  it("matches the published values", () => {
    expect(orderKey(REST_KEY, "1446068581").toString("base64")).toBe("Uv3ZTYJhPi5Hpi9R6NzR6w==");
    expect(orderKey(DOC_KEY, "0726qI3H7sZx").toString("base64")).toBe("GViV77kFjMPKVUcE9qxzlg==");
  });
});

describe("signing a request", () => {
  it("gives the REST guide's example its published signature", () => {
    const signed = signRequest(REST_KEY, REST_REQUEST);
    expect(signed.Ds_SignatureVersion).toBe("HMAC_SHA256_V1");
    expect(signed.Ds_MerchantParameters).toBe(
      "eyJEU19NRVJDSEFOVF9BTU9VTlQiOiIxNDUiLCJEU19NRVJDSEFOVF9PUkRFUiI6IjE0NDYwNjg1ODEiLCJEU19NRVJDSEFOVF9NRVJDSEFOVENPREUiOiI5OTkwMDg4ODEiLCJEU19NRVJDSEFOVF9DVVJSRU5DWSI6Ijk3OCIsIkRTX01FUkNIQU5UX1RSQU5TQUNUSU9OVFlQRSI6IjAiLCJEU19NRVJDSEFOVF9URVJNSU5BTCI6IjEiLCJEU19NRVJDSEFOVF9QQU4iOiI0NTQ4ODEyMDQ5NDAwMDA0IiwiRFNfTUVSQ0hBTlRfRVhQSVJZREFURSI6IjE1MTIiLCJEU19NRVJDSEFOVF9DVlYyIjoiMTIzIn0=",
    );
    expect(signed.Ds_Signature).toBe("8usPaCKawqjYeFi6KdNSB4jQ4Wi5XwOORcAk58MMFyU=");
  });

  it("gives a redirect request with the documentation's key its published signature", () => {
    expect(signRequest(DOC_KEY, REDIRECT_REQUEST).Ds_Signature).toBe("TyW+LIa2GZnhCPLM7JSPwbQn4ZjOvMO/KiIf4yJgwo8=");
  });

  it("agrees with the stand-in's own implementation, for orders of every length Redsys allows", () => {
    for (const order of ["1234", "12345678", "123456789", "0001ABCDEFGH", "9999zz"]) {
      const params = encodeParameters({ DS_MERCHANT_ORDER: order, DS_MERCHANT_AMOUNT: "1999" });
      expect(signParameters(DOC_KEY, order, params), order).toBe(redsysSignature(DOC_KEY, order, params));
    }
  });
});

describe("verifying what Redsys signed", () => {
  it("accepts Redsys's REST answer (base64) and its notifications (base64url)", () => {
    expect(field(verifiedParameters(REST_KEY, REST_RESPONSE)!, "Ds_AuthorisationCode")).toBe("501602");
    const authorised = verifiedParameters(DOC_KEY, AUTHORISED_NOTIFICATION)!;
    expect(field(authorised, "Ds_Response")).toBe("0000");
    expect(field(authorised, "Ds_Date")).toBe("22/10/2021");
    const cancelled = verifiedParameters(DOC_KEY, CANCELLED_NOTIFICATION)!;
    expect(field(cancelled, "Ds_Response")).toBe("9915");
    expect(field(cancelled, "Ds_Order")).toBe("00009655D84");
  });

  it("refuses another key, altered parameters, a changed signature, another version and missing fields", () => {
    expect(verifiedParameters(REST_KEY, AUTHORISED_NOTIFICATION)).toBeNull();
    const altered = decodeParameters(AUTHORISED_NOTIFICATION.Ds_MerchantParameters)!;
    const tampered = {
      ...AUTHORISED_NOTIFICATION,
      Ds_MerchantParameters: encodeParameters({ ...altered, Ds_Amount: "1" } as Record<string, string>),
    };
    expect(verifiedParameters(DOC_KEY, tampered)).toBeNull();
    const flipped = AUTHORISED_NOTIFICATION.Ds_Signature.replace(/^5/, "6");
    expect(verifiedParameters(DOC_KEY, { ...AUTHORISED_NOTIFICATION, Ds_Signature: flipped })).toBeNull();
    expect(verifiedParameters(DOC_KEY, { ...AUTHORISED_NOTIFICATION, Ds_SignatureVersion: "HMAC_SHA512_V1" })).toBeNull();
    expect(verifiedParameters(DOC_KEY, { ...AUTHORISED_NOTIFICATION, Ds_Signature: undefined })).toBeNull();
    expect(verifiedParameters(DOC_KEY, { ...AUTHORISED_NOTIFICATION, Ds_MerchantParameters: "no es base64!" })).toBeNull();
    expect(verifiedParameters(DOC_KEY, {})).toBeNull();
  });

  it("compares only whole 32-byte signatures: a prefix, padding games or an empty one never match", () => {
    const params = AUTHORISED_NOTIFICATION.Ds_MerchantParameters;
    const good = AUTHORISED_NOTIFICATION.Ds_Signature;
    expect(signatureMatches(DOC_KEY, "0726qI3H7sZx", params, good)).toBe(true);
    expect(signatureMatches(DOC_KEY, "0726qI3H7sZx", params, good.replace(/=$/, ""))).toBe(true);
    for (const bad of ["", good.slice(0, 20), `${good}AAAA`, good.replace(/_/g, "/").replace(/-/g, "+") + "==", "*".repeat(44)]) {
      expect(signatureMatches(DOC_KEY, "0726qI3H7sZx", params, bad), bad).toBe(false);
    }
    expect(signatureMatches(DOC_KEY, "0726qI3H7sZy", params, good)).toBe(false);
  });
});
