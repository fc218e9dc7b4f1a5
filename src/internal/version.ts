/**
 * The library's version, sent in the User-Agent (a test checks it against package.json).
 *
 * @internal
 */
export const version = "0.1.0"
