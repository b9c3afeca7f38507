/* The recorder's service worker (loaded by /record/sw.js, which sets FIVES): keeps the
 * recorder's page, its scripts, Pyodide and the engine, so a match goes on at a table with
 * no network. The page is asked for on the network first (a fresh page when there is one);
 * everything else comes from the cache first (Pyodide's files and the engine are named by
 * their content).
 *
 * Each file crosses the wire once: the install keeps only the page and the recorder's small
 * files (which the page has just fetched: the browser's cache answers); Pyodide and the
 * engine are kept as the page fetches them through this worker, which the page waits for on
 * its first visit. Pyodide's files live in a cache named by their directory, so a new version
 * of the recorder keeps them. Nothing is sent through here: the page sends finished matches. */
/* global FIVES */
const CACHE = "fives-recorder-" + FIVES.version;
const PYODIDE_CACHE = "fives-pyodide-" + FIVES.pyodide;
const KEPT = new Set([FIVES.engine, ...FIVES.assets]);
// Responses being written to a cache: a second request for the same file waits for the
// first to be kept rather than fetching it again (the page reads Pyodide's files, then
// Pyodide asks for them).
const pending = new Map();

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([FIVES.page, ...FIVES.assets])).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  const current = [CACHE, PYODIDE_CACHE];
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("fives-") && !current.includes(k)).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(key);
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(event, key, name) {
  if (pending.has(key)) await pending.get(key);
  const cache = await caches.open(name);
  const cached = await cache.match(key);
  if (cached) return cached;
  const response = await fetch(event.request);
  if (response.ok) {
    const kept = cache.put(key, response.clone()).catch(() => {}).finally(() => pending.delete(key));
    pending.set(key, kept);
    event.waitUntil(kept);
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname + url.search;
  if (url.pathname === FIVES.page) {
    event.respondWith(networkFirst(request, FIVES.page));
  } else if (url.pathname.startsWith(FIVES.pyodide)) {
    event.respondWith(cacheFirst(event, url.pathname, PYODIDE_CACHE));
  } else if (KEPT.has(path) || KEPT.has(url.pathname)) {
    event.respondWith(cacheFirst(event, path, CACHE));
  }
});
