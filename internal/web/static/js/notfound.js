// The 404 page needs no script beyond marking where the visitor tried to go.

const p = document.querySelector("main p");
if (p) p.title = location.pathname;
