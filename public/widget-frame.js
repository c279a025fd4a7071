/* Inside the /iframe/ widget: tell the page that embeds it how tall the content is (widget.js
   listens and checks the origin). Nothing else: no cookies, no tracking. */
(function () {
  if (window.parent === window) return;
  var last = 0;
  function send() {
    // The content's own height (scrollHeight would never report less than the frame's height).
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "ofertas:height", height: height }, "*");
  }
  window.addEventListener("load", send);
  window.addEventListener("resize", send);
  if (window.ResizeObserver) new ResizeObserver(send).observe(document.body);
  send();
})();
