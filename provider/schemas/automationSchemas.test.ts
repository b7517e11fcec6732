// The automation resources' schemas: what a declaration sends to the platform, that every
// form the platform answers with reads back as declared (no perpetual diff), the change
// effects and secrets, and the rules each schema runs.
import type { z } from "zod";
import { problems } from "../../test/schemaProblems";
import { apiKeyExpiryProblems, apiKeyInputsSchema } from "../resources/apiKey/schema";
import { fieldMeta, type Shape } from "./common";
import { eventTriggerShape, eventTriggerInputsSchema } from "../resources/eventTrigger/schema";
import { scheduleInputsSchema, scheduleShape } from "../resources/schedule/schema";
import { taskInputsSchema } from "../resources/task/schema";
import { userInputsSchema, userShape } from "../resources/user/schema";
import { apiKeyShape } from "../resources/apiKey/schema";
import { webhookInputsSchema, webhookShape } from "../resources/webhook/schema";
import { taskShape } from "../resources/task/schema";
import { apiKeyRows, eventTriggerRows, scheduleRows, taskRows, userRows, webhookRows } from "../../test/provider/automation/rowMappings";

const parse = <S extends z.ZodType>(schema: S, input: unknown) => schema.parse(input) as z.output<S>;

describe("User: sent as the users table's fields; the password is secret and write-only", () => {
  const user = parse(userInputsSchema, {
    name: "ci-bot",
    displayName: "CI",
    email: "ci@example.org",
    password: "pw-1",
    role: "vmoperator",
  });
  test("the body carries every field, the password included", () => {
    expect(userRows.toApiBody(user)).toEqual({
      name: "ci-bot",
      displayname: "CI",
      email: "ci@example.org",
      enabled: true,
      role: "vmoperator",
      password: "pw-1",
    });
  });
  test("the password is never asked for, and a row without it reads back as declared without it", () => {
    expect(userRows.readFields.split(",")).not.toContain("password");
    const row = { $key: 5, name: "ci-bot", displayname: "CI", email: "ci@example.org", enabled: "true", role: "vmoperator" };
    expect(userRows.fromApiRow(row, user)).toEqual({
      name: "ci-bot",
      displayName: "CI",
      email: "ci@example.org",
      enabled: true,
      role: "vmoperator",
    });
    expect(fieldMeta(userShape.password)).toMatchObject({ secret: true, writeOnly: true });
  });
  test("a login name with spaces and a malformed e-mail are refused at their fields", () => {
    expect(problems(userInputsSchema, { name: "ci bot", email: "nope" }).map((p) => p.split(":")[0])).toEqual(["name", "email"]);
  });
});

