// The language menu of the top bar (parts/topbar.html). The server renders
// each page in the language the matombo_lang cookie names, else the best of
// the browser's Accept-Language (internal/web). A choice here is kept in
// that cookie and in localStorage, and the page reloads in the new
// language; a browser that lost the cookie but kept localStorage gets the
// cookie back, and the page in that language.

const COOKIE = "matombo_lang";
const KEY = "matombo.pref.lang";
const YEAR = 365 * 24 * 3600;

function stored() {
  try {
    return window.localStorage.getItem(KEY) || "";
  } catch {
    return "";
  }
}

function store(lang) {
  try {
    window.localStorage.setItem(KEY, lang);
  } catch {
    // A browser without storage keeps the cookie only.
  }
}

function cookie() {
  const m = /(?:^|;\s*)matombo_lang=([^;]*)/.exec(document.cookie || "");
  return m ? decodeURIComponent(m[1]) : "";
}

/**
 * choose keeps lang as the chosen language and reloads the page in it; it
 * does not reload when the browser refused the cookie (the server could not
 * know the choice, and a restore would go round in circles).
 */
export function choose(lang) {
  document.cookie = `${COOKIE}=${encodeURIComponent(lang)}; path=/; max-age=${YEAR}; SameSite=Lax`;
  store(lang);
  if (cookie() === lang) location.reload();
}

function setup() {
  const menu = document.getElementById("lang-menu");
  if (!menu) return;
  const page = document.documentElement.lang;
  const known = [...menu.options].map((o) => o.value);
  menu.addEventListener("change", () => choose(menu.value));
  // The cookie is the server's; localStorage brings it back if it was lost.
  const kept = stored();
  if (!cookie() && kept && known.includes(kept) && kept !== page) choose(kept);
  else if (cookie() && cookie() !== kept) store(cookie());
}

setup();
