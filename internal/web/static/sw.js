// The service worker of the matombo web app. On install it caches the
// offline page with everything it needs, the WebAssembly engine included, so
// /offline opens and plays without a connection. Pages and assets are fetched
// from the network first (their names carry no version, so the cache must
// never hide a newer file) and kept in the cache; without a connection the
// cached copy answers, and a page never visited answers with the offline
// page. The API (/api/...) is never cached.
"use strict";

const CACHE = "matombo-v2";

// PRECACHE is the offline page and every file it loads (the web package's
// tests check that the list is complete).
const PRECACHE = [
  "/offline",
  "/manifest.webmanifest",
  "/static/css/app.css",
  "/static/img/favicon.svg",
  "/static/img/icon-192.png",
  "/static/img/icon-512.png",
  "/static/js/offline.js",
  "/static/js/offline-engine.js",
  "/static/js/offline-store.js",
  "/static/js/engine-worker.js",
  "/static/js/wasm_exec.js",
  "/static/engine.wasm",
  "/static/js/http.js",
  "/static/js/board.js",
  "/static/js/geom.js",
  "/static/js/lockstep.js",
  "/static/js/movelist.js",
  "/static/js/ui.js",
  "/static/js/i18n.js",
  "/static/js/langmenu.js",
];

// NETWORK_WAIT is how long a fetch may take before the cached copy answers.
const NETWORK_WAIT = 4000;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((u) => new Request(u, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// fromNetwork fetches req, giving up after NETWORK_WAIT when a cached copy
// can answer instead.
function fromNetwork(req, cached) {
  const fetched = fetch(req);
  if (!cached) return fetched;
  const late = new Promise((_, reject) => setTimeout(() => reject(new Error("the network is slow")), NETWORK_WAIT));
  return Promise.race([fetched, late]);
}

async function answer(event) {
  const req = event.request;
  const cache = await caches.open(CACHE);
  const url = new URL(req.url);
  const key = url.origin + url.pathname; // pages are cached without their query
  const cached = await cache.match(key);
  try {
    const res = await fromNetwork(req, cached);
    if (res.ok && res.type === "basic" && !req.headers.has("range")) {
      const copy = res.clone();
      event.waitUntil(cache.put(key, copy));
    }
    return res;
  } catch (err) {
    if (cached) return cached;
    if (req.mode === "navigate") {
      const page = await cache.match(url.origin + "/offline");
      if (page) return page;
    }
    throw err;
  }
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/api/") || url.pathname === "/healthz" || url.pathname === "/metrics") return;
  event.respondWith(answer(event));
});