describe("ApiKey: expiry, IP lists and rotation", () => {
  const key = parse(apiKeyInputsSchema, {
    name: "pipeline",
    user: 7,
    expires: "2031-01-31T00:00:00Z",
    ipAllowList: [{ address: "10.0.0.0/24" }, { address: "192.0.2.9", enabled: false }, { address: "2001:db8::/32" }],
  });
  test("the body: the date as Unix seconds with its type, only enabled entries as comma text", () => {
    expect(apiKeyRows.toApiBody(key)).toEqual({
      user: "7",
      name: "pipeline",
      description: "",
      expires: 1927584000,
      expires_type: "date",
      ip_allow_list: "10.0.0.0/24,2001:db8::/32",
      ip_deny_list: "",
    });
    expect(apiKeyRows.toApiBody(parse(apiKeyInputsSchema, { name: "k" }))).toMatchObject({ expires: 0, expires_type: "never" });
  });
  test("the row reads back as declared: the disabled entry from the declaration, in its place", () => {
    const row = {
      $key: 3,
      user: 7,
      name: "pipeline",
      description: "",
      expires: 1927584000,
      expires_type: "date",
      ip_allow_list: "10.0.0.0/24,2001:db8::/32",
      ip_deny_list: "",
    };
    expect(apiKeyRows.fromApiRow(row, key)).toEqual({ ...key, ipAllowList: key.ipAllowList, rotation: undefined });
    expect(apiKeyRows.fromApiRow(row, key).ipAllowList).toEqual(key.ipAllowList);
  });
  test("a list changed on the platform reads as the platform's entries (plus the disabled ones)", () => {
    const row = { ip_allow_list: "10.9.9.9", ip_deny_list: "", expires: 0, expires_type: "never" };
    expect(apiKeyRows.fromApiRow(row, key).ipAllowList).toEqual([
      { address: "10.9.9.9", enabled: true },
      { address: "192.0.2.9", enabled: false },
    ]);
    expect(apiKeyRows.fromApiRow(row, key).expires).toBe("never");
  });
  test("the read asks for the columns of every field, the secret never (the platform answers it once)", () => {
    expect(apiKeyRows.readFields.split(",").sort()).toEqual([
      "$key",
      "description",
      "expires",
      "expires_type",
      "ip_allow_list",
      "ip_deny_list",
      "name",
      "user",
    ]);
  });
  test("the user and rotation replace the key; the rest changes in place", () => {
    const effects = Object.fromEntries(Object.entries(apiKeyShape as Shape).map(([f, s]) => [f, fieldMeta(s)?.onChange ?? "update"]));
    expect(effects).toEqual({
      user: "replace",
      name: "update",
      description: "update",
      expires: "update",
      ipAllowList: "update",
      ipDenyList: "update",
      rotation: "replace",
      timeouts: "control",
    });
  });
  test("a wrong IP entry is refused by the schema; the expiry rule judges a new date only", () => {
    expect(problems(apiKeyInputsSchema, { name: "k", ipDenyList: [{ address: "10.0.0.0/40" }] })).toEqual([
      "ipDenyList.0.address: '10.0.0.0/40' is neither an IP address nor a CIDR block: " +
        "write an address (10.0.0.5, 2001:db8::5) or a block (10.0.0.0/24, 2001:db8::/32)",
    ]);
    const now = Date.parse("2032-01-01T00:00:00Z");
    expect(apiKeyExpiryProblems("2031-01-31T00:00:00Z", undefined, now).map((p) => p.path.join("."))).toEqual(["expires"]);
    expect(apiKeyExpiryProblems("2031-01-31T00:00:00Z", "2031-01-31T00:00:00Z", now)).toEqual([]);
  });
  test("an expiry that is no date is refused by the schema", () => {
    expect(problems(apiKeyInputsSchema, { name: "k", expires: "soon" })).toEqual([
      'expires: must be an ISO date (2030-01-31 or 2030-01-31T12:00:00Z) or "never"',
    ]);
  });
});

