// The offline engine's Web Worker: it loads engine.wasm (the rules core and
// the search, compiled from the Go packages with GOOS=js GOARCH=wasm) and
// answers the page's requests with it, one at a time, off the page's thread.
// A message {id, request} gets {id, answer, ms}: answer is the engine's JSON
// answer (see internal/offline), ms the time the engine took. If the engine
// cannot start, every message gets {id, error}.
/* global Go, importScripts */
"use strict";

importScripts("/static/js/wasm_exec.js");

let failed = "";
const ready = new Promise((resolve) => {
  self.matomboReady = resolve;
});

async function instantiate(go) {
  const res = await fetch("/static/engine.wasm");
  if (!res.ok) throw new Error(`the engine could not be loaded (HTTP ${res.status})`);
  if (WebAssembly.instantiateStreaming) {
    try {
      return await WebAssembly.instantiateStreaming(res.clone(), go.importObject);
    } catch (err) {
      // A response without application/wasm (a proxy): compile from the bytes.
      if (!(err instanceof TypeError)) throw err;
    }
  }
  return WebAssembly.instantiate(await res.arrayBuffer(), go.importObject);
}

const started = (async () => {
  try {
    const go = new Go();
    const { instance } = await instantiate(go);
    go.run(instance).then(() => {
      failed = "the engine stopped";
    });
    await ready;
  } catch (err) {
    failed = `the engine could not start: ${err && err.message ? err.message : err}`;
  }
})();

self.onmessage = async (e) => {
  const { id, request } = e.data || {};
  await started;
  if (failed) {
    self.postMessage({ id, error: failed });
    return;
  }
  const t0 = performance.now();
  let answer;
  try {
    answer = JSON.parse(self.matomboEngine(JSON.stringify(request)));
  } catch (err) {
    self.postMessage({ id, error: `the engine failed: ${err && err.message ? err.message : err}` });
    return;
  }
  self.postMessage({ id, answer, ms: performance.now() - t0 });
};
