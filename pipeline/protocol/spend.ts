// What the workers have used so far (the `usage` their tasks recorded, docs/protocol.md "What a
// worker returns") and the spending budgets of config.yaml (`budgets.cost_usd`, `budgets.tokens`).
// Pure: `state task start` is refused once a budget is used up, and `state next` and the board say so.
import type { Budgets, State, WorkerUsage } from '../../content-schemas/index.ts';

export interface Spent {
  /** Sum of the recorded `cost_usd` (tasks that gave none add nothing). */
  cost_usd: number;
  /** Input, output, cache-read and cache-write tokens, summed. */
  tokens: number;
  /** Tasks that recorded a usage. */
  tasks_with_usage: number;
}

/** A spending budget that is used up: which, its limit and what was spent. */
export interface BudgetUsedUp {
  budget: 'cost_usd' | 'tokens';
  limit: number;
  spent: number;
}

export function usageTokens(usage: WorkerUsage | undefined): number {
  if (!usage) return 0;
  return (
    (usage.input_tokens ?? 0) +
    (usage.output_tokens ?? 0) +
    (usage.cache_read_tokens ?? 0) +
    (usage.cache_write_tokens ?? 0)
  );
}

/** What every finished task of `state` recorded. */
export function spentSoFar(state: State): Spent {
  const spent: Spent = { cost_usd: 0, tokens: 0, tasks_with_usage: 0 };
  for (const task of Object.values(state.tasks)) {
    const usage = task.result?.usage;
    if (!usage) continue;
    spent.cost_usd += usage.cost_usd ?? 0;
    spent.tokens += usageTokens(usage);
    spent.tasks_with_usage += 1;
  }
  return spent;
}

/** The first spending budget reached (cost before tokens), or null while both have room. */
export function budgetUsedUp(spent: Spent, budgets: Budgets): BudgetUsedUp | null {
  if (budgets.cost_usd !== undefined && spent.cost_usd >= budgets.cost_usd)
    return { budget: 'cost_usd', limit: budgets.cost_usd, spent: spent.cost_usd };
  if (budgets.tokens !== undefined && spent.tokens >= budgets.tokens)
    return { budget: 'tokens', limit: budgets.tokens, spent: spent.tokens };
  return null;
}

const amount = (budget: BudgetUsedUp['budget'], value: number) =>
  budget === 'cost_usd' ? `$${value.toFixed(2)}` : `${Math.round(value).toLocaleString('en-US')} tokens`;

/** `budgets.cost_usd is used up: $5.12 spent of $5.00`. */
export function usedUpText(used: BudgetUsedUp): string {
  return `budgets.${used.budget} is used up: ${amount(used.budget, used.spent)} spent of ${amount(used.budget, used.limit)}`;
}

/** How to raise it: the config line to edit. */
export function raiseHint(used: BudgetUsedUp): string {
  const more = used.budget === 'cost_usd' ? (used.limit * 1.5).toFixed(2) : String(Math.ceil(used.limit * 1.5));
  return `raise it in .codelabgen/config.yaml (budgets: ${used.budget}: ${more}, for instance) if the user agrees to spend more`;
}
