/**
 * Counts every `/api` request (`GET /_emulator/requests`), by caller (API key
 * name, else user name, else "anonymous") and by (caller, method, table), so
 * tests can assert how many calls a provider made.
 */
export interface CounterEntry {
  key: string;
  method: string;
  table: string;
  count: number;
}

export class RequestCounter {
  private total = 0;
  private byKey = new Map<string, number>();
  private entries = new Map<string, CounterEntry>();

  record(key: string, method: string, table: string): void {
    this.total++;
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
    const id = `${key}\u0000${method}\u0000${table}`;
    const entry = this.entries.get(id);
    if (entry) entry.count++;
    else this.entries.set(id, { key, method, table, count: 1 });
  }

  snapshot(): { total: number; byKey: Record<string, number>; entries: CounterEntry[] } {
    return { total: this.total, byKey: Object.fromEntries(this.byKey), entries: [...this.entries.values()].map((e) => ({ ...e })) };
  }

  reset(): void {
    this.total = 0;
    this.byKey.clear();
    this.entries.clear();
  }
}
