import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may be sent to (docs/security.md "Outbound calls"). A company admin chooses
 * the URL, so without this rule the server would call its own ports, the internal network and the cloud
 * metadata service on their behalf. Only public unicast addresses pass: IPv4 outside every special range
 * ipaddr.js knows (loopback, RFC 1918, link-local, CGNAT, multicast, 0/8, broadcast, reserved,
 * documentation, benchmarking…), IPv6 in the global unicast block 2000::/3 and outside its special ranges.
 * An IPv6 address that carries an IPv4 one (IPv4-mapped, IPv4-translated, NAT64 64:ff9b::/96, 6to4) is
 * judged by the IPv4 address it leads to.
 */

/** The range an address falls in, as ipaddr.js names it, or 'public'; null when it is not an address. */
export function addressRange(address: string): string | null {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // node:net's strict reading: dotted-quad IPv4 and RFC 4291 IPv6, none of the historic IPv4 spellings.
  const family = isIP(text);
  if (family === 0) return null;
  if (family === 4) {
    const range = ipaddr.IPv4.parse(text).range();
    return range === 'unicast' ? 'public' : range;
  }
  let v6: ipaddr.IPv6;
  try {
    v6 = ipaddr.IPv6.parse(text);
  } catch {
    // node:net and ipaddr.js disagree about it: no address this rule can vouch for.
    return 'unreadable';
  }
  const range: string = v6.range();
  const embedded = embeddedIPv4(v6, range);
  if (embedded) {
    const inner = embedded.range();
    return inner === 'unicast' ? 'public' : inner;
  }
  if (range !== 'unicast') return range;
  // Outside 2000::/3 nothing is routable on the Internet (IPv4-compatible ::a.b.c.d, unassigned space).
  return v6.match(ipaddr.IPv6.parse('2000::'), 3) ? 'public' : 'unassigned';
}

function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const p = ip.parts;
  const fromWords = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return fromWords(p[6]!, p[7]!);
    case 'rfc6052': // 64:ff9b::a.b.c.d; 64:ff9b:1::/48 is local use, so refused as such
      return ip.match(ipaddr.IPv6.parse('64:ff9b::'), 96) ? fromWords(p[6]!, p[7]!) : null;
    case '6to4': // 2002:aabb:ccdd::
      return fromWords(p[1]!, p[2]!);
    default:
      return null;
  }
}

/** Whether a webhook may connect to this address. */
export const isPublicAddress = (address: string): boolean => addressRange(address) === 'public';

/**
 * Whether a URL names this machine or an internal network by itself, before any name is resolved: an
 * address literal that is not public (WHATWG URL has already turned `127.1`, `0x7f000001`, `2130706433`,
 * `0177.0.0.1` and full-width digits into `127.0.0.1`, and `[::ffff:127.0.0.1]` into `[::ffff:7f00:1]`),
 * or `localhost` and its subdomains (RFC 6761: they always mean this machine). Other names are judged
 * when a call is made, by what they resolve to.
 */
export function namesInternalTarget(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const range = addressRange(host);
  return range !== null && range !== 'public';
}
