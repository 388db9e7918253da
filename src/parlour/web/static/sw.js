// The service worker (served at /sw.js, after the VERSION, OFFLINE and FILES lines the
// server puts above this). It keeps the page's static files and the offline page, and
// nothing else: /api answers, the WebSocket and every table's state pass it by.
// Static files come from the network first (always the deployed version when online),
// from the cache when offline; a page opened offline gets the offline page.
// It also shows notifications: Web Push messages (a closed browser) and clicks on them.
const CACHE = "parlour-static-" + VERSION;

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("parlour-static-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

/** Only these are ever kept: the static files and the offline page. */
function keeps(url) {
  return url.origin === self.location.origin && (url.pathname.startsWith("/static/") || url.pathname === OFFLINE);
}

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    ev.respondWith(fetch(req).catch(() => caches.match(OFFLINE, { cacheName: CACHE })));
    return;
  }
  if (!keeps(url)) return;  // /api, /ws, anything else: the network alone, never kept
  ev.respondWith(fetch(req).then((res) => {
    if (res.ok && res.type === "basic") {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put(req, copy));
    }
    return res;
  }).catch(() => caches.match(req, { cacheName: CACHE }).then((hit) => hit || Response.error())));
});

// Web Push (server/push.py): the payload is {"title", "body", "url", "tag"} in words.
self.addEventListener("push", (ev) => {
  let data = {};
  try { data = ev.data ? ev.data.json() : {}; } catch { data = { body: ev.data ? ev.data.text() : "" }; }
  ev.waitUntil(self.registration.showNotification(data.title || "parlour", {
    body: data.body || "", tag: data.tag || undefined, icon: "/static/icons/icon-192.png",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (ev) => {
  ev.notification.close();
  const url = new URL((ev.notification.data && ev.notification.data.url) || "/", self.location.origin).href;
  ev.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((list) => {
    const open = list.find((c) => c.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
