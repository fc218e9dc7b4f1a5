/**
 * Command-line options that fall back to an environment variable, shared by the `accounts` and
 * `emulator` commands.
 *
 * @since 0.1.0
 */
import { Options } from "@effect/cli"
import { Config, type Option, type Redacted } from "effect"
import { EnvironmentVariables } from "../WalletConfig.js"

/**
 * An optional option read from the command line, else from `config` (an environment variable).
 *
 * @since 0.1.0
 * @category constructors
 */
export const optional = <A>(option: Options.Options<A>, config: Config.Config<A>, description: string): Options.Options<Option.Option<A>> =>
  option.pipe(Options.withFallbackConfig(config), Options.optional, Options.withDescription(description))

/**
 * `--access-key-id`, else `KAS_ACCESS_KEY_ID`.
 *
 * @since 0.1.0
 * @category options
 */
export const accessKeyId = (description: string): Options.Options<Option.Option<string>> =>
  optional(Options.text("access-key-id"), Config.string(EnvironmentVariables.accessKeyId), description)

/**
 * `--secret-access-key`, else `KAS_SECRET_ACCESS_KEY`; a `Redacted` value, never printed.
 *
 * @since 0.1.0
 * @category options
 */
export const secretAccessKey = (description: string): Options.Options<Option.Option<Redacted.Redacted<string>>> =>
  optional(Options.redacted("secret-access-key"), Config.redacted(EnvironmentVariables.secretAccessKey), description)
