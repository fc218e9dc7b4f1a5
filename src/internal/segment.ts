/**
 * The rule of a KRN segment, shared by the KRN schema and its generator.
 *
 * @internal
 */

/**
 * Visible ASCII except ',' and ':'. Colons separate segments; commas separate the KRNs of one
 * x-krn header; anything outside visible ASCII cannot travel in a header at all.
 *
 * @internal
 */
export const SEGMENT = /^[\x21-\x2b\x2d-\x39\x3b-\x7e]+$/
