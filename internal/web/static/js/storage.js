// Local storage of this browser: the seat tokens and invite links of its
// games and small user preferences.

// Seat tokens live in localStorage under matombo.seat.<id> (and, for games on
// one device, both seats under matombo.seats.<id>).

import { TextError } from "./geom.js";

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** saveSeat remembers a game's seat token. */
export function saveSeat(id, token) {
  const s = store();
  if (s && token) s.setItem(`matombo.seat.${id}`, token);
}

/** seatToken returns the remembered token of a game, or "". */
export function seatToken(id) {
  const s = store();
  return (s && s.getItem(`matombo.seat.${id}`)) || "";
}

/** saveLocalSeats remembers both seats of a game played on one device. */
export function saveLocalSeats(id, tokens) {
  const s = store();
  if (s && tokens) s.setItem(`matombo.seats.${id}`, JSON.stringify(tokens));
}

/** localSeats returns {S, N} tokens of a one-device game, or null. */
export function localSeats(id) {
  const s = store();
  try {
    const v = s && s.getItem(`matombo.seats.${id}`);
    return v ? JSON.parse(v) : null;
  } catch {
    return null;
  }
}

/** saveInvite / invite keep a friend game's invite link for its creator. */
export function saveInvite(id, url) {
  const s = store();
  if (s && url) s.setItem(`matombo.invite.${id}`, url);
}

export function invite(id) {
  const s = store();
  return (s && s.getItem(`matombo.invite.${id}`)) || "";
}

/** saveTeamInvite / teamInvite keep the link for the creator's team mates. */
export function saveTeamInvite(id, url) {
  const s = store();
  if (s && url) s.setItem(`matombo.team.${id}`, url);
}

export function teamInvite(id) {
  const s = store();
  return (s && s.getItem(`matombo.team.${id}`)) || "";
}

/** setting / saveSetting keep small user preferences. */
export function setting(name, fallback) {
  const s = store();
  const v = s && s.getItem(`matombo.pref.${name}`);
  return v === null || v === undefined ? fallback : v;
}

export function saveSetting(name, value) {
  const s = store();
  if (s) s.setItem(`matombo.pref.${name}`, String(value));
}

/**
 * openCreated stores the seats of a newly created (or joined) game, given by
 * the server's answer (id, token, tokens, invite, team_invite), and goes to it.
 */
export function openCreated(res) {
  if (!res || !res.id) throw new TextError("error.no_game");
  if (res.token) saveSeat(res.id, res.token);
  if (res.tokens) saveLocalSeats(res.id, res.tokens);
  if (res.invite) saveInvite(res.id, res.invite);
  if (res.team_invite) saveTeamInvite(res.id, res.team_invite);
  location.assign(`/game/${encodeURIComponent(res.id)}`);
}
