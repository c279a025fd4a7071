// @vitest-environment jsdom
import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { OfferCard } from "#app/components/offer-card";
import { DiscountBadge, PriceTag } from "#app/components/price";
import type { OfferCardData } from "#app/components/offer-card-data";
import { TicketCounter } from "#app/components/ticket-counter";
import { ratingDecimal, starGlyphs } from "#app/components/card-html";

// SearchResults (app/components/search-dialog.tsx) renders Remix <Form>s, which need a Remix context.
// @remix-run/testing (createRemixStub) is not installed in this project, so it is not tested here.

describe("PriceTag", () => {
  it("shows the actual price and the regular price struck through", () => {
    const { container } = render(<PriceTag actual="59.90" regular="120.00" />);
    expect(screen.getByText("59,90 €")).toBeInTheDocument();
    expect(screen.getByText("59,90 €").tagName).toBe("STRONG");
    const struck = container.querySelector("s");
    expect(struck).not.toBeNull();
    expect(struck).toHaveTextContent("120,00 €");
    // the struck price is announced as the earlier price, not as a second price
    expect(struck).toHaveTextContent(/^Antes 120,00 €$/);
    expect(struck).not.toHaveTextContent("59,90");
  });

  it("multiplies both prices by the ticket count", () => {
    const { container } = render(<PriceTag actual="59.90" regular="120" tickets={2} />);
    expect(screen.getByText("119,80 €")).toBeInTheDocument();
    expect(container.querySelector("s")).toHaveTextContent("240,00 €");
    expect(screen.queryByText("59,90 €")).not.toBeInTheDocument();
  });

  it("shows no struck price when the regular price is the same amount", () => {
    for (const [actual, regular] of [
      ["25.00", "25.00"],
      ["25.00", "25"],
      ["25.5", "25.50"],
    ]) {
      const { container, unmount } = render(<PriceTag actual={actual} regular={regular} />);
      expect(container.querySelector("s")).toBeNull();
      expect(container).toHaveTextContent(/^25,[05]0 €$/);
      unmount();
    }
  });
});

describe("DiscountBadge", () => {
  it("shows minus the rounded percentage", () => {
    const { container } = render(<DiscountBadge actual="59.90" regular="120.00" />);
    // Shown as «-50%», read as words: a plain <span> carries no aria-label.
    const badge = container.querySelector(".badge-discount")!;
    expect(screen.getByText("-50%")).toHaveAttribute("aria-hidden", "true");
    expect(badge).toHaveTextContent("-50%Descuento 50%");
    expect(badge).not.toHaveAttribute("aria-label");
  });

  it("rounds to a whole number", () => {
    render(<DiscountBadge actual="39.90" regular="68.00" />);
    expect(screen.getByText("-41%")).toBeInTheDocument();
  });

  it("renders nothing without a discount", () => {
    for (const [actual, regular] of [
      ["50.00", "50.00"],
      ["60.00", "50.00"],
      ["10.00", "0.00"],
    ]) {
      const { container, unmount } = render(<DiscountBadge actual={actual} regular={regular} />);
      expect(container).toBeEmptyDOMElement();
      unmount();
    }
  });
});

const card = (over: Partial<OfferCardData> = {}): OfferCardData => ({
  uuid: "abb20594-79b0-5139-a45c-9a876fad5d01",
  title: "Circuito termal para dos",
  region: "Madrid",
  category: "health_and_beauty",
  merchant: "Termas del Retiro",
  cover: { image_url: "/images/demo/termal.webp", small_url: "/images/demo/400/termal.webp", width: 800, height: 500 },
  price: { actual_price: "59.90", regular_price: "120.00" },
  soldOut: false,
  rating: { average: 4.66, count: 6 },
  ...over,
});

