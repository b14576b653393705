/**
 * The sections a report declares before it reads anything, checked before the first request.
 * A data function that returns its sections at once, with rows that read the service only when
 * iterated (an async generator), is called here with a client and query context that refuse
 * every use and a signal already aborted: the sections it returns are checked
 * ({@link checkSections}: ids, titles, column keys, labels and types) and no row is read. A data
 * function that needs the service before it can return gives up here at its first call, and its
 * sections are checked by the runner when it really returns, still before any row is read or any
 * file written.
 *
 * @module
 */

import { checkSections, type ParamValues, type ReportDefinition } from "./model.ts";

/** Thrown by the refusing client on any use: the data function needs the service. */
class NeedsService extends Error {
  constructor() {
    super("a declared-sections check makes no request");
    this.name = "NeedsService";
  }
}

let swallowing = false;

/**
 * A refused call throws at once, so reads a data function started before it (in one
 * Promise.all, say) reject with no one left to await them: those rejections are this check's
 * own (no other code has a NeedsService) and are not the run's unhandled rejections.
 */
function swallowRefusals(): void {
  if (swallowing) return;
  swallowing = true;
  globalThis.addEventListener("unhandledrejection", (event) => {
    if (event.reason instanceof NeedsService) event.preventDefault();
  });
}

/** A value that any property read leads through and any call or construction refuses. */
function refusing(): unknown {
  const target = function () {};
  return new Proxy(target, {
    get: (_t, key) => key === "then" ? undefined : refusing(),
    apply: () => {
      throw new NeedsService();
    },
    construct: () => {
      throw new NeedsService();
    },
  });
}

/**
 * `result`, or undefined when it has not settled once the tasks already queued have run: a data
 * function awaiting I/O is not waited on.
 */
async function unlessWaiting<T>(result: Promise<T>): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), 0);
  });
  try {
    return await Promise.race([result, later]);
  } finally {
    clearTimeout(timer);
  }
}

/** Options of {@link checkDeclaredSections}. */
export interface DeclaredSectionsOptions {
  /** The run's parameter values (after validation). */
  readonly params: ParamValues;
  /** The run's filter, if any. */
  readonly filter?: string;
  /** The run's clock. */
  readonly now?: Date;
}

/**
 * Calls `definition.data` with nothing to read from and checks the sections it returns without
 * reading a row; throws `ReportDefinitionError` for a bad section or column. A data function that
 * reads first (or fails without the service) is left to the runner's own check. Makes no request.
 *
 * @example
 * ```ts
 * import { checkDeclaredSections } from "./declared_sections.ts";
 * import { defineReport } from "./model.ts";
 * const typo = defineReport({
 *   id: "typo", title: "Typo", description: "A column type misspelt.", params: {},
 *   data: () => ({
 *     sections: [{ id: "a", title: "A", rows: [],
 *       columns: [{ key: "os", label: "OS", type: "txt" as "text" }] }],
 *   }),
 * });
 * await checkDeclaredSections(typo, { params: {} }).catch((e) => console.log(e.name));
 * // ReportDefinitionError
 * ```
 */
export async function checkDeclaredSections(
  definition: ReportDefinition,
  options: DeclaredSectionsOptions,
): Promise<void> {
  const controller = new AbortController();
  controller.abort(new NeedsService());
  swallowRefusals();
  let returned;
  try {
    const result = Promise.resolve(definition.data({
      client: refusing(),
      query: refusing(),
      params: options.params,
      ...(options.filter === undefined ? {} : { filter: options.filter }),
      signal: controller.signal,
      now: options.now ?? new Date(),
    }));
    result.catch(() => {}); // a function still awaiting ends on its own; nothing waits for it
    returned = await unlessWaiting(result);
  } catch {
    return; // it needs the service (or failed without it): checked when it really returns
  }
  if (returned === undefined || typeof returned !== "object") return;
  checkSections(definition.id, returned.sections);
}
