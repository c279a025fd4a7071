import path from "node:path";
import { RuleTester } from "eslint";
import tseslint from "typescript-eslint";
import { describe, it } from "vitest";
import { privateRouteFolders } from "../../eslint/private-route-folders.js";

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const tester = new RuleTester({ languageOptions: { parser: tseslint.parser as never, ecmaVersion: 2022, sourceType: "module" } });
const at = (file: string) => path.join(process.cwd(), file);
const ok = (file: string, code: string) => ({ filename: at(file), code });
const foreign = (file: string, code: string) => ({ filename: at(file), code, errors: [{ messageId: "foreign" }] });

tester.run("private-route-folders", privateRouteFolders as never, {
  valid: [
    ok("app/routes/login/route.tsx", 'import { s } from "./social-login";'),
    ok("app/routes/login_.registro/route.tsx", 'import { s } from "#app/routes/login+shared/schema";'),
    ok("app/routes/login_.social.$provider.callback/route.tsx", 'import { f } from "../login+shared/social-login.server";'),
    ok("app/routes/admin.organizaciones.$id/route.tsx", 'import { F } from "#app/routes/admin.organizaciones+shared/organization-form";'),
    ok("app/routes/admin.organizaciones+shared/organization-form.tsx", 'import { a } from "#app/routes/admin+shared/a";'),
    ok("app/routes/cuenta/route.tsx", 'import { attempt } from "#app/forms/attempt.server";'),
    ok("app/components/search-dialog.tsx", 'import type { O } from "./offer-card-data";'),
    ok("tests/unit/cart.test.ts", 'import { s } from "#app/routes/cart/route";'),
  ],
  invalid: [
    foreign("app/routes/cuenta/route.tsx", 'import { f } from "#app/routes/login/auth-form";'),
    foreign("app/routes/cuenta/route.tsx", 'import { f } from "#app/routes/login+shared/login.server";'),
    foreign("app/routes/sitemaps.$file/route.tsx", 'import { x } from "../sitemap[.]xml/sitemap.server";'),
    foreign("app/routes/login/route.tsx", 'import { s } from "#app/routes/login_.registro+shared/x";'),
    foreign("app/routes/order.success/route.tsx", 'export { P } from "#app/routes/order.coupons/purchase-coupons";'),
    foreign("app/routes/_index/route.tsx", 'const m = import("#app/routes/buscar/route");'),
    foreign("app/components/search-dialog.tsx", 'import type { SearchData } from "#app/routes/buscar/route";'),
    foreign("app/components/x.tsx", 'type T = typeof import("#app/routes/buscar/route");'),
    foreign("app/root.tsx", 'import { x } from "./routes/login+shared/schema";'),
  ],
});
