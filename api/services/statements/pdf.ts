import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import type { StatementLineView, StatementView } from "#contract/statements";
import { formatPercentBp } from "#rules/commission";
import { formatDate } from "#rules/dates";
import { formatCents, formatCount, toCents } from "#rules/prices";
import { printable, Tagger, wrap } from "#api/coupons/voucher-pdf";
import type { Executor } from "#api/db/client";
import type { Scope } from "#api/services/access";
import { getStatement, statementLineBatches } from "./read";

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const INK = rgb(0.12, 0.14, 0.16);
const MUTED = rgb(0.36, 0.39, 0.44);
const BRAND = rgb(0.72, 0.23, 0.09);
const RULE = rgb(0.85, 0.86, 0.88);
const WIDTH = A4[0] - MARGIN * 2;

const euros = (value: string) => formatCents(toCents(value));

type Fonts = { regular: PDFFont; bold: PDFFont };
type Tag = "H1" | "H2" | "P";

/** Draws down the pages: a cursor `y`, a new page when the next block does not fit, every text tagged. */
class Writer {
  page!: PDFPage;
  y = 0;
  readonly pages: PDFPage[] = [];

  constructor(
    private readonly pdf: PDFDocument,
    private readonly tags: Tagger,
    readonly fonts: Fonts,
    private readonly onNewPage: (w: Writer) => void = () => {},
  ) {
    this.newPage();
  }

  newPage() {
    this.page = this.pdf.addPage(A4);
    this.pages.push(this.page);
    this.y = A4[1] - MARGIN;
    this.onNewPage(this);
  }

  /** Room for `height` more points above the footer, or a new page. */
  need(height: number) {
    if (this.y - height < MARGIN + 24) this.newPage();
  }

  text(content: string, { font = this.fonts.regular, size = 10, color = INK, gap = 3, x = MARGIN, width = WIDTH, tag = "P" as Tag } = {}) {
    const lines = wrap(content, font, size, width);
    this.need(lines.length * (size + gap));
    this.tags.content(this.page, tag, () => {
      for (const line of lines) {
        this.y -= size;
        this.page.drawText(line, { x, y: this.y, size, font, color });
        this.y -= gap;
      }
    });
  }

  /** One row of cells at fixed x positions; `right` cells end at their x. */
  row(cells: { text: string; x: number; right?: boolean; font?: PDFFont; width?: number }[], size = 8, color = INK) {
    this.need(size + 4);
    this.y -= size;
    this.tags.content(this.page, "P", () => {
      for (const cell of cells) {
        const font = cell.font ?? this.fonts.regular;
        let text = printable(cell.text);
        if (cell.width) while (text.length > 1 && font.widthOfTextAtSize(text, size) > cell.width) text = `${text.slice(0, -2)}…`;
        const x = cell.right ? cell.x - font.widthOfTextAtSize(text, size) : cell.x;
        this.page.drawText(text, { x, y: this.y, size, font, color });
      }
    });
    this.y -= 4;
  }

  rule(gapAfter = 8) {
    const y = this.y;
    this.tags.artifact(this.page, () =>
      this.page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.8, color: RULE }),
    );
    this.y -= gapAfter;
  }

  gap(points: number) {
    this.y -= points;
  }
}

/** Label on the left, amount on the right, for the summary and the invoices. */
function amountRow(w: Writer, label: string, value: string, bold = false) {
  const font = bold ? w.fonts.bold : w.fonts.regular;
  w.row(
    [
      { text: label, x: MARGIN, font },
      { text: value, x: A4[0] - MARGIN, right: true, font },
    ],
    10,
  );
}

function party(w: Writer, title: string, p: { name: string; tax_id: string | null; address: string }, extra: string[] = []) {
  w.text(title, { font: w.fonts.bold, size: 10, tag: "H2" });
  w.text([p.name, `NIF/CIF: ${p.tax_id ?? "sin indicar"}`, p.address || "Dirección sin indicar", ...extra].join("\n"), { size: 9, gap: 2 });
  w.gap(6);
}

