// The logged-in account, for the accounts' pages.

import { ApiError, csrfToken, get, post } from "./http.js";
import { saveSeat } from "./storage.js";

/** me returns the logged-in account ({name, created, csrf}) or null. */
export async function me() {
  if (!csrfToken()) return null; // no session cookie pair: not logged in
  try {
    return await get("/api/account");
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 404)) return null;
    throw err;
  }
}

/** logOut ends the session and goes to the log-in page. */
export async function logOut() {
  await post("/api/account/logout");
  location.assign("/login");
}

/** profileURL is the address of a player's profile. */
export function profileURL(name) {
  return `/profile/${encodeURIComponent(name)}`;
}

/** ratingText shows a rating, "?" marking a provisional one. */
export function ratingText(r) {
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;
}

/**
 * accountSeat returns the logged-in player's seat token in game id (and
 * remembers it), or "" when not logged in or the account holds no seat there.
 */
export async function accountSeat(id) {
  if (!csrfToken()) return "";
  try {
    const seat = await post(`/api/account/games/${encodeURIComponent(id)}/seat`);
    saveSeat(id, seat.token);
    return seat.token;
  } catch {
    return "";
  }
}
