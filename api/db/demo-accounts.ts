/** The accounts the demo seed creates (README "Demo accounts"); tests log in with them too. */
export const DEMO_PASSWORD = "ofertas-demo-2026";
export const DEMO_CUSTOMER = { email: "cliente@ofertas.es", password: DEMO_PASSWORD, firstName: "Lucía", lastName: "García" };
export const DEMO_STAFF = { email: "staff@ofertas.es", password: DEMO_PASSWORD, firstName: "Equipo", lastName: "Ofertas" };
