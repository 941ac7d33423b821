/**
 * The console's one service worker (public/sw.js): push notifications, and the offline page when a page
 * cannot be loaded. Registered on every start so the offline page is ready before the network goes; the
 * push subscription (features/notify) uses the same registration.
 */
export const SW_URL = '/sw.js';

export function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => void navigator.serviceWorker.register(SW_URL).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
