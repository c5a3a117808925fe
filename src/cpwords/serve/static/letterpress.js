"use strict";
// A click on a listed word draws it: the word goes into the form, which is sent again.
document.getElementById("words")?.addEventListener("click", (event) => {
  if (event.target.tagName !== "SPAN") return;
  document.getElementById("word").value = event.target.textContent;
  document.getElementById("lp-form").submit();
});
