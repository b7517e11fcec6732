// The automation kinds' row mappings, as their declarations derive them (rowsOf), typed by their inputs: what the
// row operations' tests hand to createRow, readRow, updateRow and deleteRow.
import { rowsOf } from "../../../provider/resources/framework/defineResource";
import { apiKey } from "../../../provider/resources/apiKey/resource";
import type { ApiKeyInputs } from "../../../provider/resources/apiKey/schema";
import { eventTrigger } from "../../../provider/resources/eventTrigger/resource";
import type { EventTriggerInputs } from "../../../provider/resources/eventTrigger/schema";
import { schedule } from "../../../provider/resources/schedule/resource";
import type { ScheduleInputs } from "../../../provider/resources/schedule/schema";
import { task } from "../../../provider/resources/task/resource";
import type { TaskInputs } from "../../../provider/resources/task/schema";
import { user } from "../../../provider/resources/user/resource";
import type { UserInputs } from "../../../provider/resources/user/schema";
import { webhook } from "../../../provider/resources/webhook/resource";
import type { WebhookInputs } from "../../../provider/resources/webhook/schema";

export const webhookRows = rowsOf<WebhookInputs>(webhook);
export const taskRows = rowsOf<TaskInputs>(task);
export const userRows = rowsOf<UserInputs>(user);
export const eventTriggerRows = rowsOf<EventTriggerInputs>(eventTrigger);
export const scheduleRows = rowsOf<ScheduleInputs>(schedule);
export const apiKeyRows = rowsOf<ApiKeyInputs>(apiKey);
