/** The consented tools' entry's URL (scripts/vite-plugins.ts, thirdPartyEntry). */
declare module "virtual:ofertas/third-party-entry" {
  const src: string;
  export default src;
}
