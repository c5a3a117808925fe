"use strict";
// Solve sends the box and the dictionary only (the generator's choices stay out of its URL).
document.getElementById("solve-form").addEventListener("submit", (event) => {
  if (event.submitter && event.submitter.id === "solve") {
    document.querySelectorAll("#solve-form .gen").forEach((el) => { el.disabled = true; });
  }
});
window.addEventListener("pageshow", () => {  // back to this page: the choices usable again
  document.querySelectorAll("#solve-form .gen").forEach((el) => { el.disabled = false; });
});
