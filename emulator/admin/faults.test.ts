import { FaultInjector } from "./faults";

describe("fault injection", () => {
  test("a fault matches method and table, and retires after count hits", () => {
    const faults = new FaultInjector();
    faults.add({ method: "POST", table: "vms", status: 500, count: 2 });
    expect(faults.match("GET", "vms")).toBeUndefined();
    expect(faults.match("POST", "vnets")).toBeUndefined();
    expect(faults.match("POST", "vms")?.status).toBe(500);
    expect(faults.match("POST", "vms")?.status).toBe(500);
    expect(faults.match("POST", "vms")).toBeUndefined();
  });

  test("wildcards match everything; probability uses the random source", () => {
    let r = 0.9;
    const faults = new FaultInjector(() => r);
    faults.add({ status: 408, probability: 0.5 });
    expect(faults.match("GET", "vms")).toBeUndefined();
    r = 0.1;
    expect(faults.match("DELETE", "machine_drives")?.status).toBe(408);
  });

  test("where narrows a fault to requests carrying those body fields or that row key", () => {
    const faults = new FaultInjector();
    faults.add({ method: "POST", table: "machine_drives", status: 500, where: { machine: 103 } });
    faults.add({ method: "DELETE", table: "vms", status: 503, where: { $key: "7" } });
    expect(faults.match("POST", "machine_drives", { body: { machine: 104 } })).toBeUndefined();
    expect(faults.match("POST", "machine_drives")).toBeUndefined(); // before the body is read: only faults without where
    expect(faults.match("POST", "machine_drives", { body: { machine: "103", media: "disk" } })?.status).toBe(500);
    expect(faults.match("DELETE", "vms", { key: "70" })).toBeUndefined();
    expect(faults.match("DELETE", "vms", { key: "7" })?.status).toBe(503);
    expect(() => faults.add({ status: 500, where: { machine: { eq: 1 } } })).toThrow(/where/);
  });

  test("invalid faults are refused with the field named", () => {
    const faults = new FaultInjector();
    expect(() => faults.add({ method: "FOO", status: 500 })).toThrow(/method/);
    expect(() => faults.add({ status: 99 })).toThrow(/status/);
    expect(() => faults.add({ table: "vms" })).toThrow(/required/);
    expect(() => faults.add({ status: 500, bogus: 1 })).toThrow(/bogus/);
  });
});
