import { z, ZodIssueCode, type ZodErrorMap } from "zod";
import { countOf } from "./plurals";

/**
 * zod's own messages in Spanish, for every schema of both halves: whatever reaches a buyer or an
 * integrator is in the product's language. A message a schema sets itself still wins.
 */
export const spanishErrorMap: ZodErrorMap = (issue, ctx) => {
  switch (issue.code) {
    case ZodIssueCode.invalid_type:
      if (issue.received === "undefined") return { message: "Este campo es obligatorio." };
      if (issue.expected === "integer") return { message: "Debe ser un número entero." };
      return { message: `Tipo no válido: se esperaba ${typeName(issue.expected)}.` };
    case ZodIssueCode.too_small:
      if (issue.type === "string") return { message: `Como mínimo ${countOf(Number(issue.minimum), "carácter", "caracteres")}.` };
      if (issue.type === "array") return { message: `Como mínimo ${countOf(Number(issue.minimum), "elemento", "elementos")}.` };
      return { message: `Debe ser ${issue.inclusive ? "mayor o igual que" : "mayor que"} ${issue.minimum}.` };
    case ZodIssueCode.too_big:
      if (issue.type === "string") return { message: `Como máximo ${countOf(Number(issue.maximum), "carácter", "caracteres")}.` };
      if (issue.type === "array") return { message: `Como máximo ${countOf(Number(issue.maximum), "elemento", "elementos")}.` };
      return { message: `Debe ser ${issue.inclusive ? "menor o igual que" : "menor que"} ${issue.maximum}.` };
    case ZodIssueCode.invalid_string:
      if (issue.validation === "uuid") return { message: "Identificador no válido." };
      if (issue.validation === "email") return { message: "Correo electrónico no válido." };
      if (issue.validation === "url") return { message: "URL no válida." };
      return { message: "Formato no válido." };
    case ZodIssueCode.invalid_enum_value:
      return { message: `Valor no válido. Valores posibles: ${issue.options.join(", ")}.` };
    case ZodIssueCode.invalid_literal:
      return { message: "Valor no válido." };
    case ZodIssueCode.invalid_union_discriminator:
      return { message: "Acción no válida." };
    case ZodIssueCode.unrecognized_keys:
      return { message: "Campos no reconocidos." };
    default:
      return { message: ctx.defaultError === "Invalid input" ? "Valor no válido." : ctx.defaultError };
  }
};

const TYPE_NAMES: Record<string, string> = {
  string: "un texto",
  number: "un número",
  integer: "un número entero",
  boolean: "verdadero o falso",
  array: "una lista",
  object: "un objeto",
  date: "una fecha",
};
const typeName = (t: string) => TYPE_NAMES[t] ?? t;

z.setErrorMap(spanishErrorMap);
