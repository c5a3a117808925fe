// Links of class "post" run a solve of seconds, which the server answers on POST only (so that
// another site's page cannot start it with a link or an image): a click sends the link's query
// as a form, from this page. Without JavaScript the link opens the page with its query checked
// and the button that runs it.
//
// While a page's form (or such a link) waits for its answer, a line under the form counts the
// seconds since it was sent, each second, until the answer replaces the page. It says only
// what the page knows: that the query was sent, and how long ago.
"use strict";
(function () {
  let timer = null;

  function working(form) {
    let line = document.getElementById("working");
    if (!line) {
      line = document.createElement("p");
      line.id = "working";
      line.className = "note working";
      line.setAttribute("role", "status");
      if (form && form.isConnected && form.parentNode) {
        form.parentNode.insertBefore(line, form.nextSibling);
      } else {
        (document.querySelector("main") || document.body).prepend(line);
      }
    }
    const t0 = Date.now();
    const show = () => {
      const s = Math.floor((Date.now() - t0) / 1000);
      line.textContent = "Sent; waiting for the answer: " + s + " s elapsed";
    };
    show();
    if (timer !== null) clearInterval(timer);
    timer = setInterval(show, 1000);
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a.post");
    if (!link || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    const url = new URL(link.href);
    const form = document.createElement("form");
    form.method = "post";
    form.action = url.pathname;
    for (const [name, value] of url.searchParams) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.appendChild(input);
    }
    document.body.appendChild(form);
    working(link.closest("p") || null);
    form.submit();
  });

  // A form that loads the answer as a new page (a script that handles its own form, like the
  // Wordsnake page's, prevents the default and shows its own progress).
  document.addEventListener("submit", (event) => {
    if (event.defaultPrevented || !event.target.closest("main")) return;
    working(event.target);
  });

  // Back to this page from the history: the answer came, the clock stops.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    if (timer !== null) clearInterval(timer);
    timer = null;
    const line = document.getElementById("working");
    if (line) line.remove();
  });
})();
