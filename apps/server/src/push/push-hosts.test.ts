import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SERVICE_HOSTS, parsePushHosts, pushHostAllowed } from './push-hosts.js';

describe('pushHostAllowed', () => {
  const defaults = parsePushHosts(DEFAULT_PUSH_SERVICE_HOSTS);

  it("allows the browsers' push services by default", () => {
    expect(pushHostAllowed('https://fcm.googleapis.com/fcm/send/abc', defaults)).toBe(true);
    expect(pushHostAllowed('https://updates.push.services.mozilla.com/wpush/v2/x', defaults)).toBe(true);
    expect(pushHostAllowed('https://wns2-par02p.notify.windows.com/w/?token=x', defaults)).toBe(true);
    expect(pushHostAllowed('https://web.push.apple.com/QH', defaults)).toBe(true);
  });

  it('refuses everything else: addresses, look-alike hosts, the bare wildcard domain, garbage', () => {
    for (const endpoint of [
      'https://169.254.169.254/latest/meta-data/',
      'https://localhost/x',
      'https://fcm.googleapis.com.attacker.test/x',
      'https://evilfcm.googleapis.com/x',
      'https://push.services.mozilla.com/x',
      'https://attacker.test/fcm.googleapis.com',
      'not a url',
    ])
      expect(pushHostAllowed(endpoint, defaults), endpoint).toBe(false);
  });

  it('reads a configured list: case and spaces ignored, ports ignored', () => {
    const hosts = parsePushHosts(' Push.Example.JP , *.Corp.Example ');
    expect(hosts).toEqual(['push.example.jp', '*.corp.example']);
    expect(pushHostAllowed('https://push.example.jp:8443/x', hosts)).toBe(true);
    expect(pushHostAllowed('https://a.b.corp.example/x', hosts)).toBe(true);
    expect(pushHostAllowed('https://corp.example/x', hosts)).toBe(false);
  });
});
