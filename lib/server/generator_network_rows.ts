/**
 * The `network_adapters` of one computer: one virtual NIC on virtual machines, Wi-Fi (and
 * perhaps a USB dock NIC) on laptops and Macs, one wired NIC on desktops, two to four on hosts,
 * one or two on servers. MAC addresses carry the manufacturer's OUI and the computer index.
 *
 * @module
 */

import { Profile } from "./generator_catalogue.ts";
import type { Ctx } from "./generator_context.ts";
import type { Machine } from "./generator_machine.ts";
import { Hypervisor, Kind } from "./generator_plan.ts";

const OUI: Record<string, string> = {
  "Dell Inc.": "F4:8E:38",
  "HP": "3C:52:82",
  "HPE": "94:40:C9",
  "LENOVO": "98:FA:9B",
  "Lenovo": "98:FA:9B",
  "Microsoft Corporation": "C4:9D:ED",
  "Apple Inc.": "A4:83:E7",
  "IBM": "40:F2:E9",
  "VMware, Inc.": "00:50:56",
  "Nutanix": "50:6B:8D",
};

const hex2 = (v: number) => (v & 255).toString(16).toUpperCase().padStart(2, "0");

/** Adapters of physical servers and hosts: name and address. */
function serverAdapters(m: Machine, linuxLike: boolean): [string, string][] {
  const r = m.random;
  const i = m.index;
  const ip = m.names.ipAddress;
  const adapters: [string, string][] = [];
  if (m.kind === Kind.Host) {
    const nics = r.int(2, 4);
    for (let a = 0; a < nics; a++) {
      adapters.push([
        m.hostPlan!.hypervisor === Hypervisor.HyperV
          ? `Mellanox ConnectX-5 Adapter #${a + 1}`
          : `vmnic${a}`,
        a === 0 ? ip : `192.168.${10 + a}.${1 + (i % 253)}`,
      ]);
    }
    return adapters;
  }
  adapters.push([linuxLike ? "eno1" : "Broadcom NetXtreme Gigabit Ethernet", ip]);
  if (r.chance(0.6)) {
    adapters.push([
      linuxLike ? "ens1f0" : "Intel(R) Ethernet Controller X710 for 10GbE SFP+",
      `192.168.${m.org.net}.${1 + (i % 253)}`,
    ]);
  }
  return adapters;
}

/** Every adapter of a computer: name and address. */
function adaptersOf(m: Machine): [string, string][] {
  const ip = m.names.ipAddress;
  const linuxLike = m.profile === Profile.Linux || m.profile === Profile.Aix;
  if (m.isVirtual) {
    const virtualNic = [
      "vmxnet3 Ethernet Adapter",
      "Microsoft Hyper-V Network Adapter",
      "Red Hat VirtIO Ethernet Adapter",
    ][m.myHost!.hypervisor];
    return [[linuxLike ? "ens192" : virtualNic, ip]];
  }
  if (m.kind === Kind.Mac) return [["Wi-Fi", ip]];
  if (m.kind === Kind.Laptop) {
    const adapters: [string, string][] = [["Intel(R) Wi-Fi 6E AX211 160MHz", ip]];
    if (m.random.chance(0.5)) {
      adapters.push([
        "Realtek USB GbE Family Controller",
        `172.16.${m.org.net}.${1 + (m.index % 253)}`,
      ]);
    }
    return adapters;
  }
  if (m.kind === Kind.Desktop) return [["Intel(R) Ethernet Connection (17) I219-LM", ip]];
  return serverAdapters(m, linuxLike);
}

/**
 * Emit a computer's network adapter rows.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { emitNetworkAdapters } from "./generator_network_rows.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const tables = new Set<string>();
 * const emit = (table: string) => void tables.add(table);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * emitNetworkAdapters(ctx, planMachine(ctx, 0));
 * console.log(tables.has("network_adapters")); // true
 * ```
 */
export function emitNetworkAdapters(ctx: Ctx, m: Machine): void {
  const i = m.index;
  const oui = m.isVirtual
    ? ["00:50:56", "00:15:5D", "50:6B:8D"][m.myHost!.hypervisor]
    : OUI[m.hw.manufacturer] ?? "00:1B:21";
  adaptersOf(m).forEach(([name, ip], a) =>
    ctx.emit("network_adapters", {
      computerId: m.id,
      name,
      ipAddress: ip,
      macAddress: `${oui}:${hex2(((i >> 16) & 0x0f) | (a << 4))}:${hex2(i >> 8)}:${hex2(i)}`,
    })
  );
}
