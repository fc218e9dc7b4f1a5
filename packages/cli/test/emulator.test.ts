/**
 * `kas-wallet emulator` in process: its options from EmulatorConfig's one table (flags over the
 * environment, one parser), the data directory that keeps the member and key, the shell settings,
 * `--ephemeral`, and the mapping of the emulator's failures to one line and an exit code.
 */
import { describe, expect, it } from "@effect/vitest"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as SqlError from "@effect/sql/SqlError"
import { ConfigProvider, Deferred, Duration, Effect, Either, Fiber, Option, Redacted } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import * as DataDir from "../src/input/DataDir.js"
import { failureOf, plan, type ServeFlags } from "../src/commands/emulator/Handlers.js"
import { EmulatorConfig } from "effect-kas-wallet-emulator"
import { EmulatorError } from "effect-kas-wallet-emulator/EmulatorError"
import { capturing, cli, running } from "./_run.js"

const tempDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "kas-cli-emu-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)

const names = Object.keys(EmulatorConfig.fields) as ReadonlyArray<EmulatorConfig.Name>

/** Serve flags: none given but `given`. */
const flags = (given: Partial<Record<EmulatorConfig.Name | "dataDir" | "secretAccessKeyFile", string>> & { ephemeral?: boolean }): ServeFlags =>
  ({
    ...Object.fromEntries(names.map((n) => [n, Option.fromNullable(given[n])])),
    dataDir: Option.fromNullable(given.dataDir),
    secretAccessKeyFile: Option.fromNullable(given.secretAccessKeyFile),
    ephemeral: given.ephemeral ?? false
  }) as unknown as ServeFlags

const planWith = (given: Parameters<typeof flags>[0], env: Record<string, string> = {}) =>
  plan(flags(given)).pipe(
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
    Effect.provide(NodeContext.layer),
    Effect.either
  )

const unquote = (s: string) => s.replace(/^"(.*)"$/, "$1")

/** Serves in process until `listening on`; the lines printed, and the fiber to stop it. */
const serve = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const ready = yield* Deferred.make<string>()
    const console = yield* capturing((line) => {
      lines.push(line)
      const url = /^listening on (\S+)$/m.exec(line)?.[1]
      if (url !== undefined) Deferred.unsafeDone(ready, Effect.succeed(url))
    }, (line) => lines.push(`stderr: ${line}`))
    const fiber = yield* Effect.fork(running(["emulator", "--port", "0", ...args], env, console))
    const url = yield* Effect.raceFirst(Deferred.await(ready), Effect.flatMap(Fiber.join(fiber), (code) => Effect.succeed(`exited ${code}: ${lines.join("\n")}`)))
    return { url, text: lines.join("\n"), stop: Fiber.interrupt(fiber) }
  })

/** Evaluates shell settings with `sh` in `cwd`, then prints the variables `names`, one a line. */
const evaluated = (settings: string, cwd: string, names: ReadonlyArray<string>) =>
  spawnSync("sh", ["-c", `${settings}\n${names.map((n) => `printf '%s\\n' "$${n}"`).join("\n")}`], {
    cwd,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" }
  }).stdout.split("\n").slice(0, names.length)

describe("EmulatorConfig's table", () => {
  it.effect("every option is read from its variable by EmulatorConfig.config", () =>
    Effect.gen(function*() {
      const env = new Map(Object.values(EmulatorConfig.fields).map((f) => [f.env, unquote(f.example)]))
      const values = yield* Effect.withConfigProvider(EmulatorConfig.values, ConfigProvider.fromMap(env))
      for (const name of names) expect(values[name], name).toBeDefined()
      const options = yield* Effect.withConfigProvider(EmulatorConfig.config, ConfigProvider.fromMap(env))
      expect(options.host).toBe("0.0.0.0")
      expect(options.port).toBe(0)
      expect(Redacted.value(options.authToken!)).toBe("eyJhbGciOi...")
      expect(options.member?.accessKeyId).toBe("KASKEXAMPLEKEY0000000001")
      expect(options.member?.accountId).toBe("team-a")
      expect(options.faults?.kinds).toEqual(["429", "503", "drop"])
      expect(Duration.toMillis(options.faults!.latency!)).toBe(2000)
      expect(options.faults?.retryAfter).toBe(2)
      expect(options.mining).toBe("manual")
      const half = yield* Effect.either(
        Effect.withConfigProvider(EmulatorConfig.config, ConfigProvider.fromMap(new Map([["KAS_ACCESS_KEY_ID", "KASK1"]])))
      )
      expect(Either.isLeft(half)).toBe(true)
      const port = (p: string) =>
        Effect.either(Effect.withConfigProvider(EmulatorConfig.config, ConfigProvider.fromMap(new Map([["KAS_EMULATOR_PORT", p]]))))
      expect(Either.getOrThrow(yield* port("0")).port).toBe(0)
      expect(Either.isLeft(yield* port("65536"))).toBe(true)
    }))
})

