import { parseCidr } from "../schemas/common";
import {
  cloneOrder,
  copiesOverlapping,
  copiesThatFit,
  copyKey,
  copyName,
  copyNetwork,
  copyVms,
  existingVnetClashes,
  labProblems,
  networksOverlap,
  planCopies,
} from "./lab";

const lab = { name: "course", copies: 30, pool: "10.100.0.0/16" };

describe("copy names: the pattern with {lab} and {n} zero-padded to two digits, whatever the count", () => {
  test.each([
    [1, "01"],
    [7, "07"],
    [30, "30"],
    [100, "100"],
  ])("copy %i is numbered %s", (n, key) => {
    expect(copyKey(n)).toBe(key);
  });

  test("growing past 9 or 99 copies renames none: copy 7 is named alike at 9, 10 and 100 copies", () => {
    const seventh = (copies: number) => planCopies({ ...lab, copies, pool: "10.0.0.0/8" })[6].name;
    expect([seventh(9), seventh(10), seventh(100)]).toEqual(["course-07", "course-07", "course-07"]);
  });

  test("the default pattern is {lab}-{n}", () => {
    expect(
      planCopies(lab)
        .map((c) => c.name)
        .slice(0, 2),
    ).toEqual(["course-01", "course-02"]);
  });

  test("a pattern may put the number anywhere, and repeat the lab's name", () => {
    expect(copyName("s{n}.{lab}.{lab}", "net", 3)).toBe("s03.net.net");
  });

  test("a pattern without {n} makes two equal names: refused at copyName, naming the copies", () => {
    expect(labProblems({ ...lab, copyName: "{lab}-x" })).toEqual([
      { field: "copyName", message: "'{lab}-x' makes two copies named 'course-x' (copies 1 and 2): put {n} in the pattern" },
    ]);
  });

  test("a pattern without {n} is fine for a single copy", () => {
    expect(labProblems({ ...lab, copies: 1, copyName: "{lab}" })).toEqual([]);
  });

  test("names never depend on other copies: copy 2 of a class of 3 is copy 2 of a class of 2", () => {
    const [two, three] = [planCopies({ ...lab, copies: 2 }), planCopies({ ...lab, copies: 3 })];
    expect(three.slice(0, 2)).toEqual(two);
  });
});

