/**
 * What a computer's operating system records: its `environment_variables` (per platform, with
 * JAVA_HOME where Java SE is installed) and, on Windows, its `registry_entries` (product name,
 * build, asset tag, SQL Server editions, Microsoft 365 Apps).
 *
 * @module
 */

import { APPS, Profile } from "./generator_catalogue.ts";
import { APP_INFOS, type Ctx, pad } from "./generator_context.ts";
import type { Machine } from "./generator_machine.ts";

const WINDOWS_BUILD: Record<string, string> = {
  "win10-ent": "19045",
  "win11-ent-23h2": "22631",
  "win11-ent-24h2": "26100",
  "win11-pro": "22631",
  "ws2012r2-std": "9600",
  "ws2012r2-dc": "9600",
  "ws2016-std": "14393",
  "ws2016-dc": "14393",
  "ws2019-std": "17763",
  "ws2019-dc": "17763",
  "ws2022-std": "20348",
  "ws2022-dc": "20348",
  "ws2025-std": "26100",
  "ws2025-dc": "26100",
};

const CURRENT_VERSION = "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";

/** The JAVA_HOME major (`1.8`, `17` …) of the first Java SE install, or undefined. */
function javaMajor(m: Machine): string | undefined {
  const javaApp = m.sw.installs.find((a) => APP_INFOS[a].decl.family === "Java SE");
  if (javaApp === undefined) return undefined;
  const major = APPS[javaApp].version.split(".")[0];
  return major === "8" ? "1.8" : major;
}

/** Name and value of each environment variable. */
function environmentOf(m: Machine): [string, string][] {
  const java = javaMajor(m);
  const hostName = m.names.hostName;
  const env: [string, string][] = [];
  if (m.names.windows) {
    env.push(
      ["COMPUTERNAME", hostName],
      ["NUMBER_OF_PROCESSORS", String(m.hw.logical)],
      ["OS", "Windows_NT"],
      ["PROCESSOR_ARCHITECTURE", "AMD64"],
      ["TEMP", "C:\\Windows\\TEMP"],
      ["USERDOMAIN", m.org.domain.split(".")[0].toUpperCase()],
    );
    if (java !== undefined) env.push(["JAVA_HOME", `C:\\Program Files\\Java\\jdk-${java}`]);
  } else if (m.profile === Profile.Linux) {
    env.push(
      ["HOSTNAME", hostName.toLowerCase()],
      ["LANG", "en_US.UTF-8"],
      ["SHELL", "/bin/bash"],
      ["PATH", "/usr/local/bin:/usr/bin:/usr/local/sbin:/usr/sbin"],
    );
    if (java !== undefined) env.push(["JAVA_HOME", `/usr/lib/jvm/jdk-${java}`]);
  } else if (m.profile === Profile.Aix) {
    env.push(
      ["HOSTNAME", hostName.toLowerCase()],
      ["LANG", "en_US"],
      ["SHELL", "/usr/bin/ksh"],
      ["ODMDIR", "/etc/objrepos"],
    );
  } else if (m.profile === Profile.Mac) {
    const r = m.random;
    env.push(["SHELL", "/bin/zsh"], ["LANG", "en_US.UTF-8"], [
      "TMPDIR",
      `/var/folders/${r.hex(2)}/${r.hex(8)}/T/`,
    ]);
  }
  return env;
}

/**
 * Emit a computer's environment variable rows.
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { emitEnvironmentVariables } from "./generator_os_rows.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * let rows = 0;
 * const emit = (table: string) => void (rows += table === "environment_variables" ? 1 : 0);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * for (let i = 0; i < 40; i++) emitEnvironmentVariables(ctx, planMachine(ctx, i));
 * console.log(rows > 0); // true
 * ```
 */
export function emitEnvironmentVariables(ctx: Ctx, m: Machine): void {
  for (const [name, value] of environmentOf(m)) {
    ctx.emit("environment_variables", {
      computerId: m.id,
      environmentVariableName: name,
      environmentVariableValue: value,
    });
  }
}

/** Key, value name and data of each registry entry of a Windows machine. */
function registryOf(m: Machine): [string, string, string][] {
  const osDecl = m.sw.osDecl;
  const reg: [string, string, string][] = [
    [CURRENT_VERSION, "ProductName", (osDecl.os ?? osDecl.name).replace("Microsoft ", "")],
    [CURRENT_VERSION, "CurrentBuild", WINDOWS_BUILD[osDecl.key] ?? "20348"],
    ["HKEY_LOCAL_MACHINE\\SOFTWARE\\Contoso\\Inventory", "AssetTag", `AT-${pad(m.index + 1, 6)}`],
  ];
  if (m.profile === Profile.Win) {
    reg.push([CURRENT_VERSION, "DisplayVersion", osDecl.version.split(" ")[1] ?? ""]);
  }
  for (const a of m.sw.installs) {
    const decl = APPS[a];
    if (decl.family === "SQL Server") {
      const major = decl.version.split(".")[0];
      reg.push([
        `HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Microsoft SQL Server\\MSSQL${major}.MSSQLSERVER\\Setup`,
        "Edition",
        decl.edition === "Enterprise"
          ? "Enterprise Edition: Core-based Licensing (64-bit)"
          : `${decl.edition} Edition (64-bit)`,
      ]);
    } else if (decl.key === "m365apps") {
      reg.push([
        "HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Office\\ClickToRun\\Configuration",
        "ProductReleaseIds",
        "O365ProPlusRetail",
      ]);
    }
  }
  return reg;
}

/**
 * Emit the registry entry rows of a Windows computer (none for other platforms).
 *
 * @example
 * ```ts
 * import { planMachine } from "./generator_machine.ts";
 * import { emitRegistryEntries } from "./generator_os_rows.ts";
 * import { buildPlan } from "./generator_plan.ts";
 * import { createContext } from "./generator_setup.ts";
 * const now = Date.parse("2026-11-01T00:00:00Z");
 * let rows = 0;
 * const emit = (table: string) => void (rows += table === "registry_entries" ? 1 : 0);
 * const ctx = createContext({ seed: 1, now, n: 40, plan: buildPlan(1, 40), emit });
 * for (let i = 0; i < 40; i++) emitRegistryEntries(ctx, planMachine(ctx, i));
 * console.log(rows > 0); // true
 * ```
 */
export function emitRegistryEntries(ctx: Ctx, m: Machine): void {
  if (!m.names.windows) return;
  for (const [key, name, data] of registryOf(m)) {
    ctx.emit("registry_entries", {
      computerId: m.id,
      registryKeyName: key,
      registryValueName: name,
      registryValueData: data,
    });
  }
}
