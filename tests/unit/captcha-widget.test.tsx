// @vitest-environment jsdom
import { render, waitFor } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Captcha } from "#app/components/captcha";
import { NOSCRIPT_FIELD, TURNSTILE_SCRIPT_URL } from "#rules/captcha";

afterEach(() => {
  document.head.querySelectorAll("script").forEach((s) => s.remove());
  delete (window as { turnstile?: unknown }).turnstile;
});

describe("Captcha widget", () => {
  it("is not in the server HTML: without JavaScript the form has no widget, only the field that says no script ran", () => {
    const html = renderToString(<Captcha siteKey="1x00000000000000000000AA" />);
    expect(html).toBe(`<input type="hidden" name="${NOSCRIPT_FIELD}" value="1"/>`);
    expect(renderToString(<Captcha siteKey={null} />)).toBe("");
  });

  it("renders nothing and loads no script without a site key", () => {
    const { container } = render(<Captcha siteKey={null} />);
    expect(container).toBeEmptyDOMElement();
    expect(document.head.querySelector("script")).toBeNull();
  });

  it("with JavaScript and a key, loads Turnstile by tag and renders the widget in Spanish", async () => {
    const { getByTestId, container } = render(<Captcha siteKey="1x00000000000000000000AA" />);
    // Once the app runs, the no-script field is gone: the widget's token is what the form needs.
    expect(container.querySelector(`input[name=${NOSCRIPT_FIELD}]`)).toBeNull();
    const script = await waitFor(() => {
      const s = document.head.querySelector<HTMLScriptElement>("script");
      expect(s).not.toBeNull();
      return s!;
    });
    expect(script.src).toBe(TURNSTILE_SCRIPT_URL);
    const renderWidget = vi.fn(() => "widget-1");
    (window as { turnstile?: unknown }).turnstile = { render: renderWidget, remove: vi.fn() };
    script.onload?.(new Event("load"));
    await waitFor(() => expect(renderWidget).toHaveBeenCalledTimes(1));
    expect(renderWidget).toHaveBeenCalledWith(
      getByTestId("captcha"),
      expect.objectContaining({ sitekey: "1x00000000000000000000AA", language: "es", "response-field-name": "cf-turnstile-response" }),
    );
  });
});
