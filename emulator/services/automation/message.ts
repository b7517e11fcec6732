/**
 * Message variables of task payloads: `${DATE}` (the date and time as a full
 * text, UTC), `${TIMESTAMP}` (epoch seconds), `${RANDOM}` (a random integer,
 * fresh for each occurrence) and `${NAME}` (name of the object the task runs
 * for). Unknown variables stay as written.
 */

/** The task message when none is given: a key/value pair whose value is "Webhook". */
export const DEFAULT_MESSAGE = '{"message": "Webhook"}';

export interface MessageContext {
  nowMs: number;
  name: string;
  random: () => number;
}

export function randomInteger(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

export function expandMessage(message: string, context: MessageContext): string {
  return message.replace(/\$\{(DATE|TIMESTAMP|RANDOM|NAME)\}/g, (_match, variable: string) => {
    switch (variable) {
      case "DATE":
        return new Date(context.nowMs).toUTCString();
      case "TIMESTAMP":
        return String(Math.floor(context.nowMs / 1000));
      case "RANDOM":
        return String(context.random());
      default:
        return context.name;
    }
  });
}
