import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import QRCode from "qrcode";
import { formatDate } from "#rules/dates";
import { formatPrice } from "#rules/prices";
import type { Purchase } from "#contract/sales";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;
const INK = rgb(0.12, 0.14, 0.16);
const MUTED = rgb(0.36, 0.39, 0.44);
const BRAND = rgb(0.72, 0.23, 0.09);
const LINE = rgb(0.85, 0.86, 0.88);

// The standard PDF fonts speak WinAnsi only: Spanish letters, «», €, dashes and quotes are there;
// anything else (emoji, other scripts) would make pdf-lib throw, so it becomes "?".
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
function printable(text: string): string {
  return Array.from(text.normalize("NFC"), (ch) => {
    const code = ch.codePointAt(0)!;
    if (ch === "\n" || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) return ch;
    return ch === "★" ? "*" : "?";
  }).join("");
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
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

/** Draws the QR code as vector squares: sharp at any zoom, and no image to embed. */
function drawQr(page: PDFPage, text: string, x: number, y: number, size: number) {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const quiet = 2;
  const cell = size / (n + quiet * 2);
  page.drawRectangle({ x, y, width: size, height: size, color: rgb(1, 1, 1) });
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (!qr.modules.get(row, col)) continue;
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

export type VoucherOptions = { origin?: string };

/**
 * The purchase's vouchers: one A4 page per coupon with the code as text and as a QR code, the
 * offer, address, validity and conditions, and a «Regalo para» box on gift items. Used by the
 * confirmation mail and by the account's coupon download.
 */
export async function buildVoucherPdf(purchase: Purchase, options: VoucherOptions = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const allCodes = purchase.items.flatMap((i) => i.coupons);
  pdf.setTitle(allCodes.length === 1 ? "Tu cupón de ofertas" : "Tus cupones de ofertas");
  pdf.setAuthor("ofertas");
  pdf.setSubject(`Pedido ${purchase.sale_id}`);
  pdf.setKeywords(allCodes);
  pdf.setLanguage("es-ES");
  pdf.setCreationDate(purchase.paid_at ? new Date(purchase.paid_at) : new Date());
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdf.embedFont(StandardFonts.CourierBold);
  const width = A4[0] - MARGIN * 2;

  for (const item of purchase.items) {
    item.coupons.forEach((code, index) => {
      const page = pdf.addPage(A4);
      let y = A4[1] - MARGIN;
      const write = (text: string, { font = regular, size = 11, color = INK, gap = 4, maxWidth = width, x = MARGIN } = {}) => {
        for (const line of wrap(text, font, size, maxWidth)) {
          if (y - size < MARGIN + 32) return; // the rest of very long conditions is on the offer's page
          y -= size;
          page.drawText(line, { x, y, size, font, color });
          y -= gap;
        }
      };

      page.drawText("ofertas", { x: MARGIN, y: y - 22, size: 26, font: bold, color: BRAND });
      const label = printable(`Cupón ${index + 1} de ${item.coupons.length}`);
      page.drawText(label, { x: A4[0] - MARGIN - regular.widthOfTextAtSize(label, 11), y: y - 18, size: 11, font: regular, color: MUTED });
      y -= 40;
      page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 1, color: LINE });
      y -= 18;

      write(item.title, { font: bold, size: 18, gap: 6 });
      write(`${item.option_title} · ${formatPrice(item.paid_unit_price)}`, { color: MUTED, gap: 10 });

      // The code box: text on the left, QR on the right.
      const qrSize = 150;
      const boxTop = y;
      const boxHeight = qrSize + 24;
      page.drawRectangle({
        x: MARGIN,
        y: boxTop - boxHeight,
        width,
        height: boxHeight,
        borderColor: LINE,
        borderWidth: 1,
        color: rgb(0.98, 0.97, 0.96),
      });
      page.drawText("Código del cupón", { x: MARGIN + 16, y: boxTop - 36, size: 11, font: regular, color: MUTED });
      page.drawText(code, { x: MARGIN + 16, y: boxTop - 68, size: 24, font: mono, color: INK });
      const hint = wrap(
        "Enséñalo impreso o en el móvil al llegar. El establecimiento lo canjea una sola vez.",
        regular,
        10,
        width - qrSize - 56,
      );
      hint.forEach((line, i) => page.drawText(line, { x: MARGIN + 16, y: boxTop - 96 - i * 14, size: 10, font: regular, color: MUTED }));
      drawQr(page, code, A4[0] - MARGIN - qrSize - 12, boxTop - boxHeight + 12, qrSize);
      y = boxTop - boxHeight - 24;

      if (item.for_present) {
        page.drawRectangle({ x: MARGIN, y: y - 58, width, height: 58, borderColor: BRAND, borderWidth: 1.5 });
        page.drawText(printable("Regalo para: ______________________________"), {
          x: MARGIN + 16,
          y: y - 24,
          size: 13,
          font: bold,
          color: BRAND,
        });
        page.drawText(printable("De parte de: ______________________________"), {
          x: MARGIN + 16,
          y: y - 46,
          size: 11,
          font: regular,
          color: INK,
        });
        y -= 80;
      }

      write("Dónde", { font: bold, size: 12 });
      write(item.address || "Consulta la dirección en la página de la oferta.", { gap: 12 });
      write("Validez", { font: bold, size: 12 });
      write(validity(item), { gap: 12 });
      write("Condiciones", { font: bold, size: 12 });
      write(item.conditions || "Sin condiciones especiales.", { size: 10, gap: 3 });

      const footer = [`Pedido ${purchase.sale_id}`, purchase.email, options.origin ? options.origin.replace(/^https?:\/\//, "") : ""]
        .filter(Boolean)
        .join(" · ");
      page.drawLine({ start: { x: MARGIN, y: MARGIN + 18 }, end: { x: A4[0] - MARGIN, y: MARGIN + 18 }, thickness: 1, color: LINE });
      page.drawText(printable(footer), { x: MARGIN, y: MARGIN, size: 9, font: regular, color: MUTED });
    });
  }
  return pdf.save();
}
