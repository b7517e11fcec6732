import { labsOutput } from "../test/env/labFixture";
import { chooseCopies, maskSecrets, parseLabsOutput } from "./lab-outputs";
import { buildRoster, firstGuestIp, type LiveVm, renderRosterCsv, renderRosterJson, renderRosterMarkdown, vmConsoleUrl } from "./roster";

const ENDPOINT = "https://lab.example:8443";

const live = new Map<string, LiveVm>([
  ["211", { power: "running", ip: "10.100.0.100" }],
  ["212", { power: "stopped" }],
  ["221", { power: "running", ip: "10.100.1.100" }],
  ["222", { power: "starting" }],
]);
const roster = (secrets: "clear" | "masked") => {
  const labs = parseLabsOutput({ labs: labsOutput(2) }, "dev");
  return buildRoster(chooseCopies(secrets === "masked" ? maskSecrets(labs) : labs, {}), live, ENDPOINT);
};

describe("firstGuestIp: the first address the guest agent reports", () => {
  test.each([
    [
      "the QEMU agent's interfaces",
      {
        network: [
          { name: "lo", "ip-addresses": [{ "ip-address": "127.0.0.1" }] },
          { name: "eth0", "ip-addresses": [{ "ip-address": "10.1.0.5" }] },
        ],
      },
      "10.1.0.5",
    ],
    ["a list of interfaces with plain addresses", [{ "ip-addresses": ["fe80::1", "10.1.0.6"] }], "10.1.0.6"],
    ["nothing reported (a stopped VM)", [], undefined],
    ["no agent", null, undefined],
  ])("%s", (_what, info, ip) => {
    expect(firstGuestIp(info)).toBe(ip);
  });
});

describe("buildRoster: per copy its number, user, key, network and VMs with their live state", () => {
  test("the VMs carry their keys, power state and first IP; a VM not read is unknown", () => {
    const r = buildRoster(chooseCopies(parseLabsOutput({ labs: labsOutput(1) }, "dev"), {}), new Map(), ENDPOINT);
    expect(r.copies[0]).toEqual({
      number: 1,
      name: "course-1",
      user: "course-1",
      apiKey: "vpk_1_s3cret",
      vnet: "course-1",
      network: "10.100.0.0/24",
      vms: [
        { vm: "web", name: "course-1-web", vmKey: "111", machineKey: "211", console: `${ENDPOINT}/#/vm-console/111`, power: "unknown" },
        { vm: "db", name: "course-1-db", vmKey: "112", machineKey: "212", console: `${ENDPOINT}/#/vm-console/112`, power: "unknown" },
      ],
    });
  });
});

describe("a VM's console link is built as the maker's clients build it", () => {
  test.each([
    ["https://lab.example", "5", "https://lab.example/#/vm-console/5"],
    ["https://lab.example:8443/", "42", "https://lab.example:8443/#/vm-console/42"],
    ["https://10.0.0.9:8443/api", "7", "https://10.0.0.9:8443/#/vm-console/7"],
  ])("%s, VM %s: %s", (endpoint, vm, url) => expect(vmConsoleUrl(endpoint, vm)).toBe(url));
});

describe("renderings: Markdown (pasteable table), CSV, JSON; secrets only when read in clear", () => {
  test("Markdown: one row per copy, VMs in one cell", () => {
    expect(renderRosterMarkdown(roster("masked"))).toBe(
      [
        "## Lab course: 2 copies",
        "",
        "| # | Copy | User | API key | Network | VMs |",
        "|---|---|---|---|---|---|",
        `| 1 | course-1 | course-1 | \`[secret]\` | course-1 10.100.0.0/24 | web: course-1-web (VM 111), running, 10.100.0.100, [console](${ENDPOINT}/#/vm-console/111)<br>db: course-1-db (VM 112), stopped, [console](${ENDPOINT}/#/vm-console/112) |`,
        `| 2 | course-2 | course-2 | \`[secret]\` | course-2 10.100.1.0/24 | web: course-2-web (VM 121), running, 10.100.1.100, [console](${ENDPOINT}/#/vm-console/121)<br>db: course-2-db (VM 122), starting, [console](${ENDPOINT}/#/vm-console/122) |`,
        "",
      ].join("\n"),
    );
  });

  test("Markdown: a pipe in a value does not break the table", () => {
    const r = roster("clear");
    r.copies[0].user = "a|b";
    expect(renderRosterMarkdown(r)).toContain("| a\\|b |");
  });

  test("CSV: one line per VM, a header, RFC 4180 quoting", () => {
    const r = roster("masked");
    r.copies[1].user = 'x,"y"';
    expect(renderRosterCsv(r).split("\r\n")).toEqual([
      "lab,number,copy,user,api_key,vnet,network,vm,vm_name,vm_key,machine_key,power,ip,console",
      `course,1,course-1,course-1,[secret],course-1,10.100.0.0/24,web,course-1-web,111,211,running,10.100.0.100,${ENDPOINT}/#/vm-console/111`,
      `course,1,course-1,course-1,[secret],course-1,10.100.0.0/24,db,course-1-db,112,212,stopped,,${ENDPOINT}/#/vm-console/112`,
      `course,2,course-2,"x,""y""",[secret],course-2,10.100.1.0/24,web,course-2-web,121,221,running,10.100.1.100,${ENDPOINT}/#/vm-console/121`,
      `course,2,course-2,"x,""y""",[secret],course-2,10.100.1.0/24,db,course-2-db,122,222,starting,,${ENDPOINT}/#/vm-console/122`,
      "",
    ]);
  });

  test("JSON: the roster object itself", () => {
    expect(JSON.parse(renderRosterJson(roster("masked")))).toEqual(roster("masked"));
  });

  test.each([
    ["Markdown", renderRosterMarkdown],
    ["CSV", renderRosterCsv],
    ["JSON", renderRosterJson],
  ])("%s shows no secret unless it was read in clear (--show-secrets)", (_format, render) => {
    expect(render(roster("masked"))).not.toMatch(/vpk_/);
    expect(render(roster("masked"))).toContain("[secret]");
    expect(render(roster("clear"))).toContain("vpk_2_s3cret");
  });
});