describe("Webhook: authorization by type (secret, write-only), ordered headers, timeout of 3 or more", () => {
  const hook = (extra: Record<string, unknown> = {}) =>
    parse(webhookInputsSchema, { name: "alerts", url: "https://127.0.0.1:9/hook", ...extra });
  test("defaults: no authorization, the platform's Content-Type header, timeout 5, retries 3", () => {
    expect(webhookRows.toApiBody(hook())).toEqual({
      name: "alerts",
      description: "",
      url: "https://127.0.0.1:9/hook",
      allow_insecure: false,
      timeout: 5,
      retries: 3,
      authorization_type: "none",
      authorization_value: "",
      headers: "Content-Type: application/json",
    });
  });
  test.each([
    [{ type: "bearer", token: "t0k" }, "bearer", "t0k"],
    [{ type: "apiKey", key: "raw-key" }, "apikey", "raw-key"],
    [{ type: "basic", username: "u", password: "p:w" }, "basic", "u:p:w"],
  ])("%j is sent as type %s with its value", (authorization, type, value) => {
    expect(webhookRows.toApiBody(hook({ authorization }))).toMatchObject({ authorization_type: type, authorization_value: value });
  });
  test("read back, the declared authorization stands while the type matches; another type shows as that type", () => {
    const declared = hook({
      authorization: { type: "bearer", token: "t0k" },
      headers: [
        { name: "X-B", value: "2" },
        { name: "X-A", value: "1" },
      ],
    });
    const row = {
      name: "alerts",
      description: "",
      url: "https://127.0.0.1:9/hook",
      allow_insecure: false,
      timeout: 5,
      retries: 3,
      authorization_type: "bearer",
      headers: "X-B: 2\nX-A: 1",
    };
    expect(webhookRows.fromApiRow(row, declared)).toEqual({ ...declared, adopt: undefined });
    expect(webhookRows.fromApiRow({ ...row, authorization_type: "none" }, declared).authorization).toEqual({ type: "none" });
    expect(webhookRows.readFields.split(",")).not.toContain("authorization_value");
    expect(fieldMeta(webhookShape.authorization)?.secret).toBe(true);
  });
  test("the bad inputs are refused at their fields", () => {
    expect(
      problems(webhookInputsSchema, {
        name: "w",
        url: "ftp://x",
        timeout: 2,
        headers: [{ name: "", value: "v" }],
        authorization: { type: "bearer", token: "Bearer abc" },
      }),
    ).toEqual([
      "url: must be an http or https URL, e.g. https://hooks.example/alert",
      "timeout: timeout 2 is below 3: the platform waits at least 3 seconds, so give 3 or more",
      "headers.0.name: headers[0] has no name: give the header's name (e.g. X-Source), or remove the entry",
      "authorization.token: authorization.token starts with 'Bearer': give the token alone, the platform adds the word",
    ]);
    expect(problems(webhookInputsSchema, { name: "w", url: "https://x", authorization: { type: "apiKey", key: "ApiKey abc" } })).toEqual([
      "authorization.key: authorization.key has the prefix 'ApiKey': give the raw key alone, without a prefix",
    ]);
    expect(problems(webhookInputsSchema, { name: "w", url: "https://x", authorization: { type: "token" } })[0]).toMatch(
      /^authorization(\.type)?: /,
    );
    expect(problems(webhookInputsSchema, { name: "w", url: "https://x", headers: "X-A: 1" })).toEqual([
      "headers: Invalid input: expected array, received string",
    ]);
  });
});

describe("Task: the webhook as its owner, the message inside settings_args", () => {
  const task = parse(taskInputsSchema, { name: "vm-stopped", webhook: 4, message: '{"vm": "${NAME}", "at": ${TIMESTAMP}}' });
  test("the body and its read-back", () => {
    const body = taskRows.toApiBody(task);
    expect(body).toEqual({
      name: "vm-stopped",
      description: "",
      enabled: true,
      delete_after_run: false,
      owner: "webhook_urls/4",
      settings_args: { message: task.message },
    });
    const row = { ...body, table: "webhook_urls", settings_args: { message: task.message } };
    expect(taskRows.fromApiRow(row, task)).toEqual({ ...task, adopt: undefined });
  });
  test("the default message is the spec's", () =>
    expect(parse(taskInputsSchema, { name: "t", webhook: "1" }).message).toBe('{"message": "Webhook"}'));
  test("a message variable outside the four is refused at message", () => {
    expect(problems(taskInputsSchema, { name: "t", webhook: "1", message: "${HOSTNAME}" })).toEqual([
      "message: message uses ${HOSTNAME}: only ${DATE}, ${TIMESTAMP}, ${RANDOM}, ${NAME} are expanded, so remove or correct it",
    ]);
  });
  test("a one-time task is replaced when the flag changes", () =>
    expect(fieldMeta(taskShape.deleteAfterRunning)?.onChange).toBe("replace"));
});

