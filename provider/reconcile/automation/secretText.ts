/**
 * A secret the platform answers once (an API key's secret): it reaches the
 * caller only through `reveal()`. Printed, logged, inspected or serialized,
 * it shows as [secret], so a debug line or an error that carries the object
 * does not carry the value.
 */
import { inspect } from "node:util";

export class SecretText {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return "[secret]";
  }

  toJSON(): string {
    return "[secret]";
  }

  [inspect.custom](): string {
    return "[secret]";
  }
}
