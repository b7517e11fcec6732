/**
 * `vplatform env outputs <file> --stack <s>`: the stack's outputs as JSON on stdout, what a pipeline takes from
 * an environment (each entry's key, a key's secret): the file is not run. Secrets show as `[secret]` unless
 * `--show-secrets`.
 */
import { StackNotFoundError } from "@pulumi/pulumi/automation";
import type { CliArgs } from "./cli-args";
import { EXIT, type Io } from "./cli-io";
import { engineErrorMessage } from "./engine-errors";
import { type EnvironmentStack, openEnvironmentStack } from "./environment-stack";
import { noSuchStack, stackOutputs } from "./stack-outputs";

export async function runOutputsCommand(args: CliArgs, io: Io, engineEnv: Record<string, string>, backend?: string): Promise<number> {
  let opened: EnvironmentStack | undefined;
  try {
    opened = await openEnvironmentStack({ projectName: args.project, stackName: args.stack, env: engineEnv, existing: true });
    const outputs = await stackOutputs(opened.stack, args.showSecrets === true);
    io.stdout(`${JSON.stringify(outputs, null, 2)}\n`);
    return EXIT.ok;
  } catch (e) {
    const notFound = e instanceof StackNotFoundError;
    io.stderr(`error: ${notFound ? noSuchStack(args, backend) : engineErrorMessage(e)}\n`);
    return notFound ? EXIT.invalid : EXIT.error;
  } finally {
    opened?.dispose();
  }
}
