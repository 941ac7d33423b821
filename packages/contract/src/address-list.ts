import ipaddr from 'ipaddr.js';

/**
 * A terminal's source-address allow-list (`ipaddr`, docs/device-protocol.md §13): one
 * address, a CIDR block, or several of either separated by commas (spaces around them
 * are allowed), IPv4 and IPv6. Empty: any source. The form's check and the server's
 * check at every way in (TCP login, the JSON and OsmAnd gateways) read it here, so what
 * the form accepts is exactly what is enforced.
 *
 * Only the usual spellings are taken: an IPv4 address is four decimal parts
 * (ipaddr.js alone would also read `127.1`, `0x7f000001` or octal parts), an IPv6
 * address has no zone (`%eth0`), and a prefix length is decimal and within the family.
 */
export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Longest `ipaddr` text: room for a few dozen entries. */
export const ADDRESS_LIST_MAX = 500;

const entriesOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

const parseAddress = (text: string): ipaddr.IPv4 | ipaddr.IPv6 | null => {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
};

/** One entry as a range (a single address is a /32 or /128), or null when it is not one. */
export function parseAddressRange(entry: string): AddressRange | null {
  const slash = entry.indexOf('/');
  const address = parseAddress(slash < 0 ? entry : entry.slice(0, slash));
  if (!address) return null;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (slash < 0) return [address, max];
  const bits = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > max) return null;
  return [address, Number(bits)];
}

/** The entries of an allow-list that are not an address or a CIDR block (empty: the list is valid). */
export function invalidAddressEntries(list: string): string[] {
  return entriesOf(list).filter((e) => parseAddressRange(e) === null);
}

/** An allow-list's ranges, or null when any entry is not an address or a CIDR block. Empty text: []. */
export function parseAddressList(list: string): AddressRange[] | null {
  const ranges: AddressRange[] = [];
  for (const entry of entriesOf(list)) {
    const range = parseAddressRange(entry);
    if (!range) return null;
    ranges.push(range);
  }
  return ranges;
}

/**
 * Whether `address` (a connection's source) may come in under this allow-list. An empty list
 * allows any source; a list that does not parse (written around the form) allows none; an
 * IPv4-mapped IPv6 source (`::ffff:203.0.113.5`, a dual-stack socket) is matched as IPv4.
 */
export function addressAllowed(list: string, address: string | undefined): boolean {
  // Most terminals have no list: nothing to parse on each of their reports.
  if (list === '') return true;
  const ranges = parseAddressList(list);
  if (ranges === null) return false;
  if (ranges.length === 0) return true;
  if (!address || !ipaddr.isValid(address)) return false;
  const source = ipaddr.process(address);
  return ranges.some(([net, bits]) => net.kind() === source.kind() && source.match(net, bits));
}
