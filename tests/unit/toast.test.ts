// @vitest-environment jsdom
import { act, render, screen } from "@testing-library/react";
import { createElement } from "react";
import { useToasterStore } from "react-hot-toast";
import { describe, expect, it, vi } from "vitest";
import { dismissToasts, loadedToaster, showToast, subscribeToaster } from "#app/components/toast";
import { TOAST_DURATION_MS } from "#rules/constants";

// The real react-hot-toast, loaded on demand as in the browser: only its calls are watched.
describe("toasts loaded on demand (app/components/toast.ts)", () => {
  it("loads nothing to dismiss nothing, then shows, and keeps the order in which things were asked", async () => {
    dismissToasts();
    expect(loadedToaster()).toBeNull();

    const listener = vi.fn();
    subscribeToaster(listener);
    const { toast } = await import("#app/components/toaster");
    const calls: string[] = [];
    vi.spyOn(toast, "success").mockImplementation((text) => (calls.push(`success ${String(text)}`), ""));
    vi.spyOn(toast, "error").mockImplementation((text) => (calls.push(`error ${String(text)}`), ""));
    vi.spyOn(toast, "dismiss").mockImplementation(() => void calls.push("dismiss"));

    showToast("success", "Añadido al carrito.");
    // Asked while the module is still on its way: done after the toast above, before the one below.
    dismissToasts();
    showToast("error", "El código promocional «X» no existe.");
    await vi.waitFor(() => expect(calls).toHaveLength(3));
    expect(calls).toEqual(["success Añadido al carrito.", "dismiss", "error El código promocional «X» no existe."]);
    expect(toast.success).toHaveBeenCalledWith("Añadido al carrito.", { id: "s:Añadido al carrito.", duration: TOAST_DURATION_MS });

    // The layout renders the toaster once it has loaded, and is told once.
    expect(loadedToaster()?.ToasterParts).toBeTypeOf("function");
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

// The real toaster, rendered: every toast stays its 5 s (spec section 9), whatever its type.
describe("toast duration", () => {
  it("keeps success and error toasts for 5000 ms, not react-hot-toast's 2 s and 4 s", async () => {
    vi.useFakeTimers();
    // react-hot-toast asks for prefers-reduced-motion, which jsdom does not implement.
    vi.stubGlobal("matchMedia", () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    try {
      const { ToasterParts, toast } = await import("#app/components/toaster");
      let store: { message: unknown; visible: boolean }[] = [];
      const Probe = () => {
        store = useToasterStore().toasts;
        return null;
      };
      render(createElement("div", null, createElement(ToasterParts, { focusLost: () => false }), createElement(Probe)));
      act(() => {
        showToast("success", "Añadido al carrito.");
        showToast("error", "No hemos podido conectar con la tienda.");
      });
      // showToast waits for the module (already loaded): let its promise run.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(0);
      });
      expect(screen.getByText("Añadido al carrito.")).toBeInTheDocument();
      expect(screen.getByText("No hemos podido conectar con la tienda.")).toBeInTheDocument();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(TOAST_DURATION_MS - 100);
      });
      const visible = () => store.filter((t) => t.visible).map((t) => String(t.message));
      expect(visible().sort()).toEqual(["Añadido al carrito.", "No hemos podido conectar con la tienda."]);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(200);
      });
      expect(visible()).toEqual([]);
      toast.remove();
    } finally {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    }
  });
});
