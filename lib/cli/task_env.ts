/**
 * The check a `:tenant` or `:remote` task runs before samkit itself: the variables its
 * `--allow-net` list is built from must be set, and must be host names. Deno itself would stop
 * on an empty one with `invalid empty host: ''` and a backtrace; this says which variable is
 * missing and what to put in it.
 *
 * Run as `deno run --no-prompt --allow-env=NAME,… lib/cli/task_env.ts TASK NAME…` (see the tasks
 * in deno.json); exits 0 when every variable is good, 2 otherwise.
 *
 * @module
 */

/** What each variable a task builds its network grant from is for, and an example value. */
export const TASK_VARIABLES: Readonly<Record<string, { what: string; example: string }>> = {
  SAM_API_HOST: {
    what: "the host name of your SAM API (the host part of SAM_BASE_URL)",
    example: "westeurope.example-sam-host.com",
  },
  SAM_API_HOSTS: {
    what: "the SAM API host of every tenant the worker serves, comma-separated (the hosts of " +
      "the tenants file's base URLs)",
    example: "westeurope.example-sam-host.com,eastus2.example-sam-host.com",
  },
  SAMKIT_SMTP_HOST: {
    what: "the SMTP relay the pack's summary is mailed through (the pack file's email.host; " +
      "localhost when the pack sends no mail)",
    example: "smtp.example.com",
  },
  SAMKIT_SMTP_HOSTS: {
    what: "the SMTP relays the worker mails tenants' summaries through, comma-separated (the " +
      "packs' email.host and the tenants' mail.host; localhost when no pack sends mail)",
    example: "smtp.example.com",
  },
  SAMKIT_DB_HOST: {
    what: "the PostgreSQL host of the queue (the host part of SAMKIT_DATABASE_URL)",
    example: "db.example.internal",
  },
};

/** A host name or IP address, optionally with a port: no scheme, path, user or spaces. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::[0-9]{1,5})?$/;

/**
 * Whether `value` is a host name or IP address, optionally with a port, and nothing else (no
 * scheme, path, user, spaces or control characters).
 *
 * @example
 * ```ts
 * import { isHostName } from "./task_env.ts";
 * console.log(isHostName("eu.example.com"), isHostName("https://eu.example.com")); // true false
 * ```
 */
export function isHostName(value: string): boolean {
  return HOST.test(value);
}

/**
 * What is wrong with the variables `names` of `task`, one message per problem (empty: all good).
 *
 * @example
 * ```ts
 * import { taskEnvProblems } from "./task_env.ts";
 * const problems = taskEnvProblems("report:tenant", ["SAM_API_HOST"], () => undefined);
 * console.log(problems[0].startsWith("SAM_API_HOST is not set")); // true
 * console.log(taskEnvProblems("report:tenant", ["SAM_API_HOST"], () => "eu.example.com")); // []
 * ```
 */
export function taskEnvProblems(
  task: string,
  names: readonly string[],
  env: (name: string) => string | undefined,
): string[] {
  const problems: string[] = [];
  for (const name of names) {
    const about = TASK_VARIABLES[name] ?? { what: "a host name", example: "host.example.com" };
    const value = env(name)?.trim() ?? "";
    const hosts = name.endsWith("_HOSTS") ? value.split(",").map((h) => h.trim()) : [value];
    if (value === "") {
      problems.push(
        `${name} is not set: \`deno task ${task}\` allows network access only to the hosts it ` +
          `names. Put in it ${about.what}, e.g.\n    export ${name}=${about.example}`,
      );
    } else if (hosts.some((h) => !HOST.test(h))) {
      const bad = hosts.find((h) => !HOST.test(h)) ?? value;
      problems.push(
        `${name}=${JSON.stringify(bad.slice(0, 80))} is not a host name: give the host only ` +
          `(no https://, path or spaces), e.g.\n    export ${name}=${about.example}`,
      );
    }
  }
  return problems;
}

if (import.meta.main) {
  const [task = "task", ...names] = Deno.args;
  const problems = taskEnvProblems(task, names, (name) => Deno.env.get(name));
  for (const problem of problems) console.error(`samkit: ${problem}`);
  if (problems.length > 0) {
    console.error(`(the options of this task: deno task ${task.split(":")[0]} --help)`);
  }
  Deno.exit(problems.length === 0 ? 0 : 2);
}