describe("EventTrigger: the object as <type>/<key> in owner", () => {
  test("an object, a tag, or neither (null clears the other)", () => {
    const on = (extra: Record<string, unknown>) =>
      eventTriggerRows.toApiBody(parse(eventTriggerInputsSchema, { task: 2, type: "vms", event: "poweroff", ...extra }));
    expect(on({ object: 12 })).toEqual({ task: "2", table: "vms", event: "poweroff", owner: "vms/12", tag: null });
    expect(on({ tag: 3 })).toEqual({ task: "2", table: "vms", event: "poweroff", owner: null, tag: "3" });
    expect(on({})).toEqual({ task: "2", table: "vms", event: "poweroff", owner: null, tag: null });
  });
  test("an update sends the narrowing whole when the object or the tag changed, and nothing of it otherwise", () => {
    const whole = parse(eventTriggerInputsSchema, { task: 2, type: "vms", event: "poweroff", tag: 3 });
    expect(eventTriggerRows.toApiBody({ object: undefined, tag: undefined }, "update", { ...whole, tag: undefined })).toEqual({
      owner: null,
      tag: null,
    });
    expect(eventTriggerRows.toApiBody({ object: "12" }, "update", { ...whole, object: "12", tag: undefined })).toEqual({
      owner: "vms/12",
      tag: null,
    });
    expect(eventTriggerRows.toApiBody({ event: "poweron" }, "update", { ...whole, event: "poweron" })).toEqual({ event: "poweron" });
  });
  test("the row reads back as declared", () => {
    const declared = parse(eventTriggerInputsSchema, { task: 2, type: "vms", event: "poweroff", object: 12 });
    expect(
      eventTriggerRows.fromApiRow({ $key: 1, task: 2, table: "vms", event: "poweroff", owner: "vms/12", tag: null }, declared),
    ).toEqual(declared);
  });
  test("task and type replace the trigger; event, object and tag change in place", () => {
    expect(
      Object.entries(eventTriggerShape as Shape)
        .filter(([, s]) => fieldMeta(s)?.onChange === "replace")
        .map(([f]) => f),
    ).toEqual(["task", "type"]);
  });
});

describe("Schedule: dates as Unix seconds, times of day as seconds, weekdays as flags, tasks as links", () => {
  const schedule = parse(scheduleInputsSchema, {
    name: "nightly",
    repeatEvery: "day",
    start: "2030-01-01",
    end: "2030-12-31T23:00:00Z",
    startTimeOfDay: "02:30",
    days: ["monday", "friday"],
    tasks: ["4"],
  });
  const body = scheduleRows.toApiBody(schedule);
  test("the body", () => {
    expect(body).toEqual({
      name: "nightly",
      description: "",
      enabled: true,
      repeat_every: "day",
      repeat_iteration: 1,
      all_day: true,
      day_of_month: 0,
      start_date: 1893456000,
      end_date: 1924988400,
      start_time_of_day: 9000,
      end_time_of_day: 86400,
      monday: true,
      tuesday: false,
      wednesday: false,
      thursday: false,
      friday: true,
      saturday: false,
      sunday: false,
    });
  });
  test("the row reads back as declared (the tasks are links, read apart)", () => {
    expect(scheduleRows.fromApiRow({ $key: 1, ...body }, schedule)).toEqual({ ...schedule, tasks: undefined, adopt: undefined });
  });
  test("an end before the start is refused at end; so is a window that closes before it opens", () => {
    expect(
      problems(scheduleInputsSchema, { name: "s", start: "2030-02-01", end: "2030-01-01", startTimeOfDay: "10:00", endTimeOfDay: "09:00" }),
    ).toEqual([
      "end: end 2030-01-01 is before start 2030-02-01: give an end after the start, or leave end out for no end",
      "endTimeOfDay: endTimeOfDay 09:00 is before startTimeOfDay 10:00: give a later end",
    ]);
  });
  test("the task links are never sent with the schedule", () =>
    expect(fieldMeta(scheduleShape.tasks)).toMatchObject({ onChange: "action" }));
});
