/* The recorder's service worker (loaded by /record/sw.js, which sets FIVES): keeps the
 * recorder's page, its scripts, Pyodide and the engine, so a match goes on at a table with
 * no network. The page is asked for on the network first (a fresh page when there is one);
 * everything else comes from the cache first (Pyodide's files and the engine are versioned).
 * Nothing is sent through here: the page itself sends finished matches when it can. */
/* global FIVES */
const CACHE = "fives-recorder-" + FIVES.version;
const KEPT = new Set([FIVES.engine, ...FIVES.assets]);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll([FIVES.page, ...KEPT])).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("fives-recorder-") && k !== CACHE).map((k) => caches.delete(k))))
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

async function cacheFirst(request, key) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(key);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(key, response.clone());
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
  } else if (KEPT.has(path) || KEPT.has(url.pathname) || url.pathname.startsWith(FIVES.pyodide)) {
    event.respondWith(cacheFirst(request, path));
  }
});
