import {
  PDFArray,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  PDFString,
  rgb,
  StandardFonts,
  type PDFFont,
  type PDFPage,
  type PDFRef,
} from "pdf-lib";
import QRCode from "qrcode";
import { formatDate } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import { orderLabel } from "#rules/coupons";
import type { Purchase } from "#contract/sales";
import { plural } from "#rules/plurals";
import { bookingLines, contactLines } from "#rules/merchant-contact";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const INK = rgb(0.12, 0.14, 0.16);
const MUTED = rgb(0.36, 0.39, 0.44);
const BRAND = rgb(0.72, 0.23, 0.09);
const LINE = rgb(0.85, 0.86, 0.88);

// The standard PDF fonts speak WinAnsi only: Spanish letters, «», €, dashes and quotes are there;
// anything else (emoji, other scripts) would make pdf-lib throw, so it becomes "?".
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
export function printable(text: string): string {
  return Array.from(text.normalize("NFC"), (ch) => {
    const code = ch.codePointAt(0)!;
    if (ch === "\n" || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) return ch;
    return ch === "★" ? "*" : "?";
  }).join("");
}

export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of printable(text).split(/\n+/)) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(candidate, size) <= width || !line) line = candidate;
      else {
        lines.push(line);
        line = word;
      }
    }
    if (line) lines.push(line);
  }
  return lines;
}

/**
 * The voucher's QR: its modules (n × n) and the quiet zone around them, in modules. The PDF draws
 * it and the till's scanning test reads the very same picture.
 */
export function voucherQr(text: string): { n: number; quiet: number; dark: (row: number, col: number) => boolean } {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  return { n: qr.modules.size, quiet: 2, dark: (row, col) => !!qr.modules.get(row, col) };
}

/** Draws the QR code as vector squares: sharp at any zoom, and no image to embed. */
function drawQr(page: PDFPage, text: string, x: number, y: number, size: number) {
  const { n, quiet, dark } = voucherQr(text);
  const cell = size / (n + quiet * 2);
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) });
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (!dark(row, col)) continue;
      page.drawRectangle({
        x: x + (col + quiet) * cell,
        y: y + size - (row + quiet + 1) * cell,
        width: cell,
        height: cell,
        color: rgb(0, 0, 0),
      });
    }
  }
}

function validity(item: Purchase["items"][number]): string {
  const from = item.valid_from ? formatDate(item.valid_from) : "";
  const until = item.valid_until ? formatDate(item.valid_until) : "";
  if (from && until) return `Del ${from} al ${until}`;
  if (until) return `Hasta el ${until}`;
  if (from) return `Desde el ${from}`;
  return "Sin fecha de caducidad";
}

export type VoucherOptions = {
  origin?: string;
  /** Only this coupon's page (an account's download), numbered as in the whole order. */
  only?: string;
};

type Tag = "H1" | "H2" | "P" | "Figure";

/**
 * A tagged PDF, the minimum a screen reader needs: every piece of text is marked content tied
 * to a structure element (headings, paragraphs, the QR as a figure with its code as alternative
 * text), in reading order under one Document element; rules, boxes and the QR's squares are
 * artifacts. pdf-lib draws, this writes the structure tree and the page's marks around its drawing.
 */
export class Tagger {
  private readonly elements: PDFRef[] = [];
  private readonly parents: { page: PDFPage; kids: PDFRef[] }[] = [];
  private readonly documentRef: PDFRef;

  constructor(private readonly pdf: PDFDocument) {
    this.documentRef = pdf.context.nextRef();
  }

