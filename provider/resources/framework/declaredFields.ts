import type { Row } from "../../reconcile/platform";

/**
 * A read reports only the fields the program declares (the rest is the
 * platform's business), except when nothing is known yet — `pulumi import`
 * and `.get()` read with empty properties — then the whole row, so the
 * generated code declares it all and the next preview shows no change.
 */
export const declaredFields = (olds: Row): Row | undefined => (Object.keys(olds).length > 0 ? olds : undefined);