function invoiceBlock(w: Writer, s: StatementView, kind: "invoice" | "rectifying") {
  const invoice = kind === "invoice" ? s.invoice : s.rectifying_invoice;
  if (!invoice) return;
  w.need(150);
  w.rule(14);
  const title = kind === "invoice" ? `Factura ${invoice.number}` : `Factura rectificativa ${invoice.number}`;
  w.text(title, { font: w.fonts.bold, size: 13, tag: "H2", gap: 6 });
  w.text(
    `Fecha de expedición: ${formatDate(s.issued_at)}. Emisor: ${s.shop.name} (NIF/CIF ${s.shop.tax_id}). Destinatario: ${s.partner.name} (NIF/CIF ${s.partner.tax_id ?? "sin indicar"}).`,
    {
      size: 9,
      color: MUTED,
      gap: 6,
    },
  );
  if (kind === "rectifying" && s.rectifying_invoice) {
    w.text(
      `Rectifica: ${s.rectifying_invoice.rectifies.join(", ") || "—"}. Comisión devuelta por cupones reembolsados o canjes deshechos después de facturarse.`,
      { size: 9, gap: 6 },
    );
  }
  const concept =
    kind === "invoice"
      ? `Comisión por la intermediación en la venta de cupones, ${s.period_label} (liquidación ${s.number})`
      : `Devolución de comisión, ${s.period_label} (liquidación ${s.number})`;
  w.text(concept, { size: 10, gap: 6 });
  amountRow(w, "Base imponible", euros(invoice.base));
  amountRow(w, `IVA ${formatPercentBp(s.vat_rate_bp)}`, euros(invoice.vat));
  amountRow(w, "Total factura", euros(invoice.total), true);
  w.gap(6);
}

const COLS = {
  no: MARGIN,
  date: MARGIN + 28,
  code: MARGIN + 78,
  offer: MARGIN + 158,
  facts: MARGIN + 300,
  gross: 430,
  commission: 475,
  vat: 512,
  net: A4[0] - MARGIN,
};

function linesHeader(w: Writer) {
  w.row(
    [
      { text: "Nº", x: COLS.no, font: w.fonts.bold },
      { text: "Venta", x: COLS.date, font: w.fonts.bold },
      { text: "Cupón", x: COLS.code, font: w.fonts.bold },
      { text: "Oferta · opción", x: COLS.offer, font: w.fonts.bold },
      { text: "Movimiento", x: COLS.facts, font: w.fonts.bold },
      { text: "Bruto", x: COLS.gross, right: true, font: w.fonts.bold },
      { text: "Comisión", x: COLS.commission, right: true, font: w.fonts.bold },
      { text: "IVA", x: COLS.vat, right: true, font: w.fonts.bold },
      { text: "Neto", x: COLS.net, right: true, font: w.fonts.bold },
    ],
    7.5,
    MUTED,
  );
}

const plain = (value: string) => formatCents(toCents(value)).replace(/\s€$/u, "");

function lineRow(w: Writer, l: StatementLineView) {
  w.row(
    [
      { text: String(l.line_no), x: COLS.no },
      { text: formatDate(l.sold_at, "dd/MM/yyyy"), x: COLS.date },
      { text: l.coupon.code, x: COLS.code },
      { text: `${l.offer_title} · ${l.option_title}`, x: COLS.offer, width: COLS.facts - COLS.offer - 6 },
      { text: l.facts_label, x: COLS.facts, width: COLS.gross - COLS.facts - 40 },
      { text: plain(l.gross), x: COLS.gross, right: true },
      { text: plain(l.commission), x: COLS.commission, right: true },
      { text: plain(l.vat), x: COLS.vat, right: true },
      { text: plain(l.net), x: COLS.net, right: true },
    ],
    7.5,
  );
}

/**
 * A statement as a PDF a gestoría files: both parties (legal name, NIF/CIF, fiscal address), the
 * period and the payable moment, the totals, the commission invoice (and the rectifying one)
 * with their own numbers, and every line, traceable to its sale and coupon. Made the same from
 * an issued statement every time (dates are the issue's; whether it has been paid since is the
 * statement page's to say, not the document's), so nothing needs to be kept.
 */
