// The log-in page: log in, or, logged in already, go to the profile or log out.

import { post } from "./http.js";
import { logOut, me, profileURL } from "./account.js";
import { $, errorText } from "./ui.js";
import { t } from "./i18n.js";

async function submit(e) {
  e.preventDefault();
  const err = $("#login-error");
  err.textContent = "";
  const name = $("#name").value.trim();
  const password = $("#password").value;
  if (!name || !password) {
    err.textContent = t("login.error.missing");
    return;
  }
  try {
    const res = await post("/api/account/login", { name, password });
    const next = new URLSearchParams(location.search).get("next");
    location.assign(next && next.startsWith("/") && !next.startsWith("//") ? next : profileURL(res.name));
  } catch (ex) {
    // On this form "unauthorized" means the name or the password is wrong.
    err.textContent = ex.code === "unauthorized" ? t("login.error.wrong") : errorText(ex);
  }
}

async function setup() {
  $("#login").addEventListener("submit", submit);
  $("#logout").addEventListener("click", () => logOut().catch((ex) => { $("#logout-error").textContent = errorText(ex); }));
  $("#login").dataset.ready = "true"; // the form is handled here from now on (the browser tests wait for it)
  const m = await me().catch(() => null);
  if (m) {
    $("#me-name").textContent = m.name;
    $("#me-profile").href = profileURL(m.name);
    $("#in-box").classList.remove("hidden");
    $("#login-box").classList.add("hidden");
  }
}

setup();
