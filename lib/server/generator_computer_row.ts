/**
 * The `computers` row of one computer: identity strings (scan id, BIOS serial and version,
 * operating system serial, security code), client and scanner versions, dates, flags, purchase
 * and the processor figures its hardware rows add up to.
 *
 * @module
 */

import { manufacturerWebsite, Profile } from "./generator_catalogue.ts";
import { APP_INFOS, computerId, type Ctx, iso, pad, userId } from "./generator_context.ts";
import type { Machine } from "./generator_machine.ts";
import { HYPERVISOR_NAME, Kind } from "./generator_plan.ts";
import type { Random } from "./random.ts";

const NOTES = [
  "Standard build",
  "Replaced system board under warranty",
  "Loaner pool",
  "Kiosk build",
  "Reimaged after malware incident",
  "Owned by project team",
];

function biosSerial(r: Random, manufacturer: string, kind: Kind): string {
  if (kind === Kind.Vm || kind === Kind.Vdi) {
    if (manufacturer.startsWith("VMware")) {
      const h = () => r.hex(2);
      return `VMware-42 ${h()} ${h()} ${h()} ${h()} ${h()} ${h()} ${h()}-${h()} ${h()} ${h()} ${h()} ${h()} ${h()} ${h()} ${h()}`;
    }
    if (manufacturer === "Nutanix") return r.guid().toUpperCase();
    return `${r.chars(4, "0123456789")}-${r.chars(4, "0123456789")}-${r.chars(4, "0123456789")}-${
      r.chars(4, "0123456789")
    }-${r.chars(4, "0123456789")}-${r.chars(4, "0123456789")}-${r.chars(2, "0123456789")}`;
  }
  const up = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
  switch (manufacturer) {
    case "Dell Inc.":
      return r.chars(7, up);
    case "HPE":
      return `CZ${r.chars(8, up)}`;
    case "HP":
      return `5CG${r.chars(7, up)}`;
    case "Apple Inc.":
      return `C02${r.chars(9, up)}`;
    case "Microsoft Corporation":
      return r.chars(12, "0123456789");
    case "IBM":
      return `78${r.chars(5, "0123456789ABCDEF")}`;
    default:
      return `J${r.chars(7, up)}`;
  }
}

function biosVersion(r: Random, manufacturer: string, kind: Kind): string {
  if (manufacturer.startsWith("VMware")) return "VMW71.00V.21100432.B64.2301110304";
  if (manufacturer === "Nutanix") return "1.16.0-1.el8";
  if (kind === Kind.Vm || kind === Kind.Vdi) return "Hyper-V UEFI Release v4.1";
  switch (manufacturer) {
    case "Dell Inc.":
      return `${r.int(1, 2)}.${r.int(1, 24)}.${r.int(0, 3)}`;
    case "HPE":
      return `U${r.int(30, 46)} v${r.int(1, 2)}.${r.int(10, 90)}`;
    case "HP":
      return `U21 Ver. 02.${r.int(10, 19)}.00`;
    case "Apple Inc.":
      return `${r.int(10151, 11881)}.${r.int(1, 61)}.${r.int(1, 7)}`;
    case "IBM":
      return `FW${r.int(950, 1060)}.${r.int(10, 50)}`;
    default:
      return `${r.chars(4, "ABCDEFGHJKMN0123456789")}${r.int(10, 99)}W (1.${r.int(10, 60)})`;
  }
}

/** The client configuration a computer reports under. */
function clientConfiguration(m: Machine): string {
  return m.endUser
    ? (m.profile === Profile.Mac ? "Mac clients" : "Workstations")
    : m.names.windows
    ? "Windows servers"
    : "Unix servers";
}

/** The architecture of a processor manufacturer. */
function architecture(cpuManufacturer: string): string {
  return cpuManufacturer === "Apple" ? "ARM64" : cpuManufacturer === "IBM" ? "ppc64" : "x64";
}

/**
 * Emit the `computers` row of a planned computer, drawing its identity strings and flags.
 *
 * @example
 * ```ts
 * import { emitComputerRow } from "./generator_computer_row.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const rows: Record<string, unknown>[] = [];
 * const emit = (table: string, row: Record<string, unknown>) => void rows.push(row);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * rows.length = 0;
 * emitComputerRow(ctx, planMachine(ctx, 0));
 * console.log(rows[0].id); // "C000001"
 * ```
 */