// A card's content is one HTML string (app/components/card-html.ts): what React escaped for us is escaped there.
describe("OfferCard", () => {
  it("writes a rating's average as Intl.NumberFormat('es-ES') does, without it", () => {
    const intl = new Intl.NumberFormat("es-ES", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    for (const v of [0, 1, 2.25, 3.35, 4.45, 4.66, 4.95, 5]) expect(ratingDecimal(v)).toBe(intl.format(v));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 5, noNaN: true }), (v) => ratingDecimal(v) === intl.format(v)),
      { numRuns: 5000 },
    );
  });

  it("draws an average to the nearer half star", () => {
    const drawn = (v: number) => {
      const { filled, half, empty } = starGlyphs(v);
      return `${filled.length}${half ? "½" : ""}+${empty.length}`;
    };
    expect([4.5, 4.7, 4.74, 4.75, 4.2, 4.25, 0, 0.2, 5].map(drawn)).toEqual([
      "4½+0",
      "4½+0",
      "4½+0",
      "5+0",
      "4+1",
      "4½+0",
      "0+5",
      "0+5",
      "5+0",
    ]);
  });

  it("links the picture, title, place, rating and price to the offer, with the heart beside the link", () => {
    const { container } = render(<OfferCard offer={card()} eager level={3} />);
    const link = screen.getByRole("link");
    expect(link).toHaveAttribute("href", "/ofertas/abb20594-79b0-5139-a45c-9a876fad5d01/");
    expect(screen.getByRole("heading", { level: 3 })).toHaveTextContent("Circuito termal para dos");
    expect(link).toHaveTextContent("Madrid · Salud y belleza");
    // 4,7 is nearer four and a half stars than five: four whole, one half, none empty.
    const stars = screen.getByRole("img", { name: "Valoración media: 4,7 de 5 estrellas" });
    expect(stars).toHaveTextContent("★★★★★");
    expect(stars.querySelectorAll(".star-half")).toHaveLength(1);
    expect(stars).toHaveAttribute("data-empty", "");
    expect(screen.getByTestId("offer-rating")).toHaveTextContent(/^★★★★★ 4,7 \(6 valoraciones de compras verificadas\)$/);
    expect(link.querySelector(".badge-discount")).toHaveTextContent("-50%Descuento 50%");
    expect(link.querySelector("s")).toHaveTextContent(/^Antes 120,00 €$/);
    const img = container.querySelector("img")!;
    expect([img.getAttribute("loading"), img.getAttribute("fetchpriority"), img.getAttribute("width")]).toEqual(["eager", "high", "800"]);
    // A phone (8.5rem beside the text) loads the 400 px copy; a wide screen's column, by its density.
    expect(img.getAttribute("srcset")).toBe("/images/demo/400/termal.webp 400w, /images/demo/termal.webp 800w");
    expect(img.getAttribute("sizes")).toBe("(max-width: 780px) 8.5rem, 23rem");
    expect(screen.getByRole("button", { name: "Guardar «Circuito termal para dos» en favoritos" })).not.toBeNull();
  });

  it("shows what a partner typed as text, never as markup", () => {
    const title = `<img src=x onerror="alert(1)"> Spa & "relax" 'total'`;
    const { container } = render(
      <OfferCard
        offer={card({
          title,
          region: "<b>Madrid</b>",
          cover: { image_url: `/x.webp" onload="alert(2)`, small_url: `/y.webp" onerror="alert(3)`, width: 1, height: 1 },
        })}
      />,
    );
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe(title);
    expect(screen.getByRole("link")).toHaveTextContent("<b>Madrid</b> · Salud y belleza");
    expect(container.querySelectorAll("img")).toHaveLength(1);
    expect(container.querySelector("img")!.getAttribute("src")).toBe(`/x.webp" onload="alert(2)`);
    expect(container.querySelector("img")!.getAttribute("srcset")).toBe(`/y.webp" onerror="alert(3) 400w, /x.webp" onload="alert(2) 1w`);
    expect(container.querySelector("[onerror], [onload], b")).toBeNull();
  });

  it("a sold-out offer says so instead of its discount; one rating reads «valoración»; lazy pictures below the fold", () => {
    const { container } = render(<OfferCard offer={card({ soldOut: true, rating: { average: 3, count: 1 } })} />);
    expect(screen.getByText("Agotada")).not.toBeNull();
    expect(screen.queryByLabelText(/^Descuento/)).toBeNull();
    expect(screen.getByTestId("offer-rating")).toHaveTextContent(/^★★★ 3,0 \(1 valoración de una compra verificada\)$/);
    expect(container.querySelector("img")!.getAttribute("loading")).toBe("lazy");
  });

  it("a picture without a smaller copy is the one picture, with no srcset", () => {
    const { container } = render(
      <OfferCard offer={card({ cover: { image_url: "/api/v0/media/antigua.webp", small_url: null, width: 800, height: 500 } })} />,
    );
    const img = container.querySelector("img")!;
    expect([img.getAttribute("src"), img.getAttribute("srcset"), img.getAttribute("sizes")]).toEqual([
      "/api/v0/media/antigua.webp",
      null,
      null,
    ]);
  });

  it("in the widget (a new tab) it has no heart", () => {
    render(<OfferCard offer={card({ rating: null, cover: null })} target="_blank" />);
    expect(screen.getByRole("link")).toHaveAttribute("target", "_blank");
    expect(screen.queryByRole("button")).toBeNull();
    expect(screen.queryByTestId("offer-rating")).toBeNull();
  });
});

