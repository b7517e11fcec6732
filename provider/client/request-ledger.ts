import { RequestBudgetExceeded } from "./errors";

/**
 * Requests sent by every client of the process. The budget is per process,
 * not per client: the provider may build a new client on every configure().
 */
export class RequestLedger {
  #sent = 0;

  get sent(): number {
    return this.#sent;
  }

  /** Records one request about to be sent, or throws when that would go over `budget`. */
  charge(budget: number | undefined, method: string, path: string): void {
    if (budget !== undefined && this.#sent >= budget) throw new RequestBudgetExceeded(budget, method, path);
    this.#sent++;
  }
}

export const processLedger = new RequestLedger();
