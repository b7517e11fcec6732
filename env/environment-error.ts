/** Where a value sits in an environment file, for errors a person can jump to. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export interface EnvironmentProblem {
  location: SourceLocation;
  /** Dotted path of the offending field, e.g. `vms[0].drives[1].disksize`. */
  path: string;
  message: string;
}

/** Every problem of an environment file, each as `file:line:col: path: message`. */
export class EnvironmentError extends Error {
  constructor(readonly problems: EnvironmentProblem[]) {
    super(problems.map(formatProblem).join("\n"));
    this.name = "EnvironmentError";
  }
}

export function formatProblem(p: EnvironmentProblem): string {
  const where = `${p.location.file}:${p.location.line}:${p.location.col}`;
  return p.path ? `${where}: ${p.path}: ${p.message}` : `${where}: ${p.message}`;
}
