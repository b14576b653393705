/**
 * The display side of one computer's hardware inventory: its `display_adapters` row and its
 * `monitors` (one or two on desktops, a built-in panel plus perhaps a dock screen on laptops and
 * Macs, a virtual screen on VDI machines, none on servers).
 *
 * @module
 */

import type { Ctx } from "./generator_context.ts";
import type { Machine } from "./generator_machine.ts";
import { Kind } from "./generator_plan.ts";

type Screen = [string, string];

const DESK_MONITORS: Screen[] = [
  ["DELL P2422H", "1920 x 1080"],
  ["DELL U2723QE", "3840 x 2160"],
  ["HP E24 G5", "1920 x 1080"],
  ["LEN T24i-30", "1920 x 1080"],
];
const DOCK_MONITORS: Screen[] = [["DELL P2422H", "1920 x 1080"], ["DELL U2723QE", "3840 x 2160"]];

/** Adapter name, current and maximum resolution. */
function displayAdapter(m: Machine): [string, string, string] {
  const { kind, hw } = m;
  const { cpu } = hw;
  return m.isVirtual
    ? [
      ["VMware SVGA 3D", "Microsoft Hyper-V Video", "Red Hat QXL controller"][m.myHost!.hypervisor],
      "1024 x 768",
      "2560 x 1600",
    ]
    : kind === Kind.Mac
    ? [cpu.type, "3024 x 1964", "3024 x 1964"]
    : kind === Kind.Laptop
    ? [
      cpu.manufacturer === "AMD" ? "AMD Radeon 780M Graphics" : "Intel(R) Iris(R) Xe Graphics",
      "1920 x 1200",
      "3840 x 2400",
    ]
    : kind === Kind.Desktop
    ? [
      hw.model.startsWith("Precision")
        ? "NVIDIA RTX A2000 12GB"
        : cpu.manufacturer === "AMD"
        ? "AMD Radeon(TM) Graphics"
        : "Intel(R) UHD Graphics 770",
      m.random.pick(["1920 x 1080", "2560 x 1440"]),
      "7680 x 4320",
    ]
    : hw.manufacturer === "Lenovo"
    ? ["ASPEED Graphics Family(WDDM)", "1024 x 768", "1920 x 1200"]
    : hw.manufacturer === "HPE"
    ? ["Matrox G200eH3 (HPE) WDDM 2.0", "1024 x 768", "1920 x 1200"]
    : ["Matrox G200eW3 (Nuvoton) WDDM 2.0", "1024 x 768", "1920 x 1200"];
}

/** The monitors of a machine: name and maximum resolution. */
function monitorsOf(m: Machine): Screen[] {
  const r = m.random;
  const monitors: Screen[] = [];
  if (m.kind === Kind.Desktop) {
    const n = r.int(1, 2);
    for (let k = 0; k < n; k++) monitors.push(r.pick(DESK_MONITORS));
  } else if (m.kind === Kind.Laptop) {
    monitors.push(["Generic PnP Monitor", "1920 x 1200"]);
    if (r.chance(0.5)) monitors.push(r.pick(DOCK_MONITORS));
  } else if (m.kind === Kind.Mac) {
    monitors.push(["Built-in Liquid Retina XDR Display", "3024 x 1964"]);
    if (r.chance(0.4)) monitors.push(["LG UltraFine", "5120 x 2880"]);
  } else if (m.kind === Kind.Vdi) monitors.push(["Generic Non-PnP Monitor", "2560 x 1600"]);
  return monitors;
}

/**
 * Emit a computer's display adapter and monitor rows (call only for computers with hardware
 * inventory).
 *
 * @example
 * ```ts
 * import { emitDisplayRows } from "./generator_display_rows.ts";
 * import { planMachine } from "./generator_machine.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * const tables = new Set<string>();
 * const emit = (table: string) => void tables.add(table);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * emitDisplayRows(ctx, planMachine(ctx, 0));
 * console.log(tables.has("display_adapters")); // true
 * ```
 */
export function emitDisplayRows(ctx: Ctx, m: Machine): void {
  const [adapter, current, max] = displayAdapter(m);
  ctx.emit("display_adapters", {
    computerId: m.id,
    name: adapter,
    currentResolution: current,
    maxResolution: max,
    isUpdated: true,
  });
  for (const [name, res] of monitorsOf(m)) {
    ctx.emit("monitors", {
      computerId: m.id,
      name,
      maxResolution: res,
      isUpdated: m.random.chance(0.97),
    });
  }
}
