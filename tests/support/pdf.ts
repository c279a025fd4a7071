import { createRequire } from "node:module";
import path from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** pdf.js's own copies of the 14 standard fonts, which the vouchers use without embedding them. */
const standardFontDataUrl =
  path.join(path.dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts") + path.sep;

/**
 * The text of each page of a PDF as a reader would copy it, by pdf.js (Mozilla's reader, in
 * JavaScript: no system package needed). pdf-lib writes PDFs but cannot read their text back.
 */
export async function pdfPages(pdf: Buffer | Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join(""));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

/** The whole text, pages separated by a form feed (as pdftotext writes them). */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  return (await pdfPages(pdf)).join("\f");
}

export async function pdfPageCount(pdf: Buffer | Uint8Array): Promise<number> {
  return (await pdfPages(pdf)).length;
}

type StructNode = { role?: string; alt?: string; children?: StructNode[]; type?: string };

/**
 * What a screen reader gets from a PDF, by pdf.js: whether it is marked as tagged, its language,
 * and per page the structure elements' roles in reading order (a figure as «Figure: alt text»).
 */
export async function pdfStructure(pdf: Buffer | Uint8Array): Promise<{ marked: boolean; lang: string | null; pages: string[][] }> {
  const document = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const markInfo = await document.getMarkInfo();
    const { info } = (await document.getMetadata()) as { info: { Language?: string } };
    const pages: string[][] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const roles: string[] = [];
      const walk = (node: StructNode) => {
        if (node.role && node.role !== "Root" && node.role !== "Document") roles.push(node.alt ? `${node.role}: ${node.alt}` : node.role);
        node.children?.forEach(walk);
      };
      const tree = (await (await document.getPage(n)).getStructTree()) as StructNode | null;
      if (tree) walk(tree);
      pages.push(roles);
    }
    return { marked: markInfo?.Marked === true, lang: info.Language ?? null, pages };
  } finally {
    await document.destroy();
  }
}
