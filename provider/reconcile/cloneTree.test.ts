import { CloneTree, type CloneSeed } from "./cloneTree";

const seed = (n: number): CloneSeed => ({ vmKey: String(n), machineKey: `m${n}`, name: `vm${n}` });
const golden = seed(0);

/**
 * Simulates `count` creates cloning through the tree in rounds: each clone
 * takes a seed, "clones" (the seed is busy until the round ends), gives it
 * back, offers itself, and records when it was released to be customized.
 */
async function grow(count: number, maxAtOnce: number) {
  const tree = new CloneTree(golden, maxAtOnce);
  const sources: string[] = [];
  const released: number[] = [];
  let round = 0;
  const rounds: string[][] = [];
  const create = async (n: number) => {
    const from = await tree.take();
    sources.push(from.vmKey);
    (rounds[round] ??= []).push(from.vmKey);
    await new Promise((r) => setImmediate(r)); // the clone runs until the round ends
    await roundOver;
    tree.give(from);
    await tree.offer(seed(n));
    released.push(n);
  };
  let endRound!: () => void;
  let roundOver = new Promise<void>((r) => (endRound = r));
  const all = Promise.all(Array.from({ length: count }, (_, i) => create(i + 1)));
  while (released.length < count) {
    await new Promise((r) => setImmediate(r));
    const end = endRound;
    roundOver = new Promise<void>((r) => (endRound = r));
    round++;
    end();
    await new Promise((r) => setImmediate(r));
    if (round > count + 5) throw new Error("the tree made no progress");
  }
  await all;
  return { tree, sources, released, rounds: rounds.filter(Boolean) };
}

describe("a clone tree: a finished, pristine clone seeds the clones still waiting", () => {
  it("doubles the clones each round up to the bound: 90 clones in 7 rounds at 32 at once", async () => {
    const { rounds, tree } = await grow(90, 32);
    expect(rounds.map((r) => r.length)).toEqual([1, 2, 4, 8, 16, 32, 27]);
    expect(tree.peakRunning).toBe(32);
  });

  it("never clones from one seed twice at once, and every clone is made once", async () => {
    const { rounds, released } = await grow(40, 8);
    for (const r of rounds) expect(new Set(r).size).toBe(r.length);
    expect([...released].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(Math.max(...rounds.map((r) => r.length))).toBe(8);
  });

  it("lets a clone be customized as soon as no waiting clone needs it (a lone clone at once)", async () => {
    const tree = new CloneTree(golden);
    const from = await tree.take();
    expect(from).toEqual(golden);
    tree.give(from);
    await tree.offer(seed(1)); // resolves: nobody waits
    expect(await tree.take()).toEqual(golden); // the declared source stays in the tree
  });

  it("gives a failed clone's seed back to the next clone", async () => {
    const tree = new CloneTree(golden, 1);
    const first = await tree.take();
    const second = tree.take();
    tree.give(first); // the first clone failed: it offers nothing
    expect(await second).toEqual(golden);
  });
});
