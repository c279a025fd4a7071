/**
 * Runs after `remix vite:build`: writes a .br (quality 11) and a .gz (level 9) beside every text
 * asset of build/client and the till's QR reader's WebAssembly (1.1 MB, a third of it compressed),
 * once, so the server sends them as they are (server/static-files.ts) instead of compressing the
 * same bytes on every request (brotli on the fly is slow).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const ROOT = "build/client";
const TEXT = /\.(js|mjs|css|svg|json|txt|xml|html|webmanifest|wasm)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

let count = 0;
for (const file of files(ROOT)) {
  if (!TEXT.test(file) || statSync(file).size < 512) continue;
  const bytes = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
  );
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  count += 1;
}
console.log(`Precomprimidos ${count} ficheros (brotli y gzip).`);
