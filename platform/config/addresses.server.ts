import { BlockList, isIP } from "node:net";

const NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** The entries of a comma list of addresses, CIDR ranges and the names above; null when one is neither. */
function addressList(value: string): string[] | null {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const valid = (entry: string) => {
    if (NAMES.has(entry)) return true;
    const [address, bits, ...rest] = entry.split("/");
    const family = isIP(address);
    if (!family || rest.length) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  };
  return entries.length && entries.every(valid) ? entries : null;
}

/**
 * TRUST_PROXY as Express's "trust proxy" takes it: a hop count, or a list of addresses, CIDR
 * ranges and the names loopback, linklocal and uniquelocal. null when it is neither.
 */
export function trustProxySetting(value: string): number | string[] | null {
  if (/^\d+$/.test(value)) return Number(value) <= 32 ? Number(value) : null;
  const entries = addressList(value);
  if (!entries) return null;
  // The storefront calls its own API over loopback, passing on the address it worked out.
  return entries.includes("loopback") ? entries : [...entries, "loopback"];
}

/** RATE_LIMIT_EXEMPT: addresses, CIDR ranges or loopback (null when it is none of them). */
export function exemptAddressesSetting(value: string): string[] | null {
  return addressList(value);
}

const RANGES: Record<string, [string, number, "ipv4" | "ipv6"][]> = {
  loopback: [
    ["127.0.0.0", 8, "ipv4"],
    ["::1", 128, "ipv6"],
  ],
  linklocal: [
    ["169.254.0.0", 16, "ipv4"],
    ["fe80::", 10, "ipv6"],
  ],
  uniquelocal: [
    ["10.0.0.0", 8, "ipv4"],
    ["172.16.0.0", 12, "ipv4"],
    ["192.168.0.0", 16, "ipv4"],
    ["fc00::", 7, "ipv6"],
  ],
};

/** Whether an address is in the list (IPv4 written as IPv6, ::ffff:a.b.c.d, counts as IPv4). */
export function addressMatcher(entries: readonly string[]): (address: string) => boolean {
  if (!entries.length) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    for (const [network, bits, family] of RANGES[entry] ?? []) list.addSubnet(network, bits, family);
    if (RANGES[entry]) continue;
    const [address, bits] = entry.split("/");
    const family = isIP(address) === 4 ? "ipv4" : "ipv6";
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return (address) => {
    const plain = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
  };
}
