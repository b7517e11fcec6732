import type { DeclaredMembers } from "../../plan/groupMembers";
import { PartialCreateError } from "../framework/defineProvider";
import { defineResource } from "../framework/defineResource";
import { resolveTimeouts } from "../framework/operationTimeouts";
import { errorText } from "../../reconcile/platform";
import { readMembers, syncMembers } from "./platform";
import { type GroupInputs, groupInputsSchema, groupShape } from "./schema";
import { GROUP_TABLE } from "../../schemas/tables";

/** The member lists a declaration manages (those it gives). */
const declaredMembers = (g: GroupInputs): DeclaredMembers => ({
  ...(g.users !== undefined ? { users: g.users } : {}),
  ...(g.memberGroups !== undefined ? { memberGroups: g.memberGroups } : {}),
});
const managesMembers = (g: GroupInputs) => g.users !== undefined || g.memberGroups !== undefined;

export const group = defineResource<GroupInputs, GroupInputs>({
  token: "Group",
  table: GROUP_TABLE,
  description:
    "A group of users: permissions granted to it reach every member (users, and the members of memberGroups); a member added elsewhere is drift.",
  schema: groupInputsSchema,
  shape: groupShape,
  // No field to mark: an interrupted create's group is found by its unique name.
  names: "unique",
  marker: "none",
  nameCheck: false,
  hooks: ({ shared: rows }) => ({
    async create(api, inputs) {
      const made = await rows.create(api, inputs);
      if (!managesMembers(inputs)) return made;
      try {
        await syncMembers(api, made.id, declaredMembers(inputs), resolveTimeouts(inputs.timeouts).create * 1000);
        return made;
      } catch (err) {
        // The group exists: recorded with no members, so the next update adds those still missing.
        const none = Object.fromEntries(Object.keys(declaredMembers(inputs)).map((list) => [list, []]));
        throw new PartialCreateError(
          `vplatform: group '${inputs.name}' was made but adding its members failed: ${errorText(err)}`,
          made.id,
          {
            ...made.outs,
            ...none,
          },
        );
      }
    },

    async read(api, id, olds) {
      const found = await rows.read(api, id, olds);
      if (!found) return undefined;
      // Members are read when managed, and on import (nothing declared yet) when the group has some.
      const importing = Object.keys(olds).length === 0;
      if (!importing && !managesMembers(olds)) return found;
      const live = await readMembers(api, id);
      const members = Object.fromEntries(
        Object.entries(live).filter(([list, keys]) =>
          importing ? keys.length > 0 : (olds as Record<string, unknown>)[list] !== undefined,
        ),
      );
      const inputs = { ...found.inputs, ...members };
      return { outs: inputs, inputs };
    },

    async update(api, id, olds, news) {
      const outs = await rows.update(api, id, olds, news);
      if (managesMembers(news)) await syncMembers(api, id, declaredMembers(news), resolveTimeouts(news.timeouts).update * 1000);
      return outs;
    },
  }),
});
