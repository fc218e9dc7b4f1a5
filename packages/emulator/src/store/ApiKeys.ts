/**
 * API authentication keys: generating them, storing only a hash of the secret, and checking a
 * secret in constant time. (Reading them from a request's `Authorization` is the HTTP edge's:
 * `http/Caller.ts`.)
 *
 * Secrets are hashed with HMAC-SHA256 under a per-key random salt rather than scrypt: every request
 * is authenticated, and a deliberately slow hash would cap the emulator at a few dozen requests per
 * second. Generated secrets carry 238 bits of entropy, so a fast keyed hash is no weaker in practice.
 *
 * Internal to the emulator: not exported from `effect-kas-wallet-emulator`.
 *
 * @since 0.1.0
 * @internal
 */
import { Redacted } from "effect"
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
const UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Rejection sampling keeps every character uniformly likely.
const randomString = (alphabet: string, length: number): string => {
  const limit = 256 - (256 % alphabet.length)
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length]
    }
  }
  return out
}

/**
 * A fresh AccessKey ID: `KASK` followed by 20 upper-case letters and digits, the look of the real
 * service's ids.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateAccessKeyId = (): string => `KASK${randomString(UPPER_ALNUM, 20)}`

/**
 * A fresh Secret AccessKey: 40 letters and digits (never a colon, so it survives any Basic parser).
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateSecret = (): Redacted.Redacted<string> => Redacted.make(randomString(ALNUM, 40))

/**
 * A fresh random salt for `hashSecret`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const generateSalt = (): Uint8Array => new Uint8Array(randomBytes(16))

/**
 * The stored form of a secret: HMAC-SHA256 keyed by the salt.
 *
 * @since 0.1.0
 * @category hashing
 */
export const hashSecret = (secret: Redacted.Redacted<string>, salt: Uint8Array): Uint8Array =>
  new Uint8Array(createHmac("sha256", salt).update(Redacted.value(secret), "utf8").digest())

/**
 * Whether a secret matches a stored hash. The comparison takes the same time wherever the first
 * difference is.
 *
 * @since 0.1.0
 * @category hashing
 */
export const verifySecret = (secret: Redacted.Redacted<string>, salt: Uint8Array, hash: Uint8Array): boolean => {
  const candidate = hashSecret(secret, salt)
  return candidate.length === hash.length && timingSafeEqual(candidate, hash)
}

// A fixed salt and hash to compare against when the key id is unknown, so that an unknown id and a
// wrong secret take the same time.
const DUMMY_SALT = generateSalt()
const DUMMY_HASH = hashSecret(Redacted.make(""), DUMMY_SALT)

/**
 * Spends the time of a real check without a stored key (for unknown key ids).
 *
 * @since 0.1.0
 * @category hashing
 */
export const verifyAgainstNothing = (secret: Redacted.Redacted<string>): false => {
  verifySecret(secret, DUMMY_SALT, DUMMY_HASH)
  return false
}

/**
 * Whether a string can be an AccessKey ID: 1 to 128 visible ASCII characters, no colon (Basic
 * credentials split on the first one).
 *
 * @since 0.1.0
 * @category guards
 */
export const isAccessKeyId = (s: string): boolean => /^[\x21-\x39\x3b-\x7e]{1,128}$/.test(s)

/**
 * Whether a string can be a Secret AccessKey: 1 to 256 characters without control characters.
 *
 * @since 0.1.0
 * @category guards
 */
export const isSecret = (s: string): boolean => s.length >= 1 && s.length <= 256 && !/[\x00-\x1f\x7f]/.test(s)
