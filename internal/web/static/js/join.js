// /join/{id}/{code}: an invite link. Takes a seat with the code, keeps the
// token, and opens the game.

import { openCreated, post, seatToken } from "./api.js";

async function join() {
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[1] || "");
  const code = decodeURIComponent(parts[2] || "");
  const status = document.getElementById("join-status");
  const error = document.getElementById("join-error");
  if (!id || !code) {
    error.textContent = "This invite link is incomplete: it should look like /join/<game>/<code>.";
    return;
  }
  if (seatToken(id)) {
    status.textContent = "You already have a seat in this game; opening it.";
    location.replace(`/game/${encodeURIComponent(id)}`);
    return;
  }
  try {
    const res = await post(`/api/games/${encodeURIComponent(id)}/join`, { invite: code });
    status.textContent = `You play ${res.seat === "N" ? "North" : "South"}. Opening the game…`;
    openCreated({ id, token: res.token });
  } catch (err) {
    status.textContent = "";
    error.textContent = err.message;
  }
}

join();
