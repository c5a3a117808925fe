// Links of class "post" run a solve of seconds, which the server answers on POST only (so that
// another site's page cannot start it with a link or an image): a click sends the link's query
// as a form, from this page. Without JavaScript the link opens the page with its query checked
// and the button that runs it.
"use strict";
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
  form.submit();
});
