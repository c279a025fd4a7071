/** Who someone is to the shop. Checked by the API on every call; the storefront only displays it. */
export const ROLES = ["customer", "partner", "staff"] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: unknown): value is Role => typeof value === "string" && (ROLES as readonly string[]).includes(value);

/** Staff may act on anyone's data; partners and customers only on their own (or their organisation's). */
export const isStaff = (role: Role | null | undefined) => role === "staff";

export const ROLE_LABELS: Record<Role, string> = { customer: "Cliente", partner: "Socio", staff: "Equipo" };
