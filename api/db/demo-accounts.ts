/** The accounts the demo seed creates (README "Demo accounts"); tests log in with them too. */
export const DEMO_PASSWORD = "ofertas-demo-2026";
/** argon2id of DEMO_PASSWORD, computed once: seeding (every test database) then hashes nothing. */
export const DEMO_PASSWORD_HASH = "$argon2id$v=19$m=19456,t=2,p=1$mTPkxd2vYdf/MDyAYBdFrg$QnkhvTOKkzNL1GuuGqWAlG09w0tejr8YeUuTXO+ADC8";
export const DEMO_CUSTOMER = { email: "cliente@ofertas.es", password: DEMO_PASSWORD, firstName: "Lucía", lastName: "García" };
export const DEMO_STAFF = { email: "staff@ofertas.es", password: DEMO_PASSWORD, firstName: "Equipo", lastName: "Ofertas" };
/** Member of the two organisations behind the demo customer's purchase (api/db/seed-partner.ts). */
export const DEMO_PARTNER = { email: "socio@ofertas.es", password: DEMO_PASSWORD, firstName: "Carmen", lastName: "Socia" };
/** The demo partner's till staff and desk (the same organisations): what a cashier and a manager see (rules/partner-roles.ts). */
export const DEMO_MANAGER = { email: "encargado@ofertas.es", password: DEMO_PASSWORD, firstName: "Mario", lastName: "Encargado" };
export const DEMO_CASHIER = { email: "cajero@ofertas.es", password: DEMO_PASSWORD, firstName: "Pilar", lastName: "Cajera" };
