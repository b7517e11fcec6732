import { Rendezvous } from "./rendezvous";

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe("a rendezvous lets its members go on together", () => {
  test("an arrival waits until every member has arrived", async () => {
    const meeting = new Rendezvous(3);
    const [a, b, c] = [meeting.member(), meeting.member(), meeting.member()];
    const first = a.arrive();
    const second = b.arrive();
    expect(await settled(first)).toBe(false);
    expect(await settled(Promise.all([first, second, c.arrive()]))).toBe(true);
  });

  test("a member that leaves (it failed before arriving) no longer holds the others", async () => {
    const meeting = new Rendezvous(2);
    const [a, b] = [meeting.member(), meeting.member()];
    const waiting = a.arrive();
    b.leave();
    expect(await settled(waiting)).toBe(true);
  });

  test("a member counts once, whether it arrives twice or leaves after arriving", async () => {
    const meeting = new Rendezvous(2);
    const [a, b] = [meeting.member(), meeting.member()];
    void a.arrive();
    a.leave();
    expect(await settled(a.arrive())).toBe(false);
    b.leave();
    expect(await settled(a.arrive())).toBe(true);
  });

  test("a rendezvous of no member holds nobody", async () => {
    expect(await settled(new Rendezvous(0).member().arrive())).toBe(true);
  });
});
