/**
 * Long matrices run a fast form in CI and their full form with VPLATFORM_TESTS=full (`npm run test:full`):
 * the same assertions over more cells.
 */
export const FULL_FORM = process.env.VPLATFORM_TESTS === "full";