export async function statementPdf(db: Executor, scope: Scope, id: string): Promise<Uint8Array> {
  const s = await getStatement(db, scope, id);
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const issued = new Date(s.issued_at);
  pdf.setTitle(printable(`Liquidación ${s.number}`), { showInWindowTitleBar: true });
  pdf.setAuthor(printable(s.shop.name));
  pdf.setSubject(printable(`${s.partner.name}, ${s.period_label}`));
  pdf.setLanguage("es-ES");
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);
  const tags = new Tagger(pdf);
  const fonts = { regular: await pdf.embedFont(StandardFonts.Helvetica), bold: await pdf.embedFont(StandardFonts.HelveticaBold) };
  let detail = false;
  const w = new Writer(pdf, tags, fonts, (writer) => {
    if (detail) linesHeader(writer);
  });

  w.text("ofertas", { font: fonts.bold, size: 20, color: BRAND, gap: 8 });
  w.text(`Liquidación ${s.number}`, { font: fonts.bold, size: 16, tag: "H1", gap: 4 });
  w.text(`Periodo: ${s.period_label}. Emitida el ${formatDate(s.issued_at)}.`, { color: MUTED, gap: 10 });
  w.rule(12);
  party(w, "Emisor", s.shop);
  party(w, "Socio", s.partner, [s.partner.iban_masked ? `Cuenta de pago: ${s.partner.iban_masked}` : "Cuenta de pago: sin IBAN"]);
  w.text(`Momento de pago: ${s.payable_on_label}. ${s.payable_on_terms}`, { size: 9, gap: 10 });
  w.rule(12);

  w.text("Resumen", { font: fonts.bold, size: 12, tag: "H2", gap: 6 });
  const c = s.counts;
  amountRow(w, "Cupones vendidos", formatCount(c.sold));
  amountRow(w, "Cupones reembolsados", formatCount(c.refunded));
  amountRow(w, "Cupones canjeados", formatCount(c.redeemed));
  amountRow(w, "Cupones caducados sin canjear", formatCount(c.expired));
  w.gap(4);
  amountRow(w, "Importe bruto liquidado", euros(s.gross));
  amountRow(w, "Comisión", `-${euros(s.commission)}`.replace(/^--/, ""));
  amountRow(w, `IVA ${formatPercentBp(s.vat_rate_bp)} sobre la comisión`, `-${euros(s.vat)}`.replace(/^--/, ""));
  amountRow(w, "Neto del periodo", euros(s.net), true);
  if (toCents(s.carried) !== 0) amountRow(w, "Saldo negativo de la liquidación anterior", euros(s.carried));
  amountRow(w, "A pagar al socio", euros(s.payable), true);
  if (!s.invoice && !s.rectifying_invoice) w.text("Sin comisión en este periodo: no hay factura.", { size: 9, color: MUTED, gap: 6 });
  invoiceBlock(w, s, "invoice");
  invoiceBlock(w, s, "rectifying");

  w.need(60);
  w.rule(14);
  w.text(`Detalle: ${formatCount(s.line_count)} ${s.line_count === 1 ? "línea" : "líneas"}`, {
    font: fonts.bold,
    size: 12,
    tag: "H2",
    gap: 4,
  });
  w.text("Cada línea es un cupón cuyo estado cambió en el periodo; un movimiento deshecho resta. Importes en euros.", {
    size: 8,
    color: MUTED,
    gap: 6,
  });
  detail = true;
  linesHeader(w);
  for await (const batch of statementLineBatches(db, scope, id)) for (const line of batch) lineRow(w, line);

  const total = w.pages.length;
  w.pages.forEach((page, i) => {
    const footer = printable(`${s.number} · ${s.partner.name} · Página ${i + 1} de ${total}`);
    tags.artifact(page, () => page.drawText(footer, { x: MARGIN, y: MARGIN - 12, size: 8, font: fonts.regular, color: MUTED }));
  });
  tags.finish("es-ES");
  return pdf.save();
}
