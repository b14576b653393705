/**
 * The goals of issue 11 as the benchmarks measure them: each bench states a figure against its
 * goal when it prints it, and `deno task bench` lists every stated goal again at the end, so one
 * run's figures can be read in one place.
 *
 * @module
 */

/** One figure against its goal. */
export interface GoalResult {
  /** What was measured. */
  readonly label: string;
  /** The measured ratio. */
  readonly value: number;
  /** `<=` (at most) or `>=` (at least). */
  readonly op: "<=" | ">=";
  /** The goal. */
  readonly target: number;
  /** `met`, `near` (an "about" goal missed by at most 5%) or `missed`. */
  readonly verdict: "met" | "near" | "missed";
}

const STATED: GoalResult[] = [];

/**
 * Judge a ratio against a goal, remember it for {@link statedGoals}, and return its text for the
 * bench's own line: `"0.94x (goal >= 0.80x: met)"`. An `about` goal ("at most ~11×") missed by at
 * most 5% is `near`, not `met`.
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
  value: number,
  op: "<=" | ">=",
  target: number,
  options: { about?: boolean; digits?: number } = {},
): string {
  const met = op === "<=" ? value <= target : value >= target;
  const near = !met && options.about === true &&
    (op === "<=" ? value <= target * 1.05 : value >= target / 1.05);
  const verdict = met ? "met" : near ? "near" : "missed";
  STATED.push({ label, value, op, target, verdict });
  const digits = options.digits ?? 2;
  const goal = options.about ? `~${target}` : target.toFixed(2);
  return `${value.toFixed(digits)}x (goal ${op} ${goal}x: ${verdict})`;
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
 * console.log(goalLines([{ label: "x", value: 1, op: "<=", target: 2, verdict: "met" }])[0]);
 * // "met     x: 1.00x (goal <= 2.00x)"
 * ```
 */
export function goalLines(goals: readonly GoalResult[] = STATED): string[] {
  return goals.map((g) =>
    `${g.verdict.padEnd(7)} ${g.label}: ${g.value.toFixed(2)}x (goal ${g.op} ${
      g.target.toFixed(2)
    }x)`
  );
}
