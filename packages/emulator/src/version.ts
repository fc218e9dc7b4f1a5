/**
 * The package's version (a test checks it against package.json).
 *
 * @internal
 */
export const version = "0.1.0"
