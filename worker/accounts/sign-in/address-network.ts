/**
 * The client a limit counts for an address: an IPv4 address itself, an IPv6 address its /64 network
 * (a subscriber line or a phone is handed a whole /64, so any address in it is the same client).
 * Anything that is not an IP address is counted as it is.
 */
export function addressNetwork(address: string): string {
  const value = address.trim().toLowerCase();
  const groups = value.includes(':') ? ipv6Groups(value) : null;
  if (!groups) return value;
  // ::ffff:a.b.c.d is an IPv4 client reached over IPv6.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read), or null if it is not one. */
function ipv6Groups(value: string): number[] | null {
  const halves = value.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...Array<number>(missing).fill(0), ...tail] : null;
}

function groupsOf(part: string, mayEndInIpv4: boolean): number[] | null {
  if (!part) return [];
  const pieces = part.split(':');
  const groups: number[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (/^[0-9a-f]{1,4}$/.test(piece)) {
      groups.push(Number.parseInt(piece, 16));
      continue;
    }
    const octets = mayEndInIpv4 && i === pieces.length - 1 ? ipv4Octets(piece) : null;
    if (!octets) return null;
    groups.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
  }
  return groups;
}

function ipv4Octets(text: string): number[] | null {
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)?.slice(1).map(Number);
  return octets?.every((octet) => octet <= 255) ? octets : null;
}
