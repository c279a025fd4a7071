import { describe, expect, it } from "vitest";
import { z } from "zod";
import "#rules/zod-es";

describe("zod messages in Spanish", () => {
  const first = (schema: z.ZodTypeAny, value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) throw new Error("expected a failure");
    return result.error.issues[0].message;
  };

  it("translates zod's own messages", () => {
    expect(first(z.object({ session_token: z.string() }), {})).toBe("Este campo es obligatorio.");
    expect(first(z.number().max(100), 101)).toBe("Debe ser menor o igual que 100.");
    expect(first(z.number().int(), 1.5)).toBe("Debe ser un número entero.");
    expect(first(z.string().uuid(), "x")).toBe("Identificador no válido.");
    expect(first(z.string().min(3), "a")).toBe("Como mínimo 3 caracteres.");
    expect(first(z.enum(["a", "b"]), "c")).toBe("Valor no válido. Valores posibles: a, b.");
  });

  it("keeps the message a schema sets itself", () => {
    expect(first(z.string().min(1, "Escribe un código promocional."), "")).toBe("Escribe un código promocional.");
  });
});