describe("TicketCounter (spec 4: starts at the initial value, min 1, max = min(available, per_customer))", () => {
  const input = () => screen.getByLabelText("Entradas") as HTMLInputElement;
  const plus = () => screen.getByRole("button", { name: "Una entrada más" });
  const minus = () => screen.getByRole("button", { name: "Una entrada menos" });

  it("starts at 1 by default, with native min and max for browsers without JS", () => {
    render(<TicketCounter id="t" max={4} />);
    expect(input()).toHaveValue(1);
    expect(input()).toHaveAttribute("type", "number");
    expect(input()).toHaveAttribute("min", "1");
    expect(input()).toHaveAttribute("max", "4");
    expect(input()).toHaveAttribute("name", "ticketsCount");
  });

  it.each([
    [3, 5, 3],
    [9, 5, 5],
    [0, 5, 1],
    [-2, 5, 1],
  ])("defaultValue %i with max %i starts at %i", (defaultValue, max, shown) => {
    render(<TicketCounter id="t" defaultValue={defaultValue} max={max} />);
    expect(input()).toHaveValue(shown);
  });

  it("'+' steps up to the maximum, then is disabled", async () => {
    const user = userEvent.setup();
    const onCommit = vi.fn();
    render(<TicketCounter id="t" max={3} onCommit={onCommit} />);
    expect(plus()).toBeEnabled();
    await user.click(plus());
    expect(input()).toHaveValue(2);
    await user.click(plus());
    expect(input()).toHaveValue(3);
    expect(plus()).toBeDisabled();
    await user.click(plus());
    expect(input()).toHaveValue(3);
    expect(onCommit.mock.calls).toEqual([[2], [3]]);
  });

  it("'−' is disabled at 1 and steps down otherwise", async () => {
    const user = userEvent.setup();
    const onCommit = vi.fn();
    render(<TicketCounter id="t" defaultValue={2} max={5} onCommit={onCommit} />);
    expect(minus()).toBeEnabled();
    await user.click(minus());
    expect(input()).toHaveValue(1);
    expect(minus()).toBeDisabled();
    await user.click(minus());
    expect(input()).toHaveValue(1);
    expect(onCommit.mock.calls).toEqual([[1]]);
  });

  it("with a single ticket available both buttons are disabled", () => {
    render(<TicketCounter id="t" max={1} />);
    expect(plus()).toBeDisabled();
    expect(minus()).toBeDisabled();
  });

  it("with nothing available it still shows 1 and cannot go up", () => {
    render(<TicketCounter id="t" max={0} />);
    expect(input()).toHaveValue(1);
    expect(input()).toHaveAttribute("max", "1");
    expect(plus()).toBeDisabled();
  });

  it("a typed value above the maximum is shown and committed as the maximum", () => {
    const onCommit = vi.fn();
    render(<TicketCounter id="t" max={4} onCommit={onCommit} />);
    fireEvent.change(input(), { target: { value: "9" } });
    expect(input()).toHaveValue(4);
    fireEvent.blur(input());
    expect(onCommit).toHaveBeenLastCalledWith(4);
  });

  it("a typed zero or empty value becomes 1", () => {
    render(<TicketCounter id="t" defaultValue={3} max={4} />);
    fireEvent.change(input(), { target: { value: "0" } });
    expect(input()).toHaveValue(1);
  });

  it("commits the current value when the field loses focus", async () => {
    const user = userEvent.setup();
    const onCommit = vi.fn();
    render(<TicketCounter id="t" defaultValue={2} max={4} onCommit={onCommit} />);
    await user.click(input());
    await user.tab();
    expect(onCommit).toHaveBeenCalledWith(2);
  });

  it("follows a lower maximum when the option changes", () => {
    const { rerender } = render(<TicketCounter id="t" defaultValue={4} max={5} />);
    expect(input()).toHaveValue(4);
    rerender(<TicketCounter id="t" defaultValue={4} max={2} />);
    expect(input()).toHaveValue(2);
    expect(input()).toHaveAttribute("max", "2");
    expect(plus()).toBeDisabled();
  });

  it("uses the given name and label", () => {
    render(<TicketCounter id="qty" name="quantity" label="Cantidad" max={3} />);
    expect(screen.getByLabelText("Cantidad")).toHaveAttribute("name", "quantity");
  });
});
