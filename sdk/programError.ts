import * as pulumi from "@pulumi/pulumi";

/**
 * An error of the program's making that names its own cause (a failed look-up, a lab that cannot be laid out):
 * shown once, as its message. A RunError, so Pulumi prints no stack frames while the program runs, and its
 * stack is its message, for the rejections Pulumi reports by their stack once the program's code has returned
 * (an Output's look-up that fails later). Its message is not rewritten either:
 * Pulumi's serializer prefixes, in place, the message of an error that reaches a resource's inputs
 * (`error serializing property "machine": `), once for each property and resource it passes through, 17 times
 * for a small class, saying nothing the message does not.
 */
export class ProgramError extends pulumi.RunError {
  constructor(message: string) {
    super(message);
    // A setter that keeps the text: the serializer assigns (strict mode), so a read-only property would throw there.
    Object.defineProperty(this, "message", { get: () => message, set: () => undefined, configurable: true });
    this.stack = message;
  }
}
