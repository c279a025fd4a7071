import { describe, expect, it, vi } from "vitest";
import { dismissToasts, loadedToaster, showToast, subscribeToaster } from "#app/lib/toast";

// The real react-hot-toast, loaded on demand as in the browser: only its calls are watched.
describe("toasts loaded on demand (app/lib/toast.ts)", () => {
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
    expect(toast.success).toHaveBeenCalledWith("Añadido al carrito.", { id: "s:Añadido al carrito." });

    // The layout renders the toaster once it has loaded, and is told once.
    expect(loadedToaster()?.ToasterParts).toBeTypeOf("function");
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