describe("networks: one block per copy carved from the pool, in copy order", () => {
  test("a /24 per copy: gateway .1, DHCP .100-.199", () => {
    expect(copyNetwork("10.100.0.0/16", 24, 1)).toEqual({
      network: "10.100.0.0/24",
      gateway: "10.100.0.1",
      dhcpStart: "10.100.0.100",
      dhcpStop: "10.100.0.199",
    });
    expect(copyNetwork("10.100.0.0/16", 24, 30).network).toBe("10.100.29.0/24");
  });

  test.each([
    [23, "10.0.2.0/23", "10.0.2.1", "10.0.2.200", "10.0.3.143"],
    [25, "10.0.0.128/25", "10.0.0.129", "10.0.0.178", "10.0.0.227"],
    [28, "10.0.0.16/28", "10.0.0.17", "10.0.0.23", "10.0.0.27"],
    [30, "10.0.0.4/30", "10.0.0.5", "10.0.0.6", "10.0.0.6"],
  ])("copy 2 of /%i blocks: %s, gateway %s, DHCP %s-%s (the same share of the block)", (prefix, network, gateway, start, stop) => {
    expect(copyNetwork("10.0.0.0/16", prefix, 2)).toEqual({ network, gateway, dhcpStart: start, dhcpStop: stop });
  });

  test("every copy's gateway and DHCP range lie inside its network, and the networks are disjoint", () => {
    for (const prefix of [20, 24, 26, 30]) {
      const copies = planCopies({ ...lab, copies: 16, pool: "10.0.0.0/16", copyPrefix: prefix });
      for (const c of copies) {
        const net = parseCidr(c.network)!;
        for (const ip of [c.gateway, c.dhcpStart, c.dhcpStop]) expect(networksOverlap(c.network, `${ip}/32`)).toBe(true);
        expect(net.bits).toBe(prefix);
      }
      const pairs = copies.flatMap((a, i) => copies.slice(i + 1).map((b) => networksOverlap(a.network, b.network)));
      expect(pairs.every((overlap) => !overlap)).toBe(true);
    }
  });

  test.each([
    [16, 24, 256],
    [24, 24, 1],
    [22, 24, 4],
    [25, 24, 0],
    [16, 30, 16384],
  ])("a /%i pool holds this many /%i blocks: %i", (poolBits, prefix, fit) => {
    expect(copiesThatFit(poolBits, prefix)).toBe(fit);
  });

  test("a pool too small is refused at pool, saying how many copies fit", () => {
    expect(labProblems({ ...lab, pool: "10.100.0.0/22" })).toEqual([
      {
        field: "pool",
        message: "the pool 10.100.0.0/22 holds 4 /24 networks, too few for 30 copies: give a larger pool (at most 4 copies fit)",
      },
    ]);
  });

  test("a pool that is exactly large enough is fine", () => {
    expect(labProblems({ ...lab, copies: 4, pool: "10.100.0.0/22" })).toEqual([]);
  });

  test("a pool that is not the start of its block is refused, with the block to write", () => {
    expect(labProblems({ ...lab, pool: "10.100.5.0/16" })).toEqual([
      { field: "pool", message: "'10.100.5.0/16' is not the start of its block: write 10.100.0.0/16" },
    ]);
  });

  test.each([["10.100.0.0"], ["10.100.0.0/33"], ["net"]])("'%s' is no pool", (pool) => {
    expect(labProblems({ ...lab, pool })).toEqual([
      { field: "pool", message: `'${pool}' is not a CIDR block: write one like 10.100.0.0/16` },
    ]);
  });

  test.each([[0], [31], [2.5]])("copyPrefix %s is refused", (copyPrefix) => {
    expect(labProblems({ ...lab, copyPrefix }).map((p) => p.field)).toEqual(["copyPrefix"]);
  });

  test.each([[0], [-1], [1.5]])("copies %s is refused", (copies) => {
    expect(labProblems({ ...lab, copies }).map((p) => p.field)).toEqual(["copies"]);
  });

  test("planning a lab with problems throws them, naming the lab and the field", () => {
    expect(() => planCopies({ ...lab, pool: "10.100.0.0/24" })).toThrow(
      /^lab 'course': pool: the pool 10\.100\.0\.0\/24 holds 1 \/24 network, too few/,
    );
  });
});

describe("overlap of networks", () => {
  test.each([
    ["10.0.0.0/24", "10.0.0.0/24", true],
    ["10.0.0.0/16", "10.0.5.0/24", true],
    ["10.0.5.0/24", "10.0.0.0/16", true],
    ["10.0.0.0/24", "10.0.1.0/24", false],
    ["10.0.0.0/23", "10.0.1.7/32", true],
    ["0.0.0.0/0", "192.168.1.0/24", true],
    ["10.0.0.0/24", "not a network", false],
  ])("%s and %s overlap: %s", (a, b, overlap) => {
    expect(networksOverlap(a, b)).toBe(overlap);
  });

  test("the copies overlapping a network are named by it", () => {
    const copies = planCopies({ ...lab, copies: 5 });
    expect(copiesOverlapping(copies, "10.100.2.0/23").map((c) => c.name)).toEqual(["course-03", "course-04"]);
  });
});

