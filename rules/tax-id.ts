/**
 * Spanish tax numbers: NIF (DNI + letter), NIE (X/Y/Z + 7 digits + letter) and CIF (companies).
 * Check digits per the official algorithms, so typos are caught before they reach an invoice.
 */
const DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";

export function normalizeTaxId(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, "");
}

function isValidDni(id: string): boolean {
  const m = /^(\d{8})([A-Z])$/.exec(id);
  return !!m && DNI_LETTERS[Number(m[1]) % 23] === m[2];
}

function isValidNie(id: string): boolean {
  const m = /^([XYZ])(\d{7})([A-Z])$/.exec(id);
  if (!m) return false;
  const prefix = { X: "0", Y: "1", Z: "2" }[m[1] as "X" | "Y" | "Z"];
  return DNI_LETTERS[Number(prefix + m[2]) % 23] === m[3];
}

function isValidCif(id: string): boolean {
  const m = /^([ABCDEFGHJNPQRSUVW])(\d{7})([0-9A-J])$/.exec(id);
  if (!m) return false;
  const digits = m[2].split("").map(Number);
  let sum = 0;
  digits.forEach((d, i) => {
    if (i % 2 === 1) sum += d;
    else {
      const doubled = d * 2;
      sum += Math.floor(doubled / 10) + (doubled % 10);
    }
  });
  const control = (10 - (sum % 10)) % 10;
  const letter = "JABCDEFGHI"[control];
  const check = m[3];
  // Some entity types must use a letter, some a digit; accepting either form is what the AEAT does.
  return check === String(control) || check === letter;
}

export function isValidSpanishTaxId(value: string): boolean {
  const id = normalizeTaxId(value);
  return isValidDni(id) || isValidNie(id) || isValidCif(id);
}
