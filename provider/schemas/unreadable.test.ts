// What an import cannot read back is derived from the declarations: one warning per field,
// naming it and saying what to do. A new write-only field or once-only output is covered at once.
import { apiKeyOutputs, apiKeyShape } from "../resources/apiKey/schema";
import { importWarnings } from "./unreadable";
import { userShape } from "../resources/user/schema";
import { webhookShape } from "../resources/webhook/schema";
import { taskShape } from "../resources/task/schema";

describe("an import warns about every value the platform never answers", () => {
  test("User: the password", () => {
    expect(importWarnings(userShape)).toEqual([
      "password is write-only: the platform never answers it, so the import leaves it unknown; declare it (the next update sends it)",
    ]);
  });
  test("Webhook: the authorization (its type is read, its credential never)", () => {
    expect(importWarnings(webhookShape)).toEqual([
      "authorization is write-only: the platform never answers it, so the import leaves it unknown; declare it (the next update sends it)",
    ]);
  });
  test("ApiKey: the secret, answered only at creation", () => {
    expect(importWarnings(apiKeyShape, apiKeyOutputs)).toEqual([
      "secret is answered only when the row is created, so the import leaves it unknown; " +
        "change rotation to replace the key and get a new secret",
    ]);
  });
  test("Task: nothing (every field reads back)", () => expect(importWarnings(taskShape)).toEqual([]));
});
