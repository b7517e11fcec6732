import { compareValues, toBoolean, toNumber, toText } from "./values";

describe("toNumber accepts numbers and strict numeric text", () => {
  test.each([
    [5, 5],
    ["5", 5],
    ["-1.5", -1.5],
    [".5", 0.5],
    ["1e3", 1000],
    ["007", 7],
    ["", undefined],
    [" 5", undefined],
    ["0x10", undefined],
    ["5a", undefined],
    [Number.NaN, undefined],
    [Infinity, undefined],
    [true, undefined],
    [null, undefined],
  ])("%j → %j", (value, expected) => expect(toNumber(value)).toBe(expected));
});

describe("toBoolean accepts booleans and the text true/false in any case", () => {
  test.each([
    [true, true],
    ["TRUE", true],
    ["false", false],
    ["yes", undefined],
    [1, undefined],
    [null, undefined],
  ])("%j → %j", (value, expected) => expect(toBoolean(value)).toBe(expected));
});

describe("toText gives scalars as text and nothing for the rest", () => {
  test.each([
    ["a", "a"],
    [5, "5"],
    [false, "false"],
    [null, undefined],
    [[1], undefined],
    [{}, undefined],
  ])("%j → %j", (value, expected) => expect(toText(value)).toBe(expected));
});

describe("compareValues", () => {
  test.each([
    [null, undefined, 0],
    [null, 0, undefined],
    [1, null, undefined],
    [true, "true", 0],
    [false, true, -1],
    [true, 1, undefined],
    ["10", 9, 1],
    ["10", "9", 1],
    ["abc", "abd", -1],
    ["b", "B", 1],
    [5, "five", -1],
    [[1], [1], undefined],
    [{}, "x", undefined],
  ])("%j vs %j → %j", (a, b, expected) => {
    const order = compareValues(a, b);
    expect(order === undefined ? undefined : Math.sign(order)).toBe(expected);
  });
});
