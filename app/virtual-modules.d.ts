/** The consented tools' entry's URL (scripts/vite-plugins.ts, separateEntry). */
declare module "virtual:ofertas/third-party-entry" {
  const src: string;
  export default src;
}

/** The error-reporting entry's URL (scripts/vite-plugins.ts, separateEntry). */
declare module "virtual:ofertas/error-reporting-entry" {
  const src: string;
  export default src;
}
