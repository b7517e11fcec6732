import { GIB, MIB, bytesText, withUnits } from "./sizes";

describe("a size in short is in binary units, never a bare number", () => {
  test.each([
    [20 * GIB, "20 GiB"],
    [512 * MIB, "512 MiB"],
    [1.5 * GIB, "1.5 GiB"],
    [20_000_000_000, "18.63 GiB"],
    [2 * 2 ** 40, "2 TiB"],
    [1024, "1 KiB"],
    [20, "20 B"],
  ])("%d bytes → %s", (bytes, text) => expect(bytesText(bytes)).toBe(text));
});

describe("a size in full gives its bytes, then its decimal and binary sizes (20GB is told apart from 20GiB)", () => {
  test.each([
    [20 * GIB, "21474836480 (21.47 GB = 20 GiB)"],
    [20_000_000_000, "20000000000 (20 GB = 18.63 GiB)"],
    [MIB, "1048576 (1.05 MB = 1 MiB)"],
    [20, "20 B"],
  ])("%d bytes → %s", (bytes, text) => expect(withUnits(bytes)).toBe(text));
});
