// The page's side of the offline engine: it starts the engine's Web Worker
// and turns its messages into promises.

/**
 * EngineError is a request the engine refused, or an engine that failed; its
 * message is the engine's own (English) sentence, which ui.js's errorText
 * shows in a translated frame (code "engine").
 */
export class EngineError extends Error {
  constructor(message) {
    super(message);
    this.code = "engine";
  }
}

/** Engine sends requests to the WebAssembly engine in its worker. */
export class Engine {
  constructor() {
    this.worker = new Worker("/static/js/engine-worker.js");
    this.next = 1;
    this.waiting = new Map();
    this.worker.onmessage = (e) => {
      const { id, answer, error, ms } = e.data || {};
      const w = this.waiting.get(id);
      if (!w) return;
      this.waiting.delete(id);
      if (error) w.reject(new EngineError(error));
      else if (!answer.ok) w.reject(new EngineError(answer.error));
      else w.resolve({ ...answer, workerMs: ms });
    };
    this.worker.onerror = (e) => {
      e.preventDefault();
      for (const w of this.waiting.values()) w.reject(new EngineError(`the engine's worker failed: ${e.message || "unknown error"}`));
      this.waiting.clear();
    };
  }

  /** ask sends one request ({op, ...}) and resolves with the engine's answer. */
  ask(request) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, request });
    });
  }
}