describe("a copy's VMs: the template stamped for the copy", () => {
  const template = [
    { name: "web", cloneFrom: { vm: "golden", quiesce: true }, nics: [{ name: "eth0" }], cpuCores: 2 },
    { name: "golden", nics: [{ vnet: "shared" }, {}] },
    { name: "db", cloneFrom: { vm: "7" } },
  ];

  test("VMs are named <copy>-<vm>, keep their template name and fields, templates come before their clones", () => {
    const vms = copyVms<(typeof template)[number], string>(template, "course-02");
    expect(vms.map((v) => [v.template, v.name])).toEqual([
      ["golden", "course-02-golden"],
      ["web", "course-02-web"],
      ["db", "course-02-db"],
    ]);
    expect(vms[1]).toMatchObject({ cpuCores: 2, cloneFrom: { quiesce: true } });
  });

  test("a clone of a template VM clones that copy's VM; any other source is kept as given", () => {
    const vms = copyVms<(typeof template)[number], string>(template, "c1");
    expect(vms.map((v) => v.cloneFrom?.vm)).toEqual([undefined, { copyVm: "c1-golden" }, { given: "7" }]);
  });

  test("a NIC without a vnet is on the copy's vnet; a NIC naming one keeps it", () => {
    const vms = copyVms<(typeof template)[number], string>(template, "c1");
    expect(vms.map((v) => v.nics)).toEqual([
      [{ vnet: { given: "shared" } }, { vnet: { copyVnet: true } }],
      [{ name: "eth0", vnet: { copyVnet: true } }],
      [],
    ]);
  });

  test("a snapshot source (a term's pinned image) is kept as given, even one named like a template VM: no copy has it", () => {
    const vms = copyVms<{ name: string; cloneFrom?: { snapshot: string } | { vm: string } }, string>(
      [
        { name: "web", cloneFrom: { snapshot: "golden" } },
        { name: "golden", cloneFrom: { vm: "41" } },
      ],
      "c1",
    );
    expect(vms.map((v) => [v.name, v.cloneFrom])).toEqual([
      ["c1-web", { snapshot: { given: "golden" } }],
      ["c1-golden", { vm: { given: "41" } }],
    ]);
  });

  test("a clone reference that is not a string (an output) is kept as given and does not order the template", () => {
    const key = { toString: () => "web" };
    const vms = copyVms([{ name: "a", cloneFrom: { vm: key } }], "c1");
    expect(vms[0].cloneFrom?.vm).toEqual({ given: key });
  });

  test("clone order puts templates first and finds cycles", () => {
    expect(cloneOrder([{ name: "b", cloneFrom: { vm: "a" } }, { name: "a" }])?.map((v) => v.name)).toEqual(["a", "b"]);
    expect(
      cloneOrder([
        { name: "b", cloneFrom: { vm: "a" } },
        { name: "a", cloneFrom: { vm: "b" } },
      ]),
    ).toBeUndefined();
  });
});

describe("a copy's network must not overlap a vnet already on the platform", () => {
  const copies = planCopies({ ...lab, copies: 3 });

  test("a vnet of another name in a copy's network is a clash, naming the copy, both networks and what to do", () => {
    expect(existingVnetClashes("course", copies, [{ name: "office", network: "10.100.1.0/24" }])).toEqual([
      "lab 'course': pool: copy course-02's network 10.100.1.0/24 overlaps the existing vnet 'office' (10.100.1.0/24): choose a pool clear of it",
    ]);
  });

  test("a vnet around the whole pool clashes with every copy", () => {
    expect(existingVnetClashes("course", copies, [{ name: "big", network: "10.0.0.0/8" }])).toHaveLength(3);
  });

  test("the copies' own vnets (there after the first up), vnets without a network and vnets elsewhere are no clash", () => {
    const vnets = [
      { name: "course-01", network: "10.100.0.0/24" },
      { name: "plain", network: null },
      { name: "blank", network: "" },
      { name: "far", network: "10.101.0.0/24" },
    ];
    expect(existingVnetClashes("course", copies, vnets)).toEqual([]);
  });

  test("the vnet of a removed copy is a clash for no copy left (its network is no copy's any more)", () => {
    expect(existingVnetClashes("course", copies.slice(0, 2), [{ name: "course-03", network: "10.100.2.0/24" }])).toEqual([]);
  });
});