  /** Marks what `draw` puts on the page as content of a new `tag` element. */
  content(page: PDFPage, tag: Tag, draw: () => void, alt?: string) {
    let parent = this.parents.find((p) => p.page === page);
    if (!parent) {
      parent = { page, kids: [] };
      page.node.set(PDFName.of("StructParents"), PDFNumber.of(this.parents.length));
      this.parents.push(parent);
    }
    const mcid = parent.kids.length;
    const element = this.pdf.context.register(
      this.pdf.context.obj({
        Type: "StructElem",
        S: tag,
        P: this.documentRef,
        Pg: page.ref,
        K: mcid,
        ...(alt ? { Alt: PDFString.of(alt) } : {}),
      }),
    );
    parent.kids.push(element);
    this.elements.push(element);
    page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of(tag), `<< /MCID ${mcid} >>`]));
    draw();
    page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  }

  /** Decoration a reader skips. */
  artifact(page: PDFPage, draw: () => void) {
    page.pushOperators(PDFOperator.of(PDFOperatorNames.BeginMarkedContent, [PDFName.of("Artifact")]));
    draw();
    page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
  }

  /** The structure tree, the parent tree and the catalog's marks. */
  finish(lang: string) {
    const { context, catalog } = this.pdf;
    const nums = PDFArray.withContext(context);
    this.parents.forEach((p, i) => {
      nums.push(PDFNumber.of(i));
      nums.push(context.obj(p.kids));
    });
    const root = context.register(context.obj({ Type: "StructTreeRoot", K: this.documentRef, ParentTree: context.obj({ Nums: nums }) }));
    context.assign(
      this.documentRef,
      context.obj({ Type: "StructElem", S: "Document", P: root, K: this.elements, Lang: PDFString.of(lang) }),
    );
    catalog.set(PDFName.of("StructTreeRoot"), root);
    catalog.set(PDFName.of("MarkInfo"), context.obj({ Marked: true }));
    catalog.set(PDFName.of("ViewerPreferences"), context.obj({ DisplayDocTitle: true }));
  }
}

/**
 * The purchase's vouchers: one A4 page per coupon with the code as text and as a QR code, the
 * offer and its merchant, address, validity and conditions, and a «Regalo para» box on gift
 * items; «Cupón 2 de 3» counts across the whole order. Used by the confirmation mail and by the
 * account's coupon download.
 */
