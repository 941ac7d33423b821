/**
 * The push services the server will POST to (PUSH_SERVICE_HOSTS). Any signed-in account may subscribe a
 * browser, and the endpoint comes from the browser, so without a list any account could make the server
 * send requests to any host (an internal address, a cloud metadata service). Browsers get their endpoint
 * from their vendor's service, so the list is short: a pattern is a host name, or `*.` and a domain that
 * matches that domain's subdomains.
 */
export const DEFAULT_PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  '*.push.apple.com',
].join(',');

export type PushHosts = readonly string[];

export const parsePushHosts = (value: string): PushHosts =>
  value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

/** Whether the endpoint's host (port ignored) is one of the allowed push services. */
export function pushHostAllowed(endpoint: string, hosts: PushHosts): boolean {
  if (!URL.canParse(endpoint)) return false;
  const host = new URL(endpoint).hostname.toLowerCase();
  return hosts.some((p) => (p.startsWith('*.') ? host.endsWith(p.slice(1)) && host.length > p.length - 1 : host === p));
}
