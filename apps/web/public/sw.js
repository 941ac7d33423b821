/* global self, caches */
/* The console's service worker: shows browser-push notifications (docs/notifications.md "Browser push")
 * and, on a click, focuses a console window on the vehicle or opens one; a page that cannot be loaded
 * (no network) is answered with the offline page (docs/console.md "Installing and offline"). Only that
 * page is cached: the console itself always comes from the network. */
const OFFLINE_CACHE = 'fleet-offline-v1';
const OFFLINE_URL = '/offline.html';

self.addEventListener('install', (event) => {
  // The offline page is a convenience: a failed fetch of it must not keep push notifications from working.
  event.waitUntil(
    caches
      .open(OFFLINE_CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { cache: 'reload' })))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((n) => n.startsWith('fleet-offline-') && n !== OFFLINE_CACHE).map((n) => caches.delete(n)),
      );
      await self.clients.claim();
    })(),
  );
});

// Page loads only: API calls, the live stream and assets go to the network untouched.
self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(
    fetch(event.request).catch(async () => {
      const page = await caches.match(OFFLINE_URL, { cacheName: OFFLINE_CACHE });
      return (
        page ||
        new Response('ネットワークに接続できません。', {
          status: 503,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        })
      );
    }),
  );
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || '車両通知', {
      body: data.body || '',
      tag: data.tag || undefined,
      icon: '/favicon.svg',
      lang: 'ja',
      data: { url: data.url || '/' },
    }),
  );
});

/** The vehicle's path on this console's origin (a link elsewhere is never opened). */
function targetUrl(notification) {
  const url = new URL((notification.data && notification.data.url) || '/', self.location.origin);
  return new URL(url.pathname + url.search + url.hash, self.location.origin).href;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = targetUrl(event.notification);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((c) => c.url === url);
      if (same) return same.focus();
      const ours = windows.find((c) => new URL(c.url).origin === self.location.origin);
      if (ours) {
        await ours.focus();
        return ours.navigate(url);
      }
      return self.clients.openWindow(url);
    })(),
  );
});
