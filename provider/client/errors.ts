import { type SettingNaming, settingNaming } from "../config/provider-config";

/**
 * An answer of the platform that is not a success, or a request that got no
 * answer (`status` 0, with the connection error's `code`). It carries the
 * request and the API's own text, never a credential, a header or got's options.
 */
export class ApiError extends Error {
  override name = "ApiError";
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly apiMessage?: string,
    /** For status 0: the connection error (ECONNRESET, ETIMEDOUT, a TLS verification code, ...). */
    readonly code?: string,
    /** The settings to fix when the failure is the configuration's (see settingsHint). */
    readonly hint?: string,
  ) {
    super(formatApiError(status, method, path, apiMessage) + (hint ? `: ${hint}` : ""));
  }
}

/** Connection failures where nothing reached a server: the request was not sent, so nothing can have been applied. */
const UNREACHABLE: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
export const isUnreachable = (code: string | undefined): boolean => code !== undefined && UNREACHABLE.has(code);

/** Where a request went and with which credential settings, for the errors that are the configuration's. */
export interface RequestSettings {
  endpoint: string;
  /** e.g. `vplatform:apiKey / VPLATFORM_API_KEY` (credentialSettingsOf). */
  credentials: string;
  /** Each request's time limit (vplatform:requestTimeoutMs). */
  requestTimeoutMs?: number;
}

/**
 * The setting to fix behind a failure that is the configuration's, not the platform's: refused credentials
 * (401), an endpoint where nothing answers, or one that never answered a request in time. Refresh and destroy do not run the program, so they use the
 * settings stored by the last update: the hint says how to give them the corrected ones.
 */
export function settingsHint(
  status: number,
  code: string | undefined,
  settings: RequestSettings,
  named: SettingNaming = settingNaming(),
  /** Whether the endpoint ever answered this client: a first request that times out is taken for a wrong endpoint. */
  answered = true,
): string | undefined {
  const then = named.afterCorrecting ? `. ${named.afterCorrecting}` : "";
  if (status === 0 && code === "ETIMEDOUT" && !answered) {
    const within = settings.requestTimeoutMs
      ? ` within ${settings.requestTimeoutMs / 1000} s (${named.withVariable("requestTimeoutMs")})`
      : "";
    return `${settings.endpoint} accepted the connection but never answered${within}: check ${named.withVariable("endpoint")}: is it the platform's API${then}`;
  }
  // An IP allow list refuses a right key the same way: from an address it does not list.
  if (status === 401)
    return `the platform refused the credentials: check ${settings.credentials}, and that the key's IP allow list (if any) lists this machine's address${then}`;
  if (status === 0 && isUnreachable(code)) {
    return `nothing was sent, nothing answers at ${settings.endpoint}: check ${named.withVariable("endpoint")}${then}`;
  }
  return undefined;
}

/** `POST /v4/vms: 409 VM with that name exists`; status 0 reads as "no response". */
export function formatApiError(status: number, method: string, path: string, apiMessage?: string): string {
  const outcome = status === 0 ? "no response" : String(status);
  return `${method} ${path}: ${outcome}${apiMessage ? ` ${apiMessage}` : ""}`;
}

/** The configured cap on requests was reached (the platform allows 1000 per hour per API key). */
export class RequestBudgetExceeded extends Error {
  override name = "RequestBudgetExceeded";
  constructor(
    readonly budget: number,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: not sent, the request budget of ${budget} requests (${settingNaming().name("requestBudget")}) is used up`);
  }
}

/** The API's error text: `err` in validation errors, `error` in operation errors (`message` in some releases). */
export function apiMessageOf(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return body.trim().slice(0, 200) || undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { err, error, message } = parsed as Record<string, unknown>;
  const text = [err, error, message].find((t) => typeof t === "string" && t !== "");
  return text as string | undefined;
}

/** "action": the create or update of a resource that makes no row, only acts (VmPower). */
export type Operation = "create" | "read" | "update" | "delete" | "action";

/** What running it again means, per operation: a failed deletion is retried by the destroy that failed. */
const RERUN: Record<Operation, string> = {
  create: "re-run `pulumi up`",
  read: "re-run `pulumi up`",
  update: "re-run `pulumi up`",
  action: "re-run `pulumi up`",
  delete: "re-run the destroy (`pulumi destroy`, or the `pulumi up` that removed the resource)",
};

/**
 * What the user can do about a failed create/update/delete, from what the
 * platform answered. Undefined when the message already says it (our own
 * errors carry their next step) or nothing better than the text exists.
 */
export function nextStep(err: unknown, op: Operation): string | undefined {
  const rerun = RERUN[op];
  if (err instanceof RequestBudgetExceeded)
    return `raise ${settingNaming().name("requestBudget")}, or wait for the hour's allowance (1000 requests per API key) and ${rerun}`;
  if (!(err instanceof ApiError)) return undefined;
  const s = err.status;
  const may = {
    create: "it may have been created; the next `pulumi up` finds it by its marker and takes it over",
    read: "a read changes nothing; re-running it is safe",
    update: "it may have been applied; re-running `pulumi up` is safe",
    delete: "it may have been deleted; re-running the destroy is safe",
    action: "the action may have been taken; the next `pulumi up` reads the machine's state and acts only if it still differs",
  }[op];
  if (s === 0 && isUnreachable(err.code)) return undefined; // nothing was sent: the message names the setting
  if (s === 0)
    return `the platform did not answer (${err.code ?? "no response"}); ${may}. If the platform is restarting, ${rerun} once it is back`;
  if (s === 401) return "fix the credentials before re-running: repeated failures lock the account";
  if (s === 403) return "the credentials lack the permission: use an API key of a user allowed to change this table";
  if (s === 404)
    return op === "create"
      ? "a referenced row does not exist: check the keys in the declaration"
      : "the row no longer exists: run `pulumi refresh` to drop it from the state";
  if (s === 409 && /in progress|busy|locked/i.test(err.apiMessage ?? ""))
    return `another operation on it is running: wait for it to finish and ${rerun}`;
  if (s === 409 && op === "delete") return `the row is still in use by others: delete or detach them, then ${rerun}`;
  if (s === 409 && op === "action") return `the machine's state does not allow the action now: bring it to a state that does and ${rerun}`;
  if (s === 409)
    return "the name or the row is in use: free the name (rename or delete the other row), rename this one, or set adopt to take the row over";
  if (s === 429) return `the platform's rate limit was hit: wait and ${rerun} (the platform allows 1000 requests per hour per API key)`;
  if (s === 507) return `the platform is out of storage or cluster resources: free space or pick another tier, then ${rerun}`;
  if (s === 400 || s === 422) return `the platform refused a value: fix the field it names in the declaration and ${rerun}`;
  if (s >= 500 || s === 408) return `the platform failed (${s}); ${may}. ${capitalized(rerun)} when it is healthy`;
  return undefined;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const VERB: Record<Operation, string> = { create: "creating", read: "reading", update: "updating", delete: "deleting", action: "applying" };

/** The error with the operation and the next step in its message; the original stays its cause. */
export function explained(err: unknown, op: Operation, what: string): Error {
  const text = err instanceof Error ? err.message : String(err);
  const step = nextStep(err, op);
  const head = `vplatform: ${VERB[op]} ${what}`;
  if (!step && text.startsWith("vplatform: ")) return err instanceof Error ? err : new Error(text);
  const body = text.replace(/^vplatform: /, "");
  return Object.assign(new Error(`${head}: ${body}${step ? `. Next: ${step}` : ""}`), { cause: err });
}
