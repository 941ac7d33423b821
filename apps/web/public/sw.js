/* global self */
/* The console's service worker: shows browser-push notifications (docs/notifications.md "Browser push")
 * and, on a click, focuses a console window on the vehicle or opens one. Nothing is cached. */
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

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
