import { execFile } from "node:child_process";

/**
 * The text of a PDF as a reader would copy it, by poppler's pdftotext (Debian: poppler-utils,
 * installed by .ci/run when missing). pdf-lib writes PDFs but cannot read their text back.
 */
export function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("pdftotext", ["-layout", "-enc", "UTF-8", "-", "-"], { maxBuffer: 10 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin?.end(Buffer.from(pdf));
  });
}

export async function pdfPageCount(pdf: Buffer | Uint8Array): Promise<number> {
  return (await pdfText(pdf)).split("\f").filter((page) => page.trim()).length;
}
