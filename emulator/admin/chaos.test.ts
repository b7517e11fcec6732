import { ChaosControls } from "./chaos";
import { SeededRandom } from "./random";

const sequence = (seed: number) => {
  const random = new SeededRandom(seed);
  const chaos = new ChaosControls(() => random.next());
  chaos.add({ method: "GET", table: "vms", probability: 0.5, status: 503 });
  return Array.from({ length: 20 }, () => (chaos.decide("GET", "vms").answer ? 1 : 0)).join("");
};

describe("chaos rules", () => {
  test("a rule matches its method and table, adds latency and answers its status with its body", () => {
    const chaos = new ChaosControls(() => 0);
    chaos.add({ method: "POST", table: "vm_actions", latencyMs: 40, status: 503, body: { error: "busy" } });
    chaos.add({ table: "*", latencyMs: 10 });
    expect(chaos.decide("GET", "vm_actions")).toEqual({ latencyMs: 10, answer: undefined });
    expect(chaos.decide("POST", "vm_actions")).toEqual({ latencyMs: 50, answer: { status: 503, body: { error: "busy" } } });
    expect(chaos.list().map((r) => r.hits)).toEqual([1, 2]);
  });

  test("the same seed fires on the same requests; another seed on others", () => {
    expect(sequence(42)).toBe(sequence(42));
    expect(sequence(42)).not.toBe(sequence(7));
    expect(sequence(42)).toMatch(/1/);
    expect(sequence(42)).toMatch(/0/);
  });

  test("rules are cleared one by one or all at once", () => {
    const chaos = new ChaosControls(() => 0);
    const first = chaos.add({ status: 500 });
    chaos.add({ status: 502 });
    expect(chaos.clear(first.id)).toBe(true);
    expect(chaos.clear(first.id)).toBe(false);
    expect(chaos.list().map((r) => r.status)).toEqual([502]);
    chaos.clear();
    expect(chaos.list()).toEqual([]);
  });

  test("invalid rules are refused naming the field", () => {
    const chaos = new ChaosControls(() => 0);
    expect(() => chaos.add({ table: "vms" })).toThrow(/status, a latencyMs or both/);
    expect(() => chaos.add({ status: 200 })).toThrow(/'status'/);
    expect(() => chaos.add({ latencyMs: 5, body: {} })).toThrow(/'body'/);
    expect(() => chaos.add({ status: 500, probability: 2 })).toThrow(/'probability'/);
    expect(() => chaos.add({ status: 500, colour: 1 })).toThrow(/'colour'/);
  });
});
