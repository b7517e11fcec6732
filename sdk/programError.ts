import * as pulumi from "@pulumi/pulumi";

/**
 * An error of the program's making that names its own cause (a failed look-up, a lab that cannot be laid out):
 * shown once, as its message. A RunError, so Pulumi prints no stack frames; and its message is not rewritten:
 * Pulumi's serializer prefixes, in place, the message of an error that reaches a resource's inputs
 * (`error serializing property "machine": `), once for each property and resource it passes through, 17 times
 * for a small class, saying nothing the message does not.
 */
export class ProgramError extends pulumi.RunError {
  constructor(message: string) {
    super(message);
    // A setter that keeps the text: the serializer assigns (strict mode), so a read-only property would throw there.
    Object.defineProperty(this, "message", { get: () => message, set: () => undefined, configurable: true });
  }
}