export async function buildVoucherPdf(purchase: Purchase, options: VoucherOptions = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const tags = new Tagger(pdf);
  const allCodes = purchase.items.flatMap((i) => i.coupons);
  const shown = options.only ? allCodes.filter((c) => c === options.only) : allCodes;
  pdf.setTitle(plural(shown.length, "Tu cupón de ofertas", "Tus cupones de ofertas"), { showInWindowTitleBar: true });
  pdf.setAuthor("ofertas");
  pdf.setSubject(orderLabel(purchase.sale_id));
  pdf.setKeywords(shown);
  pdf.setLanguage("es-ES");
  pdf.setCreationDate(purchase.paid_at ? new Date(purchase.paid_at) : new Date());
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.CourierBold);
  const width = A4[0] - MARGIN * 2;

  let number = 0;
  for (const item of purchase.items) {
    for (const code of item.coupons) {
      number += 1;
      if (options.only && code !== options.only) continue;
      const page = pdf.addPage(A4);
      let y = A4[1] - MARGIN;
      const text = (tag: Tag, line: string, o: Parameters<PDFPage["drawText"]>[1]) => tags.content(page, tag, () => page.drawText(line, o));
      const decoration = (draw: () => void) => tags.artifact(page, draw);
      const write = (
        content: string,
        { font = regular, size = 11, color = INK, gap = 4, maxWidth = width, x = MARGIN, tag = "P" as Tag } = {},
      ) => {
        const lines: string[] = [];
        let top = y;
        for (const line of wrap(content, font, size, maxWidth)) {
          if (top - size < MARGIN + 32) break; // the rest of very long conditions is on the offer's page
          top -= size + gap;
          lines.push(line);
        }
        if (!lines.length) return;
        tags.content(page, tag, () => {
          for (const line of lines) {
            y -= size;
            page.drawText(line, { x, y, size, font, color });
            y -= gap;
          }
        });
      };

      text("P", "ofertas", { x: MARGIN, y: y - 22, size: 26, font: bold, color: BRAND });
      const label = printable(`Cupón ${number} de ${allCodes.length}`);
      text("P", label, { x: A4[0] - MARGIN - regular.widthOfTextAtSize(label, 11), y: y - 18, size: 11, font: regular, color: MUTED });
      y -= 40;
      decoration(() => page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 1, color: LINE }));
      y -= 18;

      write(item.title, { font: bold, size: 18, gap: 6, tag: "H1" });
      // A gift's voucher never says what it cost.
      write(item.for_present ? item.option_title : `${item.option_title} · ${formatPrice(item.paid_unit_price)}`, { color: MUTED, gap: 4 });
      write(`Lo canjea ${item.merchant}`, { color: INK, gap: 10 });

      // The code box: text on the left, QR on the right.
      const qrSize = 150;
      const boxTop = y;
      const boxHeight = qrSize + 24;
      decoration(() =>
        page.drawRectangle({
          x: MARGIN,
          y: boxTop - boxHeight,
          width,
          height: boxHeight,
          borderColor: LINE,
          borderWidth: 1,
          color: rgb(0.98, 0.97, 0.96),
        }),
      );
      // A refunded coupon's PDF says so where the code is: nobody can take it for a valid one.
      const refunded = item.coupon_status.some((c) => c.code === code && c.state === "refunded");
      text("P", printable(refunded ? "Código del cupón · DEVUELTO" : "Código del cupón"), {
        x: MARGIN + 16,
        y: boxTop - 36,
        size: 11,
        font: refunded ? bold : regular,
        color: refunded ? BRAND : MUTED,
      });
      text("P", code, { x: MARGIN + 16, y: boxTop - 68, size: 24, font: mono, color: INK });
      const hint = wrap(
        refunded
          ? "Devuelto: el dinero de este cupón se ha devuelto y ya no es válido."
          : "Enséñalo impreso o en el móvil al llegar. El establecimiento lo canjea una sola vez.",
        regular,
        10,
        width - qrSize - 56,
      );
      tags.content(page, "P", () =>
        hint.forEach((line, i) => page.drawText(line, { x: MARGIN + 16, y: boxTop - 96 - i * 14, size: 10, font: regular, color: MUTED })),
      );
      tags.content(
        page,
        "Figure",
        () => drawQr(page, code, A4[0] - MARGIN - qrSize - 12, boxTop - boxHeight + 12, qrSize),
        printable(`Código QR del cupón ${code}`),
      );
      y = boxTop - boxHeight - 24;

      if (item.for_present) {
        // With the buyer's gift details, their names and message; without, lines to write them by hand.
        const to = item.gift ? `Regalo para: ${item.gift.recipient_name}` : "Regalo para: ______________________________";
        const words = item.gift
          ? wrap(item.gift.message ? printable(`«${item.gift.message}»`) : "", regular, 11, width - 32).slice(0, 4)
          : [];
        const fromLine = item.gift
          ? item.gift.sender_name
            ? `De parte de: ${item.gift.sender_name}`
            : null
          : "De parte de: ______________________________";
        // A named giver takes a line of its own above the message.
        const shift = item.gift?.sender_name && words.length ? 18 : 0;
        const height = 58 + shift + Math.max(0, words.length - 1) * 14;
        decoration(() => page.drawRectangle({ x: MARGIN, y: y - height, width, height, borderColor: BRAND, borderWidth: 1.5 }));
        text("P", printable(to), { x: MARGIN + 16, y: y - 24, size: 13, font: bold, color: BRAND });
        if (fromLine) text("P", printable(fromLine), { x: MARGIN + 16, y: y - 46, size: 11, font: regular, color: INK });
        words.forEach((line, i) =>
          text("P", printable(line), { x: MARGIN + 16, y: y - 46 - shift - i * 14, size: 11, font: regular, color: INK }),
        );
        y -= height + 22;
      }

      write("Dónde", { font: bold, size: 12, tag: "H2" });
      write([item.merchant, item.address || "Consulta la dirección en la página de la oferta."].join("\n"), { gap: 4 });
      // How to book, where the buyer looks for the address: the conditions' booking lines and the merchant's contacts.
      const booking = [
        ...bookingLines(item.conditions),
        ...contactLines({ phone: item.merchant_phone, email: item.merchant_email, website: item.merchant_website }),
      ];
      if (booking.length) write(`Reservar: ${booking.join("\n")}`, { gap: 4 });
      y -= 8;
      write("Validez", { font: bold, size: 12, tag: "H2" });
      write(validity(item), { gap: 12 });
      write("Condiciones", { font: bold, size: 12, tag: "H2" });
      write(item.conditions || "Sin condiciones especiales.", { size: 10, gap: 3 });

      const footer = [orderLabel(purchase.sale_id), purchase.email, options.origin ? options.origin.replace(/^https?:\/\//, "") : ""]
        .filter(Boolean)
        .join(" · ");
      decoration(() =>
        page.drawLine({ start: { x: MARGIN, y: MARGIN + 18 }, end: { x: A4[0] - MARGIN, y: MARGIN + 18 }, thickness: 1, color: LINE }),
      );
      text("P", printable(footer), { x: MARGIN, y: MARGIN, size: 9, font: regular, color: MUTED });
    }
  }
  tags.finish("es-ES");
  return pdf.save();
}