describe("kas-wallet emulator options", () => {
  it.effect("flags win over the environment, both read by the table's own parsers, with messages naming where the value came from", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const planned = yield* planWith({ dataDir: dir, port: "1234", faultRate: "0.5" }, {
        KAS_EMULATOR_PORT: "4321",
        KAS_EMULATOR_HOST: "0.0.0.0",
        KAS_EMULATOR_FAULT_SEED: "7"
      })
      const p = Either.getOrThrow(planned)
      expect(p.options.port).toBe(1234)
      expect(p.options.host).toBe("0.0.0.0")
      expect(p.options.faults).toMatchObject({ rate: 0.5, seed: 7 })
      expect(p.options.database).toBe(path.join(dir, "emulator.db"))
      expect(p.directory).toBe(dir)

      const message = (e: Either.Either<unknown, { readonly message: string; readonly code: number }>) =>
        Either.isLeft(e) ? `${e.left.code} ${e.left.message}` : "ok"
      expect(message(yield* planWith({ dataDir: dir, port: "abc" }))).toBe("2 --port must be a port number from 0 to 65535 (got abc)")
      expect(message(yield* planWith({ dataDir: dir }, { KAS_EMULATOR_PORT: "99999" }))).toBe(
        "2 KAS_EMULATOR_PORT must be a port number from 0 to 65535 (got 99999)"
      )
      expect(message(yield* planWith({ dataDir: dir, faultRate: "lots" }))).toBe("2 --fault-rate must be a number (got lots)")
      expect(message(yield* planWith({ dataDir: dir, faultLatency: "soon" }))).toBe(
        "2 --fault-latency must be a duration such as 250 millis or 2 seconds (got soon)"
      )
      expect(message(yield* planWith({ ephemeral: true, database: "x.db" }))).toBe("2 --ephemeral keeps nothing: leave out --db")
      expect(message(yield* planWith({ ephemeral: true, dataDir: dir }))).toBe("2 --ephemeral keeps nothing: leave out --data-dir")
      expect(message(yield* planWith({ dataDir: dir, secretAccessKey: "s", secretAccessKeyFile: "f", accessKeyId: "KASK1" }))).toBe(
        "2 give --secret-access-key or --secret-access-key-file, not both"
      )
    }).pipe(Effect.scoped))

  it.effect("defaults: port 8787, the data directory's database; --ephemeral: in memory", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const persistent = Either.getOrThrow(yield* planWith({}, { XDG_DATA_HOME: dir }))
      expect(persistent.options.port).toBe(8787)
      expect(persistent.directory).toBe(path.join(dir, "kas-wallet", "emulator"))
      expect(persistent.options.database).toBe(path.join(dir, "kas-wallet", "emulator", "emulator.db"))
      expect((yield* Effect.promise(() => fs.stat(persistent.directory!))).mode & 0o777).toBe(0o700)
      expect(DataDir.defaultDirectory({}, "/home/me")).toBe("/home/me/.kas-wallet/emulator")
      const remote = Either.getOrThrow(yield* planWith({ dataDir: dir, database: "libsql://db.example.com" }))
      expect(remote.options.masterKeyFile).toBe(path.join(dir, "emulator.key"))
      const ephemeral = Either.getOrThrow(yield* planWith({ ephemeral: true }, { KAS_EMULATOR_DB: "/somewhere.db" }))
      expect(ephemeral.options.database).toBe(":memory:")
      expect(ephemeral.directory).toBeUndefined()
    }).pipe(Effect.scoped))

  it.live("the first run creates the member and key, stores them (0600), prints the secret once; the next reuses them; `env` prints the settings", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const first = yield* serve(["--data-dir", dir])
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const secret = /^secret access key: (\S+)$/m.exec(first.text)?.[1]
      const member = /^created member (\S+) with access key id (\S+)$/m.exec(first.text)
      expect(secret).toMatch(/^[A-Za-z0-9]{40}$/)
      expect(first.text.split(secret!).length - 1).toBe(1)
      const file = path.join(dir, "secret-access-key")
      expect(first.text).toContain(`(shown this once; stored for reuse in ${file}, mode 0600)`)
      const settings = [
        `export KAS_WALLET_URL=${first.url}`,
        `export KAS_NODE_URL=${first.url}/v1/klaytn`,
        "export KAS_CHAIN_ID=1001",
        `export KAS_ACCOUNT_ID=${member![1]}`,
        `export KAS_ACCESS_KEY_ID=${member![2]}`,
        `export KAS_EMULATOR_DATA_DIR=${dir}`,
        `export KAS_SECRET_ACCESS_KEY="$(cat ${file})"`,
        "unset KAS_ACCOUNT_POOL KAS_FEEPAYER_POOL KAS_EMULATOR_DB"
      ].join("\n")
      expect(first.text).toContain(`\n${settings}\nlistening on ${first.url}`)
      expect(yield* Effect.promise(() => fs.readFile(file, "utf8"))).toBe(`${secret}\n`)
      for (const name of ["secret-access-key", "member.json", "env"]) {
        expect((yield* Effect.promise(() => fs.stat(path.join(dir, name)))).mode & 0o777, name).toBe(0o600)
      }
      const created = yield* cli(["accounts", "create", "--json"], {
        KAS_WALLET_URL: first.url,
        KAS_ACCESS_KEY_ID: member![2]!,
        KAS_SECRET_ACCESS_KEY_FILE: file
      })
      expect(created.code, created.err).toBe(0)
      yield* first.stop

      const second = yield* serve(["--data-dir", dir])
      expect(second.text).toContain(`member ${member![1]}, access key id ${member![2]} (stored in ${dir})`)
      expect(second.text).not.toContain(secret!)
      const env = yield* cli(["emulator", "env", "--data-dir", dir])
      expect(env.out).toBe(settings.replaceAll(first.url, second.url))
      expect(env.out).not.toContain(secret!)
      // The settings work in a shell, and find the account of the first run.
      const shell = spawnSync("sh", ["-c", `${env.out}\nprintf '%s %s %s' "$KAS_WALLET_URL" "$KAS_ACCESS_KEY_ID" "$KAS_SECRET_ACCESS_KEY"`], {
        encoding: "utf8",
        env: { PATH: process.env.PATH ?? "", KAS_ACCOUNT_POOL: "krn:1001:wallet:x:account-pool:y" }
      })
      const [url, id, key] = shell.stdout.split(" ")
      expect([url, id, key]).toEqual([second.url, member![2], secret])
      const listed = yield* cli(["accounts", "list", "--json"], { KAS_WALLET_URL: url!, KAS_ACCESS_KEY_ID: id!, KAS_SECRET_ACCESS_KEY: key! })
      expect(JSON.parse(listed.out).items.map((a: { address: string }) => a.address)).toEqual([JSON.parse(created.out).address])
      // The settings of this shell are the stored key: still the stored one.
      yield* second.stop
      const third = yield* serve(["--data-dir", dir], { KAS_ACCESS_KEY_ID: id!, KAS_SECRET_ACCESS_KEY: key! })
      expect(third.text).toContain(`(stored in ${dir})`)
      expect(third.text).toContain(`export KAS_SECRET_ACCESS_KEY="$(cat ${file})"`)
      yield* third.stop

      // Another master key is refused at start, and never printed.
      const wrong = yield* cli(["emulator", "--port", "0", "--data-dir", dir, "--master-key", "another-master-key"])
      expect(wrong.code).toBe(2)
      expect(wrong.err).toMatch(/^kas-wallet: .*master key does not match this database/)
      expect(wrong.err.split("\n")).toHaveLength(1)
      expect(wrong.out + wrong.err).not.toContain("another-master-key")
      expect(wrong.out).not.toContain("listening on")

      const ephemeral = yield* serve(["--ephemeral"])
      const throwaway = /^export KAS_SECRET_ACCESS_KEY=(\S+)$/m.exec(ephemeral.text)?.[1]
      expect(throwaway).toMatch(/^[A-Za-z0-9]{40}$/)
      expect(ephemeral.text.split(throwaway!).length - 1).toBe(1)
      expect(ephemeral.text).toContain("ephemeral run: nothing is kept after it stops")
      yield* ephemeral.stop
    }).pipe(Effect.scoped), 60_000)

  it.live("a data directory given relative, with a space: the settings name it absolute, quoted, and work from any directory; member, key and pool commands follow KAS_EMULATOR_DATA_DIR", () =>
    Effect.gen(function*() {
      const parent = yield* tempDir
      const dir = path.join(parent, "my emulator")
      const relative = path.relative(process.cwd(), dir)
      const started = yield* serve(["--data-dir", relative])
      expect(started.text).toContain(`data directory ${dir}\n`)
      const quoted = `'${dir}'`
      expect(started.text).toContain(`\nexport KAS_EMULATOR_DATA_DIR=${quoted}\n`)
      expect(started.text).toContain(`\nexport KAS_SECRET_ACCESS_KEY="$(cat '${path.join(dir, "secret-access-key")}')"\n`)
      const secret = yield* Effect.promise(() => fs.readFile(path.join(dir, "secret-access-key"), "utf8"))
      // `emulator env`, given the directory as the user typed it, run elsewhere: the same settings.
      const env = yield* cli(["emulator", "env", "--data-dir", relative])
      expect(env.code, env.err).toBe(0)
      const names = ["KAS_SECRET_ACCESS_KEY", "KAS_EMULATOR_DATA_DIR", "KAS_ACCOUNT_ID", "KAS_CHAIN_ID", "KAS_ACCESS_KEY_ID", "KAS_WALLET_URL"]
      const values = evaluated(env.out, os.tmpdir(), names)
      expect(values.slice(0, 2)).toEqual([secret.trim(), dir])
      const settings = Object.fromEntries(names.map((n, i) => [n, values[i]!]))

      // The console commands find the emulator's database through the settings alone.
      const pool = yield* cli(["emulator", "pool", "create", "--name", "payroll"], settings)
      expect(pool.code, pool.err).toBe(0)
      expect(pool.out).toBe(`krn:1001:wallet:${settings.KAS_ACCOUNT_ID}:account-pool:payroll`)
      const pools = yield* cli(["emulator", "pool", "list", "--json"], settings)
      expect(JSON.parse(pools.out).map((p: { krn: string }) => p.krn)).toContain(pool.out)
      expect(JSON.parse((yield* cli(["emulator", "key", "list", "--json"], settings)).out)).toHaveLength(1)
      yield* started.stop

      // Without them (an --ephemeral emulator's settings, say): the default data directory holds
      // no database, and none is made there; the message says where it looked and what to do.
      const home = yield* tempDir
      const defaults = path.join(home, "kas-wallet", "emulator", "emulator.db")
      const { KAS_EMULATOR_DATA_DIR: _, ...elsewhere } = settings
      for (
        const args of [["pool", "create", "--name", "payroll"], ["pool", "list"], ["key", "list"], ["key", "create"], ["member", "list"], [
          "member",
          "create"
        ]]
      ) {
        const ran = yield* cli(["emulator", ...args], { ...elsewhere, HOME: home, XDG_DATA_HOME: home })
        expect({ args, code: ran.code }).toEqual({ args, code: 2 })
        expect(ran.err).toBe(
          `kas-wallet: no emulator database at ${defaults}: give the emulator's --data-dir (or --db), or set KAS_EMULATOR_DATA_DIR as the settings of \`kas-wallet emulator env\` do; an --ephemeral emulator keeps its members, keys and pools in its memory, out of another process's reach: start it with --data-dir DIR to manage them from here`
        )
      }
      expect((yield* Effect.promise(() => fs.readdir(home)))).toEqual([])
      // A database that is not the emulator's: the member is not there, and the message names it.
      const other = path.join(home, "other.db")
      expect((yield* cli(["emulator", "member", "create", "--db", other])).code).toBe(0)
      const stranger = yield* cli(["emulator", "pool", "create", "--name", "payroll", "--db", other], elsewhere)
      expect(stranger.code).toBe(2)
      expect(stranger.err).toMatch(new RegExp(`^kas-wallet: no member has the account id ${settings.KAS_ACCOUNT_ID} in the database ${other}: check the account id, or the database: give the emulator's --data-dir`))
    }).pipe(Effect.scoped), 60_000)

  it.live("a database apart from the data directory is in the settings too (KAS_EMULATOR_DB), a secret's file by its absolute path; an --ephemeral emulator's settings unset both; flags beat those variables; a file: URL names a file", () =>
    Effect.gen(function*() {
      const parent = yield* tempDir
      const dir = path.join(parent, "dd")
      const custom = path.join(parent, "custom.db")
      const keyFile = path.join(parent, "key")
      yield* Effect.promise(() => fs.writeFile(keyFile, "the-secret-of-a-file\n", { mode: 0o600 }))
      const rel = (p: string) => path.relative(process.cwd(), p)
      const started = yield* serve([
        "--data-dir",
        rel(dir),
        "--db",
        rel(custom),
        "--access-key-id",
        "KASKFROMFILE000000000001",
        "--secret-access-key-file",
        rel(keyFile)
      ])
      const names = ["KAS_EMULATOR_DB", "KAS_EMULATOR_DATA_DIR", "KAS_SECRET_ACCESS_KEY", "KAS_ACCOUNT_ID", "KAS_CHAIN_ID"]
      const settingsText = started.text.slice(started.text.indexOf("export KAS_WALLET_URL"), started.text.indexOf("listening on"))
      const values = evaluated(settingsText, os.tmpdir(), names)
      expect(values.slice(0, 3)).toEqual([custom, dir, "the-secret-of-a-file"])
      const settings = Object.fromEntries(names.map((n, i) => [n, values[i]!]))
      // Through the settings alone, the console commands work in the emulator's own database.
      const pool = yield* cli(["emulator", "pool", "create", "--name", "payroll"], settings)
      expect(pool.code, pool.err).toBe(0)
      // A file: URL is that file; a flag beats a variable left in the shell.
      const listed = yield* cli(["emulator", "pool", "list", "--json", "--db", `file:${custom}`], { ...settings, KAS_EMULATOR_DB: path.join(parent, "none.db") })
      expect(listed.code, listed.err).toBe(0)
      expect(JSON.parse(listed.out).map((p: { krn: string }) => p.krn)).toContain(pool.out)
      const byDir = yield* cli(["emulator", "member", "list", "--data-dir", dir], { KAS_EMULATOR_DB: custom })
      expect(byDir.code).toBe(2)
      expect(byDir.err).toContain(`no emulator database at ${path.join(dir, "emulator.db")}`)
      yield* started.stop

      // An --ephemeral emulator's settings take both variables out of the shell.
      const ephemeral = yield* serve(["--ephemeral"])
      expect(ephemeral.text).toMatch(/^unset KAS_ACCOUNT_POOL KAS_FEEPAYER_POOL KAS_EMULATOR_DATA_DIR KAS_EMULATOR_DB$/m)
      yield* ephemeral.stop
    }).pipe(Effect.scoped), 60_000)

  it.effect("`emulator env` before any run says what to do", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const env = yield* cli(["emulator", "env", "--data-dir", dir])
      expect(env.code).toBe(2)
      expect(env.err).toBe(`kas-wallet: no emulator settings in ${dir} yet: start it once with \`kas-wallet emulator --data-dir ${dir}\``)
    }).pipe(Effect.scoped))

  it("the emulator's failures are one line: 2 when it cannot start (a database that cannot open, a port in use), 1 for storage", () => {
    const database = failureOf(new EmulatorError({
      reason: "Database",
      message: "cannot open the database /proc/nope/x.db",
      cause: new Error("ENOENT: no such file or directory,\n mkdir '/proc/nope'")
    }))
    expect(database.code).toBe(2)
    expect(database.message).toBe("cannot open the database /proc/nope/x.db (ENOENT: no such file or directory, mkdir '/proc/nope')")
    const listen = failureOf(new EmulatorError({ reason: "Listen", message: "cannot listen on 127.0.0.1:8787" }))
    expect(listen).toMatchObject({ code: 2, message: "cannot listen on 127.0.0.1:8787; is another emulator running? --port 0 picks a free port" })
    expect(failureOf(new SqlError.SqlError({ cause: new Error("disk I/O error"), message: "disk I/O error" })).code).toBe(1)
  })
})
