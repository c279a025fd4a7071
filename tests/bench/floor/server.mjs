// The floor's server: the same Express + compression + Remix handler stack as the shop's, and
// nothing else (no logging, no API, no cookies), so the ratio measures what the shop adds.
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const build = await import(new URL("./build/server/index.js", import.meta.url).href);
const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/assets", express.static(new URL("./build/client/assets", import.meta.url).pathname, { immutable: true, maxAge: "1y" }));
app.all("*", createRequestHandler({ build, mode: "production" }));
app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`floor listening on ${process.env.PORT}`));
