/**
 * The performance goals as the benchmarks measure them: each bench states a figure against its
 * goal when it prints it, and `deno task bench` lists every stated goal again at the end, so one
 * run's figures can be read in one place.
 *
 * @module
 */

/** One figure against its goal. */
export interface GoalResult {
  /** What was measured. */
  readonly label: string;
  /** The measured ratio (`undefined`: not measured, a run failed). */
  readonly value: number | undefined;
  /** `<=` (at most) or `>=` (at least). */
  readonly op: "<=" | ">=";
  /** The goal. */
  readonly target: number;
  /** Whether the goal is "about" its target (`~11x`). */
  readonly about: boolean;
  /** `met`, `near` (an "about" goal missed by at most 5%) or `missed` (or not measured). */
  readonly verdict: "met" | "near" | "missed";
}

const STATED: GoalResult[] = [];

/**
 * Judge a ratio against a goal, remember it for {@link statedGoals}, and return its text for the
 * bench's own line: `"0.94x (goal >= 0.80x: met)"`. An `about` goal ("at most ~11×") missed by at
 * most 5% is `near`, not `met`; a figure not measured (`undefined`: its run failed) is `missed`.
 *
 * @example
 * ```ts
 * import { stateGoal } from "./goals.ts";
 * console.log(stateGoal("server vs bare", 0.94, ">=", 0.8)); // "0.94x (goal >= 0.80x: met)"
 * console.log(stateGoal("growth", 11.2, "<=", 11, { about: true })); // "11.2x (goal <= ~11x: near)"
 * ```
 */
export function stateGoal(
  label: string,
  value: number | undefined,
  op: "<=" | ">=",
  target: number,
  options: { about?: boolean; digits?: number } = {},
): string {
  const met = value !== undefined && (op === "<=" ? value <= target : value >= target);
  const near = !met && value !== undefined && options.about === true &&
    (op === "<=" ? value <= target * 1.05 : value >= target / 1.05);
  const verdict = met ? "met" : near ? "near" : "missed";
  const about = options.about === true;
  STATED.push({ label, value, op, target, about, verdict });
  const digits = options.digits ?? 2;
  const shown = value === undefined ? "not measured" : `${value.toFixed(digits)}x`;
  return `${shown} (goal ${op} ${goalText({ target, about })}: ${verdict})`;
}

/**
 * Every goal stated so far in this process, in the order stated.
 *
 * @example
 * ```ts
 * import { stateGoal, statedGoals } from "./goals.ts";
 * stateGoal("fan-out", 49.9, ">=", 12);
 * console.log(statedGoals().at(-1)?.verdict); // "met"
 * ```
 */
export function statedGoals(): readonly GoalResult[] {
  return STATED;
}

/**
 * The lines that list every stated goal, one per figure.
 *
 * @example
 * ```ts
 * import { goalLines } from "./goals.ts";
 * const x = { label: "x", value: 1, op: "<=", target: 2, about: false, verdict: "met" } as const;
 * console.log(goalLines([x])[0]);
 * // "met     x: 1.00x (goal <= 2.00x)"
 * ```
 */
export function goalLines(goals: readonly GoalResult[] = STATED): string[] {
  return goals.map((g) =>
    `${g.verdict.padEnd(7)} ${g.label}: ${
      g.value === undefined ? "not measured" : `${g.value.toFixed(2)}x`
    } (goal ${g.op} ${goalText(g)})`
  );
}

/** A goal's target as text: `1.30x`, or `~11x` for an "about" goal. */
function goalText(goal: { readonly target: number; readonly about: boolean }): string {
  return goal.about ? `~${goal.target}x` : `${goal.target.toFixed(2)}x`;
}
