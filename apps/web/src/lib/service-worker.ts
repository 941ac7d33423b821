/**
 * The console's one service worker (public/sw.js): push notifications, and the offline page when a page
 * cannot be loaded. Registered on every start so the offline page is ready before the network goes; the
 * push subscription (features/notify) uses the same registration.
 */
export const SW_URL = '/sw.js';

export function registerServiceWorker() {
  // Refused outside a secure context (plain http to another host): the console then runs without it.
  if ('serviceWorker' in navigator)
    addEventListener('load', () => navigator.serviceWorker.register(SW_URL).catch(() => undefined));
}
