/* ofertas widget: <script src="https://…/widget.js" data-region="Madrid" data-category="restaurants" async></script>
   Puts the /iframe/ widget where the script tag is and keeps the frame as tall as its content. */
(function () {
  var script = document.currentScript;
  if (!script) return;
  var origin = new URL(script.src).origin;
  var params = new URLSearchParams();
  if (script.dataset.region) params.set("region", script.dataset.region);
  if (script.dataset.category) params.set("category", script.dataset.category);
  var query = params.toString();
  var frame = document.createElement("iframe");
  frame.src = origin + "/iframe/" + (query ? "?" + query : "");
  frame.title = script.dataset.title || "Ofertas";
  frame.loading = "lazy";
  frame.setAttribute("height", "430");
  frame.style.width = "100%";
  frame.style.border = "0";
  frame.style.display = "block";
  script.parentNode.insertBefore(frame, script);
  window.addEventListener("message", function (event) {
    // Only our widget, in this very frame, may set its height.
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var data = event.data;
    if (!data || data.type !== "ofertas:height" || typeof data.height !== "number") return;
    var height = Math.max(100, Math.min(Math.ceil(data.height), 3000));
    frame.setAttribute("height", String(height));
  });
})();