export function emitComputerRow(ctx: Ctx, m: Machine): void {
  const { random: r, kind, profile, org, myHost, isVirtual, hw, life, names, purchase } = m;
  const { windows } = names;
  const { osDecl } = m.sw;
  const { mostRecent, mostFrequent } = m.logons;
  const noHardware = hw.noHardware;
  ctx.emit("computers", {
    id: m.id,
    scanIdentifier: r.guid(),
    hostName: names.hostName,
    domain: org.domain,
    biosSerialNumber: biosSerial(r, hw.manufacturer, kind),
    biosVersion: biosVersion(r, hw.manufacturer, kind),
    manufacturer: hw.manufacturer,
    model: hw.model,
    clientVersion: profile === Profile.Mac ? "7.2.0" : windows ? "7.4.1" : "7.3.2",
    clientSiteName: `CONTOSO-${org.site}`,
    clientConfigurationName: clientConfiguration(m),
    scannerVersion: profile === Profile.Mac ? "7.2.0.4410" : windows ? "7.4.1.9102" : "7.3.2.512",
    operatingSystem: osDecl.os ?? osDecl.name,
    operatingSystemServicePack: windows && profile === Profile.Win
      ? osDecl.version.split(" ")[1] ?? null
      : null,
    operatingSystemSerialNumber: windows
      ? `${r.chars(5, "0123456789")}-${r.chars(5, "0123456789")}-${r.chars(5, "0123456789")}-AA${
        r.chars(3, "0123456789")
      }`
      : null,
    ipAddress: names.ipAddress,
    manufacturerWebsite: manufacturerWebsite(hw.manufacturer),
    operatingSystemId: APP_INFOS[m.sw.osApp].id,
    hostComputerId: myHost ? computerId(myHost.computer) : null,
    siblingComputerId: ctx.plan.sibling[m.index] >= 0
      ? computerId(ctx.plan.sibling[m.index])
      : null,
    hypervisorName: m.hostPlan ? HYPERVISOR_NAME[m.hostPlan.hypervisor] : null,
    architecture: architecture(hw.cpu.manufacturer),
    organizationId: org.id,
    status: life.status,
    purchaseCurrency: purchase.currency,
    invoiceReference: purchase.invoiceReference,
    notes: isVirtual
      ? `Provisioned on ${myHost ? computerId(myHost.computer) : "unknown host"}`
      : `${r.pick(NOTES)}; asset tag AT-${pad(m.index + 1, 6)}`,
    securityCode: r.chars(12, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"),
    mostRecentUser: mostRecent ? userId(mostRecent.user) : null,
    mostFrequentUser: mostFrequent ? userId(mostFrequent.user) : null,
    vendor: purchase.vendor,
    lastScanDate: iso(life.lastScan),
    biosDate: iso(life.biosDate),
    infoTransferDate: iso(life.infoTransferDate),
    clientInstallDate: iso(life.clientInstall),
    quarantineDate: iso(life.quarantineDate),
    reportingDate: iso(life.reportingDate),
    purchaseDate: iso(life.purchaseDate),
    updatedDate: iso(life.reportingDate),
    isPortable: kind === Kind.Laptop || kind === Kind.Mac,
    isQuarantineManagementDisabled: m.isServer ? r.chance(0.6) : r.chance(0.02),
    isVirtual,
    isUpdated: !life.inactive && r.chance(0.95),
    is64bit: true,
    isServer: m.isServer,
    isVdi: kind === Kind.Vdi,
    isAutoEditingDisabled: r.chance(0.05),
    isIncludedInServerOsRequirement: names.serverOs,
    processorValueUnit: noHardware ? null : hw.cpu.pvu,
    purchaseValue: isVirtual ? null : purchase.purchaseCents / 100,
    purchaseValueBase: isVirtual ? null : purchase.purchaseUsd,
    // As the hardware row and the processor rows add up (none without hardware inventory).
    processorCount: noHardware ? null : hw.sockets,
    coreCount: noHardware ? null : hw.coreCount,
  });
}
