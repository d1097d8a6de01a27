// The sign-up page: create an account (logged in at once), then the profile.

import { post } from "./http.js";
import { profileURL } from "./account.js";
import { $, errorText } from "./ui.js";
import { t } from "./i18n.js";

async function submit(e) {
  e.preventDefault();
  const err = $("#signup-error");
  err.textContent = "";
  const name = $("#name").value.trim();
  const password = $("#password").value;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{2,23}$/.test(name)) {
    err.textContent = t("signup.error.name");
    return;
  }
  if (password.length < 8) {
    err.textContent = t("signup.error.password");
    return;
  }
  if (password !== $("#password2").value) {
    err.textContent = t("signup.error.differ");
    return;
  }
  try {
    const res = await post("/api/account/signup", { name, password });
    location.assign(profileURL(res.name));
  } catch (ex) {
    err.textContent = errorText(ex);
  }
}

$("#signup").addEventListener("submit", submit);
$("#signup").dataset.ready = "true"; // the form is handled here from now on (the browser tests wait for it)
