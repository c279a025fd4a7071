import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { DiscountBadge, PriceTag } from "#app/components/price";
import { TicketCounter } from "#app/components/ticket-counter";

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
    render(<DiscountBadge actual="59.90" regular="120.00" />);
    const badge = screen.getByText("-50%");
    expect(badge).toHaveAccessibleName("Descuento 50%");
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
