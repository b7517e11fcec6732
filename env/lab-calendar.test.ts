import { EnvironmentError } from "./environment-error";
import { loadEnvironment } from "./load-environment";

function problems(yaml: string): string[] {
  try {
    loadEnvironment("class.yaml", yaml);
    return [];
  } catch (e) {
    if (e instanceof EnvironmentError) return e.message.split("\n");
    throw e;
  }
}

const lab = (calendar: string, vm = "      - name: web\n") => `labs:
  - name: course
    copies: 2
    pool: 10.100.0.0/16
    vms:
${vm}    calendar:
${calendar}`;

describe("a lab's calendar in a file: bad input refused at its line, naming the field", () => {
  test("a valid calendar loads", () => {
    expect(
      problems(
        lab(
          `      timeZone: Europe/Paris\n      sessions: [{ days: [monday, thursday], start: "09:00", stop: "12:30" }]\n      ends: 2031-05-14\n`,
        ),
      ),
    ).toEqual([]);
  });
  test("an unknown day", () => {
    expect(problems(lab(`      sessions: [{ days: [monday, funday], start: "09:00", stop: "12:00" }]\n`))).toEqual([
      expect.stringMatching(/^class\.yaml:8:35: labs\[0\]\.calendar\.sessions\[0\]\.days\[1\]: unknown day 'funday': valid are monday/),
    ]);
  });
  test("a stop before the start", () => {
    expect(problems(lab(`      sessions:\n        - days: [monday]\n          start: "11:00"\n          stop: "09:00"\n`))).toEqual([
      expect.stringMatching(/^class\.yaml:11:17: labs\[0\]\.calendar\.sessions\[0\]\.stop: stop 09:00 is not after start 11:00/),
    ]);
  });
  test("an unknown time zone", () => {
    expect(problems(lab(`      timeZone: Europe/Atlantis\n`))).toEqual([
      expect.stringMatching(/^class\.yaml:8:17: labs\[0\]\.calendar\.timeZone: unknown time zone 'Europe\/Atlantis'/),
    ]);
  });
  test("a date that does not exist, and a daylight-saving zone without an end", () => {
    expect(problems(lab(`      ends: 2031-02-30\n`))).toEqual([
      expect.stringMatching(/labs\[0\]\.calendar\.ends: '2031-02-30' is not a valid date/),
    ]);
    expect(problems(lab(`      timeZone: Europe/Paris\n      sessions: [{ days: [monday], start: "09:00", stop: "10:00" }]\n`))).toEqual([
      expect.stringMatching(/labs\[0\]\.calendar\.ends: is required with Europe\/Paris/),
    ]);
  });
  test("a VM's powerState beside sessions (the calendar powers the copies)", () => {
    expect(
      problems(
        lab(`      sessions: [{ days: [monday], start: "09:00", stop: "10:00" }]\n`, "      - name: web\n        powerState: running\n"),
      ),
    ).toEqual([expect.stringMatching(/labs\[0\]\.vms: powerState: the calendar powers the copies on and off/)]);
  });
});
